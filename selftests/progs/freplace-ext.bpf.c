// SPDX-License-Identifier: GPL-2.0
/*
 * Extensions (freplace) of progs/freplace-target.bpf.c's global functions,
 * each calling scx_bpf_consume(): an extension runs as part of the member
 * whose code it replaces, so it may call what that member may call.
 * scxk freplace loads one at a time, attach target set at run time.
 */
#include "scxk.bpf.h"

char _license[] SEC("license") = "GPL";

SEC("freplace/tgt_dsp")
int ext_consume(u64 dsq_id)
{
	return scx_bpf_consume(dsq_id);
}
