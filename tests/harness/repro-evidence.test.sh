#!/usr/bin/env bash
# The reproductions' evidence checks, on synthetic files (no boot):
# - repro-cgroup-move.sh's hang evidence is ONE vCPU of the QEMU snapshot
#   (qemu-hang-snapshot.sh's "cpuN: rip ..." and "cpuN: stack ..." lines)
#   holding the spinlock slow path, scx_dispatch_from_dsq and the cgroup
#   move: the frames split across two vCPUs must fail, the same frames on
#   one vCPU must pass.
# - repro-sleepable-timer.sh's report: every predicted line, in order, with
#   the trace functions in the report's own trace.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cm=$top/scripts/repro-cgroup-move.sh
st=$top/scripts/repro-sleepable-timer.sh

hdr='hang snapshot: QEMU monitor, 2 vCPU(s), 3 samples 1 s apart, symbols from /cache/build/baseline-debug/System.map'
idle_rip='rip default_idle+0xb (halted) | default_idle+0xb (halted) | default_idle+0xb (halted)'
idle_stack='stack default_idle_call+0x3c do_idle+0x1f0 cpu_startup_entry+0x2a start_secondary+0x122'
spin_rip='rip native_queued_spin_lock_slowpath+0x6b | native_queued_spin_lock_slowpath+0x6d | native_queued_spin_lock_slowpath+0x6b'
# as the debug kernel's snapshot names them (docs/debug-kernel.md)
chain='do_raw_spin_lock+0x9c raw_spin_rq_lock_nested+0x2b scx_dispatch_from_dsq+0x1f4 scx_bpf_dispatch_from_dsq+0x33 bpf_prog_3f0c_cgroup_move+0x4c scx_cgroup_move_task+0x9a sched_move_task+0x1a7 cpu_cgroup_attach+0x3a'

# snap NAME LINE...: a snapshot file with the header and these vCPU lines
snap() {
	local f=$tmp/$1.txt
	shift
	printf '%s\n' "$hdr" "$@" >"$f"
	echo "$f"
}
passes() { "$cm" --check-snapshot "$1" >"$tmp/out" 2>&1; }
fails() { ! passes "$1"; }

f=$(snap one-vcpu "cpu0: $spin_rip" "cpu0: stack $chain" "cpu1: $idle_rip" "cpu1: $idle_stack")
check cgroup-move:one-vcpu-passes "all three on cpu0 were not accepted: $(cat "$tmp/out" 2>/dev/null)" passes "$f"
check cgroup-move:prints-that-vcpu "the matched lines are not cpu0's: $(cat "$tmp/out")" \
	test "$(cut -d: -f1 "$tmp/out" | sort -u)" = cpu0

f=$(snap second-vcpu "cpu0: $idle_rip" "cpu0: $idle_stack" "cpu1: $spin_rip" "cpu1: stack $chain")
check cgroup-move:on-cpu1-passes "all three on cpu1 were not accepted: $(passes "$f" || cat "$tmp/out")" passes "$f"
check cgroup-move:prints-cpu1 "the matched lines are not cpu1's: $(cat "$tmp/out")" \
	test "$(cut -d: -f1 "$tmp/out" | sort -u)" = cpu1

# the spinlock on cpu0, the dispatch and the cgroup move on cpu1: every
# frame is in the file, so the old two greps passed it
f=$(snap split "cpu0: $spin_rip" "cpu0: stack do_raw_spin_lock+0x9c raw_spin_rq_lock_nested+0x2b try_to_wake_up+0x2f1" \
	"cpu1: rip smp_call_function_many_cond+0x40 | smp_call_function_many_cond+0x40 | smp_call_function_many_cond+0x40" \
	"cpu1: stack scx_dispatch_from_dsq+0x1f4 scx_cgroup_move_task+0x9a sched_move_task+0x1a7")
# shellcheck disable=SC2016 # $1 is the inner bash's
check cgroup-move:split-has-every-frame "the planted split snapshot lacks a frame" \
	bash -c 'grep -qE "queued_spin_lock_slowpath|raw_spin_rq_lock" "$1" && grep -q scx_dispatch_from_dsq "$1" && grep -q sched_move_task "$1"' _ "$f"
check cgroup-move:split-fails "frames split across cpu0 and cpu1 were accepted: $(cat "$tmp/out")" fails "$f"
check cgroup-move:split-says-why "no reason given for the split: $(cat "$tmp/out")" \
	grep -q 'cpu0: spinlock; cpu1: dispatch cgroup-move' "$tmp/out"

