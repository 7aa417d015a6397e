// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_dispatch() (enq_dsp group) belongs in ops.enqueue, ops.select_cpu
 * and ops.dispatch, not in ops.running. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_running, struct task_struct *p)
{
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, 0);
}
CASE_OPS(neg, .running = (void *)neg_running);

/* case_enqueue() dispatches from ops.enqueue */
CASE_OPS(pos);
