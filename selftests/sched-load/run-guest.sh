#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh <variant> [quick|full]
#
# Runs in the QEMU guest under busybox sh, from the directory build.sh made
# (bin/, runs.list, log-patterns, splat-patterns).  Needs /proc, /sys, cgroup2 on
# /sys/fs/cgroup, devtmpfs (/dev/kmsg) and root.
#
# For every line of runs.list that applies to the mode (and a default run
# for any bin/scx_* the list does not name), prints one TAP line
#
#   ok <n> sched:<name>        or        not ok <n> sched:<name>
#
# preceded by '# ' diagnostics with the measured numbers (enabled, seconds,
# loadgen's total and smallest work count, errors), then a summary
# "# sched-load: ..." line.  Exit status 0 if nothing failed.
#
# A run whose checks all pass but whose kernel log holds a known splat
# (known-splats: the project's scripts/known-splats.txt) is reported as
# "ok <n> sched:<name> # SKIP known splat: <why>", never as a pass; any
# other splat fails it.
#
# quick: loadgen runs 5 s per run, 20 reloads, one hotplug cycle.
# full:  20 s per run, 50 reloads, three hotplug cycles, more options.
# SECS, RELOADS, HOTPLUG_CYCLES and LOGDIR in the environment override;
# ONLY=<awk regexp> runs only the matching names, EXCLUDE=<awk regexp>
# leaves the matching ones out; SCX_T=<string> (make check T=) runs only the
# runs whose "sched:<name>" contains it.
#
# Every wait is bounded: a scheduler that does not enable, does not stop or
# hangs is killed and reported, and the whole script finishes.

# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
set -u

cd "$(dirname "$0")" || exit 2
HERE=$(pwd)
VARIANT=${1:-unknown}
MODE=${2:-quick}
case "$MODE" in
quick)	SECS=${SECS:-5}; RELOADS=${RELOADS:-20}; HOTPLUG_CYCLES=${HOTPLUG_CYCLES:-1} ;;
full)	SECS=${SECS:-20}; RELOADS=${RELOADS:-50}; HOTPLUG_CYCLES=${HOTPLUG_CYCLES:-3} ;;
*)	echo "usage: $0 <variant> [quick|full]" >&2; exit 2 ;;
esac

PATH=$HERE/bin:$PATH
export PATH
SCX=/sys/kernel/sched_ext
CPU1=/sys/devices/system/cpu/cpu1/online
LOGDIR=${LOGDIR:-/tmp/sched-load}
LG_ARGS="-n 12 -k spin,yield,sleep,pipe,fork,rt -N -c 3 -M"
# A lockdep + KASAN kernel (make check DEBUG=1: /proc/lockdep exists)
# took 20-31 s to verify and enable scx_qmap under TCG, and over 60 s on a
# busier host: the bounded waits below get 4 times as long there.
SLOW=1
[ -e /proc/lockdep ] && SLOW=4
ENABLE_TIMEOUT=$((60 * SLOW))	# s: BPF load, verification and enable under TCG
STOP_TIMEOUT=$((20 * SLOW))	# s: SIGINT until the process is gone / state disabled
ERROR_TIMEOUT=$((90 * SLOW))	# s: error runs, until the kernel ejects the scheduler
LG_CAP=$((SECS + 60 * SLOW))	# s: hard cap on a timed loadgen (it stops itself)
SCHED_CAP=1800		# s: hard cap on any scheduler process

mkdir -p "$LOGDIR" || exit 2
N=0 PASS=0 FAIL=0 SKIP=0
T_START=0

# ---- small helpers ----------------------------------------------------------

# centiseconds since boot
now_cs() {
	local up
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//; s/^$/0/'
}

# seconds (two decimals) since a now_cs value
since() {
	echo "$1 $(now_cs)" | awk '{ printf "%.2f", ($2 - $1) / 100 }'
}

