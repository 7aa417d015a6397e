#!/usr/bin/env bash
# What a maintainer checks before taking the series, patch by patch:
#   - it applies with `git am` on top of the previous ones,
#   - scripts/checkpatch.pl --strict reports no error and no warning,
#   - scripts/kernel-doc warns no more about the kernel files it touches
#     than before it,
#   - its author signed it off (a Signed-off-by: equal to its From:),
#   - the kernel builds (bisectability), with the project's config, with
#     clang and with gcc (in a second worktree), with no compiler warning in
#     a file the patch touches,
#   - the kernel objects the series touches compile with W=1, with clang and
#     with gcc, with no more warnings about the series' files than at the
#     previous patch (the pristine tree for the first one),
#   - with BOOT=1, at every patch that touches kernel code: the in-tree
#     sched_ext selftests of the tree at that patch, built against its
#     kernel and run in QEMU (scripts/intree-boot.sh), pass,
# and, once all are applied, that no kf_mask is left in the scheduler, and
# with BOOT=1 that the in-tree matrix test catches a wrong table: one cell
# of scx_op_kfunc_groups[] flipped in a kernel built for it must make
# kfunc_context_matrix fail naming that cell (scripts/table-mutation.sh).
#
# One KTAP line per check; the plain "N passed, N failed" line last. The
# worktree lives in the cache and builds incrementally through ccache, so
# after `make kernel` most objects are cache hits.
#
# Usage: check-series.sh SERIES_FILE FRAGMENT...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/ktap-write.sh"
. "$here/ktap-read.sh"
. "$here/kbuild.sh"

