// SPDX-License-Identifier: GPL-2.0
/* scx_bpf_dispatch_from_dsq() (dsq_move group) belongs in ops.dispatch and
 * the unlocked ops, not in ops.tick. */
#include "case.bpf.h"

void BPF_STRUCT_OPS(neg_tick, struct task_struct *p)
{
	struct bpf_iter_scx_dsq it;

	/* no need for @p to be on the DSQ: the kf_mask check comes first */
	if (!bpf_iter_scx_dsq_new(&it, SHARED_DSQ, 0))
		scx_bpf_dispatch_from_dsq(&it, p, SCX_DSQ_GLOBAL, 0);
	bpf_iter_scx_dsq_destroy(&it);
}
CASE_OPS(neg, .tick = (void *)neg_tick);

void BPF_STRUCT_OPS(pos_dispatch, s32 cpu, struct task_struct *prev)
{
	struct task_struct *p;

	bpf_for_each(scx_dsq, p, SHARED_DSQ, 0) {
		bool moved = scx_bpf_dispatch_from_dsq(BPF_FOR_EACH_ITER, p, SCX_DSQ_GLOBAL, 0);

		CALLED(dispatch);
		if (moved)
			break;
	}
	scx_bpf_consume(SHARED_DSQ);
}
CASE_OPS(pos, .dispatch = (void *)pos_dispatch);
