# shellcheck shell=bash
# Host-side test helpers (sourced by tests/harness/*.test.sh): one KTAP
# result line per check, numbered per file; run.sh renumbers and sums.
# A skip is printed as a skip, never as a pass. The lines are written by
# the host's one KTAP writer, scripts/ktap-write.sh.
# shellcheck source=../../scripts/ktap-write.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/ktap-write.sh"
_failed=0 # the failures so far (a test file's EXIT trap may read it)
# A KTAP test name may not hold "#" (it starts the directive): it becomes "_".
ok() { kt_ok "${1//#/_}"; }
not_ok() { # not_ok NAME [WHY...]: WHY lines become diagnostics
	local name=${1//#/_}
	shift
	kt_diag "$@"
	kt_not_ok "$name"
	_failed=$_kt_failed
}
skip() { kt_skip "${1//#/_}" "$2"; }
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
