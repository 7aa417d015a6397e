#!/bin/sh
# A task stuck in the kernel (say a CPU-hotplug deadlock under a BPF
# scheduler) must be reported with its stack, not leave the guest silent
# until the host's QEMU timeout: the hung-task detector is built in
# (kconfig-fragments/base.config) and armed.
# shellcheck source=../ktap.sh # the build installs initramfs/ktap.sh there
. /scx/ktap.sh
scx_t_suite hang-detector || { ktap_plan; exit 0; }
ktap_plan hang-detector:armed

f=/proc/sys/kernel/hung_task_timeout_secs
secs=$(cat "$f" 2>/dev/null)
ktap_check hang-detector:armed \
	"$f reads '${secs:-missing}' (CONFIG_DETECT_HUNG_TASK off?): a stuck task would go unreported" \
	test "${secs:-0}" -gt 0
ktap_done
