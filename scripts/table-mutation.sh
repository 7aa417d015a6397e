#!/usr/bin/env bash
# Does the in-tree matrix test catch a wrong table? In a built tree with the
# whole series applied, give ops.enqueue the cpu_release group in
# scx_op_kfunc_groups[] (one cell: enqueue x scx_bpf_reenqueue_local, now
# allowed where the rules say refused), rebuild, boot with only the
# kfunc_context_matrix selftest (scripts/intree-boot.sh) and require it to
# fail with exactly one MISMATCH line, naming that cell. ext.c is restored
# (git checkout) whatever happens; the tree's build is then stale until the
# next build of it.
#
# Output: one KTAP result line ("ok 1 table-mutation-caught" or "not ok 1
# ..." with diagnostics) and "# " lines; exit 0 only if caught.
# Usage: table-mutation.sh TREE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/ktap-write.sh"
. "$here/kbuild.sh"

[ $# -eq 1 ] || die "usage: $0 TREE"
dir=$1
ext=$dir/kernel/sched/ext.c
[ -f "$ext" ] || die "$dir: no kernel/sched/ext.c"
name=table-mutation-caught
fail() { kt_not_ok "$name"; kt_diag "$@"; exit 1; }

row='^(\t\[SCX_OP_IDX\(enqueue\)\]\t+= SCX_KFG_ENQ_DSP),$'
want='^ *runner\| MISMATCH enqueue x scx_bpf_reenqueue_local: expected refused, got allowed'
[ "$(grep -cP "$row" "$ext")" = 1 ] ||
	fail "no single ops.enqueue row matching /$row/ in $ext to mutate (is the series applied?)"
trap 'git -C "$dir" checkout -q -- kernel/sched/ext.c' EXIT
sed -i -E "s/$row/\1 | SCX_KFG_CPU_RELEASE,/" "$ext"
grep -qF 'SCX_KFG_ENQ_DSP | SCX_KFG_CPU_RELEASE,' "$ext" || fail "the mutation did not apply to $ext"

start=$(date +%s)
run_logged "$dir/.scx-build-mutation.log" kmake "$dir" bzImage ||
	fail "the mutated kernel did not build: $(grep -m5 -E 'error' "$dir/.scx-build-mutation.log")"
rep=$("$here/intree-boot.sh" "$dir" mutation scx.t=scx-selftest:kfunc_context_matrix || true)
con=$dir/.scx-boot-console-mutation.log
mism=$(tr -d '\r' <"$con" | grep -E '^ *runner\| MISMATCH ' || true)
echo "# mutated table (ops.enqueue + SCX_KFG_CPU_RELEASE), $(($(date +%s) - start)) s to build and boot:"
# shellcheck disable=SC2001 # a prefix for each line of a multi-line value
sed 's/^ *runner| /#   /' <<<"${mism:-no MISMATCH line}"
if grep -qE '^ +not ok [0-9]+ scx-selftest:kfunc_context_matrix( |$)' <<<"$rep" &&
	[ "$(grep -c . <<<"$mism")" = 1 ] && grep -qE "$want" <<<"$mism"; then
	kt_ok "$name"
else
	fail "want kfunc_context_matrix to fail with one MISMATCH line, for enqueue x scx_bpf_reenqueue_local; got:" \
		"$(grep -E 'kfunc_context_matrix|passed,' <<<"$rep" || echo 'no kfunc_context_matrix result')" "console: $con"
fi
