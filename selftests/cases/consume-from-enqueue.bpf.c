// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_consume() (dispatch group) belongs in ops.dispatch, not ops.enqueue. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_enqueue, struct task_struct *p, u64 enq_flags)
{
	scx_bpf_consume(SHARED_DSQ);
	scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
}
CASE_OPS(neg, .enqueue = (void *)neg_enqueue);

/* case_dispatch() consumes from ops.dispatch */
CASE_OPS(pos);
