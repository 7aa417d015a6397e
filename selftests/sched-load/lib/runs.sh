# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's runs of one scheduler, by runs.list's kind: none, run,
# error, kill, reload (hotplug: hotplug.sh).
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local

# ---- the kinds of runs ------------------------------------------------------

do_none() {
	# shellcheck disable=SC2153 # SECS is run-guest.sh's seconds per run, not a misspelt secs
	lg_start "$SECS" "$1"
	lg_wait
	check_klog
	diag "$PFX:$NAME enabled=n/a secs=$SECS total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}

do_run() {
	local lgx="$1" ops secs
	shift
	ops=$(ops_of "$@")
	sched_start "$@"
	secs=$SECS
	[ "$E_MINSECS" -gt "$secs" ] && secs=$E_MINSECS
	if sched_wait_enabled "$ops"; then
		lg_start "$secs" "$lgx"
		lg_wait
		still_enabled "$ops"
		sched_stop
		sched_stats
	fi
	check_klog
	diag "$PFX:$NAME enabled=$ENABLED enable_s=$ENABLE_S secs=$secs total=${LG_TOTAL:-?} min=${LG_MIN:-?} stop_s=${STOP_S:--} errors=$NERR"
	diag "exit: ${EXIT_LINE:-none}"
}

do_error() {
	local lgx="$1" ops last t0 text
	shift
	ops=$(ops_of "$@")
	sched_start "$@"
	if sched_wait_enabled "$ops" any; then
		lg_start 0 "$lgx"
		t0=$(now_cs)
		if ! wait_gone "$SPID" "$ERROR_TIMEOUT"; then
			err "scheduler not ejected within ${ERROR_TIMEOUT}s (state $(scx_state))"
			kill -INT "$SPID" 2>/dev/null
			wait_gone "$SPID" "$STOP_TIMEOUT" || kill -KILL "$SPID" 2>/dev/null
		fi
		EJECT_S=$(since "$t0")
		sched_reap
		wait_state disabled "$STOP_TIMEOUT" ||
			err "state '$(scx_state)' ${STOP_TIMEOUT}s after the scheduler exited"
		# the system must be healthy on the fair class afterwards
		sleep 2
		lg_wait stop
		[ "$SRC" -eq 0 ] || err "scheduler exit status $SRC"
		last=$(grep '^EXIT: ' "$RUNLOG.sched" | tail -n 1)
		EXIT_LINE=$last
		case "$last" in
		"EXIT: $E_EXIT"*) ;;
		*)	err "exit line '$last', expected 'EXIT: $E_EXIT ...'"
			sched_log_tail ;;
		esac
		if [ -n "$E_MSG" ]; then
			case "$last" in
			*"$E_MSG"*) ;;
			*) err "exit line '$last' lacks '$E_MSG'" ;;
			esac
		fi
		echo "$E_DUMP" | while IFS= read -r text; do
			[ -z "$text" ] && continue
			grep -q -F -- "$text" "$RUNLOG.sched" ||
				echo "# error: debug dump lacks '$text'"
		done >> "$RUNLOG.diag.tmp"
		echo "$E_NODUMP" | while IFS= read -r text; do
			[ -z "$text" ] && continue
			! grep -q -F -- "$text" "$RUNLOG.sched" ||
				echo "# error: debug dump has '$text' (should be suppressed)"
		done >> "$RUNLOG.diag.tmp"
		if [ -s "$RUNLOG.diag.tmp" ]; then
			NERR=$((NERR + $(wc -l < "$RUNLOG.diag.tmp")))
			cat "$RUNLOG.diag.tmp" >> "$RUNLOG.diag"
		fi
		rm -f "$RUNLOG.diag.tmp"
		diag "dump: $(sed -n '/^DEBUG DUMP/,/^EXIT:/p' "$RUNLOG.sched" | wc -c) bytes, $(grep -c '^QMAP\|QMAP' "$RUNLOG.sched") qmap lines"
		recover
	fi
	check_klog "sched_ext: BPF scheduler \"$ops\" disabled \\($E_EXIT\\)" \
		"sched_ext: $ops: "
	diag "$PFX:$NAME enabled=$ENABLED enable_s=$ENABLE_S eject_s=${EJECT_S:--} secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
	diag "exit: ${EXIT_LINE:-none}"
}

