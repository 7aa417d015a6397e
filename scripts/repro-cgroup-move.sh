#!/usr/bin/env bash
# The 6.12 bug behind the series' first patch, reproduced: a scheduler whose
# ops.cgroup_move() calls scx_bpf_dispatch_from_dsq(), attached while a task
# moves between cgroups (initramfs/payloads/repro-cgroup-move.sh).
#
#   --expect hang    the unpatched kernel: it loads and attaches, and the
#                    guest goes silent on the first move; the QEMU monitor
#                    must find a vCPU in the spinlock slow path, under
#                    scx_dispatch_from_dsq() (or the kernel itself reports a
#                    lockup/stall/recursive locking naming those)
#   --expect refuse  the series kernels: refused at load, the verifier
#                    naming the kfunc
#
# Prints one KTAP result line; exit 0 when the kernel did what was expected.
# Usage: repro-cgroup-move.sh --expect hang|refuse --kernel BZIMAGE
#        --initrd INITRAMFS --log LOG [--timeout SECS] [--append STR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

expect="" kernel="" initrd="" logf="" timeout=120 append=""
while [ $# -gt 0 ]; do
	case "$1" in
	--expect) expect=${2:-} && shift ;;
	--kernel) kernel=${2:-} && shift ;;
	--initrd) initrd=${2:-} && shift ;;
	--log) logf=${2:-} && shift ;;
	--timeout) timeout=${2:-} && shift ;;
	--append) append=${2:-} && shift ;;
	*) die "unknown option '$1' (see the header of $0)" ;;
	esac
	shift
done
case "$expect" in hang | refuse) ;; *) die "--expect wants hang|refuse, got '$expect'" ;; esac
[ -n "$logf" ] || die "--log is required"

name="repro-cgroup-move:$expect"
rc=0
"$here/../run-qemu.sh" --kernel "$kernel" --initrd "$initrd" --log "$logf" \
	--timeout "$timeout" --append "scx.payload=repro-cgroup-move $append" \
	>/dev/null 2>&1 || rc=$?
snap=${logf%.log}.hang-snapshot.txt
log=$(tr -d '\r' <"$logf")

# not_ok REASON: the evidence, then the verdict
not_ok() {
	echo "not ok 1 $name # $1"
	grep -E 'REPRO:|run-qemu:|not allowed|sched_ext:' <<<"$log" | tail -n 20 | sed 's/^/# /'
	[ ! -f "$snap" ] || sed 's/^/# snapshot: /' "$snap"
	exit 1
}

echo "KTAP version 1"
echo "1..1"
if [ "$expect" = refuse ]; then
	# the core prints the verifier's plain line, the full variant adds
	# "from sched_ext_ops.cgroup_move": the prefix is what both say
	want="calling kernel function scx_bpf_dispatch_from_dsq is not allowed"
	[ "$rc" = 0 ] || not_ok "guest status $rc, expected 0 (refused at load)"
	grep -qF "REPRO: refused at load" <<<"$log" || not_ok "no 'REPRO: refused at load'"
	grep -qF "$want" <<<"$log" || not_ok "verifier line missing: $want"
	echo "ok 1 $name # $want"
	exit 0
fi

grep -qF "REPRO: loaded" <<<"$log" || not_ok "the program did not load: nothing to reproduce"
! grep -qF "REPRO: no hang" <<<"$log" || not_ok "the cgroup moves ran without a hang"
case "$rc" in
78)	# silent: where the vCPUs are
	[ -f "$snap" ] || not_ok "timed out, but no vCPU snapshot"
	spin=$(grep -E 'spin_lock|raw_spin_rq_lock' "$snap" | head -n 1 || true)
	[ -n "$spin" ] || not_ok "timed out, but no vCPU in a spinlock"
	grep -qE 'scx_dispatch_from_dsq|scx_bpf_dispatch_from_dsq|scx_cgroup_move_task|sched_move_task' "$snap" ||
		not_ok "a vCPU spins, but not under the cgroup move"
	echo "ok 1 $name # guest hung on the first cgroup move; ${spin#*: }"
	;;
74 | 76 | 77)	# the kernel said so itself; its backtrace may be cut short
	# (lockdep's "stack backtrace:" never finishes printing on the CPU it
	# reports), so the vCPU snapshot taken when run-qemu stopped the guest
	# counts as well for where it was
	where=$log
	[ ! -f "$snap" ] || where="$where"$'\n'"$(cat "$snap")"
	grep -qE 'scx_dispatch_from_dsq|scx_cgroup_move_task|sched_move_task' <<<"$where" ||
		not_ok "a lockup/stall report (exit $rc) that does not name the cgroup move"
	echo "ok 1 $name # $(grep -m1 -E 'recursive locking|soft lockup|hard LOCKUP|rcu.*stall' <<<"$log")$(
		[ ! -f "$snap" ] || grep -m1 -E 'stack .*(scx_dispatch_from_dsq|sched_move_task)' "$snap" | sed 's/^/; /')"
	;;
*)	not_ok "guest status $rc, expected a hang (78) or a lockup report" ;;
esac
