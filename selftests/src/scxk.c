// SPDX-License-Identifier: GPL-2.0
/*
 * scxk - guest side of the sched_ext kfunc-filter tests.
 *
 *   scxk matrix <dir> <variant> [--per-cell]
 *                                       load every cell of <dir>/cells.tsv,
 *                                       print the table, compare with the
 *                                       spec (patched) or 6.12's loads and
 *                                       the spec's R cells (baseline)
 *   scxk callsite <dir> <variant> <results> [--per-cell]
 *                                       the same for <dir>/cells.tsv of
 *                                       callsite.py (kfuncs x call sites x
 *                                       arming ops); one result line per
 *                                       call site and op in <results>
 *   scxk neg <obj> <op> <kfunc>         neg_ops must be refused at load time,
 *                                       the log naming the kfunc and the op
 *   scxk sleep <obj> <kfunc> [<map>]    <map> (neg_ops) must be refused as not sleepable
 *   scxk load <obj>                     neg_ops must load (it is not attached)
 *   scxk runtime <obj> <seconds>        neg_ops loads, attaches and is ejected
 *                                       by the run-time kf_mask check
 *   scxk pos <obj> <seconds> <op>       pos_ops loads, attaches, stays enabled
 *                                       under load and calls its kfunc from
 *                                       <op> (calls.<op> > 0), detaches cleanly
 *   scxk async-refuse <obj> <op> <bpf_timer|bpf_wq> <kfunc> [<global function>]
 *                                       async_ops must be refused at load time
 *                                       for the call in the callback armed in
 *                                       <op> (or in the global function it calls)
 *   scxk async-runtime <obj> <seconds> <message>
 *                                       async_ops loads, attaches and is ejected
 *                                       with <message> when the callback runs
 *   scxk async-run <obj> <seconds> calls|ok
 *                                       async_ops loads, attaches, stays enabled
 *                                       under load, its callback makes the call
 *                                       (async_calls, or async_ok: succeeded,
 *                                       > 0), detaches cleanly
 *   scxk prog <obj> <prog> load|run|refuse <kfunc>
 *                                       one non-sched_ext program
 *   scxk freplace <target obj> <ext obj> <ext prog> <function> load|refuse <kfunc> <op>|timer:<op>|-
 *                                       an extension of a sched_ext program's
 *                                       global function, judged as its member
 *                                       or the timer callback it runs in
 *   scxk ext-task-cgroup <target obj> <ext obj> <secs>
 *                                       scx_bpf_task_cgroup() from an extension
 *                                       attached while its scheduler runs
 *   scxk tail-task-cgroup <obj> <secs>  scx_bpf_task_cgroup() from a program
 *                                       ops.enqueue tail-calls
 *   scxk task-cgroup-ops <obj> <secs>   scx_bpf_task_cgroup() from every task
 *                                       op, each on its own task
 *   scxk syscall-move <obj>             a SYSCALL program moves a task its
 *                                       scheduler parked
 *   scxk task-cgroup-trace <obj> <message>
 *                                       scx_bpf_task_cgroup() from a tp_btf
 *                                       program ejects the scheduler so
 *
 * Nothing is attached except by "runtime", "pos", "async-runtime",
 * "async-run", "ext-task-cgroup", "tail-task-cgroup", "task-cgroup-ops",
 * "syscall-move" and "task-cgroup-trace".  Diagnostics are
 * printed as "# " lines; the exit status is 0 for pass, 1 for fail.  The
 * KTAP result lines are run-guest.sh's.
 *
 * The files: scxk.c (this one: loading and refusal helpers, the "# "
 * diagnostics, the subcommand table), scxk.h (what they share),
 * scxk-cells.c (loading matrix cells, the table), scxk-matrix.c (matrix),
 * scxk-callsite.c (callsite), scxk-sched.c (kernel state and log, load
 * generation, attaching, ejection), scxk-cases.c (neg, sleep, load,
 * runtime, pos), scxk-async.c (async-*), scxk-prog.c (prog, freplace),
 * scxk-ext.c (ext-task-cgroup, tail-task-cgroup), scxk-taskops.c
 * (task-cgroup-ops, task-cgroup-trace), scxk-syscall-move.c (syscall-move).
 */
