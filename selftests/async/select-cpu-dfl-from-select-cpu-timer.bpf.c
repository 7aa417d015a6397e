// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_select_cpu_dfl() of a task (init's, looked up by pid) from a timer
 * armed in ops.select_cpu: the only op that may call it, but the callback
 * runs in softirq, where no wakeup is being placed: refused at load time
 * (patched), ejected when the callback runs (6.12).
 */
#include "async.bpf.h"

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	struct task_struct *p = bpf_task_from_pid(1);
	bool is_idle = false;

	if (p) {
		scx_bpf_select_cpu_dfl(p, 0, 0, &is_idle);
		bpf_task_release(p);
	}
	async_rearm(timer);
	return 0;
}

s32 BPF_STRUCT_OPS(async_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool is_idle = false;

	async_arm();
	return scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);
}
CASE_OPS(async, .select_cpu = (void *)async_select_cpu);
