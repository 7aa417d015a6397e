#!/usr/bin/env bash
# Does a test's run hold the splat it is predicted to hit, and only that?
# (scripts/predicted-splats.txt: a known kernel bug turned into an
# assertion, so that the test fails if the bug is gone or another one
# shows, instead of being skipped for ever.)
#
# Usage: predicted-splat.sh CONSOLE_LOG NAME NUM
#   NAME/NUM: a sched-load run's result "ok NUM NAME": its console block is
#   from its "sched-load: mark NUM" kernel line to that result line.
# Prints VERDICT<TAB>LINES<TAB>TEXT and exits 0 when a rule applies to NAME
# on the log's variant: VERDICT ok (the predicted line at console line
# LINES, comma-separated), skip (the same one-shot report fired earlier in
# the boot, at LINES) or fail (TEXT says why; LINES "-" or the predicted
# lines seen); exit 1 when no rule applies.
# Env: SCX_VARIANT (else the log's "# variant:" line), PREDICTED_SPLATS,
# SPLAT_PATTERNS.
set -euo pipefail
here=$(dirname "$0")
data=${PREDICTED_SPLATS:-$here/predicted-splats.txt}
patterns=${SPLAT_PATTERNS:-$here/splat-patterns.txt}
[ $# -eq 3 ] || {
	echo "usage: $0 CONSOLE_LOG NAME NUM" >&2
	exit 2
}
log=$1 name=$2 num=$3
[ -f "$data" ] || exit 1
variant=${SCX_VARIANT:-$(sed -n 's/^# variant: \([A-Za-z0-9_-]*\).*/\1/p; T; q' "$log")}
[ -n "$variant" ] || exit 1
rule=""
while IFS= read -r l; do
	case "$l" in '' | '#'*) continue ;; esac
	IFS=';' read -r vs tre _ <<<"$l"
	[[ ",$vs," == *",$variant,"* && $name =~ $tre ]] && rule=$l && break
done <"$data"
[ -n "$rule" ] || exit 1
IFS=';' read -r _ _ splat ctx once why <<<"$rule"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tr -d '\r' <"$log" >"$tmp/log"
# the run's block: its mark to its first (live) result line
read -r from to < <(awk -v n="$num" -v name="$name" '
	/^SCX-RESULTS-BEGIN/ { exit }
	$0 ~ ("sched-load: mark " n " *$") { from = NR }
	from && ($0 == "ok " n " " name || index($0, "ok " n " " name " ") == 1 || $0 == "not ok " n " " name || index($0, "not ok " n " " name " ") == 1) { print from, NR; found = 1; exit }
	END { if (!found) print 0, 0 }' "$tmp/log")
if [ "$from" = 0 ]; then
	printf 'fail\t-\tno console block for %s (no "sched-load: mark %s" before its result)\n' "$name" "$num"
	exit 0
fi
sed -n "${from},${to}p" "$tmp/log" >"$tmp/block"
# every splat line of the block (any pattern, known or not), as LINE:TEXT
awk -F';' '!/^#/ && NF >= 3 { print $3 }' "$patterns" >"$tmp/re"
grep -n -E -f "$tmp/re" "$tmp/block" >"$tmp/hits" || true
hits="" other=""
while IFS= read -r h; do
	n=${h%%:*} text=${h#*:}
	# (no "| grep -q" under pipefail: see tests/harness/pipefail-grep.test.sh)
	before=$(sed -n "$((n - 1))p" "$tmp/block")
	if grep -qE -- "$splat" <<<"$text" && [ "$n" -gt 1 ] && grep -qE -- "$ctx" <<<"$before"; then
		hits="$hits,$((from + n - 1))"
	else
		other=${other:-"console line $((from + n - 1)): ${text#*] }"}
	fi
done <"$tmp/hits"
hits=${hits#,}
if [ -n "$other" ]; then
	printf 'fail\t%s\tanother splat than the predicted one (%s): %s\n' "${hits:--}" "$why" "$other"
elif [ -n "$hits" ]; then
	printf 'ok\t%s\tpredicted and seen: %s\n' "$hits" "$why"
elif head -n "$from" "$tmp/log" >"$tmp/before" && earlier=$(grep -n -m1 -E -- "$once" "$tmp/before"); then
	printf 'skip\t%s\tpredicted splat fired earlier in this boot, once only (console line %s), so this run cannot show it: %s\n' \
		"${earlier%%:*}" "${earlier%%:*}" "$why"
else
	printf 'fail\t-\tthe predicted splat did not appear (%s): is the bug fixed, or the test no longer reaching it?\n' "$why"
fi