#include "scxk.h"

char vlog[1 << 20];		/* verifier log of the failing program */
char lmsg[16384];		/* libbpf's own warnings */
size_t lmsg_len;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG || lmsg_len >= sizeof(lmsg) - 1)
		return 0;
	n = vsnprintf(lmsg + lmsg_len, sizeof(lmsg) - lmsg_len, fmt, ap);
	if (n > 0)
		lmsg_len += (size_t)n < sizeof(lmsg) - lmsg_len ? (size_t)n : sizeof(lmsg) - 1 - lmsg_len;
	return 0;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* print each line of @text with a "# <prefix>" in front, at most @max lines from the end */
void diag_tail(const char *prefix, const char *text, int max)
{
	const char *p = text + strlen(text);
	int lines = 0;

	while (p > text && lines <= max)
		if (*--p == '\n' && p[1])
			lines++;
	if (p > text)
		p++;
	while (*p) {
		const char *e = strchrnul(p, '\n');

		if (e > p)
			printf("# %s%.*s\n", prefix, (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
}

/*
 * Open @path and keep only what one test needs: the struct_ops map @map (all
 * other struct_ops maps are not created, so libbpf does not load their
 * programs) and, if @prog is set, only that program.  Returns the object or
 * NULL; *err gets bpf_object__load()'s result, vlog the verifier log.
 */
struct bpf_object *load_obj(const char *path, const char *map, const char *prog, int *err)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct bpf_map *m;

	vlog[0] = '\0';
	lmsg[0] = '\0';
	lmsg_len = 0;
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		*err = -errno;
		snprintf(vlog, sizeof(vlog), "cannot open %s: %s\n", path, strerror(errno));
		return NULL;
	}
	bpf_object__for_each_map(m, obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS)
			bpf_map__set_autocreate(m, map && !strcmp(bpf_map__name(m), map));
	bpf_object__for_each_program(p, obj) {
		if (prog)
			bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog));
		bpf_program__set_log_buf(p, vlog, sizeof(vlog));
	}
	if (prog && !bpf_object__find_program_by_name(obj, prog)) {
		snprintf(vlog, sizeof(vlog), "%s has no program %s\n", path, prog);
		bpf_object__close(obj);
		*err = -ENOENT;
		return NULL;
	}
	*err = bpf_object__load(obj);
	return obj;
}

/* the line of @log containing @needle, or NULL */
const char *log_line(const char *log, const char *needle, char *line, size_t sz)
{
	const char *hit = strstr(log, needle), *b, *e;

	if (!hit)
		return NULL;
	for (b = hit; b > log && b[-1] != '\n'; b--)
		;
	e = strchrnul(hit, '\n');
	snprintf(line, sz, "%.*s", (int)(e - b), b);
	return line;
}

/* "calling kernel function <kfunc> is not allowed" and what follows on its line */
const char *refusal(const char *log, const char *kfunc, char *rest, size_t sz)
{
	char needle[160], line[768];
	const char *l;

	snprintf(needle, sizeof(needle), "calling kernel function %s is not allowed", kfunc);
	l = log_line(log, needle, line, sizeof(line));
	if (!l)
		return NULL;
	snprintf(rest, sz, "%s", strstr(l, needle) + strlen(needle));
	return rest;
}

/*
 * What a refusal must say after "is not allowed", given what the variant's
 * refusals name: the core series prints the verifier's plain line (run-guest.sh
 * sets SCXK_REFUSAL=plain from the variant table), so nothing may follow.
 */
const char *ctx_want(const char *want)
{
	const char *style = getenv("SCXK_REFUSAL");

	return style && !strcmp(style, "plain") ? "" : want;
}

bool sleep_refusal(const char *log, const char *kfunc)
{
	char needle[160];

	snprintf(needle, sizeof(needle), "program must be sleepable to call sleepable kfunc %s\n", kfunc);
	return strstr(log, needle);
}

