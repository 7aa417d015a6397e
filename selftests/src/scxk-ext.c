// SPDX-License-Identifier: GPL-2.0
/*
 * scxk ext-task-cgroup, tail-task-cgroup: scx_bpf_task_cgroup() from an
 * extension attached while its scheduler runs, and from a tail-called program.
 */
#include "scxk.h"

/*
 * One round of cmd_ext_task_cgroup(): load and enable @tgt_path's tc_ops,
 * whose ops.enqueue never calls scx_bpf_task_cgroup() itself, then load
 * @ext_path's tc_hook_cgroup() as an extension of its tc_hook() and attach
 * it.  For @secs of load the extension must make the call on ops.enqueue's
 * task without the scheduler being ejected.
 */
static bool ext_round(const char *tgt_path, const char *ext_path, double secs)
{
	struct bpf_link *link = NULL, *elink = NULL;
	struct bpf_object *tgt, *ext = NULL;
	struct bpf_program *tp, *p;
	bool ok = false;
	long long calls;
	int err, tfd = -1;

	tgt = load_obj(tgt_path, "tc_ops", "tc_enqueue", &err);
	if (err) {
		diag_load_failure("the target scheduler");
		goto out;
	}
	tp = bpf_object__find_program_by_name(tgt, "tc_enqueue");
	if (tp)
		tfd = bpf_program__fd(tp);
	link = attach(tgt, "tc_ops");
	if (tfd < 0 || !link)
		goto out;
	vlog[0] = '\0';
	ext = bpf_object__open_file(ext_path, NULL);
	p = ext ? bpf_object__find_program_by_name(ext, "tc_hook_cgroup") : NULL;
	if (!p || bpf_program__set_attach_target(p, tfd, "tc_hook")) {
		printf("# %s: no program tc_hook_cgroup, or cannot target tc_hook\n", ext_path);
		goto out;
	}
	bpf_program__set_log_buf(p, vlog, sizeof(vlog));
	if (bpf_object__load(ext)) {
		diag_load_failure("tc_hook_cgroup");
		goto out;
	}
	elink = bpf_program__attach_freplace(p, tfd, "tc_hook");
	if (!elink) {
		printf("# attaching tc_hook_cgroup to tc_hook: %s\n", strerror(errno));
		goto out;
	}
	ok = activity(secs, true);
	calls = bss_u64(ext, "nr_calls");
	printf("# scx_bpf_task_cgroup() called %lld times from the extension; state %s\n",
	       calls, scx_state());
	if (!ok)
		printf("# the scheduler left \"enabled\" while the extension ran\n");
	if (calls <= 0) {
		printf("# the extension never ran\n");
		ok = false;
	}
out:
	bpf_link__destroy(elink);
	bpf_link__destroy(link);
	bpf_object__close(ext);
	bpf_object__close(tgt);
	return ok;
}

/*
 * How a scx_bpf_task_cgroup() test ends: the kernel messages since @kfd must
 * not say a task was refused, nor hold a splat, and must hold @must if set.
 * Returns @ret, or 1 if the messages fail it; closes @kfd.
 */
static int kmsg_verdict(int kfd, const char *what, const char *must, int ret)
{
	return kmsg_check(kfd, what,
			  (struct kmsg_want[]){ { "called on a task not being operated on", false },
						{ must, true } },
			  2, ret);
}

/*
 * scx_bpf_task_cgroup() from an extension attached while the scheduler
 * runs (ext_round()), twice, with a scheduler that calls the kfunc from
 * its own ops.enqueue (tc_ref_ops) enabled and disabled in between: the
 * extension must keep working after schedulers that call the kfunc from
 * their own ops were enabled and disabled around it.
 */
