/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One case = one <case>.bpf.c with two complete schedulers:
 *
 *   neg_ops  calls a kfunc from an op that may not call it: the patched
 *            verifier must refuse it; 6.12 loads it and ejects it at run time
 *   pos_ops  the same call from an op that may: loads, attaches, runs
 *
 * Both start from the scheduler below (a shared DSQ, created in ops.init,
 * filled by ops.enqueue, drained by ops.dispatch) and replace or add the
 * ops the case is about: CASE_OPS(neg, .enqueue = (void *)neg_enqueue).
 * The op under test in pos_ops counts its calls with CALLED(op), after the
 * kfunc call: scxk pos checks that calls.<twin op> moved, i.e. that the load
 * it generates made the op run the call.
 * Every program must be used by neg_ops or pos_ops.  build.sh defines
 * CASE_NAME from the file name; the scheduler names are neg_<case> and
 * pos_<case> (scxk checks them in /sys/kernel/sched_ext and the kernel log).
 */
#ifndef __CASE_BPF_H
#define __CASE_BPF_H

#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

#define SHARED_DSQ 0x5ca5eULL

/* one counter per op a twin calls its kfunc from; scxk finds them by name */
struct case_calls {
	u64 init, select_cpu, enqueue, dispatch, cpu_release, cgroup_prep_move;
};
struct case_calls calls SEC(".data.calls");
#define CALLED(op) __sync_fetch_and_add(&calls.op, 1)

s32 BPF_STRUCT_OPS_SLEEPABLE(case_init)
{
	s32 ret = scx_bpf_create_dsq(SHARED_DSQ, -1);

	CALLED(init);
	return ret;
}

void BPF_STRUCT_OPS(case_enqueue, struct task_struct *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
	CALLED(enqueue);
}

void BPF_STRUCT_OPS(case_dispatch, s32 cpu, struct task_struct *prev)
{
	scx_bpf_consume(SHARED_DSQ);
	CALLED(dispatch);
}

/* later designated initializers override the defaults */
#pragma clang diagnostic ignored "-Winitializer-overrides"
#define CASE_OPS(kind, ...)						\
SEC(".struct_ops.link")							\
struct sched_ext_ops kind##_ops = {					\
	.init		= (void *)case_init,				\
	.enqueue	= (void *)case_enqueue,				\
	.dispatch	= (void *)case_dispatch,			\
	.name		= #kind "_" CASE_NAME,				\
	__VA_ARGS__							\
}

#endif /* __CASE_BPF_H */
