// SPDX-License-Identifier: GPL-2.0
/*
 * scxk prog, freplace: sched_ext kfuncs from other program types, and from
 * an extension (freplace) of a sched_ext program's global function.
 */
#include "scxk.h"

/*
 * Attach the fentry program @prog of @obj to bpf_fentry_test1() and fire it:
 * BPF_PROG_TEST_RUN of a tracing program calls bpf_fentry_test1().  The
 * program counts its calls in fire.calls and stores @kfunc's return (here
 * scx_bpf_nr_cpu_ids()) in fire.ret (section .data.fire): the call was
 * made, and returned the kernel's number of possible CPUs.
 */
static int fire(struct bpf_object *obj, const char *prog, const char *kfunc)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	struct bpf_map *rec = bpf_object__find_map_by_name(obj, ".data.fire");
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct { __u64 calls; __u32 ret; } v = {};
	int err, key = 0, cpus = libbpf_num_possible_cpus();
	struct bpf_link *link;

	if (!p || !rec || bpf_map__value_size(rec) < sizeof(v)) {
		printf("# %s: no program or no .data.fire of %zu bytes\n", prog, sizeof(v));
		return 1;
	}
	link = bpf_program__attach(p);
	if (!link) {
		printf("# %s: loaded, attach failed: %s\n", prog, strerror(errno));
		return 1;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(p), &topts);
	bpf_link__destroy(link);
	if (err || bpf_map_lookup_elem(bpf_map__fd(rec), &key, &v)) {
		printf("# %s: BPF_PROG_TEST_RUN %d, or .data.fire unreadable\n", prog, err);
		return 1;
	}
	printf("# %s: attached, fired %llu time(s); %s() returned %u, possible CPUs %d\n",
	       prog, (unsigned long long)v.calls, kfunc, v.ret, cpus);
	return !v.calls || (int)v.ret != cpus;
}

int cmd_prog(const char *path, const char *prog, const char *expect, const char *kfunc)
{
	char map[80], rest[200];
	struct bpf_object *obj;
	int err, ret = 0;

	snprintf(map, sizeof(map), "%s_ops", prog);	/* struct_ops programs: their map */
	obj = load_obj(path, map, prog, &err);
	if (!strcmp(expect, "refuse")) {
		if (!err)
			printf("# %s loaded; want: calling kernel function %s is not allowed\n", prog, kfunc);
		else if (refusal(vlog, kfunc, rest, sizeof(rest)))
			printf("# refused: calling kernel function %s is not allowed%s\n", kfunc, rest);
		else
			diag_load_failure("refused otherwise");
		ret = !err || !refusal(vlog, kfunc, rest, sizeof(rest));
	} else if (err) {
		diag_load_failure(prog);
		ret = 1;
	} else if (!strcmp(expect, "run")) {
		LIBBPF_OPTS(bpf_test_run_opts, topts);

		err = bpf_prog_test_run_opts(bpf_program__fd(bpf_object__find_program_by_name(obj, prog)),
					     &topts);
		printf("# %s: loaded; BPF_PROG_TEST_RUN: %d, retval %d\n", prog, err, topts.retval);
		ret = err || topts.retval;
	} else if (!strcmp(expect, "fire")) {
		ret = fire(obj, prog, kfunc);
	} else {
		printf("# %s: loaded\n", prog);
	}
	bpf_object__close(obj);
	return ret;
}

/*
 * An extension (freplace) of a sched_ext program: load @tgt_path's scheduler
 * (not attached), then @ext_prog of @ext_path with the global function
 * @func of the target as its attach target.  @expect: "load", or "refuse"
 * with the verifier naming @kfunc and, if @op is not "-", the line's end:
 * "from sched_ext_ops.<op> (extension of <func>)", or for @op "timer:<op>"
 * (@func runs in a timer callback armed in ops.<op>) "from a bpf_timer
 * callback of sched_ext_ops.<op> (extension of <func>)".
 */
int cmd_freplace(const char *tgt_path, const char *ext_path, const char *ext_prog,
			const char *func, const char *expect, const char *kfunc, const char *op)
{
	struct bpf_object *tgt, *ext = NULL;
	struct bpf_program *tp, *p;
	char rest[300], want[300];
	int err, tfd = -1, ret = 1;
	bool timer;

	tgt = load_obj(tgt_path, "tgt_ops", NULL, &err);
	if (err) {
		diag_load_failure("the target scheduler");
		goto out;
	}
	/* tgt_enq() is called from ops.enqueue, the others from ops.dispatch */
	tp = bpf_object__find_program_by_name(tgt, strcmp(func, "tgt_enq") ?
					      "tgt_dispatch" : "tgt_enqueue");
	if (tp)
		tfd = bpf_program__fd(tp);
	if (tfd < 0) {
		printf("# no loaded program calling %s in %s\n", func, tgt_path);
		goto out;
	}
	vlog[0] = '\0';
	ext = bpf_object__open_file(ext_path, NULL);
	if (!ext) {
		printf("# cannot open %s: %s\n", ext_path, strerror(errno));
		goto out;
	}
	p = bpf_object__find_program_by_name(ext, ext_prog);
	if (!p || bpf_program__set_attach_target(p, tfd, func)) {
		printf("# %s: no program %s, or cannot target %s\n", ext_path, ext_prog, func);
		goto out;
	}
	bpf_program__set_log_buf(p, vlog, sizeof(vlog));
	err = bpf_object__load(ext);
	if (!strcmp(expect, "load")) {
		if (err)
			diag_load_failure(ext_prog);
		else
			printf("# %s replacing %s: loaded\n", ext_prog, func);
		ret = !!err;
		goto out;
	}
	timer = !strncmp(op, "timer:", 6);
	snprintf(want, sizeof(want), " from %ssched_ext_ops.%s (extension of %s)",
		 timer ? "a bpf_timer callback of " : "", op + (timer ? 6 : 0), func);
	if (!err) {
		printf("# %s replacing %s loaded; want: calling kernel function %s is not allowed%s\n",
		       ext_prog, func, kfunc, strcmp(op, "-") ? want : "");
	} else if (!refusal(vlog, kfunc, rest, sizeof(rest))) {
		diag_load_failure("refused otherwise");
	} else {
		printf("# refused: calling kernel function %s is not allowed%s\n", kfunc, rest);
		ret = strcmp(op, "-") && strcmp(rest, ctx_want(want));
		if (ret)
			printf("# want the line to end \"%s\"\n", ctx_want(want));
	}
out:
	bpf_object__close(ext);
	bpf_object__close(tgt);
	return ret;
}
