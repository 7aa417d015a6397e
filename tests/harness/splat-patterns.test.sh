#!/usr/bin/env bash
# scripts/detect-splat.sh on synthetic console logs (host only, ~2 s):
# every pattern of scripts/splat-patterns.txt fires on the kernel's own
# wording and is classified as its kind; boot banners and userspace
# look-alikes do not fire; known and expected splats are set aside; the
# report names the test that was running and prints the whole block.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
detect=$top/scripts/detect-splat.sh
patterns=$top/scripts/splat-patterns.txt
# Known and expected splats hold only on the variants they name: these logs
# are from the core kernel unless a check says otherwise.
export SCX_VARIANT=core
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Lines a healthy debug kernel and the suites print (must not fire).
cat >"$tmp/noise" <<'X'
[    0.000000] kasan: KernelAddressSanitizer initialized
[    0.000000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.000000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    0.000000] ... MAX_LOCKDEP_CHAINS:      131072
[    0.010000] rcu: Preemptible hierarchical RCU implementation.
[    0.010000] rcu: 	RCU CPU stall warnings timeout set to 21 (rcu_cpu_stall_timeout).
[    0.020000] Running RCU synchronous self tests
[    0.500000] watchdog: Delayed init of the lockup detector failed: -19
init: 6.12.118+, 2 CPUs, payload 'check'
# suite: 20-scx-selftests
[    1.679944] sched_ext: BPF scheduler "create_dsq" enabled
[    1.876060] sched_ext: BPF scheduler "enq_last_no_enq_fails" disabled (runtime error)
[    1.876574] sched_ext: enq_last_no_enq_fails: SCX_OPS_ENQ_LAST requires ops.enqueue() to be implemented
[    1.900000] sched_ext: BPF scheduler "simple" disabled (unregistered from user space)
  runner| [SCX_BUG] create_dsq.c:45 (this is userspace output)
  runner| ERR: runnable task stall test expected a stall
  runner| ok 1 create_dsq # 
# sched:scx_qmap-t ... EXIT: runnable task stall (qmap[88] failed to run for 5.1s)
  scx_simple| WARNING: userspace said WARNING: CPU: 1 PID: 2 without a kernel prefix? no, it has one
X
# The last line above is a userspace line that does contain kernel-like
# wording; drop it from the noise (it would rightly fire) and keep it as
# evidence that patterns are wording-based, not origin-based.
sed -i '$d' "$tmp/noise"

log_with() { # log_with FILE LINE...: noise, the lines, a result line
	{
		cat "$tmp/noise"
		printf '%s\n' "$@"
		echo "ok 2 some-test"
	} >"$1"
}

# KIND|a console line in the kernel's own wording (from 6.12 sources).
while IFS='|' read -r want line; do
	[ -n "$want" ] || continue
	log_with "$tmp/log" "$line"
	got=$("$detect" "$tmp/log" || true)
	kind=$(cut -f3 <<<"$got")
	# shellcheck disable=SC2001 # a regex (the timestamp), not a plain substring
	# (the name in the characters of T= patterns: make list-tests prints it,
	# and T= selects it by itself)
	short=$(sed 's/^\[[ 0-9.]*\] //' <<<"$line" | cut -c1-50 | LC_ALL=C tr -c 'A-Za-z0-9_.:@+/=\n-' '_')
	echo "$short" >>"$tmp/names"
	if [ "$kind" = "$want" ]; then
		ok "fires:$short"
		echo "$want" >>"$tmp/covered"
	else
		not_ok "fires:$short" "want kind '$want', got '${kind:-no splat}' for: $line"
	fi
