#!/usr/bin/env bash
# host:lockdep-on (scripts/ktap-report.sh): on a debug kernel, lockdep
# turning itself off fails the run unless the test that turned it off is
# declared for that variant (scripts/lockdep-off.txt), and then it is a
# SKIP, not a pass; a kernel without lockdep says so (a SKIP); a check
# payload that never said fails. Synthetic console logs, nothing boots.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the in-tree test here is a stand-in: its exit kind is not the point
export SCX_EXIT_KINDS=off

# guest VARIANT STATE_AFTER_SUITE [KERNEL_LINE...]: a check payload's log
# with an in-tree test "maximal" and a sched-load run (the kernel lines go
# into the suite named by their first word: "intree" or "sched")
guest() {
	local v=$1 after=$2 l
	shift 2
	echo "init: 6.12.118+, 2 CPUs, payload 'check'"
	echo "# variant: $v"
	echo "# suites: 20-scx-selftests sched-load"
	if [ "$after" = none ]; then
		echo "# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) at start"
	elif [ "$after" != silent ]; then
		echo "# lockdep: debug_locks=1 at start"
	fi
	echo "# suite: 20-scx-selftests"
	echo "1..1"
	echo "  runner| TEST: maximal"
	for l in "$@"; do [ "${l%% *}" = intree ] && echo "${l#intree }"; done
	echo "  runner| ok 1 maximal # "
	echo "  runner| =====  END  ====="
	echo "ok 1 scx-selftest:maximal"
	case "$after" in none | silent) ;; *) echo "# lockdep: debug_locks=$after after 20-scx-selftests" ;; esac
	echo "# suite: sched-load"
	echo "1..1"
	echo "[  346.0] sched-load: mark 1"
	for l in "$@"; do [ "${l%% *}" = sched ] && echo "${l#sched }"; done
	echo "ok 1 sched:$SCHED_RUN"
	case "$after" in none | silent) ;; *) echo "# lockdep: debug_locks=$after after sched-load" ;; esac
	echo "SCX-GUEST-EXIT: 0"
}
# report LOG: its host:lockdep-on line; the report's exit status in LOG.rc
report() {
	local rc=0
	"$top/scripts/ktap-report.sh" --qemu-rc 0 "$1" >"$1.ktap" || rc=$?
	echo "$rc" >"$1.rc"
	grep 'host:lockdep-on' "$1.ktap" || echo "no host:lockdep-on line"
}
SCHED_RUN=scx_simple

guest core-debug 1 >"$tmp/on.log"
got=$(report "$tmp/on.log")
rc=$(cat "$tmp/on.log.rc")
check stayed-on-passes "exit $rc: $got" bash -c '[ "$1" = 0 ] && [[ $2 == *"ok "*" host:lockdep-on" ]]' _ "$rc" "$got"

# The mutation: lockdep turns itself off in an in-tree test nobody declared.
guest core-debug 0 "intree [   20.0] turning off the locking correctness validator." >"$tmp/off.log"
got=$(report "$tmp/off.log")
rc=$(cat "$tmp/off.log.rc")
check forced-off-fails "exit $rc: $got" \
	bash -c '[ "$1" != 0 ] && [[ $2 == *"not ok "*" host:lockdep-on # lockdep turned off at "*"while running maximal"* ]]' _ "$rc" "$got"
# Off with no console line at all (the guest's debug_locks=0 only): fails too.
guest core-debug 0 >"$tmp/silent-off.log"
got=$(report "$tmp/silent-off.log")
rc=$(cat "$tmp/silent-off.log.rc")
check off-without-report-fails "exit $rc: $got" \
	bash -c '[ "$1" != 0 ] && [[ $2 == *"not ok "*"while running unknown"* ]]' _ "$rc" "$got"

# Declared: lockdep's report of printing the dl_server WARN in the hotplug
# run (known-splats.txt caused: rule), on a debug kernel: a SKIP naming it.
lockdep=("sched [  984.0] ======================================================"
	"sched [  984.0] WARNING: possible circular locking dependency detected")
SCHED_RUN=hotplug-scx_qmap
guest core-debug 0 "${lockdep[@]}" >"$tmp/declared.log"
got=$(LOCKDEP_OFF=$top/scripts/lockdep-off.txt report "$tmp/declared.log")
rc=$(cat "$tmp/declared.log.rc")
check declared-is-a-skip "$got" \
	bash -c '[[ $1 == *"ok "*" host:lockdep-on # SKIP lockdep turned off in sched:hotplug-scx_qmap (declared: "* ]]' _ "$got"
# The same declaration does not hold on a variant it does not name.
guest limit-debug 0 "${lockdep[@]}" >"$tmp/declared-other.log"
got=$(report "$tmp/declared-other.log")
rc=$(cat "$tmp/declared-other.log.rc")
check declared-other-variant-fails "$got" bash -c '[[ $1 == *"not ok "*"not declared for limit-debug"* ]]' _ "$got"
# Nor in another run.
SCHED_RUN=scx_simple
guest core-debug 0 "${lockdep[@]}" >"$tmp/undeclared.log"
got=$(report "$tmp/undeclared.log")
rc=$(cat "$tmp/undeclared.log.rc")
check undeclared-run-fails "$got" bash -c '[[ $1 == *"not ok "*"while running sched:scx_simple"* ]]' _ "$got"

# No lockdep in the kernel: said, as a skip.
guest core none >"$tmp/none.log"
got=$(report "$tmp/none.log")
rc=$(cat "$tmp/none.log.rc")
check no-lockdep-is-said "exit $rc: $got" \
	bash -c '[ "$1" = 0 ] && [[ $2 == *"ok "*" host:lockdep-on # SKIP no lockdep in this kernel"* ]]' _ "$rc" "$got"
# The check payload ran and never said: fails.
guest core silent >"$tmp/silent.log"
got=$(report "$tmp/silent.log")
rc=$(cat "$tmp/silent.log.rc")
check never-said-fails "exit $rc: $got" bash -c '[ "$1" != 0 ] && [[ $2 == *"not ok "*"never said whether lockdep is on"* ]]' _ "$rc" "$got"
done_testing
