# shellcheck shell=bash
# Host-side test helpers (sourced by tests/harness/*.test.sh): one KTAP
# result line per check, numbered per file; run.sh renumbers and sums.
# A skip is printed as a skip, never as a pass.
_n=0
_failed=0
# A KTAP test name may not hold "#" (it starts the directive): it becomes "_".
ok() { _n=$((_n + 1)) && echo "ok $_n ${1//#/_}"; }
not_ok() { # not_ok NAME [WHY...]: WHY lines become diagnostics
	_n=$((_n + 1)) _failed=$((_failed + 1))
	local name=${1//#/_}
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/# /'
	echo "not ok $_n $name"
}
skip() { _n=$((_n + 1)) && echo "ok $_n ${1//#/_} # SKIP $2"; }
check() { # check NAME WHY CMD...: ok if CMD succeeds
	local name=${1//#/_} why=$2
	shift 2
	if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
done_testing() { [ "$_failed" -eq 0 ]; }
# no_boot NAME WHAT: under HARNESS=quick (run.sh sets HARNESS_NO_BOOT=1),
# report the checks that boot a kernel as one skip and succeed; else fail,
# so that `no_boot ... && { done_testing; exit; }` runs them
no_boot() {
	[ -n "${HARNESS_NO_BOOT:-}" ] || return 1
	skip "$1" "HARNESS=full: $2 (make check HARNESS=full)"
}
