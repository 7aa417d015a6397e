#!/usr/bin/env bash
# Find kernel splats in a console log, using splat-patterns.txt, ignoring
# the known ones (known-splats.txt) and the ones a test provokes on
# purpose (expected-splats.txt), and say which test was running.
#
#   detect-splat.sh LOG             the earliest splat, one line:
#                                   LINE<TAB>CODE<TAB>KIND<TAB>WHAT_TO_DO<TAB>TEST<TAB>TEXT
#                                   exit 0; exit 1 if the log is clean
#   detect-splat.sh --report LOG    the same splat for humans: kind, line,
#                                   the test running, and the console block
#                                   (several lines); exit 1 if clean
#   detect-splat.sh --known LOG     LINE<TAB>WHY<TAB>TEXT per known splat (exit 0)
#   detect-splat.sh --expected LOG  LINE<TAB>TEST<TAB>WHY<TAB>TEXT per splat a
#                                   test provoked on purpose (exit 0)
#   detect-splat.sh --lockdep LOG   LINE<TAB>TEST<TAB>TEXT of the first line
#                                   that turns lockdep off (a lockdep report,
#                                   known or not, or lockdep's own "turning
#                                   off" line), the test running there; exit
#                                   1 if there is none
# Exit 2: usage error or unreadable log.
#
# "The test running" at a console line: the guest prints "# suite: NAME"
# before each suite and a result line ("ok N name", "not ok N name",
# "  runner| ok N name #") after each test, so it is the first result line
# after the splat in the same suite ("SUITE / TEST"); the last result before
# it is given too (a splat in deferred work can land after its test
# reported).
#
# The kernel variant (known and expected splats hold only on the variants
# they name): SCX_VARIANT, else the guest's "# variant: NAME" line in the
# log (initramfs/init); none: no known or expected splat.
#
# Env: SPLAT_PATTERNS, KNOWN_SPLATS, EXPECTED_SPLATS override the data files.
set -euo pipefail
here=$(dirname "$0")
patterns=${SPLAT_PATTERNS:-$here/splat-patterns.txt}
known=${KNOWN_SPLATS:-$here/known-splats.txt}
expected=${EXPECTED_SPLATS:-$here/expected-splats.txt}

usage() {
	echo "usage: $0 [--report|--known|--expected|--lockdep] CONSOLE_LOG" >&2
	exit 2
}
mode=first
case "${1:-}" in
--report | --known | --expected | --lockdep) mode=${1#--} && shift ;;
-*) usage ;;
esac
[ $# -eq 1 ] || usage
log=$1
[ -r "$log" ] || {
	echo "detect-splat.sh: cannot read console log '$log'" >&2
	exit 2
}
[ -r "$patterns" ] || {
	echo "detect-splat.sh: cannot read splat patterns '$patterns'" >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variant=${SCX_VARIANT:-$(sed -n 's/^# variant: \([A-Za-z0-9_-]*\).*/\1/p; T; q' "$log")}

# The log without \r; with --known, the known splat lines; otherwise the
# log with known splat lines blanked (line numbers kept). The rules and
# their matching: known-splats.awk (also run in the guest).
filter_known() {
	if [ ! -f "$known" ]; then
		[ "$1" = known ] || tr -d '\r' <"$log"
		return 0
	fi
	awk -v mode="$1" -v variant="$variant" -f "$here/known-splats.awk" "$known" "$log"
}

if [ "$mode" = known ]; then
	filter_known known
	exit 0
fi
filter_known blank >"$tmp/clean"

# Every splat line, once (on one line the first pattern listed wins):
# LINE<TAB>ORDER<TAB>CODE<TAB>KIND<TAB>ADVICE<TAB>TEXT, in console order.
# grep -E does the matching, so the patterns are grep's EREs.
order=0
while IFS=';' read -r code kind regex advice; do
	case "$code" in '' | '#'*) continue ;; esac
	order=$((order + 1))
	grep -n -E -- "$regex" "$tmp/clean" |
		P_ORDER=$order P_CODE=$code P_KIND=$kind P_ADVICE=$advice awk '{
			i = index($0, ":")
			printf "%s\t%04d\t%s\t%s\t%s\t%s\n", substr($0, 1, i - 1), ENVIRON["P_ORDER"],
				ENVIRON["P_CODE"], ENVIRON["P_KIND"], ENVIRON["P_ADVICE"], substr($0, i + 1) }' || true
done <"$patterns" | sort -t$'\t' -k1,1n -k2,2 | awk -F'\t' '!seen[$1]++' >"$tmp/hits"

