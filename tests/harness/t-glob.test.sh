#!/usr/bin/env bash
# T=, the one test filter (initramfs/t-glob.sh): globs over suite:test
# names, comma-separated, a pattern without ":" naming suites (kunit.py's
# --filter_glob). The same file under bash (the host: Makefile, run.sh)
# and busybox sh (the guest): patterns that must match, must not, the
# suite gate the guest's suites skip by, patterns refused with one line
# (by the function and by make, before anything runs), and every name
# make list-tests prints for a kernel selecting itself. No kernel build,
# no QEMU, a few seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# PATTERN|NAME|yes or no: does PATTERN select NAME
cat >"$tmp/match" <<'X'
|neg:consume-from-enqueue|yes
neg|neg:consume-from-enqueue|yes
neg:|neg:consume-from-enqueue|yes
neg|negx:consume|no
ne|neg:consume-from-enqueue|no
consume|neg:consume-from-enqueue|no
matrix|matrix|yes
matrix|matrix-spec-flip:real-lists|no
scx-selftest:*dispatch*|scx-selftest:select_cpu_dispatch|yes
scx-selftest:*dispatch*|scx-selftest:select_cpu_dfl_nodispatch|yes
scx-selftest:*dispatch*|scx-selftest:minimal|no
scx-selftest:*dispatch*|scx-selftest-exit:select_cpu_dispatch|no
scx-selftest:minimal|scx-selftest:minimal|yes
scx-selftest:minimal|scx-selftest:minimal_plus|no
scx-selftest:min|scx-selftest:minimal|no
neg:,pos:|pos:select-cpu-dfl|yes
neg:,pos:|baseline-diff:consume-from-enqueue|no
scx-selftest:minimal,sched:scx_simple|sched:scx_simple|yes
scx-selftest:minimal,sched:scx_simple|sched:scx_simple-f|no
*:*dispatch*|async:consume-from-dispatch-timer|yes
*:*dispatch*|sched:scx_simple|no
*|bad-input:tarball:missing|yes
scx*|scx-simple:enabled|yes
scx*|sched:scx_simple|no
bad-input:tarball:|bad-input:tarball:missing|yes
bad-input:tarball:|bad-input:cache-dir:full|no
scx-selftest:[ms]inimal|scx-selftest:minimal|yes
scx-selftest:[!m]inimal|scx-selftest:minimal|no
sched:scx_qmap-b?H|sched:scx_qmap-b-H|yes
callsite:direct@dispatch|callsite:direct@dispatch|yes
callsite:direct@*|callsite:static@dispatch|no
X
# PATTERN|SUITE|yes or no: may PATTERN select a SUITE:... name
cat >"$tmp/suite" <<'X'
|scx|yes
neg|neg|yes
neg|pos|no
neg:,pos:x|pos|yes
scx-selftest:*dispatch*|scx-selftest|yes
scx-selftest:*dispatch*|scx-selftest-exit|no
scx-*:x|scx-selftest|yes
scx-*:x|neg|no
*:*dispatch*|neg|yes
sched-load|sched-load|yes
X
# patterns T= refuses
# shellcheck disable=SC2016 # a literal $ on purpose: a refused character
bad=('a b' "a'b" 'a;b' 'a$b' 'a"b' 'a\b' 'a(b)' 'a^b' 'a,' ',a' 'a,,b' 'x[ab' 'xab]' 'x[]' 'a!b')

# run SHELL: every line above through the matcher under SHELL, one
# "KIND|LINE|got" line each
run() {
	# shellcheck disable=SC2016 # expanded by that shell, given the files as $1..$3
	"$1" -c '
	. "$1"
	while IFS="|" read -r p n want; do
		if t_glob_match "$p" "$n"; then g=yes; else g=no; fi
		echo "match|$p|$n|$want|$g"
	done <"$2"
	while IFS="|" read -r p n want; do
		if t_glob_suite "$p" "$n"; then g=yes; else g=no; fi
		echo "suite|$p|$n|$want|$g"
	done <"$3"
	shift 3
	for p in "$@"; do
		if e=$(t_glob_check "$p" 2>&1); then g=accepted; else g=$(printf "%s\n" "$e" | wc -l); fi
		echo "bad|$p|$g"
	done' sh "$top/initramfs/t-glob.sh" "$tmp/match" "$tmp/suite" "${bad[@]}"
}

