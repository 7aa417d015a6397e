// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_dispatch() of a task (init's, looked up by pid) from a timer armed
 * in ops.enqueue: refused at load time (patched); 6.12 must eject it before
 * the task is touched.
 */
#include "async.bpf.h"

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	struct task_struct *p = bpf_task_from_pid(1);

	if (p) {
		scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, 0);
		bpf_task_release(p);
	}
	async_rearm(timer);
	return 0;
}

void BPF_STRUCT_OPS(async_enqueue, struct task_struct *p, u64 enq_flags)
{
	async_arm();
	scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
}
CASE_OPS(async, .enqueue = (void *)async_enqueue);

/* never created: keeps case_enqueue() referenced, as libbpf requires */
CASE_OPS(base);
