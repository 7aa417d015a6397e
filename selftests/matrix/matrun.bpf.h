/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helper ops of the kfunc matrix's run phase (matrun.py): each cell's
 * kNN_run map uses them for every member but the cell's own op.  The load
 * phase never loads them (scxk loads only the cell's program).
 *
 * Tasks go to MX_DSQ from ops.enqueue (so that the dsq_move kfuncs and the
 * DSQ iterators find one waiting there) and ops.dispatch takes them from
 * MX_DSQ2 (where scx_bpf_dispatch_vtime_from_dsq() moves them) or MX_DSQ.
 * The dequeue row keeps them in a BPF queue instead, as scx_qmap does: the
 * kernel calls ops.dequeue() only for a task the BPF scheduler holds.
 */
#ifndef __MATRUN_BPF_H
#define __MATRUN_BPF_H

#include "matrix.bpf.h"

/* how the scheduler ended, from ops.exit (what libbpf's UEI_RECORD keeps) */
u64 mx_exit_kind;
char mx_exit_msg[128];

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4096);
	__type(value, s32);
} mx_queue SEC(".maps");

/* the DSQs of kfuncs.list: created by ops.init, or first thing in the
 * init row's own programs (a second create fails with -EEXIST, harmless) */
static __always_inline void mx_dsqs(void)
{
	scx_bpf_create_dsq(MX_DSQ, -1);
	scx_bpf_create_dsq(MX_DSQ2, -1);
	scx_bpf_create_dsq(MX_DSQ_DEL, -1);
}

/* ops.dispatch's placement: a waiting task to this CPU */
static __always_inline void mx_consume(void)
{
	if (!scx_bpf_consume(MX_DSQ2))
		scx_bpf_consume(MX_DSQ);
}

#ifdef MX_USE_mx_init
SEC("struct_ops.s/init")
int BPF_PROG(mx_init)
{
	mx_dsqs();
	return 0;
}
#endif

#ifdef MX_USE_mx_exit
SEC("struct_ops.s/exit")
int BPF_PROG(mx_exit, struct scx_exit_info *ei)
{
	mx_exit_kind = ei->kind;
	bpf_probe_read_kernel_str(mx_exit_msg, sizeof(mx_exit_msg), ei->msg);
	return 0;
}
#endif

#ifdef MX_USE_mx_enqueue
SEC("struct_ops/enqueue")
int BPF_PROG(mx_enqueue, struct task_struct *p, u64 enq_flags)
{
	scx_bpf_dispatch_vtime(p, MX_DSQ, SCX_SLICE_DFL, 0, enq_flags);
	return 0;
}
#endif

#ifdef MX_USE_mx_dispatch
SEC("struct_ops/dispatch")
int BPF_PROG(mx_dispatch, s32 cpu, struct task_struct *prev)
{
	mx_consume();
	return 0;
}
#endif

#ifdef MX_USE_mx_enqueue_q
SEC("struct_ops/enqueue")
int BPF_PROG(mx_enqueue_q, struct task_struct *p, u64 enq_flags)
{
	s32 pid = p->pid;

	if (bpf_map_push_elem(&mx_queue, &pid, 0))
		scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
	return 0;
}
#endif

/* one task per call, so that the others wait in the queue, where
 * ops.dequeue() sees them leave; a stale pid's dispatch is ignored */
#ifdef MX_USE_mx_dispatch_q
SEC("struct_ops/dispatch")
int BPF_PROG(mx_dispatch_q, s32 cpu, struct task_struct *prev)
{
	struct task_struct *p;
	s32 pid;

	for (int i = 0; i < 8; i++) {
		if (bpf_map_pop_elem(&mx_queue, &pid))
			return 0;
		p = bpf_task_from_pid(pid);
		if (!p)
			continue;
		scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, 0);
		bpf_task_release(p);
		return 0;
	}
	return 0;
}
#endif

/* the dump rows' trigger: the loader sets nice 19 (static_prio 139) on one
 * of its tasks, and the error makes the kernel dump the state, calling
 * ops.dump(), ops.dump_cpu() and ops.dump_task() */
#ifdef MX_USE_mx_set_weight_err
SEC("struct_ops/set_weight")
int BPF_PROG(mx_set_weight_err, struct task_struct *p, u32 weight)
{
	if (p->static_prio == 139)
		scx_bpf_error("mx: dump trigger");
	return 0;
}
#endif

#ifdef MX_USE_mx_prep_move_refuse
/* the cgroup_cancel_move row's trigger: a thread group's move is refused at
 * a thread that is not its leader; the kernel has prepared the leader's
 * move first (cgroup_migrate() adds the leader first) and cancels it */
SEC("struct_ops.s/cgroup_prep_move")
int BPF_PROG(mx_prep_move_refuse, struct task_struct *p, struct cgroup *from,
	     struct cgroup *to)
{
	return p->pid == p->tgid ? 0 : -16;	/* -EBUSY */
}
#endif

#endif /* __MATRUN_BPF_H */
