#!/bin/sh
# The kernel has sched_ext, and no BPF scheduler is attached at boot.
. /scx/ktap.sh
scx_t_suite sched-ext-state || exit 0

ktap_check sched-ext-state:exists "/sys/kernel/sched_ext/state missing (CONFIG_SCHED_CLASS_EXT off?)" \
	test -r /sys/kernel/sched_ext/state
state=$(scx_state)
ktap_check sched-ext-state:disabled-at-boot "state is '$state', want 'disabled'" \
	test "$state" = disabled
ktap_done
