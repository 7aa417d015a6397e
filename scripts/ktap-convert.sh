#!/usr/bin/env bash
# A KTAP report (scripts/ktap-report.sh's output) for machines, counted as
# the report's last line counts ("ok ... # SKIP why" is a skip, "not ok" a
# failure whatever follows). The report nests one subtest per suite; the
# tests are the indented result lines, the suites' own lines only group
# them (a flat document's lines are all tests). One parser, two outputs:
#   junit  JUnit XML, which CI systems render: one <testsuite> per suite,
#          named RUN/suite, one <testcase> per test, <failure>/<skipped>;
#          the "# " diagnostic lines at the top level become the last
#          suite's <system-out>
#   json   {"suite": RUN, "passed", "failed", "skipped", "tests": [{"suite",
#          "name", "result": "pass"|"fail"|"skip", "reason", "time"}]}
# TIMINGS (scripts/ktap-timings.sh's "SUITE<TAB>NAME<TAB>SECONDS") gives the
# tests their time: JUnit's time attribute (a suite's is the sum of its
# tests'), JSON's "time" (null for a test with none, e.g. host verdicts).
#
# Usage: ktap-convert.sh junit|json RUN [TIMINGS] < report.ktap > junit.xml|summary.json
set -euo pipefail
{ { [ $# -eq 2 ] || [ $# -eq 3 ]; } && case $1 in junit | json) ;; *) false ;; esac; } ||
	{ echo "usage: $0 junit|json RUN [TIMINGS] < KTAP > XML|JSON" >&2; exit 2; }
times=${3:-/dev/null}
[ -r "$times" ] || { echo "$0: cannot read timings '$times'" >&2; exit 2; }

awk -v format="$1" -v suite="$2" -v times="$times" '
BEGIN {
	while ((getline l <times) > 0)
		if (split(l, tf, "\t") == 3 && tf[3] ~ /^[0-9]+(\.[0-9]+)?$/)
			took[tf[1] SUBSEP tf[2]] = tf[3]
}
function path(d,    k, p) {
	p = ""
	for (k = 4; k <= d; k += 4) if (open[k]) p = p (p == "" ? "" : "/") sname[k]
	return p
}
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
# The suite of a test is the path of the subtests it is in ("core/selftests"
# in make check'"'"'s whole-run document); a subtest'"'"'s "# Subtest:" line is
# indented as its tests are, its own result line 4 columns less.
/^ +# Subtest: / {
	d = match($0, /[^ ]/) - 1
	sname[d] = $0; sub(/^ +# Subtest: /, "", sname[d]); open[d] = 1
	for (k in open) if (k + 0 > d) delete open[k]
	cur = path(d)
	next
}
# a suite'"'"'s own line (after its subtests) only closes it
/^ *(not )?ok [0-9]+ / && open[match($0, /[^ ]/) + 3] {
	delete open[match($0, /[^ ]/) + 3]
	cur = path(match($0, /[^ ]/) - 1)
	next
}
/^ *(not )?ok [0-9]+ / {
	line = $0
	sub(/^ +/, "", line)
	notok = (substr(line, 1, 4) == "not ")
	sub(/^(not )?ok [0-9]+ /, "", line)
	name = line; why = ""
	if ((i = index(line, " # ")) > 0) {
		name = substr(line, 1, i - 1); why = substr(line, i + 3)
	}
	n++
	tc[n] = name
	grp[n] = cur
	if (!(cur in seen)) { seen[cur] = 1; order[++ng] = cur }
	gn[cur]++
	if (notok) gf[cur]++
	if (notok) { res[n] = "fail"; f++ }
	else if (why ~ /^[Ss][Kk][Ii][Pp]([ \t]|$)/) { res[n] = "skip"; s++; gs[cur]++; sub(/^[Ss][Kk][Ii][Pp][ \t]*/, "", why) }
	else { res[n] = "pass"; p++ }
	msg[n] = why
	if ((cur SUBSEP name) in took) { tm[n] = took[cur SUBSEP name]; gt[cur] += tm[n] }
	next
}
/^# / { out = out substr($0, 3) "\n" }
function junit(    g, i, kind, name) {
	print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	printf "<testsuites tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", n, f, s
	for (g = 1; g <= ng; g++) {
		name = order[g] == "" ? suite : suite "/" order[g]
		printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" skipped=\"%d\" time=\"%.2f\">\n", xml(name), gn[order[g]], gf[order[g]], gs[order[g]], gt[order[g]]
		for (i = 1; i <= n; i++) {
			if (grp[i] != order[g])
				continue
			printf "    <testcase classname=\"%s\" name=\"%s\"", xml(name), xml(tc[i])
			if (i in tm)
				printf " time=\"%s\"", tm[i]
			kind = res[i] == "fail" ? "failure" : res[i] == "skip" ? "skipped" : ""
			if (kind == "")
				print "/>"
			else
				printf ">\n      <%s message=\"%s\"/>\n    </testcase>\n", kind, xml(msg[i])
		}
		if (g == ng && out != "")
			printf "    <system-out>%s</system-out>\n", xml(out)
		print "  </testsuite>"
	}
	print "</testsuites>"
}
function summary(    i) {
	printf "{\"suite\": \"%s\", \"passed\": %d, \"failed\": %d, \"skipped\": %d, \"tests\": [", json(suite), p, f, s
	for (i = 1; i <= n; i++)
		printf "%s\n  {\"suite\": \"%s\", \"name\": \"%s\", \"result\": \"%s\", \"reason\": \"%s\", \"time\": %s}", (i > 1 ? "," : ""), json(grp[i]), json(tc[i]), res[i], json(msg[i]), (i in tm) ? tm[i] : "null"
	print "\n]}"
}
END { if (format == "junit") junit(); else summary() }'
