// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_consume() from a global function called by a timer callback armed
 * in ops.dispatch.  The verifier checks a global function on its own, once,
 * whoever calls it: it must still be judged for where its callers run, and
 * the refusal must name it (patched); 6.12 ejects it when the call runs.
 */
#include "async.bpf.h"

/* global linkage, not inlined: verified separately from the callback */
__noinline int async_global_consume(u64 dsq_id)
{
	return scx_bpf_consume(dsq_id);
}

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	async_global_consume(SHARED_DSQ);
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
