// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_create_dsq() from a bpf_wq callback armed in ops.init: the
 * callback runs in a kworker, unlocked and sleepable, and creates a DSQ of
 * its own (a fresh id) besides the one ops.init made.  It must load, run and
 * stay enabled; async_ok counts the DSQs created.
 */
#define ASYNC_WQ
#include "async.bpf.h"

#define WQ_DSQ (SHARED_DSQ + 1)

static int async_fire(void *map, int *key, void *value)
{
	s32 ret = scx_bpf_create_dsq(WQ_DSQ, -1);

	ASYNC_COUNT(!ret);
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(async_init)
{
	s32 ret = scx_bpf_create_dsq(SHARED_DSQ, -1);

	return ret ?: async_arm();
}
CASE_OPS(async, .init = (void *)async_init);

/* never created: keeps case_init() referenced, as libbpf requires */
CASE_OPS(base);
