// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_select_cpu_dfl() (select_cpu group) belongs in ops.select_cpu. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_enqueue, struct task_struct *p, u64 enq_flags)
{
	bool idle = false;

	scx_bpf_select_cpu_dfl(p, scx_bpf_task_cpu(p), 0, &idle);
	scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
}
CASE_OPS(neg, .enqueue = (void *)neg_enqueue);

s32 BPF_STRUCT_OPS(pos_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &idle);

	CALLED(select_cpu);
	if (idle)
		scx_bpf_dispatch(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
	return cpu;
}
CASE_OPS(pos, .select_cpu = (void *)pos_select_cpu);