# simple_cycle LOG HOLD: load scx_simple, keep it HOLD s (0: unload at
# once), unload it; logged in $RUNLOG.LOG, apart from the run's scheduler,
# whose pin, enable and exit figures stay as they were.  Its own enable
# time is left in CYCLE_ENABLE_S.  Status 0 if no check failed.
simple_cycle() {
	local e0="$NERR" en="$ENABLED" ens="$ENABLE_S" ex="$EXIT_LINE" pin="$E_PIN" slog="$SLOG"
	SLOG=$RUNLOG.$1
	E_PIN=
	sched_start scx_simple
	if sched_wait_enabled simple; then
		if [ "$2" != 0 ]; then
			sleep "$2"
			still_enabled simple
		fi
		sched_stop
	else
		stop_sched_quiet
	fi
	CYCLE_ENABLE_S=$ENABLE_S
	SLOG=$slog E_PIN=$pin ENABLED=$en ENABLE_S=$ens EXIT_LINE=$ex
	[ "$NERR" -eq "$e0" ]
}

# recover: after a fault (ejection, SIGKILL) a scheduler must load, enable
# and unload cleanly again
recover() {
	local t0
	t0=$(now_cs)
	if simple_cycle recover 1; then
		diag "recover: scx_simple enabled in ${CYCLE_ENABLE_S}s and unloaded cleanly after the fault ($(since "$t0")s)"
	else
		err "recover: scx_simple did not load and unload cleanly after the fault"
	fi
}

# kill: SIGKILL the loader while its scheduler runs under load.  Closing
# the struct_ops link must disable the scheduler (as an unload from user
# space), loadgen's tasks must go back to the fair class and all keep
# making progress, and a scheduler must load again afterwards.
do_kill() {
	local lgx="$1" ops t0 half
	shift
	ops=$(ops_of "$@")
	sched_start "$@"
	if sched_wait_enabled "$ops"; then
		# Open-ended, stopped below: a fixed-length loadgen could end
		# before a slow (debug) kernel finished the disable, and its
		# tasks would truly report sched_ext.
		lg_start 0 "$lgx"
		half=$(( (SECS + 1) / 2 ))
		sleep "$half"
		still_enabled "$ops"
		t0=$(now_cs)
		kill -KILL "$SPID" 2>/dev/null
		wait_gone "$SPID" "$STOP_TIMEOUT" || err "scheduler still there ${STOP_TIMEOUT}s after SIGKILL"
		sched_reap
		[ "$SRC" -eq 137 ] || err "scheduler exit status $SRC after SIGKILL, expected 137"
		wait_state disabled "$STOP_TIMEOUT" ||
			err "state '$(scx_state)' ${STOP_TIMEOUT}s after SIGKILL, expected disabled"
		KILL_S=$(since "$t0")
		# the rest of the loadgen run is on the fair class
		sleep $((SECS - half))
		lg_wait stop
		recover
	fi
	check_klog
	if [ "$ENABLED" = yes ]; then
		grep -q "sched_ext: BPF scheduler \"$ops\" disabled (unregistered from user space)" "$RUNLOG.klog" ||
			err "kernel log: no 'BPF scheduler \"$ops\" disabled (unregistered from user space)' after SIGKILL"
	fi
	diag "$PFX:$NAME enabled=$ENABLED enable_s=$ENABLE_S kill_s=${KILL_S:--} secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}

do_reload() {
	local lgx="$1" ops i ok=0 seq_start t0 en_sum=0 en_max=0 cs
	shift
	ops=$(ops_of "$@")
	seq_start=$(enable_seq)
	# the load must outlast every cycle: on a slow debug guest 20 enables
	# took 45 s each, and a loadgen stopped by SCHED_CAP mid-cycle counted
	# the running scheduler's tasks as left on sched_ext
	lg_start $((RELOADS * (ENABLE_TIMEOUT + 30))) "$lgx"
	t0=$(now_cs)
	i=0
	while [ $i -lt "$RELOADS" ]; do
		i=$((i + 1))
		ERR_BEFORE=$NERR
		sched_start "$@"
		sched_wait_enabled "$ops" || break
		cs=$(echo "$ENABLE_S" | awk '{ printf "%d", $1 * 100 }')
		en_sum=$((en_sum + cs))
		[ "$cs" -gt "$en_max" ] && en_max=$cs
		sleep 0.3
		still_enabled "$ops"
		sched_stop
		[ "$NERR" -eq "$ERR_BEFORE" ] || { diag "cycle $i failed"; break; }
		ok=$((ok + 1))
	done
	lg_wait stop
	[ "$(enable_seq)" = $((seq_start + ok)) ] ||
		err "enable_seq went from $seq_start to $(enable_seq) in $ok cycles"
	[ "$ok" -eq "$RELOADS" ] || err "only $ok of $RELOADS load/unload cycles succeeded"
	check_klog
	diag "$PFX:$NAME enabled=$ok/$RELOADS secs=${LG_SECS:-?} cycles=$ok/$RELOADS loop_s=$(since "$t0") enable_avg_s=$(echo "$en_sum $ok" | awk '{ printf "%.2f", $2 ? $1 / $2 / 100 : 0 }') enable_max_s=$(echo "$en_max" | awk '{ printf "%.2f", $1 / 100 }') total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}
