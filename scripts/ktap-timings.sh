#!/usr/bin/env bash
# The seconds each guest test took, from a console log: the guest's check
# payload follows every result line with "# time: NAME SECONDS" (guest
# clock, initramfs/ktap.sh's ktap_times: the time since the suite's previous
# result, or the runner's own stamps for the in-tree selftests) and repeats
# them in the SCX-RESULTS block, read here as ktap-report.sh reads results
# (the last complete block, or the live lines if the guest never got that
# far).
#
# Output: "SUITE<TAB>NAME<TAB>SECONDS" a test, in run order; nothing for a
# log with no time lines (an older payload, or a guest that ran nothing).
#
# Usage: ktap-timings.sh CONSOLE_LOG > timings.tsv
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 CONSOLE_LOG > timings.tsv" >&2; exit 2; }
[ -f "$1" ] || { echo "$0: no console log at '$1'" >&2; exit 2; }

tr -d '\r' <"$1" | awk '
/^SCX-RESULTS-BEGIN/ { block = 1; nb = 0; next }
/^SCX-RESULTS-END/ { block = 0; done = 1; next }
/^# suite: / || /^# time: / {
	if (block) b[++nb] = $0; else l[++nl] = $0
}
END {
	if (done) { for (i = 1; i <= nb; i++) out(b[i]) }
	else for (i = 1; i <= nl; i++) out(l[i])
}
function out(s,    n) {
	if (s ~ /^# suite: /) { suite = substr(s, 10); return }
	n = substr(s, 9); sub(/ [^ ]*$/, "", n)
	t = s; sub(/^.* /, "", t)
	printf "%s\t%s\t%s\n", suite, n, t
}'