done <<'X'
lockdep report|[   12.000001] WARNING: possible circular locking dependency detected
lockdep report|[   12.000001] WARNING: possible recursive locking detected
lockdep report|[   12.000001] WARNING: inconsistent lock state
lockdep report|[   12.000001] WARNING: suspicious RCU usage
lockdep report|[   12.000001] WARNING: possible irq lock inversion dependency detected
lockdep report|[   12.000001] WARNING: bad unlock balance detected!
lockdep report|[   12.000001] WARNING: held lock freed!
lockdep report|[   12.000001] WARNING: lock held when returning to user space!
lockdep report|[   12.000001] WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected
lockdep report|[   12.000001] WARNING: Nested lock was not taken
lockdep report|[   12.000001] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:585
lockdep report|[   12.000001] BUG: scheduling while atomic: runner/123/0x00000002
lockdep report|[   12.000001] BUG: using smp_processor_id() in preemptible [00000000] code: scx_simple/77
lockdep report|[   12.000001] BUG: using __this_cpu_read() in preemptible [00000000] code: runner/9
lockdep report|[   12.000001] BUG: MAX_LOCKDEP_CHAINS too low!
lockdep report|[   12.000001] BUG: MAX_STACK_TRACE_ENTRIES too low!
lockdep report|[   12.000001] DEBUG_LOCKS_WARN_ON(1)
KASAN/KFENCE/UBSAN report|[   12.000001] BUG: KASAN: slab-use-after-free in scx_ops_disable_workfn+0x1a/0x2b0
KASAN/KFENCE/UBSAN report|[   12.000001] BUG: KASAN: global-out-of-bounds in bpf_check+0x10/0x20
KASAN/KFENCE/UBSAN report|[   12.000001] BUG: KFENCE: out-of-bounds read in foo+0x1/0x2
KASAN/KFENCE/UBSAN report|[   12.000001] UBSAN: array-index-out-of-bounds in kernel/sched/ext.c:123:4
kernel Oops|[   12.000001] Oops: general protection fault, probably for non-canonical address 0xdffffc0000000000: 0000 [#1] PREEMPT SMP KASAN
kernel Oops|[   12.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008
kernel Oops|[   12.000001] BUG: unable to handle page fault for address: ffffc90000000000
hung task or lockup|[   12.000001] INFO: task kworker/u4:1:45 blocked for more than 61 seconds.
hung task or lockup|[   12.000001] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [runner:88]
hung task or lockup|[   12.000001] BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 31s!
kernel BUG|[   12.000001] kernel BUG at kernel/sched/ext.c:1234!
kernel BUG|[   12.000001] BUG: Bad page state in process runner  pfn:01234
RCU stall|[   12.000001] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
RCU stall|[   12.000001] rcu: INFO: rcu_preempt self-detected stall on CPU
RCU stall|[   12.000001] rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 1-... } 21 jiffies s: 123 root: 0x2/.
RCU stall|[   12.000001] INFO: rcu_tasks_trace detected stalls on tasks:
sched_ext stall|[   12.000001] sched_ext: BPF scheduler "qmap" disabled (runnable task stall)
sched_ext stall|[   12.000001] sched_ext: qmap: kworker/1:1[45] failed to run for 6.024s
sched_ext stall|[   12.000001] sched_ext: simple: watchdog failed to check in for 5.004s
list or refcount corruption|[   12.000001] list_add corruption. prev->next should be next (ffff888003c1e0d8), but was 0000000000000000. (prev=ffff888003c1e0d8).
list or refcount corruption|[   12.000001] list_del corruption, ffff888003c1e0d8->next is LIST_POISON1 (dead000000000100)
list or refcount corruption|[   12.000001] refcount_t: underflow; use-after-free.
list or refcount corruption|[   12.000001] refcount_t: addition on 0; use-after-free.
kernel WARNING|[   12.000001] WARNING: CPU: 1 PID: 88 at kernel/sched/ext.c:1234 scx_ops_enable+0x1/0x2
kernel WARNING|[   12.000001] WARNING: at kernel/sched/core.c:1 foo+0x0/0x1
kernel panic|[   12.000001] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000
X
# Those names are T= patterns selecting themselves (make list-tests prints
# them, initramfs/t-glob.sh matches them)
# shellcheck source=../../initramfs/t-glob.sh
. "$top/initramfs/t-glob.sh"
bad=$(while read -r n; do
	t_glob_check "fires:$n" 2>/dev/null && t_glob_match "splat-patterns:fires:$n" "splat-patterns:fires:$n" || echo "fires:$n"
done <"$tmp/names")
check fires-names-select-themselves "no T= selecting just itself: $bad" test -z "$bad"

# Every kind in splat-patterns.txt was seen firing above: a pattern line
# without a sample is untested.
while IFS=';' read -r code kind _; do
	case "$code" in '' | '#'*) continue ;; esac
	check "covered:$(tr ' /' '__' <<<"$kind")" "no sample above fires '$kind': add one" \
		grep -qxF "$kind" "$tmp/covered"
