#!/usr/bin/env bash
# A KTAP report (scripts/ktap-report.sh's output) for machines, counted as
# the report's last line counts ("ok ... # SKIP why" is a skip, "not ok" a
# failure whatever follows). One parser, two outputs:
#   junit  JUnit XML, which CI systems render: one <testsuite> named SUITE,
#          one <testcase> per result line, <failure>/<skipped>; the "# "
#          diagnostic lines become the suite's <system-out>
#   json   {"suite", "passed", "failed", "skipped", "tests": [{"name",
#          "result": "pass"|"fail"|"skip", "reason"}]}
#
# Usage: ktap-convert.sh junit|json SUITE < report.ktap > junit.xml|summary.json
set -euo pipefail
[ $# -eq 2 ] && case $1 in junit | json) ;; *) false ;; esac ||
	{ echo "usage: $0 junit|json SUITE < KTAP > XML|JSON" >&2; exit 2; }

awk -v format="$1" -v suite="$2" '
function xml(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s)
	return s
}
function json(s) {
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
	next
}
/^# / { out = out substr($0, 3) "\n" }
function junit(    i, kind) {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	printf "<testsuites tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", n, f, s
	printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", xml(suite), n, f, s
	for (i = 1; i <= n; i++) {
		printf "    <testcase classname=\"%s\" name=\"%s\"", xml(suite), xml(tc[i])
		kind = res[i] == "fail" ? "failure" : res[i] == "skip" ? "skipped" : ""
		if (kind == "")
			print "/>"
		else
			printf ">\n      <%s message=\"%s\"/>\n    </testcase>\n", kind, xml(msg[i])
	}
	if (out != "")
		printf "    <system-out>%s</system-out>\n", xml(out)
	print "  </testsuite>"
	print "</testsuites>"
}
function summary(    i) {
	printf "{\"suite\": \"%s\", \"passed\": %d, \"failed\": %d, \"skipped\": %d, \"tests\": [", json(suite), p, f, s
	for (i = 1; i <= n; i++)
		printf "%s\n  {\"name\": \"%s\", \"result\": \"%s\", \"reason\": \"%s\"}", (i > 1 ? "," : ""), json(tc[i]), res[i], json(msg[i])
	print "\n]}"
}
END { if (format == "junit") junit(); else summary() }'
