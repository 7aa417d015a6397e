#!/usr/bin/env bash
# The reproductions' evidence checks, on synthetic files (no boot):
# - repro-cgroup-move.sh's hang evidence is ONE vCPU of the QEMU snapshot
#   (qemu-hang-snapshot.sh's "cpuN: rip ..." and "cpuN: stack ..." lines)
#   holding the spinlock slow path, scx_dispatch_from_dsq and the cgroup
#   move: the frames split across two vCPUs must fail, the same frames on
#   one vCPU must pass.
# - repro-sleepable-timer.sh's report, on an excerpt of the baseline debug
#   kernel's real console: every line it reads, in order, with the frames
#   in each report's own trace; each line or frame removed fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cm=$top/scripts/repro-cgroup-move.sh
st=$top/scripts/repro-sleepable-timer.sh

# The snapshots 6.12.118 gave (scripts/qemu-hang-snapshot.sh, verbatim
# but the System.map path; docs/debug-kernel.md): on the debug kernel cpu0
# holds the cgroup move and cpu1 spins on the same rq lock from
# balance_scx(); on the plain kernel cpu1 holds it and cpu0 spins from
# the tick. Only the vCPU with all three counts.
hdr='hang snapshot: QEMU monitor, 2 vCPU(s), 3 samples 1 s apart, symbols from /cache/build/baseline-debug/System.map'
spin_rip='rip queued_spin_lock_slowpath+0x425 | queued_spin_lock_slowpath+0x425 | queued_spin_lock_slowpath+0x425'
chain='do_raw_spin_lock+0x111 raw_spin_rq_lock_nested+0x29 scx_dispatch_from_dsq+0x12c scx_cgroup_move_task+0xb8 sched_move_task+0x19b'
other_rip='rip queued_spin_lock_slowpath+0xb6 | queued_spin_lock_slowpath+0xb6 | queued_spin_lock_slowpath+0xb6'
other_stack='stack do_raw_spin_lock+0x111 raw_spin_rq_lock_nested+0x29 consume_dispatch_q+0x30b scx_bpf_consume+0x90 balance_scx+0x309 balance_scx+0x0 prev_balance+0xa0'

# snap NAME LINE...: a snapshot file with the header and these vCPU lines
snap() {
	local f=$tmp/$1.txt
	shift
	printf '%s\n' "$hdr" "$@" >"$f"
	echo "$f"
}
passes() { "$cm" --check-snapshot "$1" >"$tmp/out" 2>&1; }
fails() { ! passes "$1"; }

f=$(snap debug-kernel "cpu0: $spin_rip" "cpu0: stack $chain" "cpu1: $other_rip" "cpu1: $other_stack")
check cgroup-move:debug-kernel-snapshot-passes "the debug kernel's snapshot was not accepted: $(cat "$tmp/out" 2>/dev/null)" passes "$f"
check cgroup-move:prints-that-vcpu "the matched lines are not cpu0's: $(cat "$tmp/out")" \
	test "$(cut -d: -f1 "$tmp/out" | sort -u)" = cpu0

f=$(snap plain-kernel \
	"cpu0: rip queued_spin_lock_slowpath+0x18d | queued_spin_lock_slowpath+0x18d | queued_spin_lock_slowpath+0x18d" \
	"cpu0: stack sched_tick+0x4f update_process_times+0x64 tick_handle_periodic+0x7a timer_interrupt+0x12 __handle_irq_event_percpu+0x90 handle_irq_event+0x31 handle_edge_irq+0xb5 __common_interrupt+0x39 common_interrupt+0x3d asm_common_interrupt+0x26" \
	"cpu1: rip queued_spin_lock_slowpath+0x6e | queued_spin_lock_slowpath+0x6e | queued_spin_lock_slowpath+0x6e" \
	"cpu1: stack raw_spin_rq_lock_nested+0x12 scx_dispatch_from_dsq+0xb9 __bpf_prog_enter+0xd scx_cgroup_move_task+0x66 sched_move_task+0xd5 cpu_cgroup_attach+0x38 cgroup_migrate_execute+0x18f")
