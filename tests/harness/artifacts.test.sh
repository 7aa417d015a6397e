#!/usr/bin/env bash
# What a run leaves for CI: the nested KTAP document scripts/ktap-report.sh
# writes (run -> suites -> tests) parses with the kernel's own KTAP parser
# (tools/testing/kunit/kunit.py parse) to the same totals as its last line,
# a planned test that never reported and a planned suite that never ran
# counting as failures, and scripts/ktap-convert.sh turns it into JUnit XML
# and JSON with those totals too, each guest test with the seconds it took
# (the guest's time lines, scripts/ktap-timings.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
. "$top/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Three planned suites: one complete, one a result short, one never run;
# the guest's time lines as its check payload writes them (ktap_times).
printf '%s\n' "init: fake guest" "# suites: one two three" \
	"# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) at start" "# suite: one" "1..2" "ok 1 plain" "# time: plain 1.25" "not ok 2 broken # it broke" "# time: broken 0.50" \
	"# suite: two" "1..3" "ok 1 declared # SKIP why" "# time: declared 0.00" \
	"ok 2 name with <xml> & \"quotes\"" "# time: name with <xml> & \"quotes\" 3.00" \
	"SCX-GUEST-EXIT: 0" >"$tmp/console.log"
# the skip is declared (declared-skips.test.sh tests undeclared ones)
echo '^declared$;^why$;a declared skip' >"$tmp/declared"
DECLARED_SKIPS=$tmp/declared "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/console.log" >"$tmp/report.ktap" || true
last=$(tail -n 1 "$tmp/report.ktap")
read -r p f s < <(sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/' <<<"$last")
s=${s:-0}
echo "# report: $last"
check plan-shortfall-fails "no 'not ok ... two:unreported-3' line" grep -qE '^ +not ok 3 two:unreported-3 ' "$tmp/report.ktap"
check unstarted-suite-fails "no 'not ok ... three:started' line" grep -qE '^ +not ok 1 three:started ' "$tmp/report.ktap"
check suites-nested "the suites are not the document's subtests (one two three host)" \
	test "$(sed -n 's/^    # Subtest: //p' "$tmp/report.ktap" | paste -sd' ' -)" = "one two three host"
check totals "want '6 passed, 3 failed, 2 skipped', got '$last'" test "$last" = "6 passed, 3 failed, 2 skipped"

# make check's whole-run document: reports nested once more (kernel ->
# suite -> test), its last line their sum.
"$top/scripts/ktap-nest.sh" patched="$tmp/report.ktap" baseline="$tmp/report.ktap" >"$tmp/run.ktap"
nlast=$(tail -n 1 "$tmp/run.ktap")
check nest-sums "ktap-nest.sh's last line '$nlast', want $((2 * p)) passed, $((2 * f)) failed, $((2 * s)) skipped" \
	test "$nlast" = "$((2 * p)) passed, $((2 * f)) failed, $((2 * s)) skipped"

# The kernel's parser (scripts/ktap-verify.sh: kunit.py parse from the
# pristine tree; make check runs it on the whole run's document) reads both
# documents without an error to the totals of their last lines, and cannot
# read a test name holding a "#".
verdict() { grep 'report:kunit-parses' "$1" || echo "no verdict in $1"; }
rc=0 && "$top/scripts/ktap-verify.sh" "$tmp/report.ktap" >"$tmp/verify.out" || rc=$?
echo "# $(verdict "$tmp/verify.out")"
check kunit-totals "ktap-verify.sh exit $rc: $(verdict "$tmp/verify.out")" test "$rc" = 0
rc=0 && "$top/scripts/ktap-verify.sh" "$tmp/run.ktap" >"$tmp/verify-run.out" || rc=$?
check kunit-nest-totals "ktap-verify.sh exit $rc: $(verdict "$tmp/verify-run.out")" test "$rc" = 0
# a report that planned no test (make check T= selecting none of the
# harness tests) is named in a comment, not nested as an empty subtest
printf '%s\n' "KTAP version 1" "1..0" "# nothing here" "0 passed, 0 failed" >"$tmp/none.ktap"
"$top/scripts/ktap-nest.sh" patched="$tmp/report.ktap" harness="$tmp/none.ktap" >"$tmp/run-none.ktap"
rc=0 && "$top/scripts/ktap-verify.sh" "$tmp/run-none.ktap" >"$tmp/verify-none.out" || rc=$?
check kunit-nest-empty "ktap-verify.sh exit $rc: $(verdict "$tmp/verify-none.out")" test "$rc" = 0
check nest-empty-named "no '# harness: no test selected' line" grep -qx '# harness: no test selected' "$tmp/run-none.ktap"
sed 's/^\(    ok 1\) plain$/\1 CPU#1 plain/' "$tmp/report.ktap" >"$tmp/hash.ktap"
rc=0 && "$top/scripts/ktap-verify.sh" "$tmp/hash.ktap" >"$tmp/verify-hash.out" || rc=$?
# shellcheck disable=SC2016 # $1 $2 are the inner bash's
check verify-fails-on-hash-name "ktap-verify.sh exit $rc: $(verdict "$tmp/verify-hash.out")" \
	bash -c '[ "$1" != 0 ] && grep -q "^not ok 1 report:kunit-parses # kunit.py parse: [0-9]* error" "$2"' _ "$rc" "$tmp/verify-hash.out"

# The guest's filter (busybox awk, as in the guest) times each result since
# the previous one and keeps a time the suite gave itself.
out=$(printf '%s\n' "1..2" "ok 1 a" "# time: b 7.50" "not ok 2 b # why" |
	busybox sh -c ". '$top/initramfs/ktap.sh'; ktap_times")
got=$(sed -E 's/^(# time: a) [0-9]+\.[0-9][0-9]$/\1 N.NN/' <<<"$out" | paste -sd'|' -)
check guest-times-each-result "ktap_times wrote '$got'" \
	test "$got" = "1..2|ok 1 a|# time: a N.NN|not ok 2 b # why|# time: b 7.50"
"$top/scripts/ktap-timings.sh" "$tmp/console.log" >"$tmp/timings.tsv"
check timings-per-test "timings.tsv: $(paste -sd'|' "$tmp/timings.tsv")" \
	test "$(cut -f1,2,3 "$tmp/timings.tsv" | paste -sd'|' -)" = "$(printf 'one\tplain\t1.25|one\tbroken\t0.50|two\tdeclared\t0.00|two\tname with <xml> & "quotes"\t3.00')"

"$top/scripts/ktap-convert.sh" junit patched "$tmp/timings.tsv" <"$tmp/report.ktap" >"$tmp/junit.xml"
j=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
c = r.findall("./testsuite/testcase")
print(len(c), sum(1 for x in c if x.find("failure") is not None),
      sum(1 for x in c if x.find("skipped") is not None), r.get("tests"), r.get("failures"), r.get("skipped"))' "$tmp/junit.xml" || true)
echo "# junit.xml: cases, failures, skipped (counted; declared): $j"
check junit-totals "junit.xml: $j; report: $p $f $s" \
	test "$j" = "$((p + f + s)) $f $s $((p + f + s)) $f $s"
jt=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print(" ".join(s.get("time") + ":" + ",".join(c.get("time", "-") for c in s.findall("testcase")) for s in r.findall("testsuite")))' "$tmp/junit.xml" || true)
echo "# junit.xml times, suite:cases: $jt"
check junit-times "want 1.75:1.25,0.50 3.00:0.00,3.00,- 0.00:- 0.00:-,-,-,-,-, got $jt" \
	test "$jt" = "1.75:1.25,0.50 3.00:0.00,3.00,- 0.00:- 0.00:-,-,-,-,-"

"$top/scripts/ktap-convert.sh" json patched "$tmp/timings.tsv" <"$tmp/report.ktap" >"$tmp/summary.json"
js=$(python3 -c 'import sys, json
d = json.load(open(sys.argv[1]))
t = d["tests"]
print(len(t), sum(x["result"] == "pass" for x in t), sum(x["result"] == "fail" for x in t),
      sum(x["result"] == "skip" for x in t), d["passed"], d["failed"], d["skipped"])' "$tmp/summary.json" || true)
echo "# summary.json: tests, pass, fail, skip (counted; declared): $js"
check json-totals "summary.json: $js; report: $p $f $s" \
	test "$js" = "$((p + f + s)) $p $f $s $p $f $s"
# make check's whole-run JUnit and JSON: the tests of the nested document
# (kernel -> suite -> test), each in its kernel's suite, the suites' own
# lines not counted as tests.
"$top/scripts/ktap-convert.sh" json check /dev/null <"$tmp/run.ktap" >"$tmp/run.json"
rs=$(python3 -c 'import sys, json
d = json.load(open(sys.argv[1]))
print(len(d["tests"]), d["passed"], d["failed"], d["skipped"], " ".join(sorted(set(t["suite"] for t in d["tests"]))))' "$tmp/run.json" || true)
check json-whole-run "whole-run summary.json: $rs" \
	test "$rs" = "$((2 * (p + f + s))) $((2 * p)) $((2 * f)) $((2 * s)) baseline/host baseline/one baseline/three baseline/two patched/host patched/one patched/three patched/two"
"$top/scripts/ktap-convert.sh" junit check /dev/null <"$tmp/run.ktap" >"$tmp/run.xml"
rj=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print(len(r.findall("./testsuite/testcase")), r.get("failures"), r.get("skipped"))' "$tmp/run.xml" || true)
check junit-whole-run "whole-run junit.xml: cases, failures, skipped $rj" \
	test "$rj" = "$((2 * (p + f + s))) $((2 * f)) $((2 * s))"
done_testing
