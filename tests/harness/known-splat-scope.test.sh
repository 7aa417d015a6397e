#!/usr/bin/env bash
# Every rule of scripts/known-splats.txt names its variants, its tests and
# its cause (lint), and holds only there. The 6.12.118 dl_server WARN rules
# hold only inside a CPU-hotplug test that attaches a scheduler: the in-tree
# runner's "hotplug" and sched-load's sched:hotplug-scx_* runs (not the
# control run hotplug-none); the one raised by the dl inactive timer
# (after:) also in the one test after it. The same WARN line anywhere else,
# or on a kernel variant the rule does not name, is an unknown splat and
# fails the report; the guest's per-run judgement (busybox awk, -v run= -v
# prev=) agrees.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
detect=$top/scripts/detect-splat.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the core kernel's logs, unless a check says otherwise
export SCX_VARIANT=core

# Lint: the real rules are well formed; a rule without variants, with an
# unknown one, without a test or without a cause is named (and never
# applies).
lint() { awk -v mode=lint -f "$top/scripts/known-splats.awk" "$1" /dev/null; }
rc=0 && out=$(lint "$top/scripts/known-splats.txt") || rc=$?
check lint-real-rules "exit $rc: $out" test "$rc" = 0 -a -z "$out"
printf '%s\n' ';^hotplug$;WARNING: a;why' 'core,fast;^hotplug$;WARNING: b;why' 'core;;WARNING: c;why' \
	'core;^hotplug$;WARNING: d;' 'core;^hotplug$;WARNING: e' 'core-debug;^x$;block:BUG: f;trace;' >"$tmp/bad-rules"
rc=0 && out=$(lint "$tmp/bad-rules") || rc=$?
check lint-names-bad-rules "exit $rc, want 1 and 6 lines: $out" \
	bash -c '[ "$1" = 1 ] && [ "$(wc -l <<<"$2")" = 6 ] && grep -q "no variant" <<<"$2" && grep -q "unknown variant .fast." <<<"$2" && grep -q "no test" <<<"$2" && [ "$(grep -c "no cause" <<<"$2")" = 3 ]' _ "$rc" "$out"

warn="[  349.128844] WARNING: CPU: 0 PID: 8588 at kernel/sched/deadline.c:265 inactive_task_timer+0x484/0x550"
# raised synchronously by the offline (sched_cpu_dying): hotplug: only
sync="[  349.128844] WARNING: CPU: 1 PID: 22 at kernel/sched/deadline.c:428 task_non_contending+0x433/0x540"
trace=("[  349.128844] Call Trace:" "[  349.128844] ---[ end trace 0000000000000000 ]---")
# sched_load_run FILE N NAME [LINE...]: a console log with one sched-load
# run N (its kernel mark, the lines, its result), then the guest's results
# block repeating it, and the exit marker
sched_load_run() {
	local f=$1 n=$2 name=$3
	shift 3
	{
		echo "# suite: sched-load"
		echo "[  346.284705] sched-load: mark $n"
		printf '%s\n' "$@"
		echo "ok $n sched:$name"
		printf '%s\n' SCX-RESULTS-BEGIN "# suite: sched-load" "1..1" "ok $n sched:$name" SCX-RESULTS-END "SCX-GUEST-EXIT: 0"
	} >"$f"
}
known_count() { "$detect" --known "$1" | grep -c 'deadline\.c:265' || true; }

# Inside sched-load's hotplug run: known, the report passes.
sched_load_run "$tmp/in.log" 19 hotplug-scx_qmap "$warn" "${trace[@]}"
rc=0 && "$detect" "$tmp/in.log" >/dev/null || rc=$?
check sched-load-hotplug-known "detect-splat exit $rc, want 1 (clean); --known: $(known_count "$tmp/in.log")" \
	test "$rc" = 1 -a "$(known_count "$tmp/in.log")" = 1
# (whether the run shows the WARN it is predicted to, with its exact
# offset, is predicted-splat.test.sh's: no prediction here)
rc=0 && PREDICTED_SPLATS=/dev/null "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/in.log" >"$tmp/in.ktap" || rc=$?
check sched-load-hotplug-report-passes "ktap-report exit $rc: $(grep -E 'not ok|known-splats' "$tmp/in.ktap")" \
	bash -c '[ "$1" = 0 ] && grep -q "^ *ok .* host:known-splats # SKIP" "$2"' _ "$rc" "$tmp/in.ktap"

