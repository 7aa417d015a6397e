# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
#
# sched-load's hotplug runs: cpu1 offline and online again under a
# scheduler, or under none (the control run).
# Sourced by run-guest.sh, which sets the globals used here.
# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
# shellcheck disable=SC2034 # run-guest.sh reads end_skip; SEQ0 is sched-ctl.sh's (sched_start sets it, still_enabled reads it)

# cpu1 OFF|ON: bounded write to the online file
cpu1() {
	local v=1
	[ "$1" = off ] && v=0
	if ! timeout 60 sh -c "echo $v > $CPU1"; then
		err "writing $v to $CPU1 failed or timed out"
		return 1
	fi
	[ "$(rd "$CPU1")" = $v ] || err "$CPU1 reads $(rd "$CPU1") after writing $v"
}

# restart_wait WHAT: a scheduler ejected by hotplug must come back
restart_wait() {
	local t0
	t0=$(now_cs)
	if ! alive "$SPID"; then
		events="$events(gone)"
	elif wait_state enabled "$ENABLE_TIMEOUT" "$SPID"; then
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
		hp0=$(rd "$SCX/hotplug_seq")
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
		diag "hotplug: cycles=$c states:$events hotplug_seq=$hp0->$(rd "$SCX/hotplug_seq") enable_seq=$seq1->$(enable_seq) kernel_exits=$exits"
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
	diag "$PFX:$NAME enabled=$ENABLED enable_s=$ENABLE_S secs=${LG_SECS:-?} total=${LG_TOTAL:-?} min=${LG_MIN:-?} errors=$NERR"
}
