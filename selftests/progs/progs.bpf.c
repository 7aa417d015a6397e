// SPDX-License-Identifier: GPL-2.0
/*
 * sched_ext kfuncs from programs that are not sched_ext_ops: one program
 * per line of progs.list.  A struct_ops program <p> comes with its map
 * <p>_ops (scxk prog creates only that one).
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

#define PROGS_DSQ 0x9e0ULL

/* BPF_PROG_TYPE_SYSCALL (always sleepable): unlocked + dsq_move + any */

SEC("syscall")
int sys_create_dsq(void *ctx)
{
	s32 ret = scx_bpf_create_dsq(PROGS_DSQ, -1);

	if (ret)
		return ret;
	scx_bpf_destroy_dsq(PROGS_DSQ);
	return 0;
}

SEC("syscall")
int sys_dispatch_from_dsq(void *ctx)
{
	struct task_struct *p = bpf_task_from_pid(1);
	struct bpf_iter_scx_dsq it;

	if (!p)
		return 1;
	/* PROGS_DSQ does not exist: the iterator stays empty, the move is a no-op */
	bpf_rcu_read_lock();
	if (!bpf_iter_scx_dsq_new(&it, PROGS_DSQ, 0))
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
	bpf_iter_scx_dsq_destroy(&it);
	bpf_rcu_read_unlock();
	bpf_task_release(p);
	return 0;
}

SEC("syscall")
int sys_nr_cpu_ids(void *ctx)
{
	return scx_bpf_nr_cpu_ids() > 0 ? 0 : 1;
}

SEC("syscall")
int sys_consume(void *ctx)
{
	scx_bpf_consume(PROGS_DSQ);
	return 0;
}

/* BPF_PROG_TYPE_TRACING: the any set only */

/*
 * fentry_nr_cpu_ids' calls, and what the kfunc last returned: a section of
 * their own, so that scxk prog fire reads them at a known offset.
 */
struct fire_rec {
	u64 calls;
	u32 ret;
} fire SEC(".data.fire");

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(fentry_nr_cpu_ids, int a)
{
	fire.ret = scx_bpf_nr_cpu_ids();
	__sync_fetch_and_add(&fire.calls, 1);
	return 0;	/* fentry programs must return 0 */
}

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(fentry_create_dsq, int a)
{
	scx_bpf_create_dsq(PROGS_DSQ, -1);
	return 0;
}

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(fentry_dispatch_from_dsq, int a)
{
	struct task_struct *p = bpf_get_current_task_btf();
	struct bpf_iter_scx_dsq it;

	if (!bpf_iter_scx_dsq_new(&it, PROGS_DSQ, 0))
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
	bpf_iter_scx_dsq_destroy(&it);
	return 0;
}

/* Another struct_ops (bpf_dummy_ops): every sched_ext kfunc refused */

SEC("struct_ops/test_1")
int BPF_PROG(dummy_kick_cpu, struct bpf_dummy_ops_state *state)
{
	scx_bpf_kick_cpu(0, 0);
	return 0;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_kick_cpu_ops = {
	.test_1 = (void *)dummy_kick_cpu,
};

SEC("struct_ops/test_1")
int BPF_PROG(dummy_consume, struct bpf_dummy_ops_state *state)
{
	scx_bpf_consume(PROGS_DSQ);
	return 0;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_consume_ops = {
	.test_1 = (void *)dummy_consume,
};

SEC("struct_ops.s/test_sleepable")
int BPF_PROG(dummy_create_dsq, struct bpf_dummy_ops_state *state)
{
	scx_bpf_create_dsq(PROGS_DSQ, -1);
	return 0;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_create_dsq_ops = {
	.test_sleepable = (void *)dummy_create_dsq,
};

/* control: a generic kfunc loads in the same place */
SEC("struct_ops/test_1")
int BPF_PROG(dummy_task_from_pid, struct bpf_dummy_ops_state *state)
{
	struct task_struct *p = bpf_task_from_pid(1);

	if (p)
		bpf_task_release(p);
	return 0;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_task_from_pid_ops = {
	.test_1 = (void *)dummy_task_from_pid,
};
