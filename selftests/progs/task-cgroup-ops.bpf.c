// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_task_cgroup() on the op's own task from every task op the spec
 * marks At (matrix/spec): each op calls it and counts the calls that
 * returned.  scxk task-cgroup-ops drives a load that reaches every op and
 * fails unless each count moved and the scheduler stayed enabled.
 *
 * Tasks wait in a BPF queue between ops.enqueue() and ops.dispatch(), as
 * in scx_qmap: a task that leaves while the BPF scheduler holds it is what
 * makes the kernel call ops.dequeue().  A pid popped for a task that left
 * is dispatched anyway; the kernel ignores a stale dispatch.
 *
 * Left out: ops.core_sched_before() (CONFIG_SCHED_CORE is off in these
 * kernels, so nothing calls it) and ops.cgroup_move() (6.12 runs it
 * without recording its task and ejects the scheduler; the series records
 * it, see the matrix's cgroup_move row).
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

/* one count per op, read by name (scxk-taskops.c lists them) */
u64 nr_select_cpu, nr_enqueue, nr_dequeue, nr_tick, nr_runnable, nr_running,
	nr_stopping, nr_quiescent, nr_yield, nr_set_weight, nr_set_cpumask,
	nr_enable, nr_disable, nr_exit_task;

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4096);
	__type(value, s32);
} tco_queue SEC(".maps");

/* the task's cgroup, taken and put back: the call under test */
static __always_inline void tco_call(struct task_struct *p, u64 *cnt)
{
	bpf_cgroup_release(scx_bpf_task_cgroup(p));
	__sync_fetch_and_add(cnt, 1);
}

s32 BPF_STRUCT_OPS(tco_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	tco_call(p, &nr_select_cpu);
	return prev_cpu;
}

void BPF_STRUCT_OPS(tco_enqueue, struct task_struct *p, u64 enq_flags)
{
	s32 pid = p->pid;

	tco_call(p, &nr_enqueue);
	if (bpf_map_push_elem(&tco_queue, &pid, 0))
		scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

/*
 * One task per call, so that the others stay in the queue, where ops.dequeue
 * sees them leave.
 */
void BPF_STRUCT_OPS(tco_dispatch, s32 cpu, struct task_struct *prev)
{
	struct task_struct *p;
	s32 pid;

	for (int i = 0; i < 8; i++) {
		if (bpf_map_pop_elem(&tco_queue, &pid))
			return;
		p = bpf_task_from_pid(pid);
		if (!p)
			continue;
		scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, 0);
		bpf_task_release(p);
		return;
	}
}

void BPF_STRUCT_OPS(tco_dequeue, struct task_struct *p, u64 deq_flags)
{
	tco_call(p, &nr_dequeue);
}

void BPF_STRUCT_OPS(tco_tick, struct task_struct *p)
{
	tco_call(p, &nr_tick);
}

void BPF_STRUCT_OPS(tco_runnable, struct task_struct *p, u64 enq_flags)
{
	tco_call(p, &nr_runnable);
}

void BPF_STRUCT_OPS(tco_running, struct task_struct *p)
{
	tco_call(p, &nr_running);
}

void BPF_STRUCT_OPS(tco_stopping, struct task_struct *p, bool runnable)
{
	tco_call(p, &nr_stopping);
}

void BPF_STRUCT_OPS(tco_quiescent, struct task_struct *p, u64 deq_flags)
{
	tco_call(p, &nr_quiescent);
}

/* @to is only set by yield_to(), which only KVM calls: not tested */
bool BPF_STRUCT_OPS(tco_yield, struct task_struct *from, struct task_struct *to)
{
	tco_call(from, &nr_yield);
	return false;
}

void BPF_STRUCT_OPS(tco_set_weight, struct task_struct *p, u32 weight)
{
	tco_call(p, &nr_set_weight);
}

void BPF_STRUCT_OPS(tco_set_cpumask, struct task_struct *p,
		    const struct cpumask *cpumask)
{
	tco_call(p, &nr_set_cpumask);
}

void BPF_STRUCT_OPS(tco_enable, struct task_struct *p)
{
	tco_call(p, &nr_enable);
}

void BPF_STRUCT_OPS(tco_disable, struct task_struct *p)
{
	tco_call(p, &nr_disable);
}

void BPF_STRUCT_OPS(tco_exit_task, struct task_struct *p,
		    struct scx_exit_task_args *args)
{
	tco_call(p, &nr_exit_task);
}

SEC(".struct_ops.link")
struct sched_ext_ops tco_ops = {
	.select_cpu	= (void *)tco_select_cpu,
	.enqueue	= (void *)tco_enqueue,
	.dispatch	= (void *)tco_dispatch,
	.dequeue	= (void *)tco_dequeue,
	.tick		= (void *)tco_tick,
	.runnable	= (void *)tco_runnable,
	.running	= (void *)tco_running,
	.stopping	= (void *)tco_stopping,
	.quiescent	= (void *)tco_quiescent,
	.yield		= (void *)tco_yield,
	.set_weight	= (void *)tco_set_weight,
	.set_cpumask	= (void *)tco_set_cpumask,
	.enable		= (void *)tco_enable,
	.disable	= (void *)tco_disable,
	.exit_task	= (void *)tco_exit_task,
	.name		= "task_cgroup_ops",
};
