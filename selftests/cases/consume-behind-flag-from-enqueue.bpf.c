// SPDX-License-Identifier: GPL-2.0
/*
 * Inherent to checking at load time: a helper shared by ops.enqueue and
 * ops.dispatch calls scx_bpf_consume() only when a flag says so, and the
 * flag is never set, so 6.12 never sees the call run from ops.enqueue.  The
 * verifier cannot know that (the flag is writable), reaches the call from
 * ops.enqueue and refuses it.  6.12 loads it.
 */
#include "case.bpf.h"

/* writable, so the verifier cannot prune the call: never set by scxk */
bool consume_anywhere;

static __noinline void maybe_consume(void)
{
	if (consume_anywhere)
		scx_bpf_consume(SHARED_DSQ);
}

void BPF_STRUCT_OPS(neg_enqueue, struct task_struct *p, u64 enq_flags)
{
	maybe_consume();
	scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(neg_dispatch, s32 cpu, struct task_struct *prev)
{
	maybe_consume();
	scx_bpf_consume(SHARED_DSQ);
}
CASE_OPS(neg, .enqueue = (void *)neg_enqueue, .dispatch = (void *)neg_dispatch);

/* case_dispatch() consumes from ops.dispatch */
CASE_OPS(pos);
