#!/usr/bin/env bash
# The 6.12.118 dl_server WARN rules of scripts/known-splats.txt (hotplug:)
# hold only inside a CPU-hotplug test: the in-tree runner's "hotplug" and
# sched-load's sched:hotplug-* runs. The same WARN line anywhere else is an
# unknown splat and fails the report; the guest's per-run judgement
# (busybox awk, -v run=) agrees.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
detect=$top/scripts/detect-splat.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

warn="[  349.128844] WARNING: CPU: 0 PID: 8588 at kernel/sched/deadline.c:265 inactive_task_timer+0x484/0x550"
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
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/in.log" >"$tmp/in.ktap" || rc=$?
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

# No test running at all (e.g. at boot): unknown.
printf '%s\n' "$warn" "${trace[@]}" "SCX-GUEST-EXIT: 0" >"$tmp/boot.log"
rc=0 && "$detect" "$tmp/boot.log" >/dev/null || rc=$?
check outside-any-test-is-a-splat "detect-splat exit $rc, want 0 (a splat)" test "$rc" = 0

# A hotplug run's scope ends at its result: the next run's WARN is unknown,
# and the guest's results block, repeating the hotplug result, does not
# reopen it.
{
	echo "[  346.0] sched-load: mark 19"
	echo "ok 19 sched:hotplug-scx_qmap"
	echo "[  367.7] sched-load: mark 20"
	printf '%s\n' "$warn" "${trace[@]}"
	echo "ok 20 sched:scx_simple"
	printf '%s\n' SCX-RESULTS-BEGIN "ok 19 sched:hotplug-scx_qmap" "ok 20 sched:scx_simple" SCX-RESULTS-END
} >"$tmp/next.log"
rc=0 && "$detect" "$tmp/next.log" >/dev/null || rc=$?
check scope-ends-at-result "detect-splat exit $rc, want 0 (a splat in run 20)" test "$rc" = 0

# The in-tree runner's hotplug test: known between its TEST: and END lines,
# not in the test after it.
intree() { # LINES_IN_HOTPLUG... -- LINES_IN_NEXT...
	echo "# suite: 20-scx-selftests"
	echo "  runner| ===== START ====="
	echo "  runner| TEST: hotplug"
	while [ "$1" != -- ]; do echo "$1" && shift; done
	shift
	printf '%s\n' "  runner| ok 11 hotplug # " "  runner| =====  END  =====" \
		"  runner| ===== START =====" "  runner| TEST: init_enable_count"
	printf '%s\n' "$@"
	printf '%s\n' "  runner| ok 12 init_enable_count # " "  runner| =====  END  =====" \
		"ok 11 scx-selftest:hotplug" "ok 12 scx-selftest:init_enable_count"
}
intree "$warn" "${trace[@]}" -- >"$tmp/intree.log"
rc=0 && "$detect" "$tmp/intree.log" >/dev/null || rc=$?
check in-tree-hotplug-known "detect-splat exit $rc, want 1 (clean)" test "$rc" = 1
intree -- "$warn" "${trace[@]}" >"$tmp/intree-next.log"
got=$("$detect" "$tmp/intree-next.log" || true)
check in-tree-next-test-is-a-splat "detect-splat: '$(cut -f3,5 <<<"$got")'" \
	bash -c '[ "$(cut -f3 <<<"$1")" = "kernel WARNING" ] && [[ $(cut -f5 <<<"$1") == *init_enable_count ]]' _ "$got"

# The guest judges one run's kernel log, told the run's name (run-guest.sh).
printf '%s\n' "[  346.0] sched-load: mark 19" "$warn" "${trace[@]}" >"$tmp/klog"
guest() { "$@" -v mode=known -f "$top/scripts/known-splats.awk" "$top/scripts/known-splats.txt" "$tmp/klog" | wc -l; }
for a in awk busybox; do
	if [ "$a" = busybox ] && ! command -v busybox >/dev/null; then
		skip "guest-$a" "no busybox on the host (scripts/install-deps.sh installs busybox-static)"
		continue
	fi
	aw=(awk) && [ "$a" = awk ] || aw=(busybox awk)
	in=$(guest "${aw[@]}" -v run=sched:hotplug-scx_qmap)
	out=$(guest "${aw[@]}" -v run=sched:scx_simple)
	check "guest-$a" "known lines with run=sched:hotplug-scx_qmap: $in (want 1), with run=sched:scx_simple: $out (want 0)" \
		test "$in" = 1 -a "$out" = 0
done
done_testing
