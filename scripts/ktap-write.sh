# shellcheck shell=bash
# The host's KTAP writer (sourced; the guest's is initramfs/ktap.sh): a
# script that reports results prints them through these, numbered from 1
# in the order they are written, and ends with kt_totals, the closing
# "N passed, N failed[, N skipped]" line derived from what it wrote
# (scripts/ktap-read.sh reads that line back).
#
#   kt_header                 "KTAP version 1"
#   kt_plan N                 "1..N"
#   kt_ok NAME [NOTE]         "ok N NAME[ # NOTE]"
#   kt_not_ok NAME [NOTE]     "not ok N NAME[ # NOTE]"
#   kt_skip NAME REASON       "ok N NAME # SKIP REASON" (a skip, not a pass)
#   kt_diag TEXT...           each line of each non-empty TEXT as "# line"
#   kt_fail_uncounted         a failure with no result line of its own (a
#                             plan not kept): counted in the totals only
#   kt_totals                 the closing line; fails if anything failed
#   kt_summary P F [S]        the closing line for counts made elsewhere
#
# A NOTE is a description after "#", never a directive: a skip is kt_skip.

_kt_n=0 _kt_passed=0 _kt_failed=0 _kt_skipped=0

kt_header() { echo "KTAP version 1"; }
kt_plan() { echo "1..$1"; }
kt_ok() {
	_kt_n=$((_kt_n + 1)) _kt_passed=$((_kt_passed + 1))
	echo "ok $_kt_n $1${2:+ # $2}"
}
kt_not_ok() {
	_kt_n=$((_kt_n + 1)) _kt_failed=$((_kt_failed + 1))
	echo "not ok $_kt_n $1${2:+ # $2}"
}
kt_skip() {
	_kt_n=$((_kt_n + 1)) _kt_skipped=$((_kt_skipped + 1))
	echo "ok $_kt_n $1 # SKIP $2"
}
kt_diag() {
	local t
	for t in "$@"; do
		[ -n "$t" ] || continue
		# shellcheck disable=SC2001 # a prefix for each line of a multi-line value
		sed 's/^/# /' <<<"$t"
	done
}
kt_fail_uncounted() { _kt_failed=$((_kt_failed + 1)); }
# kt_count: how many result lines were written so far
kt_count() { echo "$_kt_n"; }
kt_summary() {
	if [ "${3:-0}" -gt 0 ]; then
		echo "$1 passed, $2 failed, $3 skipped"
	else
		echo "$1 passed, $2 failed"
	fi
}
kt_totals() {
	kt_summary "$_kt_passed" "$_kt_failed" "$_kt_skipped"
	[ "$_kt_failed" -eq 0 ]
}
