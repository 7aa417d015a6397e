/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the generated call-site programs (callsite.py): the kfunc
 * call of kfuncs.list made from a static or global function, a bpf_loop()
 * callback, or a bpf_timer or bpf_wq callback armed by the op's program.
 * Like the matrix programs they are only loaded, never attached or run.
 */
#ifndef __CALLSITE_BPF_H
#define __CALLSITE_BPF_H

#include "matrix.bpf.h"

struct cs_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cs_timer);
} cs_timers SEC(".maps");

struct cs_wq {
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cs_wq);
} cs_wqs SEC(".maps");

/*
 * Arm @cb, a bpf_timer callback, 1 ms ahead.  A macro: the verifier wants
 * the callback as a constant in the program that sets it.
 */
#define CS_ARM_TIMER(cb)						\
do {									\
	u32 __key = 0;							\
	struct cs_timer *__t = bpf_map_lookup_elem(&cs_timers, &__key); \
	if (__t && !bpf_timer_init(&__t->timer, &cs_timers, CLOCK_MONOTONIC)) { \
		bpf_timer_set_callback(&__t->timer, cb);		\
		bpf_timer_start(&__t->timer, 1000 * 1000, 0);		\
	}								\
} while (0)

/* start @cb, a bpf_wq callback */
#define CS_ARM_WQ(cb)							\
do {									\
	u32 __key = 0;							\
	struct cs_wq *__w = bpf_map_lookup_elem(&cs_wqs, &__key);	\
	if (__w && !bpf_wq_init(&__w->wq, &cs_wqs, 0) &&		\
	    !bpf_wq_set_callback(&__w->wq, cb, 0))			\
		bpf_wq_start(&__w->wq, 0);				\
} while (0)

#endif /* __CALLSITE_BPF_H */
