#!/usr/bin/env bash
# make run CMD='...' runs one command in a booted guest and fails exactly
# when the command does, saying with which status: "exit 3" must fail with
# "guest command exited 3", a command that checks the guest has sched_ext
# must pass. Boots the cached patched kernel twice (make builds what is
# missing first).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
env -u RUN_ID make -s -C "$top" --no-print-directory run >"$tmp/nocmd.out" 2>&1 || rc=$?
check needs-cmd "make run without CMD exited $rc or said nothing about CMD" \
	sh -c "[ $rc -ne 0 ] && grep -q 'needs CMD' '$tmp/nocmd.out'"
no_boot boots "two boots of the patched kernel through make run (about 160 s)" && { done_testing; exit; }

rc=0
env -u RUN_ID make -s -C "$top" --no-print-directory run CMD='echo from-the-guest; exit 3' \
	>"$tmp/fail.out" 2>&1 || rc=$?
grep -E 'from-the-guest|guest command exited' "$tmp/fail.out" | tr -d '\r' | sed 's/^/# /' || true
check fails-on-failure "make run of 'exit 3' exited $rc" test "$rc" -ne 0
check says-status "no 'guest command exited 3' line" \
	grep -q 'guest command exited 3' "$tmp/fail.out"
check runs-in-guest "the command's output is not on the console" \
	grep -q '^from-the-guest' <(tr -d '\r' <"$tmp/fail.out")

rc=0
env -u RUN_ID make -s -C "$top" --no-print-directory run CMD='test -e /sys/kernel/sched_ext/state' \
	>"$tmp/pass.out" 2>&1 || rc=$?
check passes-on-success "make run of a passing command exited $rc" test "$rc" -eq 0

done_testing
