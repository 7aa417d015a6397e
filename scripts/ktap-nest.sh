#!/usr/bin/env bash
# Several KTAP reports (each ending in its "N passed, N failed[, N skipped]"
# line) as one document: each becomes a subtest named NAME, the way
# ktap-report.sh nests suites, and the last line sums theirs. `make check`
# writes the run's document this way: kernel -> suite -> test, and the
# harness tests.
#
# Usage: ktap-nest.sh NAME=REPORT...
set -euo pipefail
. "$(dirname "$0")/ktap-read.sh"
. "$(dirname "$0")/ktap-write.sh"
[ $# -ge 1 ] || { echo "usage: $0 NAME=REPORT..." >&2; exit 2; }
for a in "$@"; do
	[ -f "${a#*=}" ] || { echo "$0: ${a%%=*}: no report at ${a#*=}" >&2; exit 2; }
done

# A report that planned no test (T= selected none of its tests) says so in
# a comment instead of becoming an empty subtest, which KTAP parsers refuse
# ("0 tests run").
empty() { [ "$(sed -n '2p' "$1")" = "1..0" ] && [ "$(kt_parse_totals "$(tail -n 1 "$1")")" = "0 0 0" ]; }
n=0
for a in "$@"; do
	empty "${a#*=}" || n=$((n + 1))
done

# each report's totals line, summed at the end by sum-totals.sh
totals=$(mktemp)
trap 'rm -f "$totals"' EXIT
kt_header
kt_plan "$n"
for a in "$@"; do
	name=${a%%=*} file=${a#*=}
	if empty "$file"; then
		echo "# $name: no test selected"
		continue
	fi
	last=$(tail -n 1 "$file")
	if tl=$(kt_parse_totals "$last"); then
		read -r _ bad _ <<<"$tl"
		echo "$last" >>"$totals"
	else
		# a report without its totals line is a failure of its own
		bad=1 last=""
		kt_summary 0 1 >>"$totals"
	fi
	# the report's own header, then its name, then the rest, indented
	sed -n '1p' "$file" | sed 's/^/    /'
	echo "    # Subtest: $name"
	if [ -n "$last" ]; then sed '1d;$d' "$file"; else sed '1d' "$file"; fi | sed 's/^/    /'
	[ -n "$last" ] || echo "    not ok 1 $name:totals # the report has no 'N passed, N failed' line"
	if [ "$bad" = 0 ]; then kt_ok "$name"; else kt_not_ok "$name"; fi
done
"$(dirname "$0")/sum-totals.sh" "$totals" || true
