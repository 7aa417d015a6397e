#!/usr/bin/env bash
# scripts/ktap-report.sh counts results as tests/harness/run.sh does: "ok
# ... # SKIP" is skipped (never passed), "not ok ... # SKIP" is failed (a
# failure does not hide behind the directive), and the last line says so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' "init: fake guest" "ok 1 plain" "not ok 2 failed-skip # SKIP no reason" \
	"ok 3 declared # SKIP why" "not ok 4 failed" "SCX-GUEST-EXIT: 0" >"$tmp/console.log"
# the skip is declared (declared-skips.test.sh tests undeclared ones)
echo '^declared$;^why$;a declared skip' >"$tmp/declared"
rc=0
DECLARED_SKIPS=$tmp/declared "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/console.log" >"$tmp/out" || rc=$?
last=$(tail -n 1 "$tmp/out")
echo "# last line: $last (exit $rc)"
# 1 plain + 4 host verdicts pass; the failed skip and the failure fail
check counts "want '5 passed, 2 failed, 1 skipped', got '$last'" \
	test "$last" = "5 passed, 2 failed, 1 skipped"
check exit-non-zero "ktap-report.sh exited 0 with failures" test "$rc" != 0
check failed-skip-listed "the failed skip is not reported as 'not ok'" \
	grep -qE '^not ok [0-9]+ failed-skip # SKIP' "$tmp/out"
done_testing
