#!/usr/bin/env bash
# Find the first kernel splat in a console log, using splat-patterns.txt,
# ignoring the known ones in known-splats.txt.
#
#   detect-splat.sh LOG          print "LINE<TAB>CODE<TAB>KIND<TAB>WHAT_TO_DO<TAB>TEXT"
#                                for the earliest splat, exit 0; exit 1 if clean
#   detect-splat.sh --known LOG  print "LINE<TAB>WHY<TAB>TEXT" for each known
#                                splat present (exit 0 either way)
#
# Env: SPLAT_PATTERNS, KNOWN_SPLATS override the data files.
set -euo pipefail
here=$(dirname "$0")
patterns=${SPLAT_PATTERNS:-$here/splat-patterns.txt}
known=${KNOWN_SPLATS:-$here/known-splats.txt}

mode=first
if [ "${1:-}" = --known ]; then
	mode=known
	shift
fi
log=${1:?usage: $0 [--known] CONSOLE_LOG}

# The log without \r, with known splat lines blanked (line numbers kept).
# awk reads the known patterns first, then the log.
filter_known() {
	awk -v mode="$1" '
		FILENAME == ARGV[1] { if ($0 !~ /^#/ && $0 ~ /;/) { i = index($0, ";"); re[++n] = substr($0, 1, i - 1); why[n] = substr($0, i + 1) } next }
		{ sub(/\r$/, ""); hit = 0
		  for (k = 1; k <= n; k++) if ($0 ~ re[k]) { hit = k; break }
		  if (mode == "known") { if (hit) printf "%d\t%s\t%s\n", FNR, why[hit], $0 }
		  else print (hit ? "[known splat elided]" : $0) }
	' "$known" "$log"
}

if [ "$mode" = known ]; then
	[ -f "$known" ] || exit 0
	filter_known known
	exit 0
fi

if [ -f "$known" ]; then
	clean=$(filter_known first)
else
	clean=$(tr -d '\r' <"$log")
fi

best=""
order=0
while IFS=';' read -r code kind regex advice; do
	case "$code" in '' | '#'*) continue ;; esac
	order=$((order + 1))
	hit=$(grep -n -m1 -E -- "$regex" <<<"$clean" || true)
	[ -n "$hit" ] || continue
	line=${hit%%:*}
	text=${hit#*:}
	# Sort key: console line, then pattern order.
	cand=$(printf '%010d %04d\t%s\t%s\t%s\t%s\t%s' "$line" "$order" "$line" "$code" "$kind" "$advice" "$text")
	if [ -z "$best" ] || [[ $cand < $best ]]; then
		best=$cand
	fi
done <"$patterns"

[ -n "$best" ] || exit 1
printf '%s\n' "${best#*$'\t'}" | cut -c1-400
