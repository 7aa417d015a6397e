# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's control of the scheduler: started, waited for until
# enabled, stopped; its log, statistics and exit line; the enable
# helper kthread pinned.
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
# shellcheck disable=SC2034 # ENABLED, ENABLE_S, STOP_S and EXIT_LINE are read by the runs (runs.sh, hotplug.sh) and run-guest.sh

# ---- scheduler --------------------------------------------------------------

# pin_helper CPU: 6.12.118 calls ops.init() from the "scx_ops_enable_helper"
# RT kthread, not from the loading task, so a scheduler that must init on
# a given CPU (scx_central) needs that kthread there.  The kthread exists
# from the first enable of the boot on; if no run has enabled a scheduler
# yet (T= picked a pinned run first), one scx_simple
# load and unload creates it, so the run tests its scheduler, not the order.
find_enable_helper() {
	local p c
	for p in /proc/[0-9]*; do
		c=$(cat "$p/comm" 2>/dev/null) || continue
		case "$c" in scx_ops_enable*) echo "${p#/proc/} $c"; return ;; esac
	done
}

prime_enable_helper() {
	diag "pin: no scx_ops_enable_helper kthread yet; loading scx_simple once to create it"
	simple_cycle prime 0 ||
		err "pin: scx_simple did not load and unload cleanly (to create the enable kthread)"
}

pin_helper() {
	local p c
	read -r p c <<EOT
$(find_enable_helper)
EOT
	if [ -z "$p" ]; then
		prime_enable_helper
		read -r p c <<EOT
$(find_enable_helper)
EOT
	fi
	if [ -z "$p" ]; then
		err "pin: no scx_ops_enable_helper kthread after an enable; cannot pin it to cpu $1"
		return
	fi
	diag "pin: ${c}[$p] on cpu $(awk '{ print $39 }' "/proc/$p/stat"), affinity $(taskset -p "$p" 2>&1 | sed 's/.*: //') -> cpu $1"
	taskset -p -c "$1" "$p" > /dev/null 2>&1 ||
		err "taskset -p -c $1 $p (scx_ops_enable_helper) failed"
}

# sched_start CMD...: start it in the background, log in $SLOG
sched_start() {
	[ -n "$E_PIN" ] && pin_helper "$E_PIN"
	SEQ0=$(enable_seq)
	# busybox timeout execs the command in place: $! is the scheduler
	# (taskset execs too)
	timeout -s KILL "$SCHED_CAP" "$@" >> "$SLOG" 2>&1 < /dev/null &
	SPID=$!
	T_SCHED=$(now_cs)
}

# sched_wait_enabled OPS [any]: bounded wait until the kernel says it is
# enabled with OPS ("any": it was enabled at some point, enable_seq moved)
sched_wait_enabled() {
	local end=$(( $(now_cs) + ENABLE_TIMEOUT * 100 ))
	while :; do
		if [ "${2:-}" = any ] && [ "$(enable_seq)" != "$SEQ0" ]; then
			break
		fi
		if [ "$(scx_state)" = enabled ] && [ "$(enable_seq)" != "$SEQ0" ] &&
		   [ "$(scx_ops)" = "$1" ]; then
			break
		fi
		if ! alive "$SPID"; then
			err "scheduler exited before it was enabled (state $(scx_state))"
			sched_log_tail
			return 1
		fi
		if [ "$(now_cs)" -ge "$end" ]; then
			err "not enabled within ${ENABLE_TIMEOUT}s (state $(scx_state), ops $(scx_ops))"
			proc_snapshot
			sched_log_tail
			return 1
		fi
		sleep 0.1
	done
	ENABLED=yes
	ENABLE_S=$(since "$T_SCHED")
	return 0
}

# proc_snapshot: where the scheduler process (all its threads) and the
# kernel's enable helper are, for a scheduler that neither works nor exits
proc_snapshot() {
	local t p c
	if [ -n "$SPID" ] && [ -d "/proc/$SPID" ]; then
		for t in /proc/"$SPID"/task/*; do
			diag "proc: scheduler thread ${t##*/} $(sed 's/.*) //' "$t/stat" | cut -d' ' -f1) wchan=$(cat "$t/wchan" 2>/dev/null)"
			sed 's/^/#     /' "$t/stack" >> "$RUNLOG.diag" 2>/dev/null
		done
	fi
	for p in /proc/[0-9]*; do
		c=$(cat "$p/comm" 2>/dev/null) || continue
		case "$c" in
		scx_*)
			diag "proc: ${c}[${p#/proc/}] $(sed 's/.*) //' "$p/stat" | cut -d' ' -f1) wchan=$(cat "$p/wchan" 2>/dev/null)"
			sed 's/^/#     /' "$p/stack" >> "$RUNLOG.diag" 2>/dev/null ;;
		esac
	done
}