done <"$patterns"

# The detector is what makes these pass: without the lockdep line, the
# lockdep sample is no longer a lockdep report (guards against a test that
# cannot fail).
grep -v '^74;' "$patterns" >"$tmp/patterns-no-lockdep"
log_with "$tmp/log" "[   12.000001] WARNING: possible circular locking dependency detected"
got=$(SPLAT_PATTERNS=$tmp/patterns-no-lockdep "$detect" "$tmp/log" | cut -f3 || true)
check "meta:removing-a-pattern-is-noticed" "lockdep sample still classified as lockdep without its pattern" \
	test "$got" != "lockdep report"

# A clean log (boot banners, normal sched_ext lines, userspace look-alikes).
log_with "$tmp/log"
rc=0 && out=$("$detect" "$tmp/log") || rc=$?
check "clean-log-is-clean" "exit $rc, want 1; found: $out" test "$rc" = 1

rc=0 && "$detect" "$tmp/no-such-log" 2>/dev/null || rc=$?
check "missing-log-is-an-error" "exit $rc, want 2" test "$rc" = 2

# The earliest splat wins; on one line, the specific pattern wins.
log_with "$tmp/log" "[    5.0] WARNING: CPU: 0 PID: 1 at kernel/a.c:1 a+0x0/0x1" \
	"[    6.0] BUG: KASAN: use-after-free in b+0x0/0x1"
check "earliest-splat-wins" "got: $("$detect" "$tmp/log" | cut -f3)" \
	test "$("$detect" "$tmp/log" | cut -f3)" = "kernel WARNING"

# Known splats (known-splats.txt) do not fail a run, and are listed. This
# one is known inside a hotplug run only (known-splat-scope.test.sh).
known="[   30.0] WARNING: CPU: 1 PID: 0 at kernel/sched/deadline.c:428 task_non_contending+0x1/0x2"
log_with "$tmp/log" "  runner| TEST: hotplug" "$known" "  runner| =====  END  ====="
rc=0 && "$detect" "$tmp/log" >/dev/null || rc=$?
check "known-splat-ignored" "exit $rc, want 1" test "$rc" = 1
check "known-splat-listed" "--known lists nothing" \
	test "$("$detect" --known "$tmp/log" | wc -l)" = 1

# The 1 s selftest watchdog being late on a slow guest is known on the debug
# kernels, in the selftest whose scheduler it ejected; a real task stall in
# the same scheduler is not, nor the same line on a non-debug kernel (where
# it was once known too: a full kernel under load) or in another test.
late_in() { # late_in FILE TEST LINE...: the lines inside in-tree test TEST
	local f=$1 t=$2
	shift 2
	{
		cat "$tmp/noise"
		echo "  runner| TEST: $t"
		printf '%s\n' "$@"
		printf '%s\n' "  runner| ok 9 $t # " "  runner| =====  END  ====="
	} >"$f"
}
late=('[  525.0] sched_ext: BPF scheduler "select_cpu_dispatch" disabled (runnable task stall)'
	'[  525.0] sched_ext: select_cpu_dispatch: watchdog failed to check in for 1.004s')
