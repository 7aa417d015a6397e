# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's small helpers: the clock, reading sysfs, waiting for a
# process or for a sched_ext state.
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local

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

scx_state() { rd "$SCX/state"; }
scx_ops() { cat "$SCX/root/ops" 2>/dev/null || echo "-"; }
enable_seq() { rd "$SCX/enable_seq"; }

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
