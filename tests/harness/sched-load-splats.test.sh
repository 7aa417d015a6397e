#!/usr/bin/env bash
# sched-load's guest check calls the same lines splats as the host: its
# list is scripts/splat-patterns.txt as packed by build.sh (less the
# sched_ext stall kind, which each run judges against its expectations),
# plus the guest's few extras in log-patterns; log-patterns keeps no copy
# of the list. Runs run-guest.sh's own lines that build the list, with
# busybox when there is one (the guest's shell, awk and grep).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
sl=$top/selftests/sched-load
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2016 # $1 is the inner bash's
check no-copy-in-log-patterns "log-patterns still lists splats of its own: $(grep -E '^splat[[:space:]]' "$sl/log-patterns" | head -3)" \
	bash -c '! grep -qE "^splat[[:space:]]" "$1"' _ "$sl/log-patterns"
# shellcheck disable=SC2016 # "$OUT" is the literal text looked for in build.sh
check build-packs-splat-patterns "build.sh does not install scripts/splat-patterns.txt as splat-patterns" \
	grep -q 'scripts/splat-patterns.txt" "$OUT/splat-patterns"' "$sl/build.sh"

# run-guest.sh's lines that write $LOGDIR/splat.re, in a packed-like dir
mkdir "$tmp/pack"
cp "$top/scripts/splat-patterns.txt" "$tmp/pack/splat-patterns"
cp "$sl/log-patterns" "$tmp/pack/"
# shellcheck disable=SC2016 # $LOGDIR is the literal text looked for in run-guest.sh
sed -n '/^awk .*splat-patterns > "\$LOGDIR\/splat.re"$/,/>> "\$LOGDIR\/splat.re"$/p' "$sl/run-guest.sh" >"$tmp/make-re.sh"
check found-the-lines "no splat.re lines in run-guest.sh" test "$(wc -l <"$tmp/make-re.sh")" = 2
sh=(bash) grep=(grep)
command -v busybox >/dev/null && sh=(busybox sh) grep=(busybox grep)
(cd "$tmp/pack" && LOGDIR=$tmp "${sh[@]}" "$tmp/make-re.sh")
want=$(($(grep -v '^#' "$top/scripts/splat-patterns.txt" | grep -c ';') - 1 + $(grep -c '^splat-extra' "$sl/log-patterns")))
check same-list "splat.re has $(wc -l <"$tmp/splat.re") lines, want $want (the host's but one, and the extras)" \
	test "$(wc -l <"$tmp/splat.re")" = "$want"

printf '%s\n' "[  1.0] WARNING: CPU: 1 PID: 2 at kernel/x.c:1 f+0x1/0x2" \
	"[  2.0] WARNING: possible circular locking dependency detected" \
	"[  3.0] BUG: KASAN: slab-use-after-free in f+0x1/0x2" \
	"[  4.0] Out of memory: Killed process 5 (loadgen)" >"$tmp/splats"
printf '%s\n' '[  5.0] sched_ext: BPF scheduler "qmap" disabled (runnable task stall)' \
	'[  6.0] sched_ext: BPF scheduler "qmap" enabled' "[  7.0] smpboot: CPU 1 is now offline" >"$tmp/clean"
check guest-grep-fires "${grep[*]} missed: $("${grep[@]}" -v -E -f "$tmp/splat.re" "$tmp/splats")" \
	test "$("${grep[@]}" -c -E -f "$tmp/splat.re" "$tmp/splats")" = 4
# shellcheck disable=SC2016 # $1 and $@ are the inner bash's
check guest-grep-leaves-sched-ext "${grep[*]} fired on: $("${grep[@]}" -E -f "$tmp/splat.re" "$tmp/clean")" \
	bash -c '! "${@:2}" -q -E -f "$1/splat.re" "$1/clean"' _ "$tmp" "${grep[@]}"
done_testing
