#!/bin/sh
# The kernel has sched_ext, and no BPF scheduler is attached at boot.
# shellcheck source=../ktap.sh # the build installs initramfs/ktap.sh there
. /scx/ktap.sh
scx_t_suite sched-ext-state || { ktap_plan; exit 0; }
ktap_plan sched-ext-state:exists sched-ext-state:disabled-at-boot

ktap_check sched-ext-state:exists "/sys/kernel/sched_ext/state missing (CONFIG_SCHED_CLASS_EXT off?)" \
	test -r /sys/kernel/sched_ext/state
state=$(scx_state)
ktap_check sched-ext-state:disabled-at-boot "state is '$state', want 'disabled'" \
	test "$state" = disabled
ktap_done
