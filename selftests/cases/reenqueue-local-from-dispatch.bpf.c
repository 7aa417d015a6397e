// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_reenqueue_local() (cpu_release group) belongs in ops.cpu_release. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_dispatch, s32 cpu, struct task_struct *prev)
{
	scx_bpf_reenqueue_local();
	scx_bpf_consume(SHARED_DSQ);
}
CASE_OPS(neg, .dispatch = (void *)neg_dispatch);

/* called when an RT task takes the CPU (scxk's load has RT bursts) */
void BPF_STRUCT_OPS(pos_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	scx_bpf_reenqueue_local();
	CALLED(cpu_release);
}
CASE_OPS(pos, .cpu_release = (void *)pos_cpu_release);