late_in "$tmp/log" select_cpu_dispatch "${late[@]}"
rc=0 && SCX_VARIANT=core-debug "$detect" "$tmp/log" >/dev/null || rc=$?
check "known-late-selftest-watchdog" "exit $rc, want 1" test "$rc" = 1
rc=0 && SCX_VARIANT=full "$detect" "$tmp/log" >/dev/null || rc=$?
check "late-selftest-watchdog-non-debug-fails" "exit $rc on the full kernel, want 0 (a splat)" test "$rc" = 0
late_in "$tmp/log" maximal "${late[@]}"
rc=0 && SCX_VARIANT=core-debug "$detect" "$tmp/log" >/dev/null || rc=$?
check "late-selftest-watchdog-other-test-fails" "exit $rc in maximal, want 0 (a splat)" test "$rc" = 0
late_in "$tmp/log" select_cpu_dispatch '[  525.0] sched_ext: BPF scheduler "select_cpu_dispatch" disabled (runnable task stall)' \
	'[  525.0] sched_ext: select_cpu_dispatch: runner[77] failed to run for 1.500s'
check "real-selftest-stall-fires" "not reported as a sched_ext stall" \
	test "$(SCX_VARIANT=core-debug "$detect" "$tmp/log" | cut -f3)" = "sched_ext stall"
# No variant (a log without the guest's "# variant:" line): nothing is known.
late_in "$tmp/log" select_cpu_dispatch "${late[@]}"
rc=0 && SCX_VARIANT="" "$detect" "$tmp/log" >/dev/null || rc=$?
check "no-variant-nothing-known" "exit $rc without a variant, want 0 (a splat)" test "$rc" = 0
printf '# variant: baseline-debug\n' >>"$tmp/log"
rc=0 && SCX_VARIANT="" "$detect" "$tmp/log" >/dev/null || rc=$?
check "variant-from-the-log" "exit $rc with '# variant: baseline-debug' in the log, want 1" test "$rc" = 1

# A test that stalls a task on purpose (expected-splats.txt): set aside
# during that test only.
stall=('[   40.0] sched_ext: BPF scheduler "qmap" disabled (runnable task stall)'
	'[   40.0] sched_ext: qmap: kworker/1:1[45] failed to run for 6.024s')
{
	cat "$tmp/noise"
	echo "# suite: 40-sched-load"
	echo "ok 1 sched:scx_qmap-e"
	printf '%s\n' "${stall[@]}"
	echo "ok 2 sched:scx_qmap-t"
} >"$tmp/log"
rc=0 && out=$("$detect" "$tmp/log") || rc=$?
check "expected-stall-ignored" "exit $rc, want 1: $out" test "$rc" = 1
check "expected-stall-listed" "--expected did not list 2 lines" \
	test "$("$detect" --expected "$tmp/log" | wc -l)" = 2
rc=0 && SCX_VARIANT=limit "$detect" "$tmp/log" >/dev/null || rc=$?
check "expected-stall-other-variant-fails" "exit $rc on a variant the rule does not name, want 0" test "$rc" = 0
sed -i 's/sched:scx_qmap-t$/sched:scx_simple/' "$tmp/log"
got=$("$detect" "$tmp/log" || true)
check "unexpected-stall-fails" "got '$got'" \
	test "$(cut -f2,3,5 <<<"$got")" = $'79\tsched_ext stall\t40-sched-load / sched:scx_simple'

# The report: which test was running, and the whole block (lockdep's
# header line above the WARNING, up to the end of the report).
{
	cat "$tmp/noise"
	echo "  runner| ok 2 dsp_local_on # "
	cat <<'X'
[   50.000000] ======================================================
[   50.000001] WARNING: possible circular locking dependency detected
[   50.000002] 6.12.118+ #1 Not tainted
[   50.000003] ------------------------------------------------------
[   50.000004] runner/77 is trying to acquire lock:
[   50.000005] ffffffff8300 (scx_fork_rwsem){++++}-{0:0}, at: scx_ops_enable+0x10/0x20
[   50.000006] 
[   50.000007] but task is already holding lock:
[   50.000008] ffffffff8400 (cpu_hotplug_lock){++++}-{0:0}, at: scx_ops_enable+0x8/0x20
X
	echo "  runner| ok 3 exit # "
	echo "# suite: selftests"
} >"$tmp/log"
"$detect" --report "$tmp/log" >"$tmp/report" || true
check "report-names-running-test" "$(cat "$tmp/report")" \
	grep -qx 'test running: 20-scx-selftests / exit' "$tmp/report"