for sh in bash busybox; do
	if [ "$sh" = busybox ] && ! command -v busybox >/dev/null; then
		skip "$sh:all" "no busybox on this host (the guest's shell)"
		continue
	fi
	shell=$sh
	[ "$sh" = busybox ] && shell="$tmp/bbsh" && printf '#!/bin/sh\nexec busybox sh "$@"\n' >"$shell" && chmod +x "$shell"
	run "$shell" >"$tmp/$sh.out"
	while IFS='|' read -r kind p n want got; do
		case $kind in
		match | suite)
			[ "$want" = yes ] && verb=selects || verb=leaves-out
			[ "$kind" = suite ] && { [ "$want" = yes ] && verb=may-select-suite || verb=skips-suite; }
			# the name of the check, in T='s own characters
			name=$sh:$verb:${p:-empty}:$n
			name=${name//[^A-Za-z0-9_.:@+\/=-]/_}
			check "$name" "T='$p' on '$n': got $got, want $want" test "$got" = "$want" ;;
		bad)
			i=$((${i:-0} + 1))
			name=$sh:refuses-$i:$p
			name=${name//[^A-Za-z0-9_.:@+\/=-]/_}
			check "$name" "T='$p': $n (want one error line)" test "$n" = 1 ;;
		esac
	done <"$tmp/$sh.out"
	# (the bad lines: "bad|PATTERN|GOT", read above as p=PATTERN n=GOT)
	i=0
done

# make refuses a bad T= before anything runs: one line naming it, exit 2
rc=0
make -s -C "$top" --no-print-directory list-tests T='neg;x' >"$tmp/make.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/make.out"
check make-refuses-bad "make T='neg;x' exited $rc, or printed other than one line naming T" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/make.out') -eq 1 ] && grep -q \"T='neg;x'\" '$tmp/make.out'"
rc=0
make -s -C "$top" --no-print-directory -n list-tests T='scx-selftest:*dispatch*,neg:' >"$tmp/make.out" 2>&1 || rc=$?
check make-takes-glob "make T='scx-selftest:*dispatch*,neg:' exited $rc" test "$rc" -eq 0

# Every name make list-tests prints for the kernels (their last full runs,
# if any) is a valid T= that selects itself and no other name: with a ":"
# a name has no glob, so it is its one match; without, it names a suite no
# other name has. (The harness's names are this checkout's, not a stored
# run's: splat-patterns.test.sh checks the ones it builds from data.)
make -s -C "$top" --no-print-directory list-tests 2>/dev/null |
	awk '/^# harness:/ { exit } !/^#/' | sort -u >"$tmp/names" || true
if [ ! -s "$tmp/names" ]; then
	skip names-select-themselves "no full run of a kernel stored yet to list its names (make check-one once without T=)"
	done_testing
	exit
fi
# shellcheck disable=SC2016 # expanded by that bash, given the files as $1 $2
bad_names=$(bash -c '. "$1"; while IFS= read -r n; do
	t_glob_check "$n" 2>/dev/null && t_glob_match "$n" "$n" || echo "$n"; done <"$2"' sh "$top/initramfs/t-glob.sh" "$tmp/names")
check names-are-patterns "names that are no T= selecting themselves: $(head -n 5 <<<"$bad_names" | paste -sd' ' -)" test -z "$bad_names"
shared=$(awk -F: 'NF == 1 { bare[$1] = 1 } NF > 1 { pre[$1] = 1 } END { for (b in bare) if (b in pre) print b }' "$tmp/names")
check bare-names-alone "names without ':' that are also suites of other names: $shared" test -z "$shared"

done_testing
