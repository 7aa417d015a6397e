// SPDX-License-Identifier: GPL-2.0
/*
 * Departure: ops.dump is labelled SCX_KF_UNLOCKED in 6.12 but runs under
 * scx_dump_lock with IRQs off, possibly from sysrq in hard-IRQ context; the
 * dsq_move kfuncs take rq locks.  The patched verifier refuses them there;
 * ops.init really is unlocked.
 */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_dump, struct scx_dump_ctx *dctx)
{
	struct task_struct *p = bpf_task_from_pid(1);
	struct bpf_iter_scx_dsq it;

	if (!p)
		return;
	if (!bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0))
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
	bpf_iter_scx_dsq_destroy(&it);
	bpf_task_release(p);
}
CASE_OPS(neg, .dump = (void *)neg_dump);

/* init is not on any DSQ: the move is attempted and finds nothing to do */
s32 BPF_STRUCT_OPS_SLEEPABLE(pos_init)
{
	struct task_struct *p;
	struct bpf_iter_scx_dsq it;
	s32 ret = scx_bpf_create_dsq(SHARED_DSQ, -1);

	if (ret)
		return ret;
	p = bpf_task_from_pid(1);
	if (!p)
		return -ESRCH;
	bpf_rcu_read_lock();
	if (!bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0)) {
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
		CALLED(init);
	}
	bpf_iter_scx_dsq_destroy(&it);
	bpf_rcu_read_unlock();
	bpf_task_release(p);
	return 0;
}
CASE_OPS(pos, .init = (void *)pos_init);
