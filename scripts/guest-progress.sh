#!/usr/bin/env bash
# The guest suites a console log shows finished so far, for make check's
# progress lines while the guest still runs (the report comes later, from
# ktap-report.sh, and is what counts). A suite is finished when the next
# "# suite:" line, the results block or the exit marker follows it. Only
# the live lines are read: the SCX-RESULTS block repeats them.
#
# Output: "SUITE<TAB>PASSED<TAB>FAILED<TAB>SKIPPED<TAB>SECONDS" a finished
# suite, in run order; SECONDS sums the guest's "# time:" lines (empty if
# it printed none).
#
# Usage: guest-progress.sh CONSOLE_LOG
set -euo pipefail
. "$(dirname "$0")/ktap-read.sh"
[ $# -eq 1 ] || { echo "usage: $0 CONSOLE_LOG" >&2; exit 2; }
[ -f "$1" ] || exit 0

tr -d '\r' <"$1" | awk -F'\t' -v re="$KT_RESULT_ERE" -v skip="$KT_SKIP_ERE" '
function close_suite() {
	if (suite != "")
		printf "%s\t%d\t%d\t%d\t%s\n", suite, p, f, s, (timed ? sprintf("%.0f", secs) : "")
	suite = ""
}
/^# suite: / { close_suite(); suite = substr($0, 10); p = f = s = secs = timed = 0; next }
/^SCX-RESULTS-BEGIN/ || /SCX-GUEST-EXIT: / { close_suite(); exit }
suite == "" { next }
$0 ~ re && /^not / { f++; next }
$0 ~ re && $0 ~ skip { s++; next }
$0 ~ re { p++; next }
/^# time: / { n = $0; sub(/^.* /, "", n); if (n ~ /^[0-9.]+$/) { secs += n; timed = 1 } }
'