# one vCPU short of one frame each
f=$(snap no-move "cpu0: $spin_rip" "cpu0: stack do_raw_spin_lock+0x9c raw_spin_rq_lock_nested+0x2b scx_dispatch_from_dsq+0x1f4 balance_one+0x80")
check cgroup-move:no-cgroup-move-fails "a vCPU without the cgroup move was accepted" fails "$f"
f=$(snap no-spin "cpu0: rip scx_dispatch_from_dsq+0x10 | scx_dispatch_from_dsq+0x10 | scx_dispatch_from_dsq+0x10" "cpu0: stack scx_cgroup_move_task+0x9a sched_move_task+0x1a7")
check cgroup-move:no-spinlock-fails "a vCPU without the spinlock slow path was accepted" fails "$f"
# a name inside another one is not the frame
f=$(snap substring "cpu0: $spin_rip" "cpu0: stack my_scx_dispatch_from_dsq_wrapper+0x1 not_sched_move_task+0x2")
check cgroup-move:substring-fails "a frame's name inside another symbol was accepted" fails "$f"
printf '%s\n' 'hang snapshot: the QEMU monitor did not take a command' >"$tmp/none.txt"
check cgroup-move:no-answer-fails "a snapshot without vCPU lines was accepted" fails "$tmp/none.txt"

# --- repro-sleepable-timer.sh --check-log
good=$tmp/timer-good.log
cat >"$good" <<'EOF'
[    3.100000] init: 6.12.118, 2 CPUs, payload 'repro-sleepable-timer'
# want: program must be sleepable to call sleepable kfunc scx_bpf_create_dsq
REPRO: loaded; attaching it: ops.init() arms a bpf_timer whose callback calls scx_bpf_create_dsq()
[    5.010001] ================================
[    5.010002] WARNING: inconsistent lock state
[    5.010005] inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.
[    5.010006] swapper/0/0 [HC0[0]:SC1[1]:HE1:SE0] takes:
[    5.010007] ffffffff83a5c1a0 (fs_reclaim){+.?.}-{0:0}, at: __kmalloc_cache_node_noprof+0x5a/0x3c0
[    5.010008] stack backtrace:
[    5.010010] Call Trace:
[    5.010011]  <IRQ>
[    5.010013]  fs_reclaim_acquire+0x9d/0xd0
[    5.010014]  ? bpf_timer_cb+0x1/0x150
[    5.010014]  scx_bpf_create_dsq+0x3a/0x150
[    5.010016]  bpf_timer_cb+0x8a/0x150
[    5.010018]  hrtimer_run_softirq+0x100/0x1a0
[    5.010019]  </IRQ>
[    5.020000] BUG: sleeping function called from invalid context at include/linux/sched/mm.h:337
[    5.020001] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 0, name: swapper/0
[    5.020001] INFO: lockdep is turned off.
[    5.020002] Call Trace:
[    5.020003]  <IRQ>
[    5.020004]  __might_resched+0x2a0/0x3c0
[    5.020005]  scx_bpf_create_dsq+0x3a/0x150
[    5.020006]  bpf_timer_cb+0x8a/0x150
[    5.020007]  hrtimer_run_softirq+0x100/0x1a0
[    5.020008]  </IRQ>
# async_create_dsq_from_init_timer enabled, 5.0 s under load, the callback made the call 1 times, 1 succeeded
REPRO: stayed enabled; scx_bpf_create_dsq() from the bpf_timer callback succeeded 1 time(s) (scxk async-run exited 1)
EOF
tpasses() { "$st" --check-log "$1" >"$tmp/out" 2>&1; }
tfails() { ! tpasses "$1"; }
check sleepable-timer:report-passes "the planted report was not accepted: $(tpasses "$good" || cat "$tmp/out")" tpasses "$good"
check sleepable-timer:prints-matched-lines "the matched lines: $(cat "$tmp/out")" \
	test "$(grep -c . "$tmp/out")" = 10
# variant LINE-EDIT WHAT: the planted report with one sed edit must fail
variant() {
	sed "$1" "$good" >"$tmp/variant.log"
	check "sleepable-timer:$2-fails" "accepted with $2 ($1)" tfails "$tmp/variant.log"
}
variant '/inconsistent {SOFTIRQ-ON-W}/d' no-lockdep
variant 's/(fs_reclaim)/(\&rq->__lock)/' other-lock
variant '/BUG: sleeping function/d' no-sleep-bug
variant '/5.020006/d' no-timer-cb-in-the-bug
variant '/5.020005/s/ scx_bpf_create_dsq/ ? scx_bpf_create_dsq/' guessed-frame
variant '/5.010016/d' no-timer-cb-in-lockdep
variant '/stayed enabled/d' not-enabled
# the BUG before the lockdep report: not the predicted order
awk '/5.010001/,/5.010019/ { held = held $0 "\n"; next } { print } /5.020008/ { printf "%s", held }' "$good" >"$tmp/order.log"
check sleepable-timer:out-of-order-fails "accepted with the lockdep report after the BUG" tfails "$tmp/order.log"
done_testing
