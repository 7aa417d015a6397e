// SPDX-License-Identifier: GPL-2.0
/*
 * scxk async-refuse, async-runtime, async-run: schedulers whose op arms a
 * bpf_timer or bpf_wq whose callback calls a kfunc (async/async.list).
 */
#include "scxk.h"

/*
 * An async case (async/async.bpf.h) the kernel only catches at run time
 * (6.12): it loads, and the call its timer callback makes outside the arming
 * op must eject it with @msg.
 */
int cmd_async_runtime(const char *path, double secs, const char *msg)
{
	char what[300];

	snprintf(what, sizeof(what),
		 "ejected when the timer callback ran (and survived 0.5 s of it firing after): %s", msg);
	return eject(path, "async", secs, 0.5, msg, what);
}

/*
 * An async case the verifier must refuse (patched): the call in the @cb
 * ("bpf_timer" or "bpf_wq") callback armed in ops.@op, or in the global
 * function @fn it calls, is judged for where the callback runs.  The load
 * fails with -EACCES and the log says, exactly,
 * "calling kernel function <kfunc> is not allowed from a <cb> callback of
 * sched_ext_ops.<op>[ (in global function <fn>)]".
 */
int cmd_async_refuse(const char *path, const char *op, const char *cb,
			    const char *kfunc, const char *fn)
{
	char rest[400], want[300], fnpart[100] = "";
	struct bpf_object *obj;
	int err;

	obj = load_obj(path, "async_ops", NULL, &err);
	bpf_object__close(obj);
	if (fn)
		snprintf(fnpart, sizeof(fnpart), " (in global function %s)", fn);
	snprintf(want, sizeof(want), " from a %s callback of sched_ext_ops.%s%s", cb, op, fnpart);
	if (!err) {
		printf("# %s: loaded; want: calling kernel function %s is not allowed%s\n",
		       path, kfunc, want);
		return 1;
	}
	if (!refusal(vlog, kfunc, rest, sizeof(rest)) || strcmp(rest, ctx_want(want))) {
		printf("# want: calling kernel function %s is not allowed%s\n", kfunc, ctx_want(want));
		diag_load_failure("refused otherwise");
		return 1;
	}
	if (err != -EACCES) {
		printf("# refused as expected, but the load returned %d, not -EACCES (%d)\n",
		       err, -EACCES);
		return 1;
	}
	printf("# patched: caught at load time (-EACCES): calling kernel function %s is not allowed%s\n",
	       kfunc, rest);
	return 0;
}

/* async-run: async_calls and async_ok, async_<@must> > 0 */
static bool async_counts(struct bpf_object *obj, const char *name, double secs, const char *must)
{
	long long calls = bss_u64(obj, "async_calls"), ok = bss_u64(obj, "async_ok");

	printf("# %s enabled, %.1f s under load, the callback made the call %lld times,"
	       " %lld succeeded\n", name, secs, calls, ok);
	if ((!strcmp(must, "ok") ? ok : calls) <= 0) {
		printf("# async_%s is %lld: the callback never %s\n", must,
		       !strcmp(must, "ok") ? ok : calls,
		       !strcmp(must, "ok") ? "made the call with success" : "made the call");
		return false;
	}
	return true;
}

/*
 * An async case that must run on both kernels: the callback's call is one an
 * unlocked context may make.
 */
int cmd_async_run(const char *path, double secs, const char *must)
{
	if (strcmp(must, "calls") && strcmp(must, "ok")) {
		printf("# async-run: want calls or ok, not \"%s\"\n", must);
		return 1;
	}
	return run_enabled(path, "async", secs, async_counts, must);
}
