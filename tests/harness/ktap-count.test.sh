#!/usr/bin/env bash
# scripts/ktap-report.sh counts results as tests/harness/run.sh does: "ok
# ... # SKIP" is skipped (never passed), "not ok ... # SKIP" is failed (a
# failure does not hide behind the directive), and the last line says so.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' "init: fake guest" "# suite: guest" "1..4" "ok 1 plain" "not ok 2 failed-skip # SKIP no reason" \
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
	grep -qE '^ +not ok [0-9]+ failed-skip # SKIP' "$tmp/out"

# A suite that prints no plan fails, whatever its results.
printf '%s\n' "# suite: guest" "ok 1 plain" "SCX-GUEST-EXIT: 0" >"$tmp/noplan.log"
rc=0
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/noplan.log" >"$tmp/noplan.out" || rc=$?
check no-plan-fails "exit $rc; $(grep -c 'guest:plan' "$tmp/noplan.out") guest:plan line(s)" \
	bash -c '[ "$1" != 0 ] && grep -qE "^ +not ok 2 guest:plan # the suite printed no plan" "$2"' _ "$rc" "$tmp/noplan.out"
# More results than planned fail too.
printf '%s\n' "# suite: guest" "1..1" "ok 1 a" "ok 2 b" "SCX-GUEST-EXIT: 0" >"$tmp/over.log"
rc=0
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/over.log" >"$tmp/over.out" || rc=$?
check over-plan-fails "exit $rc: $(grep 'guest:plan' "$tmp/over.out")" \
	bash -c '[ "$1" != 0 ] && grep -q "guest:plan # planned 1 tests, 2 reported" "$2"' _ "$rc" "$tmp/over.out"
# A suite T= emptied ("1..0", nothing reported) is left out, not failed.
printf '%s\n' "# suites: empty guest" "# lockdep: none (no CONFIG_PROVE_LOCKING) at start" "# suite: empty" "1..0" "# suite: guest" "1..1" "ok 1 a" \
	"SCX-GUEST-EXIT: 0" >"$tmp/empty.log"
rc=0
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/empty.log" >"$tmp/empty.out" || rc=$?
check emptied-suite-left-out "exit $rc; subtests: $(sed -n 's/^    # Subtest: //p' "$tmp/empty.out" | paste -sd' ' -)" \
	bash -c '[ "$1" = 0 ] && ! grep -q "Subtest: empty" "$2"' _ "$rc" "$tmp/empty.out"
done_testing