# The same WARN in another run: an unknown kernel WARNING, the report fails.
sched_load_run "$tmp/out.log" 5 scx_simple "$warn" "${trace[@]}"
got=$("$detect" "$tmp/out.log" || true)
check outside-hotplug-is-a-splat "detect-splat: '$(cut -f3,5 <<<"$got")', want a kernel WARNING while running sched:scx_simple" \
	bash -c '[ "$(cut -f3 <<<"$1")" = "kernel WARNING" ] && [[ $(cut -f5 <<<"$1") == *sched:scx_simple ]]' _ "$got"
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/out.log" >"$tmp/out.ktap" || rc=$?
check outside-hotplug-report-fails "ktap-report exit $rc: $(grep -E 'not ok|known-splats' "$tmp/out.ktap")" \
	bash -c '[ "$1" != 0 ] && grep -q "^ *not ok .* host:console-free-of-splats # kernel WARNING" "$2" && ! grep -q "host:known-splats" "$2"' _ "$rc" "$tmp/out.ktap"

# The control run hotplug-none starts no scheduler: the WARN there is not
# the known one (its cause is an offline under a sched_ext scheduler).
sched_load_run "$tmp/none.log" 18 hotplug-none "$warn" "${trace[@]}"
sed -i "s/sched:hotplug-none/control:hotplug-none/" "$tmp/none.log"
rc=0 && "$detect" "$tmp/none.log" >/dev/null || rc=$?
check hotplug-control-run-is-a-splat "detect-splat exit $rc, want 0 (a splat)" test "$rc" = 0
# On a kernel variant the rule does not name (the bench-only limit kernel):
# unknown. With no variant at all: unknown.
rc=0 && SCX_VARIANT=limit "$detect" "$tmp/in.log" >/dev/null || rc=$?
check other-variant-is-a-splat "detect-splat exit $rc on limit, want 0 (a splat)" test "$rc" = 0
rc=0 && SCX_VARIANT="" "$detect" "$tmp/in.log" >/dev/null || rc=$?
check no-variant-is-a-splat "detect-splat exit $rc with no variant, want 0 (a splat)" test "$rc" = 0

# No test running at all (e.g. at boot): unknown.
printf '%s\n' "$warn" "${trace[@]}" "SCX-GUEST-EXIT: 0" >"$tmp/boot.log"
rc=0 && "$detect" "$tmp/boot.log" >/dev/null || rc=$?
check outside-any-test-is-a-splat "detect-splat exit $rc, want 0 (a splat)" test "$rc" = 0

# A hotplug run's scope ends at its result: the next run's synchronous WARN
# is unknown, and the guest's results block, repeating the hotplug result,
# does not reopen it. The timer's WARN is known in the next run, not in the
# one after it.
next_runs() { # LINE_IN_RUN_20 LINE_IN_RUN_21
	echo "[  346.0] sched-load: mark 19"
	echo "ok 19 sched:hotplug-scx_qmap"
	echo "[  367.7] sched-load: mark 20"
	[ -z "$1" ] || printf '%s\n' "$1" "${trace[@]}"
	echo "ok 20 sched:scx_simple"
	echo "[  387.7] sched-load: mark 21"
	[ -z "$2" ] || printf '%s\n' "$2" "${trace[@]}"
	echo "ok 21 sched:scx_qmap"
	printf '%s\n' SCX-RESULTS-BEGIN "ok 19 sched:hotplug-scx_qmap" "ok 20 sched:scx_simple" \
		"ok 21 sched:scx_qmap" SCX-RESULTS-END
}
next_runs "$sync" "" >"$tmp/next.log"
rc=0 && "$detect" "$tmp/next.log" >/dev/null || rc=$?
check scope-ends-at-result "detect-splat exit $rc, want 0 (a splat in run 20)" test "$rc" = 0
next_runs "$warn" "" >"$tmp/next-timer.log"
rc=0 && "$detect" "$tmp/next-timer.log" >/dev/null || rc=$?
check timer-known-in-next-run "detect-splat exit $rc, want 1 (clean)" test "$rc" = 1
next_runs "" "$warn" >"$tmp/next2-timer.log"
got=$("$detect" "$tmp/next2-timer.log" || true)
check timer-unknown-two-runs-on "detect-splat: '$(cut -f3,5 <<<"$got")', want a kernel WARNING while running sched:scx_qmap" \
	bash -c '[ "$(cut -f3 <<<"$1")" = "kernel WARNING" ] && [[ $(cut -f5 <<<"$1") == *sched:scx_qmap ]]' _ "$got"