check "report-names-last-finished" "$(cat "$tmp/report")" \
	grep -qx 'last test finished before it: dsp_local_on' "$tmp/report"
check "report-block-has-header-and-chain" "$(cat "$tmp/report")" \
	bash -c 'grep -q "======" "$1" && grep -q "but task is already holding lock" "$1"' _ "$tmp/report"
check "report-block-stops-at-next-suite" "$(cat "$tmp/report")" \
	bash -c '! grep -q "# suite: selftests" "$1"' _ "$tmp/report"

# A WARNING block ends at "---[ end trace".
{
	cat "$tmp/noise"
	cat <<'X'
[   60.000000] ------------[ cut here ]------------
[   60.000001] WARNING: CPU: 0 PID: 9 at kernel/sched/ext.c:99 foo+0x0/0x1
[   60.000002] Call Trace:
[   60.000003]  <TASK>
[   60.000004]  foo+0x0/0x1
[   60.000005]  </TASK>
[   60.000006] ---[ end trace 0000000000000000 ]---
[   60.000007] after the block
X
	echo "ok 9 the-test"
} >"$tmp/log"
"$detect" --report "$tmp/log" >"$tmp/report" || true
check "report-block-warning" "$(cat "$tmp/report")" \
	bash -c 'grep -q "cut here" "$1" && grep -q "end trace" "$1" && ! grep -q "after the block" "$1" && grep -q "test running: .*the-test" "$1"' _ "$tmp/report"

# A lockdep report printed from inside a known WARN (caused: rule): known
# with its cause, on the host and with the guest's busybox awk alike; the
# same report without the WARN's printk in its trace, or ahead of another
# WARN, is a lockdep failure.
lockdep_in_warn() { # WARN_LINE [TRACE_FUNCTION]
	cat "$tmp/noise"
	cat <<X
[  980.000000] sched-load: mark 19
[  984.269413] ------------[ cut here ]------------
[  984.269413] ======================================================
[  984.269413] WARNING: possible circular locking dependency detected
[  984.269413] migration/1/24 is trying to acquire lock:
[  984.269413] ffffffff822a3880 (console_owner){....}-{0:0}, at: console_flush_all+0x8a/0x580
[  984.269413] but task is already holding lock:
[  984.269413] ffff88806bf38598 (&rq->__lock){-.-.}-{2:2}, at: sched_cpu_dying+0x6d/0x2f0
[  984.269413] stack backtrace:
[  984.269413] Call Trace:
[  984.269413]  _printk+0x6c/0x80
[  984.269413]  ${2:-__warn_printk}+0x132/0x180
[  984.269413]  task_non_contending+0x825/0x890
[  984.269413] dl_rq->running_bw > old
$1
[  984.269413] Call Trace:
[  984.269413] ---[ end trace 0000000000000000 ]---
X
	echo "ok 19 sched:hotplug-scx_qmap"
}
dlwarn="[  984.269413] WARNING: CPU: 1 PID: 24 at kernel/sched/deadline.c:265 task_non_contending+0x825/0x890"
otherwarn="[  984.269413] WARNING: CPU: 1 PID: 24 at kernel/sched/deadline.c:999 task_non_contending+0x825/0x890"
# (debug kernels only: lockdep)
export SCX_VARIANT=core-debug
lockdep_in_warn "$dlwarn" >"$tmp/log"
rc=0 && out=$("$detect" "$tmp/log") || rc=$?
check "caused-lockdep-known" "exit $rc, want 1 (clean): $out" test "$rc" = 1
check "caused-lockdep-listed" "--known: $("$detect" --known "$tmp/log" | cut -f1,3)" \
	test "$("$detect" --known "$tmp/log" | grep -c 'possible circular locking\|deadline.c:265')" = 2
