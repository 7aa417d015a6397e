#!/bin/sh
# Smoke test of a real BPF scheduler: scx_simple attaches under a
# CPU-spinning load (state becomes enabled), and detaches on SIGINT (state
# returns to disabled).
# shellcheck source=../ktap.sh # the build installs initramfs/ktap.sh there
. /scx/ktap.sh
scx_t_suite scx-simple || { ktap_plan; exit 0; }
# The names a run that gets through reports (the early exits below fail
# with one line, and the host counts the rest of the plan as unreported).
ktap_plan scx-simple:enabled scx-simple:ops-name scx-simple:still-enabled-under-load \
	scx-simple:exits-on-sigint scx-simple:disabled-after-sigint

if ! command -v scx_simple >/dev/null; then
	ktap_not_ok scx-simple:present "scx_simple not in the initramfs"
	ktap_done
	exit
fi
if ! scx_state_is disabled; then
	ktap_not_ok scx-simple:starts-disabled "state is '$(scx_state)' before the test"
	ktap_done
	exit
fi

# One spinner per CPU, so the scheduler has real work to do.
spinners=""
for _ in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	spinners="$spinners $!"
done

log=/tmp/scx_simple.out
scx_simple >"$log" 2>&1 &
pid=$!

if wait_for 30 scx_state_is enabled; then
	ktap_ok scx-simple:enabled
	ops=$(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)
	ktap_check scx-simple:ops-name "root/ops is '$ops', want 'simple'" test "$ops" = simple
	sleep 2 # let it schedule the load for a moment
	ktap_check scx-simple:still-enabled-under-load "state became '$(scx_state)'" scx_state_is enabled
else
	ktap_not_ok scx-simple:enabled "state is '$(scx_state)' 30 s after start"
fi

kill -INT "$pid" 2>/dev/null
if wait_for 30 proc_gone "$pid"; then
	wait "$pid"
	ktap_diag "scx_simple exited with status $?"
	ktap_ok scx-simple:exits-on-sigint
else
	ktap_not_ok scx-simple:exits-on-sigint "still running 30 s after SIGINT"
	kill -KILL "$pid" 2>/dev/null
fi
if wait_for 10 scx_state_is disabled; then
	ktap_ok scx-simple:disabled-after-sigint
else
	ktap_not_ok scx-simple:disabled-after-sigint "state is '$(scx_state)' 10 s after the scheduler exited"
fi

# shellcheck disable=SC2086 # a list of PIDs
kill $spinners 2>/dev/null
wait 2>/dev/null
sed 's/^/  scx_simple| /' "$log" >&2
ktap_done
