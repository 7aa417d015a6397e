#!/usr/bin/env bash
# The kernel's own KTAP parser (tools/testing/kunit/kunit.py parse, from the
# pristine tree the kernels are built from) must read REPORT without an
# error and to the totals of its last line. A one-test KTAP report, then
# "N passed, N failed": `make check` runs it on the whole run's document.
#
# Usage: ktap-verify.sh REPORT
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/ktap-read.sh"
. "$here/ktap-write.sh"
{ [ $# -eq 1 ] && [ -f "$1" ]; } || die "usage: $0 REPORT (a KTAP document ending in 'N passed, N failed')"

name=report:kunit-parses
# shellcheck disable=SC2012 # the first match of a glob, or nothing
kunit=$(ls -d "$CACHE_DIR"/pristine/*/tools/testing/kunit/kunit.py 2>/dev/null | head -1 || true)
last=$(tail -n 1 "$1")
why=""
if [ -z "$kunit" ]; then
	why="no tools/testing/kunit/kunit.py under $CACHE_DIR/pristine (make kernel first)"
elif ! totals=$(kt_parse_totals "$last"); then
	why="the report's last line is not 'N passed, N failed': $last"
else
	read -r p f s <<<"$totals"
	out=$(python3 "$kunit" parse <"$1" 2>&1 || true)
	errors=$(grep -c '\[ERROR\]' <<<"$out" || true)
	ran=$(sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests: \(.*\)/\1 \2/p' <<<"$out" | tail -1)
	kp=$(grep -oE 'passed: [0-9]+' <<<"$ran" | grep -oE '[0-9]+' || echo 0)
	kf=$(grep -oE 'failed: [0-9]+' <<<"$ran" | grep -oE '[0-9]+' || echo 0)
	ks=$(grep -oE 'skipped: [0-9]+' <<<"$ran" | grep -oE '[0-9]+' || echo 0)
	if [ "$errors" != 0 ]; then
		why="kunit.py parse: $errors error(s), the first: $(grep -m1 '\[ERROR\]' <<<"$out" | sed 's/^\[[0-9:]*\] //')"
	elif [ "$kp $kf $ks" != "$p $f $s" ]; then
		why="kunit.py parse: ${ran:-no totals}; the report: $last"
	fi
fi
kt_header
kt_plan 1
if [ -z "$why" ]; then
	kt_ok "$name" "kunit.py parse: $p passed, $f failed, $s skipped, as the last line says"
else
	kt_not_ok "$name" "$why"
fi
kt_totals
