/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Async-callback cases: an op arms a bpf_timer (or a bpf_wq) whose callback
 * calls a sched_ext kfunc.  The callback runs later, from the timer softirq
 * (bpf_wq: a kworker, sleepable), outside the op that armed it, with no rq
 * lock held: whatever op armed it, it may only do what an unlocked op may.
 *
 * The patched verifier judges the callback for where it runs, not as part
 * of the arming op: it gets the unlocked kfuncs (scx_bpf_create_dsq() only
 * from a bpf_wq callback, which may sleep), the dispatch_from_dsq ones and
 * the any set, also in a global function it calls, and a call of any other
 * sched_ext kfunc is refused at load time ("calling kernel function K is not
 * allowed from a bpf_timer callback of sched_ext_ops.<op>").  6.12 verifies
 * the callback as part of the arming op, lets every sched_ext kfunc through
 * and ejects the scheduler when the call runs and its kf_mask check fails.
 *
 * async_arm() arms the timer once, 1 ms ahead, from the op under test; the
 * case defines async_fire(), the callback, which makes the call and re-arms
 * with async_rearm(): it keeps firing for as long as the maps live (scxk
 * keeps them a while after an ejection), as a real scheduler's timer would.
 * A case that defines ASYNC_WQ before including this gets a bpf_wq instead:
 * async_arm() (sleepable ops only) starts it once and returns the error of
 * bpf_wq_init/set_callback/start, async_fire() is the bpf_wq callback.
 * A case that must run counts in async_calls the calls its callback made and
 * in async_ok those that succeeded (scxk async-run reads them from .bss).
 */
#ifndef __ASYNC_BPF_H
#define __ASYNC_BPF_H

#include "case.bpf.h"

u64 async_calls, async_ok;

/* after the call: count it, and whether it did what it was asked */
#define ASYNC_COUNT(ok)							\
	do {								\
		__sync_fetch_and_add(&async_calls, 1);			\
		if (ok)							\
			__sync_fetch_and_add(&async_ok, 1);		\
	} while (0)

#ifndef ASYNC_WQ

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

#else /* ASYNC_WQ */

struct async_wq {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct async_wq);
} async_wqs SEC(".maps");

static int async_fire(void *map, int *key, void *value);

static __always_inline int async_arm(void)
{
	struct async_wq *w;
	u32 key = 0;
	int ret;

	w = bpf_map_lookup_elem(&async_wqs, &key);
	if (!w)
		return -ENOENT;
	ret = bpf_wq_init(&w->wq, &async_wqs, 0);
	ret = ret ?: bpf_wq_set_callback(&w->wq, async_fire, 0);
	return ret ?: bpf_wq_start(&w->wq, 0);
}

#endif /* ASYNC_WQ */

#endif /* __ASYNC_BPF_H */
