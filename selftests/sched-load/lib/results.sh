# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's per-run bookkeeping and KTAP result line (begin_run,
# end_run), runs.list's expectations (parse_expect) and the kernel log
# check (check_klog).
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
# shellcheck disable=SC2034 # begin_run() and parse_expect() set the run's globals (SLOG, SPID, LGPID, ENABLED, ENABLE_S, E_*) for the other parts

# ---- per-run bookkeeping ----------------------------------------------------

# err TEXT: record a failed check of the current run
err() {
	NERR=$((NERR + 1))
	echo "# error: $*" >> "$RUNLOG.diag"
}

diag() {
	echo "# $*" >> "$RUNLOG.diag"
}

# lockdep_on: 1 or 0 (debug_locks: lockdep turns itself off after its
# first report, known or not), empty on a kernel without lockdep
lockdep_on() {
	awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats 2>/dev/null || true
}

# run_prefix KIND COMMAND: "control" for a run that starts no scheduler
# (runs.list kind none, or command "-": loadgen alone, the hotplug cycle
# without a scheduler), else "sched"
run_prefix() {
	if [ "$1" = none ] || [ "$2" = - ]; then echo control; else echo sched; fi
}

# begin_run NAME PFX: PFX is "sched" for a run that starts a scheduler,
# "control" for one that starts none (its numbers are the reference the
# scheduler runs are read against, and it is no scheduler run)
begin_run() {
	N=$((N + 1))
	PREV_NAME=${NAME-} PREV_PFX=${PFX:-sched}
	NAME=$1 PFX=$2
	NERR=0
	RUNLOG=$LOGDIR/$N-$NAME
	: > "$RUNLOG.diag"
	: > "$RUNLOG.sched"
	: > "$RUNLOG.loadgen"
	SLOG=$RUNLOG.sched
	: > "$RUNLOG.known"
	SPID=
	LGPID=
	ENABLED=no
	ENABLE_S=-
	T_RUN=$(now_cs)
	LOCKDEP0=$(lockdep_on)
	echo "sched-load: mark $N" > /dev/kmsg 2>/dev/null
	settle
}

# leftovers of a failed run must not poison the next one
settle() {
	if [ -w "$CPU1" ] && [ "$(rd "$CPU1")" = 0 ]; then
		timeout 30 sh -c "echo 1 > $CPU1" 2>/dev/null
	fi
	if [ "$(scx_state)" != disabled ] && [ -e "$SCX/state" ]; then
		diag "state '$(scx_state)' before the run, waiting for disabled"
		wait_state disabled "$STOP_TIMEOUT" ||
			err "sched_ext state '$(scx_state)' before the run (a previous scheduler is stuck)"
	fi
}

# end_run [SKIP-REASON]: print the result line and the diagnostics
end_run() {
	if [ "$PFX" = control ]; then CONTROLS=$((${CONTROLS:-0} + 1)); else SCHED_RUNS=$((${SCHED_RUNS:-0} + 1)); fi
	stop_sched_quiet
	stop_loadgen_quiet
	diag "wall_s=$(since "$T_RUN")"
	# A run lockdep did not watch says so: its pass does not cover lock bugs.
	case "$LOCKDEP0$(lockdep_on)" in
	10)	diag "lockdep: turned itself off during this run (after a report); later runs go unchecked by lockdep" ;;
	0*)	diag "lockdep: off for this whole run (an earlier report turned it off)"
		LOCKDEP_OFF=$((${LOCKDEP_OFF:-0} + 1)) ;;
	esac
	cat "$RUNLOG.diag"
	if [ $# -gt 0 ]; then
		SKIP=$((SKIP + 1))
		ktap_skip "$PFX:$NAME" "$1"
	elif [ "$NERR" -eq 0 ] && [ -s "$RUNLOG.known" ]; then
		# every check passed but a known splat was elided: not a pass,
		# the kernel was not clean
		SKIP=$((SKIP + 1))
		ktap_skip "$PFX:$NAME" "known splat: $(cut -f1 "$RUNLOG.known" | sort -u | head -n 1)"
	elif [ "$NERR" -eq 0 ]; then
		PASS=$((PASS + 1))
		ktap_ok "$PFX:$NAME"
	else
		FAIL=$((FAIL + 1))
		ktap_not_ok "$PFX:$NAME"
	fi
}

# ---- expectations -----------------------------------------------------------

