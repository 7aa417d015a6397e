#!/bin/sh
# The "check" payload: run every guest suite, then the project's own guest
# tests (/selftests/run-guest.sh, /scx-suite/run-guest.sh and
# /sched-load/run-guest.sh, if packed),
# and finish with a clean copy of all result lines for the host.
#
# Result lines go to the console as they happen (for humans), and are also
# collected; at the end they are repeated between SCX-RESULTS-BEGIN/END with
# kernel console messages held back, so a kernel message interleaved with
# a result line cannot corrupt what the host counts.
# shellcheck disable=SC3040 # busybox ash, the only shell that runs this, has pipefail
set -o pipefail
# shellcheck source=../ktap.sh # the build installs initramfs/ktap.sh there
. /scx/ktap.sh
out=/tmp/scx-results.out
: >"$out"
rc=0

# wanted SUITE: the suite may hold a test T= (scx.t=, SCX_T) selects: its
# file's name, or the prefixes of its tests' names (suites_of). A suite
# not wanted is not run (nor planned).
wanted() {
	# shellcheck disable=SC2046 # one word per name prefix
	scx_t_suite $(suites_of "$1")
}
# suites_of SUITE: the "suite" parts of its tests' names (suite:test)
suites_of() {
	case "$1" in
	*-sched-ext-state) echo sched-ext-state ;;
	*-hang-detector) echo hang-detector ;;
	*-scx-selftests) echo scx-selftest scx-selftest-exit ;;
	*-scx-simple-smoke) echo scx-simple ;;
	selftests) echo matrix callsite neg baseline-diff pos async prog freplace ext intree-diff ;;
	scx) echo scx ;;
	sched-load) echo sched-load sched control ;;
	*) echo "${1#[0-9][0-9]-}" ;;
	esac
}

# lockdep_state WHEN: whether lockdep still watches, for the host
# (scripts/ktap-report.sh, scripts/lockdep-off.txt): it turns itself off
# after its first report and every later test runs unchecked; a kernel
# without it says so.
lockdep_state() {
	if [ -r /proc/lockdep_stats ]; then
		echo "# lockdep: debug_locks=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats) $1"
	else
		echo "# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) $1"
	fi | tee -a "$out"
}

run_suite() {
	name=$1
	shift
	wanted "$name" || return 0
	echo "# suite: $name" | tee -a "$out"
	# Only stdout is collected; suites send raw tool output to stderr.
	if ! "$@" | ktap_times | tee -a "$out"; then
		echo "# suite $name failed"
		rc=1
	fi
	lockdep_state "after $name"
}

# The run's plan: every suite that will run, before the first one does, so
# the host can tell a suite that never started from one that was not asked.
planned=
for s in /scx/suites/*.sh; do
	[ -e "$s" ] || continue
	wanted "$(basename "$s" .sh)" && planned="$planned $(basename "$s" .sh)"
done
for s in selftests scx sched-load; do
	wanted "$s" && planned="$planned $s"
done
echo "# suites:$planned" | tee -a "$out"
lockdep_state "at start"

for s in /scx/suites/*.sh; do
	[ -e "$s" ] || continue
	run_suite "$(basename "$s" .sh)" sh "$s"
done
# A suite that was wanted but not packed is a failure, not a silent skip:
# a payload build that lost it must not look like a shorter green run.
missing() {
	wanted "$1" || return 0
	# shellcheck disable=SC2016 # expanded by that sh
	run_suite "$1" sh -c '. /scx/ktap.sh && ktap_plan "$1" && ktap_fail "$1" "$2"' sh "$1" \
		"$2 is not in the initramfs (payload build lost it: rebuild with make payload)"
	rc=1
}
# The project's tests want the kernel kind (patched|baseline).
if [ -x /selftests/run-guest.sh ]; then
	run_suite selftests /selftests/run-guest.sh "$(cat /scx/variant 2>/dev/null || echo patched)"
else
	missing selftests /selftests/run-guest.sh
fi
# The production schedulers of sched-ext/scx: every BPF program loaded, the
# C schedulers run, each verdict compared with the baseline's (selftests/scx).
if [ -x /scx-suite/run-guest.sh ]; then
	run_suite scx /scx-suite/run-guest.sh
else
	missing scx /scx-suite/run-guest.sh
fi
# The real schedulers under load, last (the longest); scx.sched_load= on
# the kernel command line picks quick (default) or full, off skips it.
sched_load=quick
# shellcheck disable=SC2013 # /proc/cmdline is one line of blank-separated words
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	scx.sched_load=*) sched_load=${arg#scx.sched_load=} ;;
	esac
done
if [ "$sched_load" = off ]; then
	# shellcheck disable=SC2016 # expanded by that sh
	run_suite sched-load sh -c '. /scx/ktap.sh && ktap_plan sched-load && ktap_skip sched-load scx.sched_load=off'
elif [ -x /sched-load/run-guest.sh ]; then
	run_suite sched-load /sched-load/run-guest.sh \
		"$(cat /scx/variant 2>/dev/null || echo patched)" "$sched_load"
else
	missing sched-load /sched-load/run-guest.sh
fi

loglevel=$(cut -f1 /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
echo "SCX-RESULTS-BEGIN"
grep -E '^(# suites?: |# time: |# lockdep: |1\.\.[0-9]+$|(not )?ok [0-9]+ )' "$out"
echo "SCX-RESULTS-END"
echo "$loglevel" >/proc/sys/kernel/printk
exit "$rc"
