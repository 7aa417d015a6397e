/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Async-callback cases: a bpf_timer armed from an op is verified as part of
 * that op's program, so the load-time filter lets its callback call what the
 * op may call.  The callback runs later, from the timer softirq, outside the
 * op: the kernel must still refuse a call that needs the op's context (6.12:
 * the kf_mask check; patched: the per-CPU state checks of the kfuncs) and
 * eject the scheduler, instead of touching a dispatch buffer or a local DSQ
 * whose rq lock nobody holds.
 *
 * async_arm() arms the timer once, 1 ms ahead, from the op under test; the
 * case defines async_fire(), the callback, which makes the call and re-arms
 * with async_rearm(): it keeps firing after the ejection, for as long as the
 * maps live (scxk keeps them a while), as a real scheduler's timer would.
 */
#ifndef __ASYNC_BPF_H
#define __ASYNC_BPF_H

#include "case.bpf.h"

struct async_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct async_timer);
} async_timers SEC(".maps");

static bool async_armed;

static int async_fire(void *map, int *key, struct bpf_timer *timer);

static __always_inline void async_arm(void)
{
	struct async_timer *t;
	u32 key = 0;

	if (async_armed)
		return;
	t = bpf_map_lookup_elem(&async_timers, &key);
	if (!t)
		return;
	/* a racing CPU gets -EBUSY from init and leaves it to the first */
	if (bpf_timer_init(&t->timer, &async_timers, CLOCK_MONOTONIC))
		return;
	async_armed = true;
	bpf_timer_set_callback(&t->timer, async_fire);
	bpf_timer_start(&t->timer, 1000 * 1000, 0);
}

static __always_inline void async_rearm(struct bpf_timer *timer)
{
	bpf_timer_start(timer, 1000 * 1000, 0);
}

#endif /* __ASYNC_BPF_H */