[ $# -ge 2 ] || die "usage: $0 SERIES_FILE FRAGMENT..."
series=$1
shift
patches=$("$here/series-files.sh" "$series")
[ -n "$patches" ] || die "no patches listed in $series"

mkdir -p "$CACHE_DIR/build"
exec 9>"$CACHE_DIR/build/.lock"
flock -n 9 || {
	log "another kernel build holds $CACHE_DIR/build/.lock; waiting"
	flock 9
}

pristine=$("$here/prepare-tree.sh")
dir="$CACHE_DIR/build/series-check"
gdir="$CACHE_DIR/build/series-check-gcc"
rm -rf "$dir" "$gdir"
git -C "$pristine" worktree prune
git -C "$pristine" worktree add -q --detach "$dir" HEAD >/dev/null
git -C "$pristine" worktree add -q --detach "$gdir" HEAD >/dev/null
"$here/merge-config.sh" "$dir" "$@"

# gcc gets the same fragments; olddefconfig settles what depends on the
# compiler (CC_IS_GCC and friends).
command -v gcc >/dev/null || die "gcc not found: run scripts/install-deps.sh (it installs gcc)"
gmake() {
	local tree=$1
	shift
	nice -n 10 make -C "$tree" -j"$(nproc)" CC="ccache gcc" HOSTCC=gcc "$@"
}
cp "$dir/.config" "$gdir/.config"
run_logged "$gdir/.scx-prepare.log" gmake "$gdir" olddefconfig prepare ||
	die "gcc could not prepare $gdir, see $gdir/.scx-prepare.log"

# The series' files, and the objects that compile its .c files (ext.c is
# compiled inside kernel/sched/build_policy.c).
mapfile -t patch_list <<<"$patches"
series_files=$(grep -hoE '^\+\+\+ b/.*' "${patch_list[@]}" | cut -c7- | sort -u)
objects=$(grep -E '^kernel/.*\.c$' <<<"$series_files" | while read -r f; do
	inc=$(grep -lE "^# *include \"$(basename "$f")\"" "$(dirname "$dir/$f")"/build_*.c 2>/dev/null | head -1 || true)
	if [ -n "$inc" ]; then echo "${inc#"$dir/"}"; else echo "$f"; fi
done | sed 's/\.c$/.o/' | sort -u)
[ -n "$objects" ] || die "the series touches no kernel .c file: nothing to compile with W=1"
mapfile -t object_list <<<"$objects"

# w1_warnings CC TREE: build the series' objects in TREE with W=1 and print
# the warnings located in a file the series touches, without line numbers.
w1_warnings() {
	local cc=$1 tree=$2 out
	out="$tree/.scx-w1.log"
	(cd "$tree" && rm -f "${object_list[@]}")
	if [ "$cc" = gcc ]; then
		gmake "$tree" W=1 "${object_list[@]}" >"$out" 2>&1 || { echo "BUILD FAILED"; tail -20 "$out"; return 0; }
	else
		kmake "$tree" W=1 "${object_list[@]}" >"$out" 2>&1 || { echo "BUILD FAILED"; tail -20 "$out"; return 0; }
	fi
	# shellcheck disable=SC2001 # a suffix for each line of a multi-line value
	grep -E '(warning|error):' "$out" | sed -E 's|^\./||; s|^([^:]+):[0-9]+:[0-9]+:|\1:|' |
		grep -F -f <(sed 's/$/:/' <<<"$series_files") | sort || true
}
# touches_kernel PATCH: the patch changes kernel code (kernel/ or include/)
touches_kernel() { grep -qE '^\+\+\+ b/(kernel|include)/' "$1"; }

declare -A w1_prev
for cc in clang gcc; do
	t=$dir
	[ "$cc" = clang ] || t=$gdir
	w1_prev[$cc]=$(w1_warnings "$cc" "$t")
	! grep -q '^BUILD FAILED' <<<"${w1_prev[$cc]}" ||
		die "the pristine tree's W=1 objects do not build with $cc: ${w1_prev[$cc]}"
done

result() { # result OK|FAIL NAME [DIAG]
	if [ "$1" = OK ]; then
		kt_ok "$2"
	else
		kt_not_ok "$2"
		kt_diag "${3:-}"
	fi
}

# build_kernel CHECK MAKE_FN TREE: bzImage at patch $i ($name), the check
# failing on a warning or error in a file this patch touches. Warnings
# elsewhere are the tree's own (clang-19 stack frame sizes, say).
build_kernel() {
	local check=$1 mk=$2 tree=$3 start touched warns logf
	logf="$tree/.scx-build-$i.log"
	start=$(date +%s)
	if ! run_logged "$logf" "$mk" "$tree" bzImage; then
		result FAIL "$check:$name" "$(grep -E 'error|Error' "$logf" | head -20)"
		return 0
	fi
	touched=$(git -C "$tree" diff --name-only HEAD~1 HEAD)
	# shellcheck disable=SC2001 # a suffix for each line of a multi-line value
	warns=$(grep -F -f <(sed 's/$/:/' <<<"$touched") "$logf" | grep -E 'warning:|error:' || true)
	if [ -n "$warns" ]; then
		result FAIL "$check:$name" "$warns"
	else
		result OK "$check:$name"
	fi
	echo "# $check: built in $(($(date +%s) - start))s;" \
		"$(grep -c 'warning:' "$logf" || true) warning(s) in the whole build," \
		"$(grep -c . <<<"$warns" || true) in the files it touches"
}

# kdoc_warnings REV FILE: kernel-doc's warnings for FILE at REV (0 if absent)
kdoc_warnings() {
	local tmp
	tmp=$(mktemp --suffix=."${2##*.}")
	if git -C "$dir" show "$1:$2" >"$tmp" 2>/dev/null; then
		perl "$dir/scripts/kernel-doc" -none "$tmp" 2>&1 | grep -c 'warning' || true
	else
		echo 0
	fi
	rm -f "$tmp"
}

kt_header
boots=0
if [ "${BOOT:-0}" = 1 ]; then
	for p in $patches; do
		touches_kernel "$p" && boots=$((boots + 1))
	done
fi
# per patch: am checkpatch signed-off kernel-doc build build-gcc w1-clang
# w1-gcc, and intree-selftests where it boots; then no-kf_mask-left, and
# table-mutation-caught with BOOT=1 (the end checks the count ran)
plan=$(($(wc -l <<<"$patches") * 8 + boots + 1 + ${BOOT:-0}))
kt_plan "$plan"
echo "# W=1 objects: ${object_list[*]}; pristine tree: $(grep -c . <<<"${w1_prev[clang]}" || true) clang, $(grep -c . <<<"${w1_prev[gcc]}" || true) gcc warning(s) in the series' files"
i=0
while read -r p; do
	i=$((i + 1))
	name=$(basename "$p" .patch)
	p=$(readlink -f "$p")
	if git -C "$dir" -c user.name=scx-kfilter -c user.email=scx-kfilter@localhost \
		am --quiet "$p" >"$dir/.scx-am.log" 2>&1; then
		result OK "am:$name"
	else
		result FAIL "am:$name" "$(cat "$dir/.scx-am.log")"
		git -C "$dir" am --abort >/dev/null 2>&1 || true
		break
	fi

	# The summary line is the verdict: no line (checkpatch did not run or
	# found no patch) is a failure, not a pass.
	# Two checks are left out, and what they would check is shown:
	# UNKNOWN_COMMIT_ID, as the tree is a tarball with no upstream history
	# (every upstream id, a Fixes: tag's, is unknown to it); and
	# FILE_PATH_CHANGES, which asks whether MAINTAINERS needs updating for
	# any new file: get_maintainer.pl's answer for each is printed.
	# Debian's python3 (checkpatch's spdxcheck.py needs python3-ply), not a
	# python3 that PATH may find first (pyenv).
	cp=$({ cd "$dir" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p" 2>&1; } || true)
	added=$(grep -oE '^\+\+\+ b/.*' "$p" | cut -c7- |
		while read -r f; do [ -e "$dir/$f" ] && ! git -C "$dir" cat-file -e "HEAD~1:$f" 2>/dev/null && echo "$f"; done || true)
	ids=$(grep -oE '^Fixes: [0-9a-f]{12,40} \(.*\)$' "$p" || true)
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings' <<<"$cp" || true)
	if [ -z "$total" ] || ! grep -qE '^total: 0 errors, 0 warnings' <<<"$total"; then
		result FAIL "checkpatch:$name" "${cp:-checkpatch printed nothing}"
	else
		# --strict CHECKs are reported, not fatal.
		result OK "checkpatch:$name"
		echo "# $total"
		grep -E '^CHECK:' <<<"$cp" | sed 's/^/# /' || true
		# shellcheck disable=SC2001 # a prefix for each line of a multi-line value
		[ -z "$ids" ] || sed 's/^/# not checked against git (no history): /' <<<"$ids"
		for f in $added; do
			echo "# new file $f, maintained by: $({ cd "$dir" && ./scripts/get_maintainer.pl --no-git --no-rolestats -f "$f" 2>/dev/null | paste -sd, -; } || true)"
		done
	fi

	from=$(sed -n 's/^From: //p' "$p" | head -1)
	if grep -qxF "Signed-off-by: $from" "$p"; then
		result OK "signed-off:$name"
	else
		result FAIL "signed-off:$name" "no 'Signed-off-by: $from' (the From: line) in the patch"
	fi

	kd_before=0 kd_after=0
	for f in $(git -C "$dir" diff --name-only HEAD~1 HEAD | grep -E '^(kernel|include)/.*\.[ch]$' || true); do
		kd_before=$((kd_before + $(kdoc_warnings HEAD~1 "$f")))
		kd_after=$((kd_after + $(kdoc_warnings HEAD "$f")))
	done
	if [ "$kd_after" -gt "$kd_before" ]; then
		result FAIL "kernel-doc:$name" "kernel-doc warnings in the touched files: $kd_before before, $kd_after after"
	else
		result OK "kernel-doc:$name"
		echo "# kernel-doc warnings in the touched files: $kd_before before, $kd_after after"
	fi

	build_kernel build kmake "$dir"

	git -C "$gdir" checkout -q --detach "$(git -C "$dir" rev-parse HEAD)"
	kernel_touched=0
	touches_kernel "$p" && kernel_touched=1

	# The whole kernel with gcc too: a header the series changes is seen
	# by objects far from the series' own. A patch that touches no kernel
	# or include file leaves the previous patch's gcc kernel as it was.
	if [ "$kernel_touched" = 1 ]; then
		build_kernel build-gcc gmake "$gdir"
	else
		result OK "build-gcc:$name"
		echo "# build-gcc: no kernel or include file touched: the previous patch's gcc kernel stands"
	fi
	for cc in clang gcc; do
		if [ "$kernel_touched" = 0 ]; then
			# no kernel file changed: the objects are the previous patch's
			result OK "w1-$cc:$name"
			echo "# no kernel or include file touched: the series' objects are unchanged"
			continue
		fi
		t=$dir
		[ "$cc" = clang ] || t=$gdir
		now=$(w1_warnings "$cc" "$t")
		new=$(comm -13 <(sort <<<"${w1_prev[$cc]}") <(sort <<<"$now") | grep . || true)
		if [ -n "$new" ]; then
			result FAIL "w1-$cc:$name" "new W=1 warning(s) in the series' files:
$new"
		else
			result OK "w1-$cc:$name"
			echo "# $(grep -c . <<<"$now" || true) W=1 warning(s) in the series' files, none new"
		fi
		w1_prev[$cc]=$now
	done

	if [ "${BOOT:-0}" = 1 ] && [ "$kernel_touched" = 1 ]; then
		start=$(date +%s)
		rep=$("$here/intree-boot.sh" "$dir" "$i" || true)
		if totals=$(kt_parse_totals "$(tail -n 1 <<<"$rep")") && [[ $totals =~ ^[1-9][0-9]*\ 0\  ]]; then
			result OK "intree-selftests:$name"
		else
			result FAIL "intree-selftests:$name" "$(grep -E '^ *not ok|passed,' <<<"$rep" | head -20)"
		fi
		echo "# in-tree selftests at this patch: $(tail -n 1 <<<"$rep") ($(($(date +%s) - start)) s; console $dir/.scx-boot-console-$i.log)"
	fi
done <<<"$patches"

left=$({ cd "$dir" && grep -rn kf_mask kernel/sched include/linux/sched; } || true)
if [ -z "$left" ]; then
	result OK "no-kf_mask-left"
else
	result FAIL "no-kf_mask-left" "$left"
fi

# The in-tree matrix against a wrong table (BOOT=1): scripts/table-mutation.sh.
if [ "${BOOT:-0}" = 1 ]; then
	mut=$("$here/table-mutation.sh" "$dir" 2>&1 || true)
	if grep -q '^ok 1 table-mutation-caught$' <<<"$mut"; then
		result OK table-mutation-caught
		grep '^# ' <<<"$mut" || true
	else
		result FAIL table-mutation-caught "$(grep -v '^not ok 1 ' <<<"$mut" | sed 's/^# //')"
	fi
fi

if [ "$(kt_count)" -ne "$plan" ]; then
	kt_diag "the plan said $plan checks and $(kt_count) reported: a check that never ran (or a plan to fix in $0) fails the run"
	kt_fail_uncounted
fi
kt_totals
