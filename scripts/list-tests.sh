#!/usr/bin/env bash
# The test names T= matches (make list-tests), read from the last full
# reports, not from a static list: the guest suites decide at run time
# which tests exist (the in-tree runner's, the matrices' cells), so only a
# run knows them. Per kernel its newest check-one report that ran every
# test (scripts/last-full-report.sh); the harness tests' from the newest
# make check that ran them all. Host verdicts (host:...) are left out: T=
# never selects them.
#
# Output: "# KERNEL: from REPORT", then one "suite:test" name a line.
#
# Usage: list-tests.sh RUNS_DIR KERNEL...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 RUNS_DIR KERNEL..." >&2 && exit 2; }
runs=$1
shift

# names KTAP: the names of the tests (result lines closing no subtest)
names() {
	awk '
	/^ *# Subtest: / { open_[match($0, /[^ ]/) - 1] = 1; next }
	/^ *(not )?ok [0-9]+ / {
		i = match($0, /[^ ]/) - 1
		if (open_[i + 4]) { delete open_[i + 4]; next }
		n = $0; sub(/^ *(not )?ok [0-9]+ /, "", n); sub(/ # .*/, "", n)
		if (n !~ /^host:/) print n
	}' "$1"
}

found=0
for k in "$@"; do
	r=$("$here/last-full-report.sh" "$runs" "$k")
	if [ -z "$r" ]; then
		echo "# $k: no full run yet (make check-one V=$k, or make check, lists them)"
		continue
	fi
	echo "# $k: from $r"
	names "$r"
	found=1
done
# shellcheck disable=SC2045 # ls -t: newest first; run dirs are check-DATE-PID, no blanks
for d in $(ls -1dt "$runs"/check-2* 2>/dev/null); do
	if [ -s "$d/harness.ktap" ] && [ ! -e "$d/filter" ]; then
		echo "# harness: from $d/harness.ktap"
		names "$d/harness.ktap"
		exit 0
	fi
done
echo "# harness: no make check without T= yet (tests/harness/run.sh names them: FILE:check)"
[ "$found" = 1 ]
