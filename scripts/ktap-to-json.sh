#!/usr/bin/env bash
# A KTAP report (scripts/ktap-report.sh's output) as a JSON summary for
# machines: {"suite", "passed", "failed", "skipped", "tests": [{"name",
# "result": "pass"|"fail"|"skip", "reason"}]}, counted as the report's last
# line counts ("ok ... # SKIP" is a skip, "not ok" a failure whatever
# follows).
#
# Usage: ktap-to-json.sh SUITE < report.ktap > summary.json
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SUITE < KTAP > JSON" >&2; exit 2; }

awk -v suite="$1" '
function esc(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s)
	gsub(/[\001-\037]/, " ", s)
	return s
}
/^(not )?ok [0-9]+ / {
	notok = ($1 == "not")
	line = $0
	sub(/^(not )?ok [0-9]+ /, "", line)
	name = line; why = ""
	if ((i = index(line, " # ")) > 0) {
		name = substr(line, 1, i - 1); why = substr(line, i + 3)
	}
	n++
	tc[n] = name
	if (notok) { res[n] = "fail"; f++ }
	else if (why ~ /^[Ss][Kk][Ii][Pp]([ \t]|$)/) { res[n] = "skip"; s++; sub(/^[Ss][Kk][Ii][Pp][ \t]*/, "", why) }
	else { res[n] = "pass"; p++ }
	msg[n] = why
}
END {
	printf "{\"suite\": \"%s\", \"passed\": %d, \"failed\": %d, \"skipped\": %d, \"tests\": [", esc(suite), p, f, s
	for (i = 1; i <= n; i++)
		printf "%s\n  {\"name\": \"%s\", \"result\": \"%s\", \"reason\": \"%s\"}", (i > 1 ? "," : ""), esc(tc[i]), res[i], esc(msg[i])
	print "\n]}"
}'
