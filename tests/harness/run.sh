#!/usr/bin/env bash
# Host-side tests of the harness itself (tests/harness/*.test.sh): splat
# detection on synthetic logs, run-qemu.sh and ktap-report.sh on broken
# kernels and guests. One KTAP document, renumbered, then
# "N passed, N failed" (", N skipped" if any); exit 0 only if none failed.
#
# T=PATTERN (make check T=) keeps only the results whose "file:test" name
# it selects, and runs only the files some of whose names it may select:
# the guest's matcher (initramfs/t-glob.sh), the file's name as the suite.
#
# HARNESS=quick (the default, what CI runs) leaves out the parts that boot
# a kernel in QEMU (about 8 of the 10 minutes): each such file reports one
# "# SKIP HARNESS=full" line for them (HARNESS_NO_BOOT=1 in its
# environment) and still runs its checks that boot nothing. HARNESS=full
# runs everything.
#
# HARNESS_PROGRESS=LABEL: after each file, one line on stderr, "LABEL:
# FILE P/N ok, SECONDS" (make check's quiet screen).
#
# Usage: tests/harness/run.sh [TEST_FILE...]   (default: all of them)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/scripts/ktap-read.sh"
. "$top/scripts/ktap-write.sh"
. "$top/scripts/progress.sh"
# shellcheck source=../../initramfs/t-glob.sh
. "$top/initramfs/t-glob.sh"
T=${T:-}
t_glob_check "$T" || exit 2
case "${HARNESS:=quick}" in
quick) export HARNESS_NO_BOOT=1 ;;
full) unset HARNESS_NO_BOOT ;;
*) echo "tests/harness/run.sh: HARNESS=$HARNESS: want quick or full" >&2 && exit 2 ;;
esac

files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here"/*.test.sh)
out=$(mktemp)
trap 'rm -f "$out" "$out.file" "$out.sel" "$out.doc"' EXIT
# renumber FILE: the files' "ok - file:test" lines numbered in order
renumber() { awk '/^(not )?ok - / { n++; sub(/ - /, " " n " ") } { print }' "$1"; }

start=$SECONDS
for f in "${files[@]}"; do
	[ -x "$f" ] || { echo "tests/harness/run.sh: not an executable test: $f" >&2 && exit 2; }
	t=$(basename "$f" .test.sh)
	t_glob_suite "$T" "$t" || continue
	t0=$SECONDS
	rc=0
	# Result lines get the file's name as prefix; "# " lines pass through.
	"$f" 2>&1 | sed -E "s/^((not )?ok) [0-9]+ /\1 - $t:/" >"$out.file" || rc=$?
	while IFS= read -r l; do
		case "$l" in
		"ok - "* | "not ok - "*)
			n=${l#not }
			n=${n#ok - }
			n=${n%%#*}
			n=${n%"${n##*[! ]}"}
			t_glob_match "$T" "$n" || continue ;;
		esac
		printf '%s\n' "$l"
	done <"$out.file" >"$out.sel"
	cat "$out.sel" >>"$out"
	echo "# $t: $((SECONDS - t0)) s" >>"$out"
	if [ -n "${HARNESS_PROGRESS:-}" ]; then
		read -r fp ff fs < <(kt_count_results <(renumber "$out.sel"))
		[ "$rc" = 0 ] || grep -q "^not ok - $t:" "$out.file" || ff=$((ff + 1))
		msg="$t $fp/$((fp + ff + fs)) ok"
		[ "$ff" = 0 ] || msg="$msg, $ff FAILED"
		[ "$fs" = 0 ] || msg="$msg, $fs skipped"
		[ $((fp + ff + fs)) = 0 ] || echo "$HARNESS_PROGRESS: $msg, $(fmt_secs $((SECONDS - t0)))" >&2
	fi
	# A test file that died without reporting its failure still fails,
	# whatever T= selects.
	[ "$rc" = 0 ] || grep -q "^not ok - $t:" "$out.file" ||
		echo "not ok - $t:exit-status # the test file exited $rc" >>"$out"
done

renumber "$out" >"$out.doc"
read -r passed failed skipped < <(kt_count_results "$out.doc")
kt_header
kt_plan $((passed + failed + skipped))
cat "$out.doc"
echo "# harness tests: $((SECONDS - start)) s"
kt_summary "$passed" "$failed" "$skipped"
[ "$failed" = 0 ]
