// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_dispatch_from_dsq() from a timer armed in ops.tick, which may not
 * call it itself (rq locked): the callback runs unlocked, where the kfunc
 * takes the rq lock it needs.  It must load, run and stay enabled.
 *
 * Every millisecond the callback moves the first task of SHARED_DSQ it can
 * to the global DSQ; async_calls counts the calls made, async_ok the moves.
 */
#include "async.bpf.h"

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	struct task_struct *p;

	bpf_for_each(scx_dsq, p, SHARED_DSQ, 0) {
		bool moved = scx_bpf_dispatch_from_dsq(BPF_FOR_EACH_ITER, p, SCX_DSQ_GLOBAL, 0);

		ASYNC_COUNT(moved);
		if (moved)
			break;
	}
	async_rearm(timer);
	return 0;
}

void BPF_STRUCT_OPS(async_tick, struct task_struct *p)
{
	async_arm();
}
CASE_OPS(async, .tick = (void *)async_tick);
