# shellcheck shell=bash
# The one KTAP reader (sourced): the closing "N passed, N failed[, N
# skipped]" line's one pattern, and the one count of a document's result
# lines. The lines are written by scripts/ktap-write.sh (host) and
# initramfs/ktap.sh (guest); scripts/ktap-report.sh counts the guest's.
#
#   KT_TOTALS_ERE             the closing line (grep -E, bash =~, awk)
#   KT_RESULT_ERE             a top-level result line, "ok N " or "not ok N "
#   KT_SKIP_ERE               the SKIP directive in an "ok" line's rest
#   kt_totals_lines FILE...   every closing line (status 1 if none)
#   kt_last_totals FILE       the last closing line (status 1 if none)
#   kt_parse_totals LINE      "P F S" (S 0 when absent); status 1 if LINE
#                             is not a closing line
#   kt_count_results FILE     "P F S" of FILE's top-level result lines: an
#                             "ok ... # SKIP" is a skip, a "not ok ..." a
#                             failure whatever its directive

KT_TOTALS_ERE='^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$'
KT_RESULT_ERE='^(not )?ok [0-9]+ '
KT_SKIP_ERE='# *[Ss][Kk][Ii][Pp]([[:space:]]|$)'

kt_totals_lines() { grep -hE "$KT_TOTALS_ERE" "$@"; }
kt_last_totals() {
	local t
	t=$(kt_totals_lines "$1" 2>/dev/null | tail -n 1 || true)
	[ -n "$t" ] && printf '%s\n' "$t"
}
kt_parse_totals() {
	[[ $1 =~ $KT_TOTALS_ERE ]] || return 1
	echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[4]:-0}"
}
kt_count_results() {
	awk -v re="$KT_RESULT_ERE" -v skip="$KT_SKIP_ERE" '
		$0 !~ re { next }
		/^not / { f++; next }
		$0 ~ skip { s++; next }
		{ p++ }
		END { print p + 0, f + 0, s + 0 }' "$1"
}