check cgroup-move:plain-kernel-snapshot-passes "the plain kernel's snapshot was not accepted: $(passes "$f" || cat "$tmp/out")" passes "$f"
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
# An excerpt of the baseline debug kernel's real console (6.12.118 +
# debug.config, docs/debug-kernel.md): the lines the check reads, verbatim
# but for trailing blanks, with some of the unwinder's "?" guesses where
# the kernel printed them; the register dump, most of the "state was
# registered at" trace and the idle task's frames are left out.
good=$tmp/timer-good.log
cat >"$good" <<'EOF'
init: 6.12.118+, 2 CPUs, payload 'repro-sleepable-timer'
# want: program must be sleepable to call sleepable kfunc scx_bpf_create_dsq
REPRO: loaded; attaching it: ops.init() arms a bpf_timer whose callback calls scx_bpf_create_dsq()
[   29.453545]
[   29.453545] ================================
[   29.453545] WARNING: inconsistent lock state
[   29.453545] 6.12.118+ #1 Not tainted
[   29.453545] --------------------------------
[   29.453545] inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage.
[   29.453545] swapper/0/0 [HC0[0]:SC1[1]:HE1:SE0] takes:
[   29.453545] ffffffff823ee920 (fs_reclaim){+.?.}-{0:0}, at: __kmalloc_cache_node_noprof+0x3f/0x2d0
[   29.453545] {SOFTIRQ-ON-W} state was registered at:
[   29.453545]   lock_acquire+0x1a1/0x2b0
[   29.453545]   fs_reclaim_acquire+0x5f/0x90
[   29.453545]
[   29.453545]        CPU0
[   29.453545]        ----
[   29.453545]   lock(fs_reclaim);
[   29.453545]   <Interrupt>
[   29.453545]     lock(fs_reclaim);
[   29.453545]
[   29.453545]  *** DEADLOCK ***
[   29.453545]
[   29.453545] stack backtrace:
[   29.453545] CPU: 0 UID: 0 PID: 0 Comm: swapper/0 Not tainted 6.12.118+ #1
[   29.453545] Sched_ext: async_create_dsq_from_init_timer (enabling)
[   29.453545] Call Trace:
[   29.453545]  <IRQ>
[   29.453545]  dump_stack_lvl+0x75/0xa0
[   29.453545]  print_usage_bug+0x4ba/0x4d0
[   29.453545]  lock_acquire+0x1a1/0x2b0
[   29.453545]  ? __kmalloc_cache_node_noprof+0x3f/0x2d0
[   29.453545]  fs_reclaim_acquire+0x5f/0x90
[   29.453545]  __kmalloc_cache_node_noprof+0x3f/0x2d0
[   29.453545]  ? scx_bpf_create_dsq+0x58/0x860
[   29.453545]  ? 0xffffffffa0000260
[   29.453545]  scx_bpf_create_dsq+0x58/0x860
[   29.453545]  ? lock_release+0x422/0x4b0
[   29.453545]  bpf_prog_ebef42695670a6d8_async_fire+0x23/0x53
[   29.453545]  bpf_timer_cb+0xf5/0x150
[   29.453545]  ? __bpf_strtoull+0x1d0/0x1d0
[   29.453545]  __hrtimer_run_queues+0x2cf/0x4a0
[   29.453545]  hrtimer_run_softirq+0xf7/0x360
[   29.453545]  handle_softirqs+0x1ef/0x510
[   29.453545]  irq_exit_rcu+0x73/0xb0
[   29.453545]  common_interrupt+0xa5/0xc0
[   29.453545]  </IRQ>
[   29.453545]  <TASK>
[   29.453545]  asm_common_interrupt+0x26/0x40
[   29.453545] RIP: 0010:default_idle+0x16/0x20
[   29.453545]  </TASK>
[   29.461546] BUG: sleeping function called from invalid context at include/linux/sched/mm.h:321
[   29.461546] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 0, name: swapper/0
[   29.465546] preempt_count: 101, expected: 0
[   29.465546] RCU nest depth: 0, expected: 0
[   29.465546] INFO: lockdep is turned off.
[   29.469546] Preemption disabled at:
[   29.469546] [<ffffffff8187a516>] schedule_preempt_disabled+0x26/0x30
[   29.469546] CPU: 0 UID: 0 PID: 0 Comm: swapper/0 Not tainted 6.12.118+ #1
[   29.469546] Sched_ext: async_create_dsq_from_init_timer (enabling)
[   29.469546] Call Trace:
[   29.469546]  <IRQ>
[   29.469546]  dump_stack_lvl+0x75/0xa0
[   29.469546]  __might_resched+0x2f3/0x310
[   29.469546]  ? schedule_preempt_disabled+0x26/0x30
[   29.469546]  __kmalloc_cache_node_noprof+0x5f/0x2d0
[   29.469546]  ? scx_bpf_create_dsq+0x58/0x860
[   29.469546]  scx_bpf_create_dsq+0x58/0x860
[   29.469546]  ? lock_release+0x422/0x4b0
[   29.469546]  bpf_prog_ebef42695670a6d8_async_fire+0x23/0x53
[   29.469546]  bpf_timer_cb+0xf5/0x150
[   29.469546]  ? __bpf_strtoull+0x1d0/0x1d0
[   29.469546]  __hrtimer_run_queues+0x2cf/0x4a0
[   29.469546]  hrtimer_run_softirq+0xf7/0x360
[   29.469546]  handle_softirqs+0x1ef/0x510
[   29.469546]  </IRQ>
[   29.469546]  </TASK>
[   29.517549] sched_ext: BPF scheduler "async_create_dsq_from_init_timer" enabled
# async_create_dsq_from_init_timer enabled, 5.1 s under load, the callback made the call 1 times, 1 succeeded
[   34.685872] sched_ext: BPF scheduler "async_create_dsq_from_init_timer" disabled (unregistered from user space)
REPRO: stayed enabled; scx_bpf_create_dsq() from the bpf_timer callback succeeded 1 time(s) (scxk async-run exited 1)
EOF
tpasses() { "$st" --check-log "$1" >"$tmp/out" 2>&1; }
tfails() { ! tpasses "$1"; }
check sleepable-timer:report-passes "the real report was not accepted: $(tpasses "$good" || cat "$tmp/out")" tpasses "$good"
# REPRO: loaded, the usage line, takes:, fs_reclaim, 4 frames, the BUG, the
# same 4 frames, REPRO: stayed enabled
check sleepable-timer:prints-matched-lines "the matched lines: $(cat "$tmp/out")" \
	test "$(grep -c . "$tmp/out")" = 14
