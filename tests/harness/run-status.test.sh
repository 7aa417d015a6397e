#!/usr/bin/env bash
# scripts/run.sh exits with the guest command's own status, read from the
# console log's last "SCX-GUEST-EXIT: N" line, and 125 when there is none.
# Synthetic logs (--from-log), then the wrapper with a stand-in for make
# that writes a log where make run would: nothing boots.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=$top/scripts/run.sh

# status_is NAME WANT LOG: --from-log on LOG exits WANT
status_is() {
	local rc=0
	"$run" --from-log "$3" >"$tmp/$1.out" 2>&1 || rc=$?
	check "$1" "exit $rc, want $2: $(cat "$tmp/$1.out")" test "$rc" -eq "$2"
}

# Console lines end in \r; the guest's own output comes before the marker.
printf 'init: running the command\r\nSCX-GUEST-EXIT: 0\r\n' >"$tmp/exit0.log"
status_is exit-0 0 "$tmp/exit0.log"
printf 'from-the-guest\r\nSCX-GUEST-EXIT: 3\r\n[   12.0] reboot: Power down\r\n' >"$tmp/exit3.log"
status_is exit-3 3 "$tmp/exit3.log"
check says-status "no 'guest command exited 3' line" grep -q 'guest command exited 3' "$tmp/exit-3.out"
printf 'Kernel panic - not syncing: Attempted to kill init!\r\n' >"$tmp/panic.log"
status_is no-marker 125 "$tmp/panic.log"
check says-never-finished "no 'never finished' line" grep -q 'never finished' "$tmp/no-marker.out"
# A marker the command printed itself is not the status: only a whole line.
printf 'echo SCX-GUEST-EXIT: 7\r\nSCX-GUEST-EXIT: 1\r\n' >"$tmp/echoed.log"
status_is whole-line-only 1 "$tmp/echoed.log"
status_is missing-log 125 "$tmp/no-such.log"

# The wrapper, with make replaced: it writes a console log where the
# recipe tells the wrapper (SCX_RUN_LOG_PATH), then fails as make does.
cat >"$tmp/fake-make" <<'EOF'
#!/usr/bin/env bash
# fake make: the arguments it got, a console log with the status in $STATUS
printf '%s\n' "$@" >"$FAKE_DIR/args"
[ -n "$STATUS" ] || exit 2
echo "$FAKE_DIR/run.log" >"$SCX_RUN_LOG_PATH"
printf 'SCX-GUEST-EXIT: %s\r\n' "$STATUS" >"$FAKE_DIR/run.log"
[ "$STATUS" = 0 ] || exit 2
EOF
chmod +x "$tmp/fake-make"
wrap() { # wrap STATUS ARGS...: scripts/run.sh ARGS with the fake make; its exit
	local rc=0
	MAKE=$tmp/fake-make FAKE_DIR=$tmp STATUS=$1 "$run" "${@:2}" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}
check wrapper-exit-3 "scripts/run.sh 'exit 3' exited $(wrap 3 'exit 3'), not 3" test "$(wrap 3 'exit 3')" = 3
check wrapper-exit-0 "scripts/run.sh true did not exit 0" test "$(wrap 0 true)" = 0
check wrapper-no-boot "make failing before the boot did not give 125" test "$(wrap '' true)" = 125
wrap 0 DEBUG=1 'echo a b' >/dev/null
check wrapper-passes-vars "make got: $(paste -sd' ' "$tmp/args")" \
	grep -qxF 'DEBUG=1' "$tmp/args"
check wrapper-passes-cmd "make got: $(paste -sd' ' "$tmp/args")" \
	grep -qxF 'CMD=echo a b' "$tmp/args"
check wrapper-usage "a non-VAR=value before CMD was accepted" test "$(wrap 0 foo 'echo')" = 2
done_testing
