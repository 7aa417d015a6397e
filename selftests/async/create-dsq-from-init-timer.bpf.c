// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_create_dsq() (KF_SLEEPABLE: it allocates with GFP_KERNEL) from a
 * bpf_timer callback armed in the sleepable ops.init: the callback runs in
 * the timer softirq and may not sleep.  6.12 verifies it as sleepable
 * (in_sleepable() is "prog->sleepable || state->in_sleepable") and lets it
 * load and run; the series carries the backport of upstream 469d638d1520,
 * which refuses it as not sleepable.  async_ok counts the DSQs created.
 */
#include "async.bpf.h"

#define TIMER_DSQ (SHARED_DSQ + 1)

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	s32 ret = scx_bpf_create_dsq(TIMER_DSQ, -1);

	ASYNC_COUNT(!ret);
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(async_init)
{
	s32 ret = scx_bpf_create_dsq(SHARED_DSQ, -1);

	if (!ret)
		async_arm();
	return ret;
}
CASE_OPS(async, .init = (void *)async_init);

/* never created: keeps case_init() referenced, as libbpf requires */
CASE_OPS(base);
