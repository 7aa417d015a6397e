#!/usr/bin/env bash
# Where the saving comes from, statically: the instructions of the op-call
# paths and kfuncs the series changes, in the baseline and the patched
# vmlinux (same config, same compiler), per function.
#
# For each function: its instruction count in each kernel (llvm-objdump -d;
# "inlined" if the kernel has no out-of-line copy), the difference, and in
# the baseline the instructions that address current->scx.kf_mask (operand
# "OFF(%reg)" with OFF = offsetof(task_struct, scx.kf_mask) from pahole) or
# the scx_kf_allow() WARN_ONCE flag: the bookkeeping the series removes.
# A static count: every instruction of the function, taken or not.
#
# Usage: bench/static-count.sh BASELINE_VMLINUX PATCHED_VMLINUX  (markdown on stdout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_VMLINUX PATCHED_VMLINUX"
base=$1 patched=$2
objdump=llvm-objdump$LLVM_SUFFIX
command -v "$objdump" >/dev/null || die "$objdump not found (apt-get install llvm-19)"
command -v pahole >/dev/null || die "pahole not found (apt-get install dwarves)"

# The functions, with the sched_ext_ops member (or kfunc) each one serves.
# Data, not code: add a row to look at another function.
functions=(
	"select_task_rq_scx	ops.select_cpu"
	"enqueue_task_scx	ops.runnable, ops.enqueue (via do_enqueue_task)"
	"do_enqueue_task	ops.enqueue"
	"dequeue_task_scx	ops.dequeue, ops.quiescent"
	"ops_dequeue	ops.dequeue"
	"balance_scx	ops.cpu_acquire, ops.dispatch (balance_one inlined)"
	"set_next_task_scx	ops.running"
	"put_prev_task_scx	ops.stopping, ops.cpu_release (switch_class)"
	"task_tick_scx	ops.tick"
	"yield_task_scx	ops.yield"
	"scx_bpf_dispatch	kfunc (enqueue, select_cpu, dispatch)"
	"scx_bpf_dispatch_vtime	kfunc"
	"scx_dispatch_commit	scx_bpf_dispatch*() helper"
	"scx_bpf_consume	kfunc (dispatch)"
	"scx_bpf_dispatch_nr_slots	kfunc (dispatch)"
	"scx_bpf_dispatch_cancel	kfunc (dispatch)"
	"scx_bpf_select_cpu_dfl	kfunc (select_cpu)"
	"scx_bpf_reenqueue_local	kfunc (cpu_release)"
	"scx_kfunc_context_filter	verifier-time filter (new)"
)

# offsetof(struct task_struct, scx.kf_mask) in the baseline, e.g. 0x2f8.
# (awk reads to the end: an early exit would kill pahole with SIGPIPE.)
member_offset() {
	pahole -C "$2" "$1" | awk -v re="$3" '
		!done && $0 ~ re { for (i = 1; i <= NF; i++) if ($i == "/*") { print $(i + 1); done = 1; break } }'
}
off_scx=$(member_offset "$base" task_struct '[ \t]scx;')
off_mask=$(member_offset "$base" sched_ext_entity '[ \t]kf_mask;')
{ [ -n "$off_scx" ] && [ -n "$off_mask" ]; } || die "cannot find task_struct.scx.kf_mask in $base (pahole)"
kf_off=$(printf '0x%x' $((off_scx + off_mask)))

names=$(printf '%s\n' "${functions[@]}" | cut -f1 | paste -sd, -)

# count VMLINUX: "name insns kfrefs" for every listed function it has.
# (A function missing from one kernel is expected: say nothing about it.)
count() {
	"$objdump" -d --no-show-raw-insn --disassemble-symbols="$names" "$1" \
		2> >(grep -v 'failed to disassemble missing symbol' >&2) |
		awk -v off="$kf_off" '
		/^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3); n[fn] = 0; k[fn] = 0; next }
		fn != "" && /^ *[0-9a-f]+:[ \t]/ {
			n[fn]++
			if (index($0, off "(%") || index($0, "scx_kf_allow.__already_done")) k[fn]++
		}
		END { for (f in n) print f, n[f], k[f] }'
}
count "$base" >"${TMPDIR:-/tmp}/static-base.$$"
count "$patched" >"${TMPDIR:-/tmp}/static-patched.$$"
trap 'rm -f "${TMPDIR:-/tmp}/static-base.$$" "${TMPDIR:-/tmp}/static-patched.$$"' EXIT

echo "| function | serves | baseline insns | patched insns | patched - baseline | kf_mask insns in baseline |"
echo "|---|---|---:|---:|---:|---:|"
tb=0 tp=0 tk=0
for row in "${functions[@]}"; do
	fn=${row%%$'\t'*} what=${row#*$'\t'}
	b=$(awk -v f="$fn" '$1 == f { print $2 }' "${TMPDIR:-/tmp}/static-base.$$")
	k=$(awk -v f="$fn" '$1 == f { print $3 }' "${TMPDIR:-/tmp}/static-base.$$")
	p=$(awk -v f="$fn" '$1 == f { print $2 }' "${TMPDIR:-/tmp}/static-patched.$$")
	if [ -n "$b" ] && [ -n "$p" ]; then
		d=$((p - b))
		tb=$((tb + b)) tp=$((tp + p)) tk=$((tk + k))
		[ "$d" -gt 0 ] && d="+$d"
	else
		d="n/a"
	fi
	echo "| \`$fn\` | $what | ${b:-absent} | ${p:-absent} | $d | ${k:--} |"
done
d=$((tp - tb))
echo "| **total** (functions in both) | | **$tb** | **$tp** | **$d** | **$tk** |"
echo
echo "kf_mask is at task_struct+$kf_off in the baseline (scx at $off_scx, kf_mask at +$off_mask);"
echo "\"absent\": no out-of-line copy (inlined into its callers, or not in that kernel)."
