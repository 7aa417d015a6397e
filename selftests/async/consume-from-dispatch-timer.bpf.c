// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_consume() from a timer armed in ops.dispatch: refused at load time
 * (patched), ejected when the callback runs (6.12).
 */
#include "async.bpf.h"

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	scx_bpf_consume(SHARED_DSQ);
	async_rearm(timer);
	return 0;
}

void BPF_STRUCT_OPS(async_dispatch, s32 cpu, struct task_struct *prev)
{
	async_arm();
	scx_bpf_consume(SHARED_DSQ);
}
CASE_OPS(async, .dispatch = (void *)async_dispatch);

/* never created: keeps case_dispatch() referenced, as libbpf requires */
CASE_OPS(base);
