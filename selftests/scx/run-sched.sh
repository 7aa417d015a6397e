#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-sched.sh BINARY: run one scx C scheduler (its own user-space loader,
# built by build.sh) briefly under load in the guest and print its run
# verdict on stdout, one word, with "# " diagnostics on stderr:
#
#   enabled      it enabled, stayed enabled for $SCX_RUN_SECS seconds of
#                load (default 5) and stopped on SIGINT
#   not-enabled  it never enabled (refused at load, or it gave up)
#   ejected      it enabled, then the kernel disabled it under load
#   stuck        it did not stop within 20 s of SIGINT (killed)
#
# run-guest.sh records the verdict as the object's "-run-" program, so the
# run is compared with the baseline's like any verdict.
#
# The load, started once the scheduler is enabled: per CPU, one spinning
# shell and one shell that forks and execs in a loop (new tasks enter the
# scheduler all the time).
# Every wait is bounded; everything started here is killed on return.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
set -u
bin=$1
name=$(basename "$bin")
secs=${SCX_RUN_SECS:-5}
scx=/sys/kernel/sched_ext
log=/tmp/run-$name.log
diag() { echo "# scx:$name: run: $*" >&2; }
seq_now() { cat "$scx/enable_seq" 2>/dev/null || echo 0; }
state() { cat "$scx/state" 2>/dev/null; }
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

# pin_helper: 6.12 runs ops.init() in the "scx_ops_enable_helper" kthread,
# and scx_central's init must run on its central CPU (0): pin the kthread
# there (selftests/sched-load does the same). It exists from the boot's
# first enable on; if none has happened yet, one enable and disable of
# the scx_simple next to BINARY creates it, so the verdict does not
# depend on which scheduler ran first.
helper_pid() {
	local p
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in
		scx_ops_enable*) echo "${p#/proc/}" && return ;;
		esac
	done
}
pin_helper() {
	local p s
	p=$(helper_pid)
	if [ -z "$p" ] && [ -x "$(dirname "$bin")/scx_simple" ]; then
		"$(dirname "$bin")/scx_simple" >/dev/null 2>&1 </dev/null &
		s=$!
		wait_until 60 up_or_gone "$s"
		kill -INT "$s" 2>/dev/null
		wait_until 20 dead "$s" || kill -9 "$s" 2>/dev/null
		wait "$s" 2>/dev/null
		wait_until 10 is_disabled
		p=$(helper_pid)
	fi
	if [ -n "$p" ]; then
		taskset -p -c 0 "$p" >/dev/null 2>&1 || diag "taskset -p -c 0 $p (the enable kthread) failed"
	else
		diag "no scx_ops_enable_helper kthread to pin"
	fi
}
up_or_gone() { [ "$(state)" = enabled ] || ! alive "$1"; }
dead() { ! alive "$1"; }

# Deadlines in seconds of uptime: under TCG on a busy host every fork
# of the polling loop is slow, so counting sleeps would stretch them.
now() { cut -d. -f1 /proc/uptime; }
# wait_until SECONDS COMMAND...: poll until COMMAND succeeds or time is up.
wait_until() {
	local end=$(($(now) + $1))
	shift
	until "$@"; do
		[ "$(now)" -lt "$end" ] || return 1
		sleep 0.2
	done
}
is_enabled() { [ "$(state)" = enabled ] && [ "$(seq_now)" != "$seq0" ]; }
is_disabled() { [ "$(state)" = disabled ]; }
gone() { ! alive "$spid"; }
enabled_or_gone() { is_enabled || gone; }

load_pids=
start_load() {
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		load_pids="$load_pids $!"
		sh -c 'while :; do /bin/true; done' &
		load_pids="$load_pids $!"
	done
}
cleanup() {
	# shellcheck disable=SC2086 # a list of pids
	kill -9 $load_pids 2>/dev/null
	[ -z "${spid:-}" ] || kill -9 "$spid" 2>/dev/null
	wait 2>/dev/null
}

[ "$(state)" = disabled ] || diag "sched_ext state '$(state)' before the start"
pin_helper
seq0=$(seq_now)
t0=$(now)
"$bin" >"$log" 2>&1 </dev/null &
spid=$!
verdict=not-enabled
# The scheduler enables on an idle guest, as it is normally started, then
# runs under the load: what is timed is the run, not how fast a loaded
# TCG guest gets through the loader's setup.
wait_until 60 enabled_or_gone
if is_enabled; then
	verdict=enabled
	start_load
	diag "enabled as '$(cat "$scx/root/ops" 2>/dev/null)' after $(($(now) - t0)) s; $secs s of load"
	seq1=$(seq_now)
	sleep "$secs"
	if [ "$(state)" != enabled ] || [ "$(seq_now)" != "$seq1" ] || ! alive "$spid"; then
		verdict=ejected
		diag "state '$(state)' after the load; the scheduler $(alive "$spid" && echo runs || echo exited)"
	fi
fi
if alive "$spid"; then
	kill -INT "$spid"
	if ! wait_until 20 gone; then
		verdict=stuck
		diag "did not stop within 20 s of SIGINT"
	fi
fi
cleanup
spid=
# The next run starts from a disabled sched_ext.
wait_until 10 is_disabled || diag "sched_ext state '$(state)' 10 s after the stop"
# Its last words (the exit reason, "EXIT: ..."), for the report.
grep -v '^ *$' "$log" | tail -n 3 | sed "s|^|# scx:$name: run: log: |" >&2
echo "$verdict"
