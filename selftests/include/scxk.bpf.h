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

#endif /* __SCXK_BPF_H */
