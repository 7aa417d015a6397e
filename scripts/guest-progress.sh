#!/usr/bin/env bash
# The guest suites a console log shows finished so far, for make check's
# progress lines while the guest still runs (the report comes later, from
# ktap-report.sh, and is what counts). A suite is finished when the next
# "# suite:" line, the results block or the exit marker follows it. Only
# the live lines are read: the SCX-RESULTS block repeats them.
#
# A guest skip of a sched-load test with a predicted splat
# (scripts/predicted-splats.txt; ktap-report.sh applies them to that suite
# only) is not a skip yet: the host's report turns it into a pass or a failure
# from the console, so it is counted apart, as "to be judged".
#
# Output: "SUITE<TAB>PASSED<TAB>FAILED<TAB>SKIPPED<TAB>TO_JUDGE<TAB>SECONDS"
# a finished suite, in run order; SECONDS sums the guest's "# time:" lines
# (empty if it printed none).
#
# Usage: guest-progress.sh CONSOLE_LOG
# Env: PREDICTED_SPLATS (default scripts/predicted-splats.txt)
set -euo pipefail
here=$(dirname "$0")
. "$here/ktap-read.sh"
[ $# -eq 1 ] || { echo "usage: $0 CONSOLE_LOG" >&2; exit 2; }
[ -f "$1" ] || exit 0
# the predicted tests' name patterns (2nd field), as one alternation
pred=$({ grep -vE '^(#|$)' "${PREDICTED_SPLATS:-$here/predicted-splats.txt}" 2>/dev/null || true; } |
	cut -d';' -f2 | paste -sd'|')

tr -d '\r' <"$1" | awk -F'\t' -v re="$KT_RESULT_ERE" -v skip="$KT_SKIP_ERE" -v pred="$pred" '
function close_suite() {
	if (suite != "")
		printf "%s\t%d\t%d\t%d\t%d\t%s\n", suite, p, f, s, j, (timed ? sprintf("%.0f", secs) : "")
	suite = ""
}
/^# suite: / { close_suite(); suite = substr($0, 10); p = f = s = j = secs = timed = 0; next }
/^SCX-RESULTS-BEGIN/ || /SCX-GUEST-EXIT: / { close_suite(); exit }
suite == "" { next }
$0 ~ re && /^not / { f++; next }
$0 ~ re && $0 ~ skip {
	name = $0; sub(/^ok [0-9]+ /, "", name); sub(/[[:space:]#].*$/, "", name)
	if (suite == "sched-load" && pred != "" && name ~ "(" pred ")") j++; else s++
	next
}
$0 ~ re { p++; next }
/^# time: / { n = $0; sub(/^.* /, "", n); if (n ~ /^[0-9.]+$/) { secs += n; timed = 1 } }
'
