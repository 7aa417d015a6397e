/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the generated kfunc-matrix programs (see kfuncs.list).  The
 * load phase only loads them; the run phase (run.list) attaches every cell
 * that loads, with the helper ops of matrun.bpf.h, so the arguments must be
 * valid at run time too: real DSQs, the op's own task, CPU 0.
 */
#ifndef __MATRIX_BPF_H
#define __MATRIX_BPF_H

#include "scxk.bpf.h"

/* user DSQ ids: see kfuncs.list */
#define MX_DSQ		0x4d58ULL
#define MX_DSQ2		(MX_DSQ + 1)
#define MX_DSQ_DEL	(MX_DSQ + 2)
#define MX_DSQ_NEW	(MX_DSQ + 3)

/* the call has returned; the matrix programs count it, the others do not */
#ifndef MX_HIT
#define MX_HIT do { } while (0)
#endif

/* a referenced, trusted task for the kfuncs that take one */
#define WITH_TASK(t, ...)						\
do {									\
	struct task_struct *t = bpf_task_from_pid(1);			\
	if (t) {							\
		__VA_ARGS__;						\
		bpf_task_release(t);					\
	}								\
} while (0)

/* the op's own task (a trusted argument) for the kfuncs that take one */
#define WITH_OWN(own, t, ...)						\
do {									\
	struct task_struct *t = (own);					\
	__VA_ARGS__;							\
} while (0)

/* DSQ iterators are KF_RCU_PROTECTED; some matrix programs are sleepable */
#define RCU(...)							\
do {									\
	bpf_rcu_read_lock();						\
	{ __VA_ARGS__; }						\
	bpf_rcu_read_unlock();						\
} while (0)

#endif /* __MATRIX_BPF_H */
