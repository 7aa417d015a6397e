/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the generated kfunc-matrix programs (see kfuncs.list).  The
 * programs are only loaded, never attached or run: the arguments must be
 * valid for the verifier, not meaningful at run time.
 */
#ifndef __MATRIX_BPF_H
#define __MATRIX_BPF_H

#include "scxk.bpf.h"

/* a user DSQ id; it need not exist, nothing runs */
#define MX_DSQ 0x4d58ULL

/* a referenced, trusted task for the kfuncs that take one */
#define WITH_TASK(t, ...)						\
do {									\
	struct task_struct *t = bpf_task_from_pid(1);			\
	if (t) {							\
		__VA_ARGS__;						\
		bpf_task_release(t);					\
	}								\
} while (0)

/* DSQ iterators are KF_RCU_PROTECTED; some matrix programs are sleepable */
#define RCU(...)							\
do {									\
	bpf_rcu_read_lock();						\
	{ __VA_ARGS__; }						\
	bpf_rcu_read_unlock();						\
} while (0)

#endif /* __MATRIX_BPF_H */
