// SPDX-License-Identifier: GPL-2.0
/*
 * An extension (freplace) of progs/task-cgroup-target.bpf.c's tc_hook(),
 * which ops.enqueue calls with its task: scx_bpf_task_cgroup() on that
 * task is allowed (6.12 and patched), and must keep working when the
 * extension is attached after the scheduler was enabled.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

u64 nr_calls;

SEC("freplace/tc_hook")
int tc_hook_cgroup(struct task_struct *p __arg_trusted)
{
	bpf_cgroup_release(scx_bpf_task_cgroup(p));
	__sync_fetch_and_add(&nr_calls, 1);
	return 0;
}