int cmd_ext_task_cgroup(const char *tgt_path, const char *ext_path, double secs)
{
	struct bpf_link *link = NULL;
	struct bpf_object *ref;
	int err, kfd, ret = 1;

	kfd = kmsg_open(false);
	printf("# round 1: the extension attached to a running tc_ops\n");
	if (!ext_round(tgt_path, ext_path, secs))
		goto out;
	printf("# tc_ref_ops: calls scx_bpf_task_cgroup() from its ops.enqueue\n");
	ref = load_obj(tgt_path, "tc_ref_ops", "tc_enqueue_ref", &err);
	if (err) {
		diag_load_failure("tc_ref_ops");
		bpf_object__close(ref);
		goto out;
	}
	link = attach(ref, "tc_ref_ops");
	if (!link || !activity(secs / 2, true)) {
		printf("# tc_ref_ops did not stay enabled: %s\n", scx_state());
		bpf_link__destroy(link);
		bpf_object__close(ref);
		goto out;
	}
	bpf_link__destroy(link);
	bpf_object__close(ref);
	printf("# round 2: the extension again, after tc_ref_ops was disabled\n");
	if (!ext_round(tgt_path, ext_path, secs))
		goto out;
	ret = 0;
out:
	return kmsg_verdict(kfd, "ext-task-cgroup", NULL, ret);
}

/*
 * scx_bpf_task_cgroup() behind a tail call (progs/task-cgroup-tailcall.bpf.c):
 * load tt_ops and tt_callee_ops, put tt_enqueue_callee in tt_ops' prog
 * array, attach tt_ops only, and run the load for @secs.  The callee must
 * make the call on ops.enqueue's task with the scheduler staying enabled,
 * and the kernel must not say the task was not being operated on.
 */
int cmd_tail_task_cgroup(const char *path, double secs)
{
	struct bpf_program *callee;
	struct bpf_link *link = NULL;
	struct bpf_object *obj;
	struct bpf_map *jmp;
	int kfd, fd, ret = 1;
	long long calls, fallbacks;
	char *klog;
	int zero = 0;

	/*
	 * Once an extension or tracing program may call the kfunc, the
	 * patched kernel records kf_tasks around every op until reboot, and
	 * this test could not fail: the log since boot must not say so.
	 */
	fd = kmsg_open(true);
	klog = calloc(1, 1 << 20);
	if (fd >= 0 && klog) {
		kmsg_read(fd, klog, 1 << 20);
		close(fd);
		if (!expect_kmsg(klog, "recording them in every operation", false)) {
			printf("# kf_tasks are recorded around every op already: run this test first\n");
			free(klog);
			return 1;
		}
	}
	free(klog);
	kfd = kmsg_open(false);
	vlog[0] = '\0';
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("# cannot open %s: %s\n", path, strerror(errno));
		goto out_kmsg;
	}
	bpf_object__for_each_program(callee, obj)
		bpf_program__set_log_buf(callee, vlog, sizeof(vlog));
	if (bpf_object__load(obj)) {
		diag_load_failure("task-cgroup-tailcall");
		goto out;
	}
	callee = bpf_object__find_program_by_name(obj, "tt_enqueue_callee");
	jmp = bpf_object__find_map_by_name(obj, "tt_jmp");
	fd = callee ? bpf_program__fd(callee) : -1;
	if (!jmp || fd < 0 || bpf_map_update_elem(bpf_map__fd(jmp), &zero, &fd, BPF_ANY)) {
		printf("# cannot put tt_enqueue_callee in tt_jmp: %s\n", strerror(errno));
		goto out;
	}
	link = attach(obj, "tt_ops");
	if (!link)
		goto out;
	ret = activity(secs, true) ? 0 : 1;
	calls = bss_u64(obj, "nr_calls");
	fallbacks = bss_u64(obj, "nr_fallbacks");
	printf("# scx_bpf_task_cgroup() called %lld times behind the tail call (%lld fallbacks); state %s\n",
	       calls, fallbacks, scx_state());
	if (ret)
		printf("# the scheduler left \"enabled\" under load\n");
	if (calls <= 0) {
		printf("# the tail-called program never made the call\n");
		ret = 1;
	}
out:
	bpf_link__destroy(link);
	bpf_object__close(obj);
out_kmsg:
	return kmsg_verdict(kfd, "tail-task-cgroup", NULL, ret);
}
