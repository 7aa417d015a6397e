// SPDX-License-Identifier: GPL-2.0
/*
 * Departure: ops.cgroup_move is labelled SCX_KF_UNLOCKED in 6.12, so the
 * run-time mask lets it call the dsq_move kfuncs, but it runs with the
 * task's rq lock held and those kfuncs take rq locks.  The patched verifier
 * refuses them there; ops.cgroup_prep_move really is unlocked.
 */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_cgroup_move, struct task_struct *p, struct cgroup *from,
		    struct cgroup *to)
{
	struct bpf_iter_scx_dsq it;

	if (!bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0))
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
	bpf_iter_scx_dsq_destroy(&it);
}
CASE_OPS(neg, .cgroup_move = (void *)neg_cgroup_move);

/* scxk moves a CPU hog between cgroups: it may well sit on SHARED_DSQ */
s32 BPF_STRUCT_OPS(pos_cgroup_prep_move, struct task_struct *p, struct cgroup *from,
		   struct cgroup *to)
{
	struct bpf_iter_scx_dsq it;

	if (!bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0)) {
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
		CALLED(cgroup_prep_move);
	}
	bpf_iter_scx_dsq_destroy(&it);
	return 0;
}
CASE_OPS(pos, .cgroup_prep_move = (void *)pos_cgroup_prep_move);