if command -v busybox >/dev/null; then
	guest=$(busybox awk -v mode=known -v variant="$SCX_VARIANT" -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/log")
	check "caused-lockdep-busybox-awk" "busybox awk: $guest" \
		test "$guest" = "$("$detect" --known "$tmp/log")"
	guest=$(busybox awk -v mode=blank -v block=1 -v variant="$SCX_VARIANT" -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/log" |
		grep -cE 'WARNING:|Call Trace:' || true)
	check "caused-lockdep-busybox-block" "busybox awk left $guest splat lines of the known reports" test "$guest" = 0
else
	skip "caused-lockdep-busybox-awk" "no busybox on the host (scripts/install-deps.sh installs busybox-static)"
	skip "caused-lockdep-busybox-block" "no busybox on the host"
fi
lockdep_in_warn "$otherwarn" >"$tmp/log"
check "caused-lockdep-needs-known-cause" "got: $("$detect" "$tmp/log" | cut -f3,6)" \
	test "$("$detect" "$tmp/log" | cut -f3)" = "lockdep report"
lockdep_in_warn "$dlwarn" _printk_deferred >"$tmp/log"
check "caused-lockdep-needs-warn-printk" "got: $("$detect" "$tmp/log" | cut -f3,6)" \
	test "$("$detect" "$tmp/log" | cut -f3)" = "lockdep report"

# A splat known by its own backtrace (block: rule): the BPF core's
# smp_processor_id() BUG from the map-free kworker is known; the same BUG
# line with another caller fails as a kernel BUG.
preempt_bug() { # CALLER
	cat "$tmp/noise"
	cat <<X
[ 1011.629150] BUG: using smp_processor_id() in preemptible [00000000] code: kworker/u9:36/5345
[ 1011.630594] caller is $1+0x8d/0xc0
[ 1011.631957] Call Trace:
[ 1011.631957]  <TASK>
[ 1011.631957]  check_preemption_disabled+0xdd/0xe0
[ 1011.631957]  $1+0x8d/0xc0
[ 1011.631957]  bpf_rb_root_free+0x189/0x270
[ 1011.631957]  array_map_free+0x1a8/0x260
[ 1011.631957]  bpf_map_free_deferred+0x77/0x90
[ 1011.631957]  </TASK>
[ 1011.700000] BUG: using smp_processor_id() in preemptible [00000000] code: after/1
X
	echo "ok 16 sched:scx_flatcg-f"
}
preempt_bug bpf_mem_free_rcu >"$tmp/log"
got=$("$detect" "$tmp/log" || true)
check "block-known-by-backtrace" "got: $got" \
	bash -c '[ "$(cut -f1 <<<"$1")" = "$2" ]' _ "$got" "$(($(wc -l <"$tmp/noise") + 11))"
if command -v busybox >/dev/null; then
	left=$(busybox awk -v mode=blank -v block=1 -v variant="$SCX_VARIANT" -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/log" |
		grep -E 'BUG:|Call Trace:' || true)
	check "block-busybox-elides-its-report" "left: $left" test "$left" = "$(tail -2 "$tmp/log" | head -1)"
else
	skip "block-busybox-elides-its-report" "no busybox on the host"
fi
preempt_bug some_other_func >"$tmp/log"
check "block-needs-its-backtrace" "got: $("$detect" "$tmp/log" | cut -f1,3,6)" \
	test "$("$detect" "$tmp/log" | cut -f1)" = "$(($(wc -l <"$tmp/noise") + 1))"
preempt_bug bpf_mem_free_rcu >"$tmp/log"
check "block-debug-only" "on the core (non-debug) kernel: $(SCX_VARIANT=core "$detect" "$tmp/log" | cut -f1,3)" \
	test "$(SCX_VARIANT=core "$detect" "$tmp/log" | cut -f1)" = "$(($(wc -l <"$tmp/noise") + 1))"

done_testing