void diag_log(const char *what, const char *log)
{
	printf("# %s: verifier log (tail):\n", what);
	diag_tail("  ", log, 8);
	if (lmsg[0]) {
		printf("# %s: libbpf:\n", what);
		diag_tail("  ", lmsg, 6);
	}
}

void diag_load_failure(const char *what)
{
	diag_log(what, vlog);
}

static int usage(void)
{
	fprintf(stderr, "usage: scxk matrix <dir> <patched|baseline> [--per-cell]\n"
			"       scxk callsite <dir> <core|full|baseline> <results> [--per-cell]\n"
			"       scxk neg <obj> <op> <kfunc> | sleep <obj> <kfunc> [<map>] | load <obj>\n"
			"       scxk runtime <obj> <secs> | pos <obj> <secs> <op>\n"
			"       scxk async-refuse <obj> <op> bpf_timer|bpf_wq <kfunc> [<global function>]\n"
			"       scxk async-runtime <obj> <secs> <kernel message>\n"
			"       scxk async-run <obj> <secs> calls|ok\n"
			"       scxk prog <obj> <prog> load|run|refuse <kfunc>\n"
			"       scxk freplace <target obj> <ext obj> <ext prog> <function> load|refuse <kfunc> <op>|timer:<op>|-\n"
			"       scxk ext-task-cgroup <target obj> <ext obj> <secs>\n"
			"       scxk tail-task-cgroup <obj> <secs>\n"
			"       scxk task-cgroup-ops <obj> <secs>\n"
			"       scxk syscall-move <obj>\n"
			"       scxk task-cgroup-trace <obj> <message>\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	if (!strcmp(cmd, "matrix") && (argc == 4 || (argc == 5 && !strcmp(argv[4], "--per-cell"))))
		return cmd_matrix(argv[2], argv[3], argc == 5);
	if (!strcmp(cmd, "callsite") && (argc == 5 || (argc == 6 && !strcmp(argv[5], "--per-cell"))))
		return cmd_callsite(argv[2], argv[3], argv[4], argc == 6);
	if (!strcmp(cmd, "neg") && argc == 5)
		return cmd_neg(argv[2], argv[3], argv[4]);
	if (!strcmp(cmd, "sleep") && (argc == 4 || argc == 5))
		return cmd_sleep(argv[2], argv[3], argc == 5 ? argv[4] : "neg_ops");
	if (!strcmp(cmd, "load") && argc == 3)
		return cmd_load(argv[2]);
	if (!strcmp(cmd, "runtime") && argc == 4)
		return cmd_runtime(argv[2], atof(argv[3]));
	if (!strcmp(cmd, "async-refuse") && (argc == 6 || argc == 7))
		return cmd_async_refuse(argv[2], argv[3], argv[4], argv[5], argc == 7 ? argv[6] : NULL);
	if (!strcmp(cmd, "async-runtime") && argc == 5)
		return cmd_async_runtime(argv[2], atof(argv[3]), argv[4]);
	if (!strcmp(cmd, "async-run") && argc == 5)
		return cmd_async_run(argv[2], atof(argv[3]), argv[4]);
	if (!strcmp(cmd, "pos") && argc == 5)
		return cmd_pos(argv[2], atof(argv[3]), argv[4]);
	if (!strcmp(cmd, "freplace") && argc == 9)
		return cmd_freplace(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8]);
	if (!strcmp(cmd, "ext-task-cgroup") && argc == 5)
		return cmd_ext_task_cgroup(argv[2], argv[3], atof(argv[4]));
	if (!strcmp(cmd, "tail-task-cgroup") && argc == 4)
		return cmd_tail_task_cgroup(argv[2], atof(argv[3]));
	if (!strcmp(cmd, "task-cgroup-ops") && argc == 4)
		return cmd_task_cgroup_ops(argv[2], atof(argv[3]));
	if (!strcmp(cmd, "syscall-move") && argc == 3)
		return cmd_syscall_move(argv[2]);
	if (!strcmp(cmd, "task-cgroup-trace") && argc == 4)
		return cmd_task_cgroup_trace(argv[2], argv[3]);
	if (!strcmp(cmd, "prog") && argc == 6)
		return cmd_prog(argv[2], argv[3], argv[4], argv[5]);
	return usage();
}