# variant SED-EDIT WHAT: the report with one sed edit must fail
variant() {
	sed "$1" "$good" >"$tmp/variant.log"
	check "sleepable-timer:$2-fails" "accepted with $2 ($1)" tfails "$tmp/variant.log"
}
variant '/inconsistent {SOFTIRQ-ON-W}/d' no-lockdep
variant 's/(fs_reclaim){/(\&rq->__lock){/' other-lock
variant 's/HC0\[0\]:SC1\[1\]/HC1[1]:SC0[0]/' not-in-softirq
variant '/BUG: sleeping function/d' no-sleep-bug
variant '/29\.469546\]  bpf_timer_cb+/d' no-timer-cb-in-the-bug
variant '/29\.469546\]  hrtimer_run_softirq+/d' no-softirq-in-the-bug
variant '/29\.469546\]  scx_bpf_create_dsq+/s/ scx_bpf_create_dsq/ ? scx_bpf_create_dsq/' guessed-frame
variant '/29\.453545\]  bpf_timer_cb+/d' no-timer-cb-in-lockdep
variant '/29\.453545\]  bpf_prog_[0-9a-f]*_async_fire+/d' no-callback-prog-in-lockdep
variant '/stayed enabled/d' not-enabled
# the BUG before the lockdep report: not the order 6.12 prints them in
# (might_alloc(): fs_reclaim_acquire() before might_sleep_if())
awk '/29\.453545\]/ { held = held $0 "\n"; next } { print } /29\.469546\]  <\/TASK>/ { printf "%s", held }' "$good" >"$tmp/order.log"
check sleepable-timer:out-of-order-fails "accepted with the lockdep report after the BUG" tfails "$tmp/order.log"
done_testing
