// SPDX-License-Identifier: GPL-2.0
/*
 * scxk neg, sleep, load, runtime, pos: the negative/positive scheduler pairs
 * of cases/cases.list.
 */
#include "scxk.h"

int cmd_neg(const char *path, const char *op, const char *kfunc)
{
	struct bpf_object *obj;
	char rest[200], want[80];
	int err;

	obj = load_obj(path, "neg_ops", NULL, &err);
	bpf_object__close(obj);
	if (!err) {
		printf("# %s: loaded; a call to %s from ops.%s must be refused\n", path, kfunc, op);
		return 1;
	}
	snprintf(want, sizeof(want), " from sched_ext_ops.%s", op);
	if (!refusal(vlog, kfunc, rest, sizeof(rest)) || strcmp(rest, ctx_want(want))) {
		printf("# want: calling kernel function %s is not allowed%s\n", kfunc, ctx_want(want));
		diag_load_failure("refused otherwise");
		return 1;
	}
	printf("# patched: caught at load time: calling kernel function %s is not allowed%s\n",
	       kfunc, rest);
	return 0;
}

int cmd_sleep(const char *path, const char *kfunc, const char *map)
{
	struct bpf_object *obj;
	int err;

	obj = load_obj(path, map, NULL, &err);
	bpf_object__close(obj);
	if (!err || !sleep_refusal(vlog, kfunc)) {
		printf("# want: program must be sleepable to call sleepable kfunc %s\n", kfunc);
		if (err)
			diag_load_failure("refused otherwise");
		return 1;
	}
	printf("# caught at load time: program must be sleepable to call sleepable kfunc %s\n",
	       kfunc);
	return 0;
}

int cmd_load(const char *path)
{
	struct bpf_object *obj;
	int err;

	obj = load_obj(path, "neg_ops", NULL, &err);
	bpf_object__close(obj);
	if (err) {
		diag_load_failure("neg_ops");
		return 1;
	}
	printf("# baseline: not caught: loads, and the 6.12 run-time mask allows the call in this op;\n"
	       "# not attached (it would take rq locks where one is already held)\n");
	return 0;
}

int cmd_runtime(const char *path, double secs)
{
	return eject(path, "neg", secs, 0, "kfunc with mask", "baseline: caught at run time");
}

/* calls.<op> of a case object (see case.bpf.h), or -1 */
static long long case_calls(struct bpf_object *obj, const char *op)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".data.calls");
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *t;
	unsigned long long v[16] = {};
	int id, zero = 0;

	id = btf ? btf__find_by_name_kind(btf, "case_calls", BTF_KIND_STRUCT) : -1;
	if (!map || id < 0 || bpf_map__value_size(map) > sizeof(v) ||
	    bpf_map_lookup_elem(bpf_map__fd(map), &zero, v))
		return -1;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), op))
			return v[m->offset / 64];
	return -1;
}

/* pos: calls.<@op> */
static bool pos_calls(struct bpf_object *obj, const char *name, double secs, const char *op)
{
	long long calls = case_calls(obj, op);

	printf("# %s enabled, %.1f s under load, ops.%s made the call %lld times\n", name,
	       secs, op, calls);
	if (calls <= 0)
		printf("# the load never made ops.%s call the kfunc\n", op);
	return calls > 0;
}

int cmd_pos(const char *path, double secs, const char *op)
{
	return run_enabled(path, "pos", secs, pos_calls, op);
}
