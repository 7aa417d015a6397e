# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's control of the load generator: bin/loadgen started in
# the background, stopped, its summary checked.
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
# shellcheck disable=SC2034 # LG_SECS is read by the runs' summary lines (runs.sh, hotplug.sh)

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
	if ! wait_gone "$LGPID" "$LG_CAP"; then
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
