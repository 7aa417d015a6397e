#!/usr/bin/env bash
# scripts/sum-totals.sh, which makes the last line of `make` and `make
# check`: sums every report's line, keeps the skips, fails on a failure and
# on a run that printed no report line at all.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { rc=0; out=$("$top/scripts/sum-totals.sh" "$tmp/in") || rc=$?; }

printf '%s\n' "ok 1 x" "117 passed, 0 failed, 2 skipped" "noise 3 passed, 9 failed here" \
	"109 passed, 0 failed" "147 passed, 0 failed" >"$tmp/in"
run
echo "# sums: $out (exit $rc)"
check sums "want '373 passed, 0 failed, 2 skipped', got '$out'" \
	test "$out" = "373 passed, 0 failed, 2 skipped"
check passes "exit $rc with nothing failed" test "$rc" = 0

printf '%s\n' "10 passed, 1 failed" "5 passed, 0 failed" >"$tmp/in"
run
check failure-fails "want '15 passed, 1 failed' and a non-zero exit, got '$out' (exit $rc)" \
	test "$out" = "15 passed, 1 failed" -a "$rc" != 0

printf '%s\n' "the guest died before reporting" >"$tmp/in"
run
echo "# nothing reported: $out (exit $rc)"
check nothing-reported-fails "a run with no report line exited $rc" test "$rc" != 0
done_testing