# The in-tree runner's hotplug test: known between its TEST: and END lines;
# in the test after it, only the timer's WARN; in the one after that, neither.
intree() { # LINES_IN_HOTPLUG... -- LINES_IN_NEXT... -- LINES_IN_THIRD...
	echo "# suite: 20-scx-selftests"
	echo "  runner| ===== START ====="
	echo "  runner| TEST: hotplug"
	while [ "$1" != -- ]; do echo "$1" && shift; done
	shift
	printf '%s\n' "  runner| ok 11 hotplug # " "  runner| =====  END  =====" \
		"  runner| ===== START =====" "  runner| TEST: init_enable_count"
	while [ "$1" != -- ]; do echo "$1" && shift; done
	shift
	printf '%s\n' "  runner| ok 12 init_enable_count # " "  runner| =====  END  =====" \
		"  runner| ===== START =====" "  runner| TEST: maximal"
	printf '%s\n' "$@"
	printf '%s\n' "  runner| ok 13 maximal # " "  runner| =====  END  =====" \
		"ok 11 scx-selftest:hotplug" "ok 12 scx-selftest:init_enable_count" "ok 13 scx-selftest:maximal"
}
intree "$warn" "${trace[@]}" -- -- >"$tmp/intree.log"
rc=0 && "$detect" "$tmp/intree.log" >/dev/null || rc=$?
check in-tree-hotplug-known "detect-splat exit $rc, want 1 (clean)" test "$rc" = 1
intree -- "$warn" "${trace[@]}" -- >"$tmp/intree-next.log"
rc=0 && "$detect" "$tmp/intree-next.log" >/dev/null || rc=$?
check in-tree-next-test-timer-known "detect-splat exit $rc, want 1 (clean)" test "$rc" = 1
intree -- "$sync" "${trace[@]}" -- >"$tmp/intree-next-sync.log"
got=$("$detect" "$tmp/intree-next-sync.log" || true)
check in-tree-next-test-sync-is-a-splat "detect-splat: '$(cut -f3,5 <<<"$got")'" \
	bash -c '[ "$(cut -f3 <<<"$1")" = "kernel WARNING" ] && [[ $(cut -f5 <<<"$1") == *init_enable_count ]]' _ "$got"
intree -- -- "$warn" "${trace[@]}" >"$tmp/intree-third.log"
got=$("$detect" "$tmp/intree-third.log" || true)
check in-tree-third-test-timer-is-a-splat "detect-splat: '$(cut -f3,5 <<<"$got")'" \
	bash -c '[ "$(cut -f3 <<<"$1")" = "kernel WARNING" ] && [[ $(cut -f5 <<<"$1") == *maximal ]]' _ "$got"
# A timer WARN in a test that follows no hotplug test: unknown.
{
	printf '%s\n' "# suite: 20-scx-selftests" "  runner| ===== START =====" "  runner| TEST: maximal" "$warn" "${trace[@]}"
	printf '%s\n' "  runner| ok 1 maximal # " "  runner| =====  END  =====" "ok 1 scx-selftest:maximal"
} >"$tmp/intree-nohp.log"
rc=0 && "$detect" "$tmp/intree-nohp.log" >/dev/null || rc=$?
check in-tree-no-hotplug-timer-is-a-splat "detect-splat exit $rc, want 0 (a splat)" test "$rc" = 0

# The guest judges one run's kernel log, told the run's name (run-guest.sh).
printf '%s\n' "[  346.0] sched-load: mark 19" "$warn" "${trace[@]}" >"$tmp/klog"
guest() { "$@" -v mode=known -v variant="${GV:-core}" -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/klog" | wc -l; }
printf '%s\n' "[  346.0] sched-load: mark 20" "$sync" "${trace[@]}" >"$tmp/klog-sync"
guest_sync() { "$@" -v mode=known -v variant="${GV:-core}" -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/klog-sync" | wc -l; }
for a in awk busybox; do
	if [ "$a" = busybox ] && ! command -v busybox >/dev/null; then
		skip "guest-$a" "no busybox on the host (scripts/install-deps.sh installs busybox-static)"
		continue
	fi
	aw=(awk) && [ "$a" = awk ] || aw=(busybox awk)
	in=$(guest "${aw[@]}" -v run=sched:hotplug-scx_qmap)
	debug=$(GV=core-debug guest "${aw[@]}" -v run=sched:hotplug-scx_qmap)
	limit=$(GV=limit guest "${aw[@]}" -v run=sched:hotplug-scx_qmap)
	check "guest-$a-variant" "known lines on core-debug: $debug (want 1), on limit: $limit (want 0)" \
		test "$debug" = 1 -a "$limit" = 0
	out=$(guest "${aw[@]}" -v run=sched:scx_simple)
	check "guest-$a" "known lines with run=sched:hotplug-scx_qmap: $in (want 1), with run=sched:scx_simple: $out (want 0)" \
		test "$in" = 1 -a "$out" = 0
	next=$(guest "${aw[@]}" -v run=sched:scx_simple -v prev=sched:hotplug-scx_qmap)
	next2=$(guest "${aw[@]}" -v run=sched:scx_simple -v prev=sched:scx_qmap)
	sync=$(guest_sync "${aw[@]}" -v run=sched:scx_simple -v prev=sched:hotplug-scx_qmap)
	check "guest-$a-after-hotplug" "timer WARN after a hotplug run: $next (want 1), after another run: $next2 (want 0); offline WARN after a hotplug run: $sync (want 0)" \
		test "$next" = 1 -a "$next2" = 0 -a "$sync" = 0
done
done_testing
