#!/usr/bin/env bash
# make check-one T=PATTERN runs only the tests whose suite:test name it
# selects (initramfs/t-glob.sh: globs, comma-separated, as kunit.py's
# --filter_glob), in every guest suite (the in-tree runner through its -t,
# the project's tests, sched-load's runs), and leaves the others out of the
# plan instead of reporting them as skips; a pattern that matches nothing
# fails and lists the names; a pattern with a character T= cannot carry is
# refused before anything runs (t-glob.test.sh tests the matcher itself).
# Boots the cached patched kernel twice.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# guest_names FILE: the result names of the KTAP report a check-one printed
# after the console, host checks aside
guest_names() {
	sed -n '/^KTAP version 1/,$p' "$1" |
		sed -nE 's/^    (not )?ok [0-9]+ ([^#]*[^#[:space:]]).*/\2/p' | grep -v '^host:' || true
}

rc=0
make -s -C "$top" --no-print-directory check-one T='a;b' >"$tmp/bad.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/bad.out"
check bad-pattern-refused "T='a;b' exited $rc, or without naming T" \
	sh -c "[ $rc -eq 2 ] && grep -q \"T='a;b'\" '$tmp/bad.out'"

# The harness's own runner applies the same matcher to its results.
out=$(T='help:targets*,help:variables-agree' "$here/run.sh" 2>&1 || true)
check harness-filter "T='help:targets*,help:variables-agree' did not select exactly help:targets-agree and help:variables-agree" \
	test "$(sed -nE 's/^(not )?ok [0-9]+ ([^ #]*).*/\2/p' <<<"$out" | paste -sd' ' -)" = "help:targets-agree help:variables-agree"
no_boot boots "two boots of the patched kernel through make check-one (about 170 s)" && { done_testing; exit; }

rc=0
env -u RUN_ID make -s -C "$top" --no-print-directory check-one T=scx-selftest:minimal \
	>"$tmp/one.out" 2>/dev/null || rc=$?
got=$(guest_names "$tmp/one.out" | paste -sd' ' -)
check one-test-passes "make check-one T=scx-selftest:minimal exited $rc" test "$rc" -eq 0
# (and how the test's scheduler ended: scx-selftest-exits judges the
# in-tree tests that ran)
check only-the-match "guest results '$got', want the in-tree minimal test, the runner's completion and minimal's exit" \
	test "$got" = "scx-selftest:minimal scx-selftest:runner-completed scx-selftest-exit:minimal"
# (the host's own verdicts aside: host:lockdep-on is a SKIP on a kernel
# without lockdep)
check no-skips-for-the-rest "filtered-out tests reported as skips" \
	sh -c "! grep -v 'host:' '$tmp/one.out' | grep -i '# SKIP' >/dev/null"
subtests=$(sed -n 's/^    # Subtest: //p' "$tmp/one.out" | paste -sd' ' -)
check only-its-suite "subtests '$subtests', want the in-tree suite, its exits and host" \
	test "$subtests" = "20-scx-selftests scx-selftest-exits host"
check plan-counts-the-selected "the in-tree suite's plan is not 1..2" \
	bash -c "sed -n '/# Subtest: 20-scx-selftests/{n;p}' '$tmp/one.out' | grep -qx '    1\.\.2'"

rc=0
env -u RUN_ID make -s -C "$top" --no-print-directory check-one T=no-such-test SCHED_LOAD=off \
	>"$tmp/none.out" 2>/dev/null || rc=$?
check no-match-fails "make check-one T=no-such-test exited $rc" test "$rc" -ne 0
check no-match-says-so "no 'T=no-such-test matched no test' line" \
	grep -q 'T=no-such-test matched no test' "$tmp/none.out"
check no-match-lists-names "neither a list of test names nor how to get one" \
	grep -qE '^#   scx-selftest:minimal$|no full run of this kernel' "$tmp/none.out"

done_testing