# parse_expect KIND EXPECT
parse_expect() {
	local item old="$IFS"
	E_EXIT='' E_MSG='' E_DUMP='' E_NODUMP='' E_HOTPLUG='' E_PIN='' E_COVER=''
	E_MINSECS=0
	# where loadgen's tasks are when it stops: under the scheduler for
	# run and hotplug, back on the fair class after an ejection or the
	# last unload
	case "$1" in
	run|hotplug)	E_EXT=all ;;
	*)		E_EXT=none ;;
	esac
	[ "$2" = - ] && return
	set -f
	IFS=';'
	for item in $2; do
		case "$item" in
		exit=*)		E_EXIT=${item#exit=} ;;
		msg=*)		E_MSG=${item#msg=} ;;
		dump=*)		E_DUMP="$E_DUMP${item#dump=}
" ;;
		nodump=*)	E_NODUMP="$E_NODUMP${item#nodump=}
" ;;
		ext=*)		E_EXT=${item#ext=} ;;
		hotplug=*)	E_HOTPLUG=${item#hotplug=} ;;
		pin=*)		E_PIN=${item#pin=} ;;
		minsecs=*)	E_MINSECS=${item#minsecs=} ;;
		cover=*)	E_COVER="$E_COVER${item#cover=}
" ;;
		*)		echo "# runs.list: unknown expectation '$item'" ;;
		esac
	done
	IFS=$old
	set +f
}

# ---- kernel log -------------------------------------------------------------

# check_klog [EXTRA-OK-REGEXES...]: no splat and no unexpected sched_ext
# line in the kernel log since this run's mark (each argument may hold
# several regexps, one per line)
check_klog() {
	local kl="$RUNLOG.klog" ok="$RUNLOG.klog-ok" hits re
	dmesg > "$RUNLOG.dmesg" 2>/dev/null
	if grep -q "sched-load: mark $N\$" "$RUNLOG.dmesg"; then
		sed -n "/sched-load: mark $N\$/,\$p" "$RUNLOG.dmesg" > "$kl"
	else
		diag "kernel log mark not found (ring buffer wrapped?): checking all of it"
		cp "$RUNLOG.dmesg" "$kl"
	fi
	sed -n 's/^sched-ext-ok	//p' log-patterns > "$ok"
	echo '^sched-load: never matches$' >> "$ok"
	for re in "$@"; do
		echo "$re" >> "$ok"
	done
	# known splats (known-splats, the project's scripts/known-splats.txt,
	# judged by its known-splats.awk): the whole report goes to
	# $RUNLOG.known instead of being checked. Listed by timestamp and
	# reason, not text: the text of a report known only with its cause
	# would read as a splat on its own to the host. run= tells the awk
	# which test this log is from and prev= which ran before it (the
	# rules hold only in the tests they name, after: ones in the next run
	# too), variant= on which kernels (initramfs/init exports SCX_VARIANT; none:
	# no rule holds, every splat fails the run).
	awk -v mode=known -v variant="${SCX_VARIANT:-}" -v run="$PFX:$NAME" -v prev="$PREV_PFX:$PREV_NAME" \
		-f known-splats.awk known-splats "$kl" | cut -f2- > "$RUNLOG.known"
	awk -v mode=blank -v block=1 -v variant="${SCX_VARIANT:-}" -v run="$PFX:$NAME" -v prev="$PREV_PFX:$PREV_NAME" \
		-f known-splats.awk known-splats "$kl" > "$kl.unknown"
	if [ -s "$RUNLOG.known" ]; then
		diag "kernel log: known splat(s), not caused by the series (known-splats):"
		awk -F'\t' '{ t = $2; sub(/\].*/, "]", t); print "#   " t " " $1 }' \
			"$RUNLOG.known" >> "$RUNLOG.diag"
	fi
	hits=$(grep -E -f "$LOGDIR/splat.re" "$kl.unknown" | head -n 20)
	if [ -n "$hits" ]; then
		err "kernel log: splat since the run started:"
		echo "$hits" | sed 's/^/#   /' >> "$RUNLOG.diag"
	fi
	hits=$(grep 'sched_ext:' "$kl.unknown" | grep -v -E -f "$ok" | head -n 20)
	if [ -n "$hits" ]; then
		err "kernel log: unexpected sched_ext lines:"
		echo "$hits" | sed 's/^/#   /' >> "$RUNLOG.diag"
	fi
	grep 'sched_ext:' "$kl" | head -n 8 | sed 's/^/# dmesg: /' >> "$RUNLOG.diag"
}
