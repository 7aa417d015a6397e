# shellcheck shell=sh
# Result-line helpers for guest suites (busybox ash; sourced).
#
# A suite prints its plan ("1..N", ktap_plan) before its first test, then
# one KTAP-style line per test, numbered from 1 within the suite: "ok N
# name", "not ok N name", "ok N name # SKIP reason". These functions are
# the guest's one writer of such lines (the host's: scripts/ktap-write.sh). The host
# (scripts/ktap-report.sh) nests each suite's lines under it as a subtest.
# Diagnostics are lines starting with "# ". ktap_done's status is the
# suite's status.

_ktap_n=0
_ktap_failed=0

# scx.t=PATTERN on the kernel command line (make check T=PATTERN) runs only
# the tests whose "suite:test" name it selects (initramfs/t-glob.sh: a
# comma-separated list of globs, as kunit.py's --filter_glob); the others
# are left out of the results, not reported as skips.
# KTAP_DIR: where this file and t-glob.sh are (/scx in the project's
# initramfs; a suite's own lib/ where it runs without it).
: "${KTAP_DIR:=/scx}"
# shellcheck source=t-glob.sh # the build installs initramfs/t-glob.sh there
[ ! -r "$KTAP_DIR/t-glob.sh" ] || . "$KTAP_DIR/t-glob.sh"
# scx_t_wants NAME: NAME is selected.
scx_t_wants() { t_glob_match "${SCX_T:-}" "$1"; }
# scx_t_suite PREFIX...: some "PREFIX:test" name (or PREFIX itself) of one
# of them may be selected, so the suite has to run (then each result is
# filtered by name).
scx_t_suite() {
	for _s in "$@"; do
		t_glob_suite "${SCX_T:-}" "$_s" && return 0
	done
	return 1
}

# ktap_plan NAME...: the suite's plan, printed before its tests run: how
# many of the NAMEs T= selects ("1..0" when none: the host then leaves the
# suite out). The host fails a planned test that never reports.
ktap_plan() {
	_p=0
	for _t in "$@"; do
		if scx_t_wants "$_t"; then _p=$((_p + 1)); fi
	done
	echo "1..$_p"
}

# ktap_plan_count N: the plan of a suite that selected its N tests itself
# (with scx_t_wants) before it starts
ktap_plan_count() { echo "1..$1"; }

# ktap_ok NAME [NOTE]: "ok N NAME", with " # NOTE" (a description, never a
# directive) if given
ktap_ok() {
	scx_t_wants "$1" || return 0
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1${2:+ # $2}"
}

# ktap_not_ok NAME [REASON]
ktap_not_ok() {
	scx_t_wants "$1" || return 0
	_ktap_n=$((_ktap_n + 1))
	_ktap_failed=$((_ktap_failed + 1))
	if [ -n "${2:-}" ]; then
		echo "# $1: $2"
	fi
	echo "not ok $_ktap_n $1"
}

# ktap_fail NAME NOTE: "not ok N NAME # NOTE", the reason on the line itself
ktap_fail() {
	scx_t_wants "$1" || return 0
	_ktap_n=$((_ktap_n + 1))
	_ktap_failed=$((_ktap_failed + 1))
	echo "not ok $_ktap_n $1${2:+ # $2}"
}

# ktap_count / ktap_failures: the results and the failures written so far
ktap_count() { echo "$_ktap_n"; }
ktap_failures() { echo "$_ktap_failed"; }

# ktap_skip NAME REASON
ktap_skip() {
	scx_t_wants "$1" || return 0
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1 # SKIP $2"
}

# ktap_check NAME REASON_IF_FAILED COMMAND...: ok if COMMAND succeeds.
ktap_check() {
	_name=$1 _why=$2
	shift 2
	if "$@"; then ktap_ok "$_name"; else ktap_not_ok "$_name" "$_why"; fi
}

ktap_diag() { echo "# $*"; }

# ktap_times: copy a suite's output, adding "# time: NAME SECONDS" after each
# result line: the seconds since the suite's previous result (or its start),
# i.e. what the test took when the suite runs its tests one after another
# and reports each as it ends. A suite that reports in a batch knows better:
# a "# time: NAME SECONDS" line it prints before NAME's result is used
# instead (and not copied). check.sh runs every suite through this.
ktap_times() {
	awk 'function now(  t, f) {
		getline t <"/proc/uptime"; close("/proc/uptime"); split(t, f, " "); return f[1]
	}
	BEGIN { last = now() }
	/^# time: / {
		n = substr($0, 9); sub(/ [^ ]*$/, "", n); given[n] = $NF; next
	}
	{ print; fflush() }
	/^(not )?ok [0-9]+ / {
		n = $0; sub(/^(not )?ok [0-9]+ /, "", n); sub(/ *#.*$/, "", n)
		t = now()
		d = (n in given) ? given[n] : t - last
		delete given[n]
		last = t
		printf "# time: %s %.2f\n", n, d; fflush()
	}'
}

ktap_done() { [ "$_ktap_failed" -eq 0 ]; }

# wait_for SECS COMMAND...: poll COMMAND every 0.2 s until it succeeds.
wait_for() {
	_deadline=$(($1 * 5))
	shift
	while ! "$@"; do
		_deadline=$((_deadline - 1))
		[ "$_deadline" -gt 0 ] || return 1
		sleep 0.2
	done
}

scx_state() { cat /sys/kernel/sched_ext/state 2>/dev/null; }
scx_state_is() { [ "$(scx_state)" = "$1" ]; }

# proc_gone PID: the process has exited (gone, or a zombie not yet reaped).
proc_gone() {
	[ ! -d "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}
