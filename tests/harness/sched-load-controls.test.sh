#!/usr/bin/env bash
# sched-load's runs that start no scheduler (runs.list kind none, or
# command "-": loadgen alone, the hotplug cycle without a scheduler) are
# controls, reported as control:NAME and counted apart from the scheduler
# runs: run_prefix (lib/results.sh) on the real runs.list, and the
# report's "N scheduler runs + M controls" and summarize.sh's rows on a
# synthetic log. Host only.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sl=$top/selftests/sched-load

# run_prefix on every run of the real list (quick mode)
# shellcheck source=../../selftests/sched-load/lib/results.sh
. "$sl/lib/results.sh"
ctl="" sch=0
while IFS='|' read -r kind name modes _ _ cmd; do
	kind=$(echo "$kind" | tr -d ' \t') name=$(echo "$name" | tr -d ' \t') cmd=$(echo "$cmd" | sed 's/^[ \t]*//; s/[ \t]*$//')
	[[ " $modes " == *" quick "* ]] || continue
	if [ "$(run_prefix "$kind" "$cmd")" = control ]; then ctl="$ctl $name"; else sch=$((sch + 1)); fi
done < <(grep -v '^[[:space:]]*#' "$sl/runs.list" | grep '|')
check controls-are-the-schedulerless-runs "controls:$ctl" test "$ctl" = " none hotplug-none"
check scheduler-runs-counted "$sch scheduler runs in quick mode" test "$sch" -gt 10
# a run with a scheduler is never a control, whatever its name
check named-none-with-scheduler-is-sched "run_prefix run scx_none: $(run_prefix run scx_none)" \
	test "$(run_prefix run scx_none)" = sched

# The report says how many of each; a control is not a scheduler run.
printf '%s\n' "# suites: sched-load" "# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) at start" \
	"# suite: sched-load" "1..4" "ok 1 control:none" "ok 2 sched:scx_simple" "ok 3 sched:scx_qmap" \
	"ok 4 control:hotplug-none" "SCX-GUEST-EXIT: 0" >"$tmp/console.log"
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/console.log" >"$tmp/report.ktap" || true
check report-counts-apart "$(grep 'sched-load:' "$tmp/report.ktap")" \
	grep -qx '# sched-load: 2 scheduler runs + 2 controls' "$tmp/report.ktap"
# the old naming (a control reported as sched:none) reads as a scheduler run
sed 's/control:/sched:/' "$tmp/console.log" >"$tmp/old.log"
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/old.log" >"$tmp/old.ktap" || true
check old-naming-counted-as-scheduler-runs "$(grep 'sched-load:' "$tmp/old.ktap")" \
	grep -qx '# sched-load: 4 scheduler runs + 0 controls' "$tmp/old.ktap"

# summarize.sh keeps the control rows, named as controls.
"$sl/summarize.sh" "$tmp/console.log" >"$tmp/table" 2>&1 || true
check summarize-control-rows "$(cat "$tmp/table")" \
	bash -c 'grep -q "control:none" "$1" && grep -q "control:hotplug-none" "$1" && grep -q "scx_simple" "$1"' _ "$tmp/table"
done_testing