# the end of the scheduler's output; for a debug dump, its header and the
# runnable tasks that waited longest instead of the whole dump
sched_log_tail() {
	diag "scheduler log ($SLOG):"
	if grep -q '^DEBUG DUMP' "$SLOG"; then
		{
			awk '/^DEBUG DUMP/ { d = 1; next }
			     d && NF && !/^=+$/ { print "#   " $0; if (++k == 4) exit }' "$SLOG"
			grep -E '^ *R .*\[[0-9]+\] [-+][0-9]+ms' "$SLOG" |
				sed 's/\(.*\) \([-+]\)\([0-9]*\)ms.*/\3 \1 \2\3ms/' |
				sort -rn | head -n 8 | cut -d' ' -f2- |
				sed 's/^ */#   runnable: /'
			grep '^EXIT: ' "$SLOG" | sed 's/^/#   /'
		} >> "$RUNLOG.diag"
	else
		tail -n 25 "$SLOG" | sed 's/^/#   /' >> "$RUNLOG.diag"
	fi
}

# sched_reap: the (gone) scheduler's exit status in SRC
sched_reap() {
	wait "$SPID"
	SRC=$?
	SPID=
}

# sched_stop: SIGINT, bounded wait for the process and for "disabled",
# clean exit status and EXIT line
sched_stop() {
	local t0 last
	t0=$(now_cs)
	kill -INT "$SPID" 2>/dev/null
	if ! wait_gone "$SPID" "$STOP_TIMEOUT"; then
		err "scheduler still running ${STOP_TIMEOUT}s after SIGINT: killed"
		proc_snapshot
		kill -KILL "$SPID" 2>/dev/null
		wait_gone "$SPID" 5
	fi
	sched_reap
	wait_state disabled "$STOP_TIMEOUT" ||
		err "state '$(scx_state)' ${STOP_TIMEOUT}s after the scheduler exited"
	STOP_S=$(since "$t0")
	[ "$SRC" -eq 0 ] || err "scheduler exit status $SRC"
	last=$(grep '^EXIT: ' "$SLOG" | tail -n 1)
	EXIT_LINE=$last
	case "$last" in
	"EXIT: unregistered from user space"*) ;;
	*)	err "scheduler's last exit line is '$last', expected 'EXIT: unregistered from user space'"
		sched_log_tail ;;
	esac
}

stop_sched_quiet() {
	if [ -n "$SPID" ]; then
		kill -INT "$SPID" 2>/dev/null
		wait_gone "$SPID" "$STOP_TIMEOUT" || kill -KILL "$SPID" 2>/dev/null
		wait "$SPID" 2>/dev/null
		SPID=
		wait_state disabled "$STOP_TIMEOUT"
	fi
}

# sched_stats: the scheduler's last statistics block (what it printed last
# before exiting), and the cover= checks: regexps its output must match to
# show that a code path ran
sched_stats() {
	local re
	diag "stats: $(awk '/^EXIT:|^DEBUG DUMP/ { exit }
		NF { a[n++ % 4] = $0 }
		END { for (i = (n > 4 ? n - 4 : 0); i < n; i++) printf "%s | ", a[i % 4] }' \
		"$RUNLOG.sched" | tr -s ' ')"
	echo "$E_COVER" | while IFS= read -r re; do
		[ -z "$re" ] && continue
		grep -q -E -- "$re" "$RUNLOG.sched" ||
			echo "# error: the scheduler's output never matched '$re' (code path not exercised)"
	done > "$RUNLOG.cover"
	if [ -s "$RUNLOG.cover" ]; then
		NERR=$((NERR + $(wc -l < "$RUNLOG.cover")))
		cat "$RUNLOG.cover" >> "$RUNLOG.diag"
	fi
}

# still_enabled OPS: checks after the load, the scheduler must be untouched
still_enabled() {
	local st
	st=$(scx_state)
	[ "$st" = enabled ] || err "state '$st' after the load, expected enabled"
	[ "$(scx_ops)" = "$1" ] || err "ops '$(scx_ops)' after the load, expected $1"
	alive "$SPID" || err "scheduler process gone during the load"
	[ "$(enable_seq)" = $((SEQ0 + 1)) ] ||
		err "enable_seq went from $SEQ0 to $(enable_seq): the scheduler was re-enabled"
}

ops_of() {
	# the ops name is the scheduler binary without scx_ (skip "taskset -c N")
	local a
	for a in "$@"; do
		case "$a" in scx_*) echo "${a#scx_}"; return ;; esac
	done
	echo "?"
}
