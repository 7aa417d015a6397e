// SPDX-License-Identifier: GPL-2.0
/*
 * The target of progs/freplace-ext.bpf.c: a sched_ext scheduler whose
 * ops.enqueue and ops.dispatch each call a global function, which an
 * extension (freplace) program can replace, and whose ops.dispatch arms a
 * bpf_timer whose callback calls a third one, which runs in the timer
 * softirq.  Loaded, never attached.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

#define TGT_DSQ 0xf4e0ULL

/*
 * Global, not inlined: extensions replace these. Each calls a kfunc every op
 * may call, so that the compiler cannot drop the call as pure.
 */
__noinline int tgt_enq(u64 dsq_id)
{
	return scx_bpf_dsq_nr_queued(dsq_id);
}

__noinline int tgt_dsp(u64 dsq_id)
{
	return scx_bpf_dsq_nr_queued(dsq_id);
}

struct tgt_timer {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct tgt_timer);
} tgt_timers SEC(".maps");

/* called only from the timer callback, whatever armed the timer */
__noinline int tgt_tmr(u64 dsq_id)
{
	return scx_bpf_dsq_nr_queued(dsq_id);
}

static int tgt_fire(void *map, int *key, struct tgt_timer *t)
{
	tgt_tmr(TGT_DSQ);
	return 0;
}

void BPF_STRUCT_OPS(tgt_enqueue, struct task_struct *p, u64 enq_flags)
{
	tgt_enq(TGT_DSQ);
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(tgt_dispatch, s32 cpu, struct task_struct *prev)
{
	struct tgt_timer *t;
	u32 key = 0;

	tgt_dsp(TGT_DSQ);
	t = bpf_map_lookup_elem(&tgt_timers, &key);
	if (t && !bpf_timer_init(&t->timer, &tgt_timers, CLOCK_MONOTONIC)) {
		bpf_timer_set_callback(&t->timer, tgt_fire);
		bpf_timer_start(&t->timer, 1000 * 1000, 0);
	}
}

SEC(".struct_ops.link")
struct sched_ext_ops tgt_ops = {
	.enqueue	= (void *)tgt_enqueue,
	.dispatch	= (void *)tgt_dispatch,
	.name		= "freplace_tgt",
};
