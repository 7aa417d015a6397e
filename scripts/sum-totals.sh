#!/usr/bin/env bash
# Sum the "N passed, N failed[, N skipped]" lines of several reports into
# one such line (the last line CI reads). Exits 1 if anything failed, and
# also if no report line was found: a run that reported nothing did not
# pass.
#
# Usage: sum-totals.sh FILE
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ktap-read.sh"
. "$(dirname "$0")/ktap-write.sh"
[ $# -eq 1 ] || die "usage: $0 FILE"

p=0 f=0 s=0 n=0
while IFS= read -r l; do
	read -r lp lf ls < <(kt_parse_totals "$l")
	p=$((p + lp)) f=$((f + lf)) s=$((s + ls)) n=$((n + 1))
done < <(kt_totals_lines "$1" || true)
if [ "$n" = 0 ]; then
	echo "sum-totals.sh: no report line found" >&2
	kt_summary 0 1
	exit 1
fi
kt_summary "$p" "$f" "$s"
[ "$f" = 0 ]
