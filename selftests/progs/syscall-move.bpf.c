// SPDX-License-Identifier: GPL-2.0
/*
 * A SYSCALL program that moves a real task: sm_ops parks the task whose
 * pid scxk wrote into sm_victim on SM_DSQ, which nothing of the scheduler
 * ever consumes, so the task cannot run until sm_move moves it with
 * scx_bpf_dispatch_from_dsq() to the global DSQ.  scxk syscall-move checks
 * that the task stays parked before the move and runs after it.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

#define SM_DSQ 0x5c3

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, s32);
} sm_victim SEC(".maps");

u64 nr_parked, nr_moved;

s32 BPF_STRUCT_OPS_SLEEPABLE(sm_init)
{
	return scx_bpf_create_dsq(SM_DSQ, -1);
}

/* no idle-CPU shortcut: every wakeup goes through ops.enqueue() */
s32 BPF_STRUCT_OPS(sm_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	return prev_cpu;
}

void BPF_STRUCT_OPS(sm_enqueue, struct task_struct *p, u64 enq_flags)
{
	u32 zero = 0;
	s32 *victim = bpf_map_lookup_elem(&sm_victim, &zero);

	if (victim && *victim && p->pid == *victim) {
		__sync_fetch_and_add(&nr_parked, 1);
		scx_bpf_dispatch(p, SM_DSQ, SCX_SLICE_DFL, enq_flags);
		return;
	}
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SEC("syscall")
int sm_move(void *ctx)
{
	struct task_struct *p;

	bpf_rcu_read_lock();
	bpf_for_each(scx_dsq, p, SM_DSQ, 0) {
		if (scx_bpf_dispatch_from_dsq(BPF_FOR_EACH_ITER, p, SCX_DSQ_GLOBAL, 0))
			__sync_fetch_and_add(&nr_moved, 1);
	}
	bpf_rcu_read_unlock();
	return 0;
}

SEC(".struct_ops.link")
struct sched_ext_ops sm_ops = {
	.init		= (void *)sm_init,
	.select_cpu	= (void *)sm_select_cpu,
	.enqueue	= (void *)sm_enqueue,
	.name		= "syscall_move",
};
