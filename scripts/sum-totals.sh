#!/usr/bin/env bash
# Sum the "N passed, N failed[, N skipped]" lines of several reports into
# one such line (the last line CI reads). Exits 1 if anything failed, and
# also if no report line was found: a run that reported nothing did not
# pass.
#
# Usage: sum-totals.sh FILE
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || die "usage: $0 FILE"

grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | awk -F'[ ,]+' '
	{ p += $1; f += $3; s += ($5 == "" ? 0 : $5); n++ }
	END {
		if (!n) {
			print "sum-totals.sh: no report line found" > "/dev/stderr"
			print "0 passed, 1 failed"
			exit 1
		}
		printf "%d passed, %d failed", p, f
		if (s) printf ", %d skipped", s
		print ""
		exit (f > 0)
	}'
