#!/usr/bin/env bash
# A KTAP report (scripts/ktap-report.sh's output) as JUnit XML, which CI
# systems render: one <testsuite> named SUITE, one <testcase> per result
# line; "not ok" is a <failure>, "ok ... # SKIP why" a <skipped>. The
# "# " diagnostic lines after the results become the suite's <system-out>.
#
# Usage: ktap-to-junit.sh SUITE < report.ktap > junit.xml
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SUITE < KTAP > XML" >&2; exit 2; }

awk -v suite="$1" '
function esc(s) {
	gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s)
	gsub(/"/, "\\&quot;", s)
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
	if (notok) { kind[n] = "failure"; f++ }
	else if (why ~ /^[Ss][Kk][Ii][Pp]([ \t]|$)/) { kind[n] = "skipped"; s++; sub(/^[Ss][Kk][Ii][Pp][ \t]*/, "", why) }
	else kind[n] = ""
	msg[n] = why
	next
}
/^# / { out = out substr($0, 3) "\n" }
END {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	printf "<testsuites tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", n, f, s
	printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", esc(suite), n, f, s
	for (i = 1; i <= n; i++) {
		printf "    <testcase classname=\"%s\" name=\"%s\"", esc(suite), esc(tc[i])
		if (kind[i] == "")
			print "/>"
		else
			printf ">\n      <%s message=\"%s\"/>\n    </testcase>\n", kind[i], esc(msg[i])
	}
	if (out != "")
		printf "    <system-out>%s</system-out>\n", esc(out)
	print "  </testsuite>"
	print "</testsuites>"
}'
