#!/usr/bin/env bash
# scripts/lib.sh's run_logged: a build script killed on its own (not its
# whole process group) must not leave its heartbeat behind. The heartbeat
# is a fork of the script and keeps its open files: a leftover one held
# build-payload.sh's lock forever and every later build waited on it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A stand-in for build-payload.sh: takes a lock on fd 8, then a long step.
cat >"$tmp/build.sh" <<SH
#!/usr/bin/env bash
set -euo pipefail
. "$top/scripts/lib.sh"
exec 8>"$tmp/lock"
flock 8
run_logged "$tmp/step.log" sleep 2
SH
chmod +x "$tmp/build.sh"

HEARTBEAT_S=1 "$tmp/build.sh" 2>"$tmp/err" &
pid=$!
sleep 1.5
check lock-held-while-running "the stand-in did not take its lock" \
	bash -c "! flock -n '$tmp/lock' true"
kill -TERM "$pid"
wait "$pid" 2>/dev/null || true
# The step (sleep 2) ends by itself; the heartbeat must see its script is
# gone within one more interval. Give both 5 s.
i=0
while ! flock -n "$tmp/lock" true && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check lock-released-after-kill "the lock is still held 5 s after the script was killed (a leftover heartbeat?)" \
	flock -n "$tmp/lock" true
check heartbeat-printed "no heartbeat line: $(cat "$tmp/err")" grep -q '^    \.\.\. ' "$tmp/err"
# A script that ends normally frees its lock at once: the heartbeat's last
# sleep, which outlives it, must not hold the lock's fd (the next stage of
# make check waited up to a heartbeat period on it).
HEARTBEAT_S=1 "$tmp/build.sh" 2>/dev/null
check lock-free-after-return "the lock is held after the script returned (the heartbeat's sleep kept its fd)" \
	flock -n "$tmp/lock" true
done_testing
