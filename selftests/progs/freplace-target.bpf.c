// SPDX-License-Identifier: GPL-2.0
/*
 * The target of progs/freplace-ext.bpf.c: a sched_ext scheduler whose
 * ops.enqueue and ops.dispatch each call a global function, which an
 * extension (freplace) program can replace.  Loaded, never attached.
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

void BPF_STRUCT_OPS(tgt_enqueue, struct task_struct *p, u64 enq_flags)
{
	tgt_enq(TGT_DSQ);
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(tgt_dispatch, s32 cpu, struct task_struct *prev)
{
	tgt_dsp(TGT_DSQ);
}

SEC(".struct_ops.link")
struct sched_ext_ops tgt_ops = {
	.enqueue	= (void *)tgt_enqueue,
	.dispatch	= (void *)tgt_dispatch,
	.name		= "freplace_tgt",
};
