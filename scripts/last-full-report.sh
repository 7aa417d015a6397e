#!/usr/bin/env bash
# The newest report.ktap of VARIANT under RUNS_DIR that ran every test (no
# T= filter), to list the test names a pattern can match; nothing if there
# is none yet.
#
# Usage: last-full-report.sh RUNS_DIR VARIANT
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 RUNS_DIR VARIANT" >&2; exit 2; }
# shellcheck disable=SC2045 # ls -t: newest first; run dirs are VARIANT-DATE-PID, no blanks
for d in $(ls -1dt "$1/$2"-2* 2>/dev/null); do
	if [ -s "$d/report.ktap" ] && [ ! -e "$d/filter" ]; then
		echo "$d/report.ktap"
		exit 0
	fi
done
