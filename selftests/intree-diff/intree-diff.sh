#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# intree-diff.sh LIST CELLS RESULT_FILE: run each test of LIST with
# runner-patched on this (baseline) kernel and write one line per test to
# RESULT_FILE: "ok NAME # why" when 6.12 does what LIST says, else
# "not ok NAME # ...". A predicted failure names the message 6.12 must give
# (fail:<text>): a failure for another reason is not the one predicted.
# runner -t is a substring match and its stdout is buffered apart from
# stderr, so the output cannot be cut per test: the line must be in the
# output of runner -t NAME and in none of the other tests it ran, each run
# on its own (their names hold NAME, so their runs never include NAME). For the matrix, the set of
# mismatching cells must be exactly CELLS' patched R cells (op x kfunc),
# named when it is not. busybox sh and awk (busybox here has no comm).
LIST=$1 CELLS=$2 RES=$3
R=runner-patched
: > "$RES"
# diagnostics go to the caller's stdout, results to RES
exec 3>&1
if ! command -v $R >/dev/null; then
	echo "not ok runner-patched # /usr/bin/runner-patched is not in the initramfs: build the patched payload first (make payload), then the baseline initramfs" >> "$RES"
	exit 1
fi
TMP=${TMPDIR:-/tmp}/intree-diff.$$
mkdir -p "$TMP"
grep -v '^#' "$LIST" | grep '|' | while IFS='|' read -r name exp why; do
	name=$(echo "$name" | tr -d ' \t') exp=$(echo "$exp" | sed 's/^[ \t]*//; s/[ \t]*$//')
	why=$(echo "$why" | sed 's/^[ \t]*//; s/[ \t]*$//')
	# stdout (result and MISMATCH lines) apart: stderr written into a
	# buffered stdout can cut one of its lines in two
	$R -t "$name" > "$TMP/out" 2> "$TMP/err" < /dev/null
	cat "$TMP/out" "$TMP/err" > "$TMP/all"
	# the other tests -t ran: "ok N T #" / "not ok N T #"
	sibs=$(awk -v n="$name" '$1 == "ok" { t = $3 } $1 == "not" { t = $4 }
		($1 == "ok" || $1 == "not") && t != n && index(t, n) { print t }' "$TMP/out" | sort -u)
	got=$(awk -v n="$name" '($1 == "ok" && $3 == n) { print "pass"; exit }
		($1 == "not" && $4 == n) { print "fail"; exit }' "$TMP/out")
	[ -n "$got" ] || got=none
	sed "s/^/# $name| /" "$TMP/all" | grep -E '^# [^|]*\| (ERR|MISMATCH|kfunc_context_matrix:|not ok|ok )' | head -8
	# a cell the matrix could not judge, whatever the count above showed
	grep -E '^(ERROR |kfunc_context_matrix: )' "$TMP/out" | sed "s/^/# $name| /"
	case "$exp" in
	pass)
		if [ "$got" = pass ]; then
			echo "ok $name # 6.12: pass, as expected: $why"
		else
			echo "not ok $name # 6.12: $got, expected pass: $why"
		fi ;;
	fail:?*)
		# a failure counts only with the message 6.12 is predicted to give
		msg=${exp#fail:}
		from=
		for s in $sibs; do
			$R -t "$s" > "$TMP/sib" 2>&1 < /dev/null
			grep -qF -- "$msg" "$TMP/sib" && from="$from $s"
		done
		if [ -n "$from" ]; then
			echo "not ok $name # 6.12: the predicted \"$msg\" is printed by$from, not (only) by $name: $why"
		elif [ "$got" = fail ] && grep -qF -- "$msg" "$TMP/all"; then
			echo "ok $name # 6.12: fails with \"$msg\", as expected: $why"
		elif [ "$got" = fail ]; then
			echo "not ok $name # 6.12: fails, but not with the predicted \"$msg\": $why"
		else
			echo "not ok $name # 6.12: $got, expected to fail with \"$msg\": $why"
		fi ;;
	matrix)
		grep '^MISMATCH ' "$TMP/out" | sed 's/^MISMATCH \([^:]*\):.*/\1/' | sort > "$TMP/got"
		awk -F'\t' '!/^#/ && $4 == "R" { print $1 " x " $2 }' "$CELLS" | sort > "$TMP/want"
		# lines of the second file not in the first
		awk 'NR == FNR { in1[$0] = 1; next } !($0 in in1)' "$TMP/want" "$TMP/got" > "$TMP/extra"
		awk 'NR == FNR { in1[$0] = 1; next } !($0 in in1)' "$TMP/got" "$TMP/want" > "$TMP/missing"
		extra=$(wc -l < "$TMP/extra") missing=$(wc -l < "$TMP/missing")
		head -5 "$TMP/extra" | sed "s/^/# $name: mismatch not in the patched R cells: /" >&3
		head -5 "$TMP/missing" | sed "s/^/# $name: patched R cell not mismatching on 6.12: /" >&3
		if [ "$got" = fail ] && [ "$extra" = 0 ] && [ "$missing" = 0 ] && [ -s "$TMP/want" ]; then
			echo "ok $name # 6.12: fails on exactly the $(wc -l < "$TMP/want") cells the patched table refuses: $why"
		else
			echo "not ok $name # 6.12: $got, $(wc -l < "$TMP/got") mismatches, $extra not in the patched R cells, $missing R cells not mismatching"
		fi ;;
	*) echo "not ok $name # intree-diff.list: unknown expectation '$exp' (pass, fail:<predicted message> or matrix)" ;;
	esac >> "$RES"
done
rm -rf "$TMP"
! grep -q '^not ok' "$RES"
