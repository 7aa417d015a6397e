// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_task_cgroup() behind a tail call: tt_ops' ops.enqueue never calls
 * it itself but tail-calls tt_enqueue_callee, which does, on the same task.
 * The callee is loaded for the same member through tt_callee_ops, a second
 * scheduler that is never attached (a prog array takes only programs of the
 * caller's member).  6.12 runs this; a kernel that decides where to record
 * kf_tasks from what each member's own program calls must see the callee.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u32);
} tt_jmp SEC(".maps");

u64 nr_calls, nr_fallbacks;

void BPF_STRUCT_OPS(tt_enqueue, struct task_struct *p, u64 enq_flags)
{
	bpf_tail_call(ctx, &tt_jmp, 0);
	/* reached only if the slot is empty */
	__sync_fetch_and_add(&nr_fallbacks, 1);
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(tt_enqueue_callee, struct task_struct *p, u64 enq_flags)
{
	struct cgroup *cgrp = scx_bpf_task_cgroup(p);

	if (cgrp) {
		__sync_fetch_and_add(&nr_calls, 1);
		bpf_cgroup_release(cgrp);
	}
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SEC(".struct_ops.link")
struct sched_ext_ops tt_ops = {
	.enqueue	= (void *)tt_enqueue,
	.name		= "task_cgroup_tail",
};

SEC(".struct_ops.link")
struct sched_ext_ops tt_callee_ops = {
	.enqueue	= (void *)tt_enqueue_callee,
	.name		= "task_cgroup_callee",
};