trim() {
	echo "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}

rd() {
	cat "$1" 2>/dev/null || echo "?"
}

scx_state() { rd $SCX/state; }
scx_ops() { cat $SCX/root/ops 2>/dev/null || echo "-"; }
enable_seq() { rd $SCX/enable_seq; }

# alive PID: running and not a zombie
alive() {
	local st
	[ -r "/proc/$1/stat" ] || return 1
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$st" ] && [ "$st" != Z ]
}

# wait_gone PID SECS: 0 once PID is gone, 1 on timeout
wait_gone() {
	local end=$(( $(now_cs) + $2 * 100 ))
	while alive "$1"; do
		[ "$(now_cs)" -ge "$end" ] && return 1
		sleep 0.1
	done
	return 0
}

# wait_state WANT SECS [PID]: 0 once state reads WANT, 1 on timeout or
# once PID (if given) is gone
wait_state() {
	local end=$(( $(now_cs) + $2 * 100 ))
	while [ "$(scx_state)" != "$1" ]; do
		[ "$(now_cs)" -ge "$end" ] && return 1
		[ -n "${3:-}" ] && ! alive "$3" && return 1
		sleep 0.1
	done
	return 0
}

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

begin_run() {
	N=$((N + 1))
	PREV_NAME=${NAME-}
	NAME=$1
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
	if [ -w "$CPU1" ] && [ "$(rd $CPU1)" = 0 ]; then
		timeout 30 sh -c "echo 1 > $CPU1" 2>/dev/null
	fi
	if [ "$(scx_state)" != disabled ] && [ -e $SCX/state ]; then
		diag "state '$(scx_state)' before the run, waiting for disabled"
		wait_state disabled $STOP_TIMEOUT ||
			err "sched_ext state '$(scx_state)' before the run (a previous scheduler is stuck)"
	fi
}

# end_run [SKIP-REASON]: print the result line and the diagnostics
end_run() {
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
		echo "ok $N sched:$NAME # SKIP $1"
	elif [ "$NERR" -eq 0 ] && [ -s "$RUNLOG.known" ]; then
		# every check passed but a known splat was elided: not a pass,
		# the kernel was not clean
		SKIP=$((SKIP + 1))
		echo "ok $N sched:$NAME # SKIP known splat: $(cut -f1 "$RUNLOG.known" | sort -u | head -n 1)"
	elif [ "$NERR" -eq 0 ]; then
		PASS=$((PASS + 1))
		echo "ok $N sched:$NAME"
	else
		FAIL=$((FAIL + 1))
		echo "not ok $N sched:$NAME"
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
	# which test this log is from and prev= which ran before it (hotplug:
	# rules hold only in hotplug runs, after-hotplug: in the next run too).
	awk -v mode=known -v run="sched:$NAME" -v prev="sched:$PREV_NAME" \
		-f known-splats.awk known-splats "$kl" | cut -f2- > "$RUNLOG.known"
	awk -v mode=blank -v block=1 -v run="sched:$NAME" -v prev="sched:$PREV_NAME" \
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

# ---- loadgen ----------------------------------------------------------------

# lg_start SECS EXTRA: loadgen in the background (SECS=0: until stopped)
lg_start() {
	local t="$1"
	[ "$t" -eq 0 ] && t=$SCHED_CAP
	# shellcheck disable=SC2086 # LG_ARGS and EXTRA are loadgen option lists: split on purpose
	timeout -s KILL $((t + 60)) loadgen -t "$t" $LG_ARGS $2 \
		> "$RUNLOG.loadgen" 2>&1 < /dev/null &
	LGPID=$!
}

# lg_wait [stop]: (stop it and) wait for it, then check its summary
lg_wait() {
	local rc sum v tasks onext rt want
	[ -n "$LGPID" ] || return
	if [ "${1:-}" = stop ]; then
		kill -INT "$LGPID" 2>/dev/null
	fi
	if ! wait_gone "$LGPID" $LG_CAP; then
		err "loadgen did not finish within ${LG_CAP}s: killed"
		kill -KILL "$LGPID" 2>/dev/null
	fi
	wait "$LGPID"
	rc=$?
	LGPID=
	sum=$(grep '^loadgen: tasks=' "$RUNLOG.loadgen" | tail -n 1)
	if [ -z "$sum" ]; then
		err "loadgen printed no summary (exit status $rc)"
		tail -n 5 "$RUNLOG.loadgen" | sed 's/^/#   /' >> "$RUNLOG.diag"
		return
	fi
	lgv() { echo "$sum" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
	tasks=$(lgv tasks) onext=$(lgv on_ext) rt=$(lgv rt)
	LG_TOTAL=$(lgv total) LG_MIN=$(lgv min)
	LG_SECS=$(lgv elapsed_ms | awk '{ printf "%.1f", $1 / 1000 }')
	diag "loadgen: secs=$(lgv secs) elapsed_ms=$(lgv elapsed_ms) tasks=$tasks total=$LG_TOTAL min=$LG_MIN max=$(lgv max) starved=$(lgv starved) on_ext=$onext moves=$(lgv moves) rc=$rc"
	v=$(sed -n 's/^loadgen: kind=\([a-z]*\) tasks=[0-9]* total=\([0-9]*\) min=\([0-9]*\)$/\1=\2(min \3)/p' \
		"$RUNLOG.loadgen" | tr '\n' ' ')
	diag "loadgen kinds: $v"
	[ "$rc" -eq 0 ] || err "loadgen exit status $rc"
	[ "$(lgv starved)" = 0 ] || {
		err "loadgen: $(lgv starved) task(s) starved"
		grep -E 'STARVED|STUCK|error' "$RUNLOG.loadgen" | head -n 12 |
			sed 's/^/#   /' >> "$RUNLOG.diag"
	}
	[ "$(lgv stuck)" = 0 ] || err "loadgen: $(lgv stuck) task(s) did not stop"
	want=$((tasks - rt))
	case "$E_EXT" in
	all)	[ "$onext" = "$want" ] ||
			err "loadgen: $onext of $want non-RT tasks were on sched_ext, expected all" ;;
	none)	[ "$onext" = 0 ] ||
			err "loadgen: $onext tasks were on sched_ext, expected none" ;;
	esac
}

stop_loadgen_quiet() {
	if [ -n "$LGPID" ]; then
		kill -KILL "$LGPID" 2>/dev/null
		wait "$LGPID" 2>/dev/null
		LGPID=
	fi
}

# ---- scheduler --------------------------------------------------------------

# pin_helper CPU: 6.12.118 calls ops.init() from the "scx_ops_enable_helper"
# RT kthread, not from the loading task, so a scheduler that must init on
# a given CPU (scx_central) needs that kthread there.  The kthread exists
# from the first enable of the boot on; if no run has enabled a scheduler
# yet (scx.sched_load_only= picked a pinned run first), one scx_simple
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
	timeout -s KILL $SCHED_CAP "$@" >> "$SLOG" 2>&1 < /dev/null &
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
	if ! wait_gone "$SPID" $STOP_TIMEOUT; then
		err "scheduler still running ${STOP_TIMEOUT}s after SIGINT: killed"
		proc_snapshot
		kill -KILL "$SPID" 2>/dev/null
		wait_gone "$SPID" 5
	fi
	sched_reap
	wait_state disabled $STOP_TIMEOUT ||
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
		wait_gone "$SPID" $STOP_TIMEOUT || kill -KILL "$SPID" 2>/dev/null
		wait "$SPID" 2>/dev/null
		SPID=
		wait_state disabled $STOP_TIMEOUT
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

# ---- the kinds of runs ------------------------------------------------------

do_none() {
	lg_start "$SECS" "$1"
	lg_wait
	check_klog
	diag "sched:$NAME enabled=n/a secs=$SECS total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
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
	diag "sched:$NAME enabled=$ENABLED enable_s=$ENABLE_S secs=$secs total=${LG_TOTAL:-?} min=${LG_MIN:-?} stop_s=${STOP_S:--} errors=$NERR"
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
		if ! wait_gone "$SPID" $ERROR_TIMEOUT; then
			err "scheduler not ejected within ${ERROR_TIMEOUT}s (state $(scx_state))"
			kill -INT "$SPID" 2>/dev/null
			wait_gone "$SPID" $STOP_TIMEOUT || kill -KILL "$SPID" 2>/dev/null
		fi
		EJECT_S=$(since "$t0")
		sched_reap
		wait_state disabled $STOP_TIMEOUT ||
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
	diag "sched:$NAME enabled=$ENABLED enable_s=$ENABLE_S eject_s=${EJECT_S:--} secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
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
		wait_gone "$SPID" $STOP_TIMEOUT || err "scheduler still there ${STOP_TIMEOUT}s after SIGKILL"
		sched_reap
		[ "$SRC" -eq 137 ] || err "scheduler exit status $SRC after SIGKILL, expected 137"
		wait_state disabled $STOP_TIMEOUT ||
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
	diag "sched:$NAME enabled=$ENABLED enable_s=$ENABLE_S kill_s=${KILL_S:--} secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
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
	diag "sched:$NAME enabled=$ok/$RELOADS secs=${LG_SECS:-?} cycles=$ok/$RELOADS loop_s=$(since "$t0") enable_avg_s=$(echo "$en_sum $ok" | awk '{ printf "%.2f", $2 ? $1 / $2 / 100 : 0 }') enable_max_s=$(echo "$en_max" | awk '{ printf "%.2f", $1 / 100 }') total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}

# cpu1 OFF|ON: bounded write to the online file
cpu1() {
	local v=1
	[ "$1" = off ] && v=0
	if ! timeout 60 sh -c "echo $v > $CPU1"; then
		err "writing $v to $CPU1 failed or timed out"
		return 1
	fi
	[ "$(rd $CPU1)" = $v ] || err "$CPU1 reads $(rd $CPU1) after writing $v"
}

# restart_wait WHAT: a scheduler ejected by hotplug must come back
restart_wait() {
	local t0
	t0=$(now_cs)
	if ! alive "$SPID"; then
		events="$events(gone)"
	elif wait_state enabled $ENABLE_TIMEOUT "$SPID"; then
		events="$events(back:$(since "$t0")s)"
	elif ! alive "$SPID"; then
		events="$events(gone)"
		err "the scheduler exited instead of restarting after cpu1 went $1"
	else
		events="$events(not-back)"
		err "not enabled again ${ENABLE_TIMEOUT}s after cpu1 went $1 (state $(scx_state))"
		proc_snapshot
	fi
}

do_hotplug() {
	local lgx="$1" ops c hp0 seq1 st events="" exits
	shift
	ops=$(ops_of "$@")
	if [ "$(rd /sys/devices/system/cpu/present)" = 0 ]; then
		err "the guest has one CPU: nothing to hotplug (a lean kernel without ACPI sees one CPU per socket in QEMU's MP table: boot with -smp 2,sockets=2)"
		return
	fi
	if [ ! -w "$CPU1" ]; then
		end_skip="no $CPU1 (CONFIG_HOTPLUG_CPU off)"
		return
	fi
	if [ "$1" = - ]; then
		# control run: no scheduler, the fair class alone
		ENABLED=n/a
		SEQ0=$(enable_seq)
	else
		sched_start "$@"
	fi
	if [ "$1" = - ] || sched_wait_enabled "$ops"; then
		hp0=$(rd $SCX/hotplug_seq)
		seq1=$(enable_seq)
		lg_start 0 "$lgx"
		sleep 1
		c=0
		while [ $c -lt "$HOTPLUG_CYCLES" ]; do
			c=$((c + 1))
			cpu1 off
			sleep 1
			st=$(scx_state)
			events="$events off:$st"
			[ "$E_HOTPLUG" = restart ] && restart_wait offline
			cpu1 on
			sleep 1
			st=$(scx_state)
			events="$events on:$st"
			[ "$E_HOTPLUG" = restart ] && restart_wait online
		done
		sleep 1
		lg_wait stop
		exits=$(grep -c '^EXIT: unregistered from the main kernel' "$RUNLOG.sched")
		diag "hotplug: cycles=$c states:$events hotplug_seq=$hp0->$(rd $SCX/hotplug_seq) enable_seq=$seq1->$(enable_seq) kernel_exits=$exits"
		grep '^EXIT: ' "$RUNLOG.sched" | head -n 4 | sed 's/^/# sched: /' >> "$RUNLOG.diag"
		if [ "$1" = - ]; then
			[ "$(scx_state)" = disabled ] ||
				err "state '$(scx_state)' in the control run"
		elif [ "$E_HOTPLUG" = stay ]; then
			[ "$(enable_seq)" = "$seq1" ] ||
				err "the scheduler was re-enabled ($seq1 -> $(enable_seq)), expected it to stay"
			[ "$exits" -eq 0 ] || err "the kernel ejected the scheduler on hotplug"
		else
			[ "$exits" -ge 1 ] ||
				err "expected the kernel to eject the scheduler on hotplug (exit line 'unregistered from the main kernel')"
			grep -q '^EXIT: unregistered from the main kernel (cpu 1 going o' "$RUNLOG.sched" ||
				err "no 'cpu 1 going offline/online' exit reason"
			[ "$(enable_seq)" -gt "$seq1" ] ||
				err "the scheduler did not restart after hotplug"
		fi
		if [ "$1" != - ]; then
			st=$(scx_state)
			if [ "$st" != enabled ] || [ "$(scx_ops)" != "$ops" ]; then
				err "state '$st' ops '$(scx_ops)' after hotplug, expected enabled $ops"
				proc_snapshot
				sched_log_tail
			fi
			alive "$SPID" || err "scheduler process gone after hotplug"
			sched_stop
		fi
	fi
	if [ "$E_HOTPLUG" = restart ]; then
		check_klog "$(sed -n 's/^sched-ext-hotplug	//p' log-patterns)"
	else
		check_klog
	fi
	diag "sched:$NAME enabled=$ENABLED enable_s=$ENABLE_S secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}

# ---- main -------------------------------------------------------------------

# runs.list without comments and blank lines, plus a default run for each
# scheduler binary the list does not name
build_plan() {
	local b s
	grep -v '^[[:space:]]*#' runs.list | grep -v '^[[:space:]]*$' > "$LOGDIR/plan"
	for b in bin/scx_*; do
		[ -x "$b" ] || continue
		s=${b#bin/}
		grep -q "[[:space:]]$s\([[:space:]]\|\$\)" "$LOGDIR/plan" ||
			echo "run | $s | quick full | - | - | $s" >> "$LOGDIR/plan"
	done
	awk -F'|' -v m="$MODE" -v only="${ONLY:-}" -v excl="${EXCLUDE:-}" -v t="${SCX_T:-}" '
		{ n = $2; gsub(/[[:space:]]/, "", n) }
		(" " $3 " ") ~ (" " m " ") && (only == "" || n ~ only) &&
		(excl == "" || n !~ excl) && (t == "" || index("sched:" n, t))' \
		"$LOGDIR/plan" > "$LOGDIR/plan.$MODE"
}

T_START=$(now_cs)
# The host's splat patterns (CODE;KIND;REGEX;ADVICE) but its sched_ext
# stalls, which each run judges against its expectations; then the guest's
# extras (log-patterns).
awk -F';' '!/^#/ && NF >= 3 && $2 != "sched_ext stall" { print $3 }' splat-patterns > "$LOGDIR/splat.re"
sed -n 's/^splat-extra	//p' log-patterns >> "$LOGDIR/splat.re"
build_plan

echo "TAP version 13"
echo "1..$(wc -l < "$LOGDIR/plan.$MODE")"
echo "# sched-load: variant=$VARIANT mode=$MODE secs=$SECS reloads=$RELOADS hotplug_cycles=$HOTPLUG_CYCLES kernel=$(uname -r) cpus=$(nproc) online=$(rd /sys/devices/system/cpu/online) timeouts=x$SLOW enable=${ENABLE_TIMEOUT}s"
# shellcheck disable=SC2012 # bin/ holds only our scx_* builds: plain names, and ls gives "" for none
echo "# sched-load: schedulers: $(cd bin && ls scx_* 2>/dev/null | tr '\n' ' ')"

if [ ! -e $SCX/state ]; then
	echo "# sched-load: $SCX/state missing: kernel without CONFIG_SCHED_CLASS_EXT"
fi
if [ "$(nproc)" -lt 2 ]; then
	echo "# sched-load: WARNING: only $(nproc) CPU online; the runs expect 2 (QEMU -smp 2,sockets=2 for a kernel without ACPI)"
fi

while IFS="|" read -r kind name _modes expect lgx cmd <&3; do
	kind=$(trim "$kind") name=$(trim "$name") expect=$(trim "$expect")
	lgx=$(trim "$lgx") cmd=$(trim "$cmd")
	[ "$lgx" = - ] && lgx=
	begin_run "$name"
	parse_expect "$kind" "$expect"
	EXIT_LINE='' STOP_S='' EJECT_S='' KILL_S='' LG_TOTAL='' LG_MIN='' LG_SECS='' end_skip=''
	if [ ! -e $SCX/state ]; then
		err "no $SCX: the kernel lacks sched_ext"
		end_run
		continue
	fi
	# shellcheck disable=SC2086 # cmd is the runs.list column of arguments: split on purpose
	case "$kind" in
	none)		do_none "$lgx" ;;
	run)		do_run "$lgx" $cmd ;;
	error)		do_error "$lgx" $cmd ;;
	reload)		do_reload "$lgx" $cmd ;;
	kill)		do_kill "$lgx" $cmd ;;
	hotplug)	do_hotplug "$lgx" $cmd ;;
	*)		err "runs.list: unknown kind '$kind'" ;;
	esac
	if [ -n "$end_skip" ]; then
		end_run "$end_skip"
	else
		end_run
	fi
done 3< "$LOGDIR/plan.$MODE"

echo "# sched-load: variant=$VARIANT mode=$MODE pass=$PASS fail=$FAIL skip=$SKIP runs=$N secs=$(since "$T_START")${LOCKDEP_OFF:+ lockdep_off_runs=$LOCKDEP_OFF}"
[ "$FAIL" -eq 0 ]
