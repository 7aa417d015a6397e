#!/usr/bin/env bash
# sched-load's hotplug-scx_qmap asserts 6.12.118's dl_server WARN
# (scripts/predicted-splats.txt, scripts/predicted-splat.sh via
# ktap-report.sh): ok only if its run shows that WARN, at deadline.c:265
# with its exact function+offset and the "dl_rq->running_bw > old" line
# before it, and no other splat; not ok if it is missing, another WARN
# shows instead, or another splat beside it; a skip (declared) only if
# the WARN_ON_ONCE fired earlier in the boot. The debug kernels keep the
# declared skip. Synthetic console logs in the shape of real ones.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the earlier in-tree hotplug test here is a stand-in: its exit kind is not the point
export SCX_EXIT_KINDS=off

ctx="[  350.078758] dl_rq->running_bw > old"
warn="[  350.078758] WARNING: CPU: 1 PID: 22 at kernel/sched/deadline.c:265 task_non_contending+0x450/0x540"
timer="[  352.269775] WARNING: CPU: 0 PID: 12247 at kernel/sched/deadline.c:265 inactive_task_timer+0x484/0x550"
trace=("[  350.078758] Call Trace:" "[  350.078758]  dl_server_stop+0x1e/0x30" "[  350.078758] ---[ end trace 0000000000000000 ]---")
# run VARIANT GUEST_DIRECTIVE [EARLIER_LINE] -- LINES_IN_THE_RUN...: a
# check payload whose sched-load ran hotplug-scx_qmap as run 19; the
# guest's own verdict line as it prints it (" # SKIP known splat: ..." when
# its kernel log held the known WARN)
run() {
	local v=$1 dir=$2 early=$3
	shift 4
	printf '%s\n' "init: 6.12.118+, 2 CPUs, payload 'check'" "# variant: $v" "# suites: sched-load" \
		"# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) at start"
	# an earlier test's WARN: inside the in-tree hotplug test, where it is known
	[ -z "$early" ] || printf '%s\n' "# suite: 20-scx-selftests" "1..0" "  runner| TEST: hotplug" "$early" "${trace[@]}" \
		"  runner| ok 1 hotplug # " "  runner| =====  END  ====="
	printf '%s\n' "# suite: sched-load" "1..1" "[  346.851149] sched-load: mark 19"
	printf '%s\n' "$@"
	echo "ok 19 sched:hotplug-scx_qmap$dir"
	printf '%s\n' SCX-RESULTS-BEGIN "# suites: sched-load" "# suite: sched-load" "1..1" "ok 19 sched:hotplug-scx_qmap$dir" SCX-RESULTS-END "SCX-GUEST-EXIT: 0"
}
known=" # SKIP known splat: 6.12.118 dl_server WARN (running_bw underflow) on CPU offline under a sched_ext scheduler, also on the unpatched kernel"
report() { # report LOG: the run's line and the report's last line; LOG.rc
	local rc=0
	"$top/scripts/ktap-report.sh" --qemu-rc 0 "$1" >"$1.ktap" || rc=$?
	echo "$rc" >"$1.rc"
	grep -E 'sched:hotplug-scx_qmap|host:known-splats' "$1.ktap" || true
	tail -n 1 "$1.ktap"
}

run core "$known" "" -- "$ctx" "$warn" "${trace[@]}" >"$tmp/seen.log"
got=$(report "$tmp/seen.log")
check predicted-warn-passes "exit $(cat "$tmp/seen.log.rc"): $got" \
	bash -c '[ "$1" = 0 ] && grep -q "^    ok 1 sched:hotplug-scx_qmap # predicted and seen: " <<<"$2" && ! grep -q "host:known-splats" <<<"$2"' _ "$(cat "$tmp/seen.log.rc")" "$got"
run baseline "$known" "" -- "$ctx" "$timer" "${trace[@]}" >"$tmp/timer.log"
got=$(report "$tmp/timer.log")
check predicted-timer-warn-passes "$got" grep -q "^    ok 1 sched:hotplug-scx_qmap # predicted and seen: " <<<"$got"

# The WARN did not appear (the guest saw a clean run): not ok.
run core "" "" -- >"$tmp/missing.log"
got=$(report "$tmp/missing.log")
check missing-warn-fails "exit $(cat "$tmp/missing.log.rc"): $got" \
	bash -c '[ "$1" != 0 ] && grep -q "^    not ok 1 sched:hotplug-scx_qmap # the predicted splat did not appear" <<<"$2"' _ "$(cat "$tmp/missing.log.rc")" "$got"
# Another WARN instead (the known deadline.c:428, or another offset): not ok.
run core "$known" "" -- "[  350.0] WARNING: CPU: 1 PID: 22 at kernel/sched/deadline.c:428 task_non_contending+0x433/0x540" "${trace[@]}" >"$tmp/other.log"
got=$(report "$tmp/other.log")
check other-warn-fails "$got" grep -q "^    not ok 1 sched:hotplug-scx_qmap # another splat than the predicted one" <<<"$got"
run core "$known" "" -- "$ctx" "${warn/0x450/0x451}" "${trace[@]}" >"$tmp/offset.log"
got=$(report "$tmp/offset.log")
check other-offset-fails "$got" grep -q "^    not ok 1 sched:hotplug-scx_qmap # another splat" <<<"$got"
# The WARN and another splat: not ok.
run core "$known" "" -- "$ctx" "$warn" "${trace[@]}" "[  351.0] BUG: kernel NULL pointer dereference, address: 0000000000000008" >"$tmp/plus.log"
got=$(report "$tmp/plus.log")
check warn-plus-other-splat-fails "$got" grep -q "^    not ok 1 sched:hotplug-scx_qmap # another splat" <<<"$got"
# Fired earlier in the boot (WARN_ON_ONCE): a declared skip saying where.
run core "" "$ctx"$'\n'"$warn" -- >"$tmp/earlier.log"
got=$(report "$tmp/earlier.log")
check fired-earlier-is-declared-skip "exit $(cat "$tmp/earlier.log.rc"): $got" \
	bash -c '[ "$1" = 0 ] && grep -q "^    ok 1 sched:hotplug-scx_qmap # SKIP predicted splat fired earlier in this boot, once only (console line [0-9]*)" <<<"$2"' _ "$(cat "$tmp/earlier.log.rc")" "$got"
# A debug kernel: not predicted, the guest's known-splat skip stays declared.
run core-debug "$known" "" -- "$ctx" "[  350.0] WARNING: CPU: 1 PID: 22 at kernel/sched/deadline.c:265 task_non_contending+0x825/0x890" "${trace[@]}" >"$tmp/debug.log"
got=$(report "$tmp/debug.log")
check debug-keeps-declared-skip "$got" grep -q "^    ok 1 sched:hotplug-scx_qmap # SKIP known splat: 6.12.118 dl_server WARN" <<<"$got"
done_testing
