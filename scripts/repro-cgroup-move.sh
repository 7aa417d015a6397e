#!/usr/bin/env bash
# The 6.12 bug behind the series' first patch, reproduced: a scheduler whose
# ops.cgroup_move() calls scx_bpf_dispatch_from_dsq(), attached while a task
# moves between cgroups (initramfs/payloads/repro-cgroup-move.sh).
#
#   --expect hang    the unpatched kernel: it loads and attaches, and the
#                    guest goes silent on the first move (the debug kernel
#                    may first print lockdep's recursive locking, or a
#                    lockup/stall report); the QEMU monitor's snapshot
#                    (scripts/qemu-hang-snapshot.sh, taken when run-qemu.sh
#                    times out) must hold ONE vCPU whose own samples, its
#                    "rip" and "stack" lines together, show the spinlock
#                    slow path (queued_spin_lock_slowpath or
#                    raw_spin_rq_lock*), the dispatch
#                    (scx_dispatch_from_dsq, or scx_bpf_dispatch_from_dsq
#                    if it was inlined there) and the cgroup move
#                    (sched_move_task or scx_cgroup_move_task)
#   --expect refuse  the series kernels: refused at load, the verifier
#                    naming the kfunc
#
# Prints one KTAP result line; exit 0 when the kernel did what was expected.
# Usage: repro-cgroup-move.sh --expect hang|refuse --kernel BZIMAGE
#        --initrd INITRAMFS --log LOG [--timeout SECS] [--append STR]
#    or: repro-cgroup-move.sh --check-snapshot SNAPSHOT
#        only the vCPU check on a snapshot already taken (no boot): that
#        vCPU's lines, exit 0; or why not, exit 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/ktap-write.sh"

# hung_vcpu SNAPSHOT: the first vCPU whose own lines ("cpuN: rip ..." and
# "cpuN: stack ...") name all three: the spinlock slow path, the dispatch
# and the cgroup move. Prints its lines; exit 1, saying what was closest,
# if no single vCPU does (frames split across vCPUs do not count).
hung_vcpu() {
	awk '
		function has(t, ere) { return t ~ ("[ :](" ere ")\\+0x") }
		/^cpu[0-9]+: (rip|stack) / {
			c = $1; sub(/:$/, "", c)
			if (c in txt) lines[c] = lines[c] "\n" $0
			else { order[++n] = c; lines[c] = $0 }
			txt[c] = txt[c] " " $0
		}
		END {
			for (i = 1; i <= n; i++) {
				c = order[i]; t = txt[c]
				s = has(t, "[a-z_]*queued_spin_lock_slowpath|raw_spin_rq_lock[a-z_]*")
				d = has(t, "scx_dispatch_from_dsq|scx_bpf_dispatch_from_dsq")
				m = has(t, "sched_move_task|scx_cgroup_move_task")
				if (s && d && m) { print lines[c]; exit 0 }
				got = got (got == "" ? "" : "; ") c ":" (s ? " spinlock" : "") (d ? " dispatch" : "") (m ? " cgroup-move" : "")
			}
			print "no vCPU has the spinlock slow path, scx_dispatch_from_dsq and the cgroup move in its own samples (" (n ? got : "no vCPU lines") ")"
			exit 1
		}' "$1"
}

if [ "${1:-}" = --check-snapshot ]; then
	{ [ $# -eq 2 ] && [ -r "$2" ]; } || die "usage: $0 --check-snapshot SNAPSHOT"
	hung_vcpu "$2"
	exit
fi

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

# not_ok REASON: the verdict, then the evidence
not_ok() {
	kt_not_ok "$name" "$1"
	kt_diag "$(grep -E 'REPRO:|run-qemu:|not allowed|sched_ext:' <<<"$log" | tail -n 20)"
	[ ! -f "$snap" ] || kt_diag "$(sed 's/^/snapshot: /' "$snap")"
	exit 1
}

kt_header
kt_plan 1
if [ "$expect" = refuse ]; then
	# the core prints the verifier's plain line, the full variant adds
	# "from sched_ext_ops.cgroup_move": the prefix is what both say
	want="calling kernel function scx_bpf_dispatch_from_dsq is not allowed"
	[ "$rc" = 0 ] || not_ok "guest status $rc, expected 0 (refused at load)"
	grep -qF "REPRO: refused at load" <<<"$log" || not_ok "no 'REPRO: refused at load'"
	grep -qF "$want" <<<"$log" || not_ok "verifier line missing: $want"
	kt_ok "$name" "$want"
	exit 0
fi

grep -qF "REPRO: loaded" <<<"$log" || not_ok "the program did not load: nothing to reproduce"
! grep -qF "REPRO: no hang" <<<"$log" || not_ok "the cgroup moves ran without a hang"
# The guest hangs on the first move: run-qemu.sh times out (78), or the
# kernel reports it first (the debug kernel: lockdep's recursive locking
# (74), or a stall/lockup (76, 77)) and then hangs. Either way the
# evidence is one vCPU of the snapshot taken before QEMU was stopped
# (lockdep's own backtrace never finishes printing on the CPU it reports).
case "$rc" in
74 | 76 | 77 | 78) ;;
*) not_ok "guest status $rc, expected a hang (78) or a lockdep/stall/lockup report (74, 76, 77)" ;;
esac
[ -f "$snap" ] || not_ok "guest status $rc, but no vCPU snapshot (run-qemu.sh takes one when it times out)"
vcpu=$(hung_vcpu "$snap") || not_ok "$vcpu"
said=""
[ "$rc" = 78 ] || said="$(grep -m1 -E 'recursive locking|soft lockup|hard LOCKUP|rcu.*stall' <<<"$log" | sed 's/^\[ *[0-9.]*\] //'); "
kt_ok "$name" "guest hung on the first cgroup move; ${said}$(awk 'NR > 1 { printf "; " } { printf "%s", $0 }' <<<"$vcpu")"
