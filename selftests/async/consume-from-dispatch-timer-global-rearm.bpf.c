// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_consume() from a global function that also arms the timer whose
 * callback calls it again, the usual shape of a re-arming helper.  The
 * function is verified for ops.dispatch and gains the timer's context while
 * it is being verified (from the callback it arms): it must be verified
 * again for it (patched: refused, naming it); 6.12 ejects the scheduler
 * when the timer fires.
 */
#include "async.bpf.h"

/* global linkage, not inlined: verified separately from its callers */
__noinline int async_rearm_consume(u64 dsq_id)
{
	async_arm();
	return scx_bpf_consume(dsq_id);
}

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	async_rearm_consume(SHARED_DSQ);
	async_rearm(timer);
	return 0;
}

void BPF_STRUCT_OPS(async_dispatch, s32 cpu, struct task_struct *prev)
{
	async_rearm_consume(SHARED_DSQ);
}
CASE_OPS(async, .dispatch = (void *)async_dispatch);

/* never created: keeps case_dispatch() referenced, as libbpf requires */
CASE_OPS(base);
