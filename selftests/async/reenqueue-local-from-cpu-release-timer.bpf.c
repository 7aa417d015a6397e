// SPDX-License-Identifier: GPL-2.0
/*
 * scx_bpf_reenqueue_local() from a timer armed in ops.cpu_release (an RT
 * task of the load takes the CPU): refused at load time (patched), ejected
 * when the callback runs (6.12).
 */
#include "async.bpf.h"

static int async_fire(void *map, int *key, struct bpf_timer *timer)
{
	scx_bpf_reenqueue_local();
	async_rearm(timer);
	return 0;
}

void BPF_STRUCT_OPS(async_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	async_arm();
	scx_bpf_reenqueue_local();
}
CASE_OPS(async, .cpu_release = (void *)async_cpu_release);
