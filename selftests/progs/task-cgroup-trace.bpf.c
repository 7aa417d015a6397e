// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_task_cgroup() from a tracing program: the kfunc is in the set
 * sched_ext registers for every program type, so a tp_btf program calling
 * it on the woken task loads on every kernel.  The task is not one a
 * sched_ext operation is running for, so the call ejects the running
 * scheduler at run time: the run-time check that stays.  scxk
 * task-cgroup-trace checks the ejection and its message.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

u64 nr_calls;

SEC("tp_btf/sched_wakeup")
int BPF_PROG(tct_wakeup, struct task_struct *p)
{
	bpf_cgroup_release(scx_bpf_task_cgroup(p));
	__sync_fetch_and_add(&nr_calls, 1);
	return 0;
}

void BPF_STRUCT_OPS(tct_enqueue, struct task_struct *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SEC(".struct_ops.link")
struct sched_ext_ops tct_ops = {
	.enqueue	= (void *)tct_enqueue,
	.name		= "task_cgroup_trace",
};
