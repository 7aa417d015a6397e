/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every BPF object of these tests includes: the in-tree sched_ext
 * helpers and the generic kfuncs the programs use beside the sched_ext ones.
 */
#ifndef __SCXK_BPF_H
#define __SCXK_BPF_H

#include <scx/common.bpf.h>

struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
void bpf_task_release(struct task_struct *p) __ksym;
void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
void bpf_rcu_read_lock(void) __ksym;
void bpf_rcu_read_unlock(void) __ksym;

/* bpf_wq, as tools/testing/selftests/bpf/bpf_experimental.h declares it */
int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
int bpf_wq_set_callback_impl(struct bpf_wq *wq,
			     int (callback_fn)(void *map, int *key, void *value),
			     unsigned int flags__k, void *aux__ign) __ksym;
#define bpf_wq_set_callback(wq, cb, flags) \
	bpf_wq_set_callback_impl(wq, cb, flags, NULL)

#endif /* __SCXK_BPF_H */
