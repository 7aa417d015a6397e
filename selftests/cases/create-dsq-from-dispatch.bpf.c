// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_create_dsq() (unlocked group, KF_SLEEPABLE) belongs in the
 * unlocked ops such as ops.init, not in ops.dispatch. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_dispatch, s32 cpu, struct task_struct *prev)
{
	scx_bpf_create_dsq(SHARED_DSQ + 1, -1);
	scx_bpf_consume(SHARED_DSQ);
}
CASE_OPS(neg, .dispatch = (void *)neg_dispatch);

/* case_init() creates the shared DSQ from ops.init */
CASE_OPS(pos);