# context LOG < LINES: the test context of each line number on stdin:
# LINE<TAB>SUITE<TAB>RUNNING<TAB>LAST (RUNNING: the next result in the
# same suite, LAST: the previous one).
context() {
	awk '
	FILENAME == ARGV[1] { want[$1] = 1; next }
	/^# suite: / { for (l in pend) delete pend[l]; suite = substr($0, 10); last = ""; next }
	/^(  runner\| )?(not )?ok [0-9]+ / {
		s = $0; sub(/^  runner\| /, "", s); sub(/^(not )?ok [0-9]+ /, "", s); sub(/ #.*/, "", s)
		for (l in pend) { run[l] = s; delete pend[l] }
		last = s
	}
	FNR in want { su[FNR] = suite; la[FNR] = last; pend[FNR] = 1; order[++n] = FNR }
	END { for (i = 1; i <= n; i++) { l = order[i]; printf "%s\t%s\t%s\t%s\n", l, su[l], run[l], la[l] } }
	' - "$1"
}

# --lockdep: in the log as printed (a known report turns lockdep off too):
# lockdep's reports (the patterns' "lockdep report" kind), its "turning off
# the locking correctness validator" (capacity limits) and the taint that
# disables it ("Disabling lock debugging due to kernel taint").
if [ "$mode" = lockdep ]; then
	tr -d '\r' <"$log" >"$tmp/raw"
	re=$(awk -F';' '$2 == "lockdep report" { print $3; exit }' "$patterns")
	first=$(grep -n -m1 -E -- "${re:+$re|}turning off the locking correctness validator|Disabling lock debugging due to kernel taint" "$tmp/raw" || true)
	[ -n "$first" ] || exit 1
	line=${first%%:*}
	IFS=$'\t' read -r _ su run _ < <(echo "$line" | context "$tmp/raw")
	printf '%s\t%s\t%s\n' "$line" "${run:-${su:+$su / (no result line followed)}}" "${first#*:}" | cut -c1-600
	exit 0
fi

cut -f1 "$tmp/hits" | context "$tmp/clean" >"$tmp/ctx"

# Join hits and context, then drop the splats a test provokes on purpose
# (expected-splats.txt: VARIANTS;TEST_REGEX;SPLAT_REGEX;WHY, on one of those
# variants, the test being the one running). Output: LINE CODE KIND ADVICE
# TEST TEXT EXPECTED_WHY.
awk -F'\t' -v OFS='\t' -v variant="$variant" '
	FILENAME == ARGV[1] {
		if ($0 !~ /^#/ && split($0, f, ";") >= 4 && variant != "" && index("," f[1] ",", "," variant ",")) {
			n++; tre[n] = f[2]; sre[n] = f[3]; why[n] = substr($0, length(f[1]) + length(f[2]) + length(f[3]) + 4)
		}
		next }
	FILENAME == ARGV[2] {
		if ($3 != "") test = ($2 != "" ? $2 " / " : "") $3
		else if ($2 != "") test = $2 " / (no result line followed)"
		else test = "no test (no suite had started)"
		ctx[$1] = test; name[$1] = $3; next }
	{ e = ""
	  for (k = 1; k <= n; k++) if (name[$1] != "" && name[$1] ~ tre[k] && $6 ~ sre[k]) { e = why[k]; break }
	  print $1, $3, $4, $5, ctx[$1], $6, e }
' "$( [ -f "$expected" ] && echo "$expected" || echo /dev/null)" "$tmp/ctx" "$tmp/hits" >"$tmp/judged"

if [ "$mode" = expected ]; then
	awk -F'\t' -v OFS='\t' '$7 != "" { print $1, $5, $7, $6 }' "$tmp/judged"
	exit 0
fi

first=$(awk -F'\t' '$7 == "" { print; exit }' "$tmp/judged")
[ -n "$first" ] || exit 1
IFS=$'\t' read -r line code kind advice test text _ <<<"$first"
if [ "$mode" = first ]; then
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$line" "$code" "$kind" "$advice" "$test" "$text" | cut -c1-600
	exit 0
fi

# --report: who, where, and the block: from the splat line (or the separator
# just above it) to the end of the report ("---[ end trace", a closing
# "=====" line) or 40 lines.
last=$(awk -F'\t' -v l="$line" '$1 == l { print $4 }' "$tmp/ctx")
echo "first splat: $kind at $log:$line"
echo "test running: $test"
echo "last test finished before it: ${last:-none in this suite}"
echo "what to do: $advice"
awk -v l="$line" '
	NR == l - 1 { prev = $0 }
	NR < l { next }
	NR == l { if (prev ~ /cut here|\] =+$|^=+$/) print prev; print; next }
	/SCX-GUEST-EXIT|SCX-RESULTS-BEGIN|^# suite: / { exit }
	{ print }
	/---\[ end trace|\] =+$|^=+$|end Kernel panic/ || NR >= l + 39 { exit }
' "$tmp/clean"
