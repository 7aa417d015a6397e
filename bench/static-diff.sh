#!/usr/bin/env bash
# Every function of the sched_ext code (kernel/sched/build_policy.o, which
# includes ext.c) whose instruction count differs between the baseline and
# the patched build, and the total over all of them: the list comes from
# the objects, not from a hand-kept list, so code the series moves or
# inlines elsewhere cannot hide. A static count: every instruction of each
# out-of-line function, taken or not; functions inlined into their callers
# are counted there. Counted in build_policy.o itself, not in vmlinux: a
# name such as put_task_struct() has a local copy in many objects, and
# vmlinux would give one of them at random.
#
# Usage: bench/static-diff.sh BASELINE_TREE PATCHED_TREE  (markdown on stdout)
#   a TREE needs only kernel/sched/build_policy.o
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_TREE PATCHED_TREE"
objdump=llvm-objdump$LLVM_SUFFIX
command -v "$objdump" >/dev/null || die "$objdump not found (apt-get install llvm-19)"
for t in "$1" "$2"; do
	[ -f "$t/kernel/sched/build_policy.o" ] ||
		die "$t: no kernel/sched/build_policy.o (make kernel)"
done

count() { # OBJECT -> "name insns resident_insns" per function (.cold/.isra parts folded in)
	# resident: without the boot-time sections (.init.text, .exit.text),
	# which free_initmem() returns after boot.
	"$objdump" -d --no-show-raw-insn "$1" |
		awk '/^Disassembly of section / { boot = $4 ~ /^\.(init|exit)\./; next }
		     /^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3); sub(/\..*/, "", fn); n[fn] += 0; r[fn] += 0; next }
		     fn != "" && /^ *[0-9a-f]+:[ \t]/ { n[fn]++; if (!boot) r[fn]++ }
		     END { for (f in n) print f, n[f], r[f] }' | sort
}
trap 'rm -f "${TMPDIR:-/tmp}/static-diff.$$"' EXIT
join -a1 -a2 -e0 -o 0,1.2,2.2,1.3,2.3 <(count "$1/kernel/sched/build_policy.o") <(count "$2/kernel/sched/build_policy.o") |
	awk '{ tb += $2; tp += $3; rb += $4; rp += $5; nf++
	       if ($2 != $3) { d++; printf "| `%s` | %d | %d | %+d |\n", $1, $2, $3, $3 - $2 } }
	     END { printf "| **all %d functions of build_policy.o** (%d differ) | **%d** | **%d** | **%+d** |\n", nf, d, tb, tp, tp - tb
		   printf "| **resident: the same without boot-time code (.init.text, .exit.text)** | **%d** | **%d** | **%+d** |\n", rb, rp, rp - rb }' \
	>"${TMPDIR:-/tmp}/static-diff.$$"
echo "| function | baseline insns | patched insns | patched - baseline |"
echo "|---|---:|---:|---:|"
sort -t'|' -k5 -n "${TMPDIR:-/tmp}/static-diff.$$" | grep -v '^| \*\*' || true
grep '^| \*\*' "${TMPDIR:-/tmp}/static-diff.$$"
