// SPDX-License-Identifier: GPL-2.0
/*
 * The target of progs/task-cgroup-ext.bpf.c: a scheduler whose ops.enqueue
 * passes its task to a global function and never calls
 * scx_bpf_task_cgroup() itself (a kernel deciding where to record kf_tasks
 * from what each op's program calls would record none around it).  An
 * extension replacing that function, loaded and attached while the
 * scheduler runs, does call it.  tc_ref_ops is a second scheduler, loaded
 * on its own, whose ops.enqueue calls it directly, enabled and disabled in
 * between.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

/* global, not inlined: the extension replaces it */
__noinline int tc_hook(struct task_struct *p __arg_trusted)
{
	return p->pid;
}

void BPF_STRUCT_OPS(tc_enqueue, struct task_struct *p, u64 enq_flags)
{
	tc_hook(p);
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(tc_enqueue_ref, struct task_struct *p, u64 enq_flags)
{
	bpf_cgroup_release(scx_bpf_task_cgroup(p));
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SEC(".struct_ops.link")
struct sched_ext_ops tc_ops = {
	.enqueue	= (void *)tc_enqueue,
	.name		= "task_cgroup_tgt",
};

SEC(".struct_ops.link")
struct sched_ext_ops tc_ref_ops = {
	.enqueue	= (void *)tc_enqueue_ref,
	.name		= "task_cgroup_ref",
};
