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
 *
 * Nothing is attached except by "runtime", "pos", "async-runtime",
 * "async-run", "ext-task-cgroup" and "tail-task-cgroup".  Diagnostics are
 * printed as "# " lines; the exit status is 0 for pass, 1 for fail.  The
 * KTAP result lines are run-guest.sh's.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define STATE_PATH	"/sys/kernel/sched_ext/state"
#define OPS_PATH	"/sys/kernel/sched_ext/root/ops"
#define CGROOT		"/sys/fs/cgroup"
#define CGTEST		CGROOT "/scxk"

/* Kernel log lines that fail any test that attached a scheduler */
static const char *const splats[] = {
	"WARNING:", "BUG:", "Oops", "INFO: task", "rcu_sched self-detected stall",
	"rcu: INFO:", "possible circular locking", "possible recursive locking",
	"inconsistent lock state", "scheduling while atomic", "Call Trace:",
};

static char vlog[1 << 20];		/* verifier log of the failing program */
static char lmsg[16384];		/* libbpf's own warnings */
static size_t lmsg_len;

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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* print each line of @text with a "# <prefix>" in front, at most @max lines from the end */
static void diag_tail(const char *prefix, const char *text, int max)
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
static struct bpf_object *load_obj(const char *path, const char *map, const char *prog, int *err)
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
static const char *log_line(const char *log, const char *needle, char *line, size_t sz)
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
static const char *refusal(const char *log, const char *kfunc, char *rest, size_t sz)
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
static const char *ctx_want(const char *want)
{
	const char *style = getenv("SCXK_REFUSAL");

	return style && !strcmp(style, "plain") ? "" : want;
}

static bool sleep_refusal(const char *log, const char *kfunc)
{
	char needle[160];

	snprintf(needle, sizeof(needle), "program must be sleepable to call sleepable kfunc %s\n", kfunc);
	return strstr(log, needle);
}

static void diag_log(const char *what, const char *log)
{
	printf("# %s: verifier log (tail):\n", what);
	diag_tail("  ", log, 8);
	if (lmsg[0]) {
		printf("# %s: libbpf:\n", what);
		diag_tail("  ", lmsg, 6);
	}
}

static void diag_load_failure(const char *what)
{
	diag_log(what, vlog);
}

/* ------------------------------------------------------------------ */
/* the matrix                                                          */

struct cell {
	char op[32], kfunc[48], group[16], obj[64], prog[32], map[40];
	char exp, got;
	bool departure;
	bool named_op;			/* refusal said "from sched_ext_ops.<op>" */
	bool fd;			/* loaded and bpf_program__fd() gave an fd */
	char bexp;			/* matrix: the baseline's verdict */
	char token[4];			/* matrix: the spec's verdict (A, R, S, At, Ar) */
	char detail[200];
	/* call-site matrix only */
	char label[40];			/* the table row: "<site>@<op>" */
	char want[200];			/* what the refusal must say after "is not allowed" */
	char pexp;			/* the patched spec's verdict (exp is the kernel's) */
};

/* A loaded, R refused naming it, S refused as non-sleepable, E anything else */
static char classify(struct cell *c, int err, const char *log)
{
	char rest[300], want[200], other[64];
	const char *p;

	if (!err)
		return 'A';
	if (refusal(log, c->kfunc, rest, sizeof(rest))) {
		if (c->want[0])
			snprintf(want, sizeof(want), "%s", c->want);
		else
			snprintf(want, sizeof(want), " from sched_ext_ops.%s", c->op);
		if (!strcmp(rest, ctx_want(want))) {
			c->named_op = true;
			return 'R';
		}
		if (!rest[0])
			return 'R';
		snprintf(c->detail, sizeof(c->detail), "refused, but the message ends \"%.150s\"", rest);
		return 'E';
	}
	if (sleep_refusal(log, c->kfunc))
		return 'S';
	p = strstr(log, "calling kernel function ");
	if (p && sscanf(p, "calling kernel function %63s", other) == 1) {
		snprintf(c->detail, sizeof(c->detail), "refused for another kfunc: %s", other);
		return 'E';
	}
	snprintf(c->detail, sizeof(c->detail), "load failed (%d)", err);
	return 'E';
}

/* append @c to *@cells, which holds *@n cells in room for *@cap */
static void push_cell(struct cell **cells, int *n, int *cap, const struct cell *c)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*cells = realloc(*cells, *cap * sizeof(**cells));
		if (!*cells)
			exit(1);
	}
	(*cells)[(*n)++] = *c;
}

static int read_cells(const char *dir, const char *variant, struct cell **out)
{
	char path[512], line[512];
	struct cell *cells = NULL;
	int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cells.tsv", dir);
	f = fopen(path, "r");
	if (!f) {
		printf("# cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct cell c = {};
		char bexp[4];
		int dep;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		/* op kfunc class patched baseline departure object program map */
		if (sscanf(line, "%31s %47s %15s %3s %3s %d %63s %31s %39s", c.op, c.kfunc, c.group,
			   c.token, bexp, &dep, c.obj, c.prog, c.map) != 9 ||
		    !strchr("ARS", c.token[0]) || !strchr("AS", bexp[0]) || bexp[1]) {
			printf("# %s: bad line: %s", path, line);
			fclose(f);
			return -1;
		}
		c.pexp = c.token[0];
		c.bexp = bexp[0];
		c.exp = strcmp(variant, "patched") ? c.bexp : c.pexp;
		c.departure = dep;
		push_cell(&cells, &n, &cap, &c);
	}
	fclose(f);
	*out = cells;
	return n;
}

/*
 * The table: one row per op (per call site and op: the cell's label), one
 * column per kfunc (numbered, legend above), groups separated by '|'.  Upper
 * case: as the spec expects; lower case: differs from the spec; E: error
 * (neither loaded nor refused as expected).  @title names the matrix, @rows
 * says what its rows are, @unit what one is.
 */
static void print_table(struct cell *cells, int n, int ncol, const char *variant,
			const char *title, const char *rows, const char *unit)
{
	int i, j, cnt[4][4] = {}, mism = 0, named = 0, refused = 0;
	const char *V = "ARSE";

	printf("# ===== BEGIN %s (%s kernel) =====\n", title, variant);
	printf("# rows: %s; columns: kfuncs; A loads, R refused (not allowed),\n"
	       "# S refused (program must be sleepable), E error; lower case = differs from the spec\n",
	       rows);
	for (j = 0; j < ncol; j++)
		printf("#   %2d %-36s %s\n", j + 1, cells[j].kfunc, cells[j].group);
	for (int d = 10; d >= 1; d /= 10) {
		printf("# %-18s", "");
		for (j = 0; j < ncol; j++) {
			if (j && strcmp(cells[j].group, cells[j - 1].group))
				printf(" |");
			printf(" %c", d == 10 ? ((j + 1) / 10 ? '0' + (j + 1) / 10 : ' ') : '0' + (j + 1) % 10);
		}
		printf("\n");
	}
	for (i = 0; i < n; i += ncol) {
		printf("# %-18s", cells[i].label[0] ? cells[i].label : cells[i].op);
		for (j = 0; j < ncol; j++) {
			struct cell *c = &cells[i + j];
			char v = c->got;

			if (j && strcmp(c->group, cells[i + j - 1].group))
				printf(" |");
			if (v != 'E' && v != c->exp)
				v = tolower(v);
			printf(" %c", v);
		}
		printf("\n");
	}
	for (i = 0; i < n; i++) {
		cnt[strchr(V, cells[i].exp) - V][strchr(V, cells[i].got) - V]++;
		mism += cells[i].got != cells[i].exp;
		refused += cells[i].got == 'R';
		named += cells[i].named_op;
	}
	printf("# cells: %d (%d %s x %d kfuncs)\n", n, n / ncol, unit, ncol);
	printf("# got:      A %d, R %d, S %d, E %d\n",
	       cnt[0][0] + cnt[1][0] + cnt[2][0], cnt[0][1] + cnt[1][1] + cnt[2][1],
	       cnt[0][2] + cnt[1][2] + cnt[2][2], cnt[0][3] + cnt[1][3] + cnt[2][3]);
	printf("# expected: A %d, R %d, S %d\n", cnt[0][0] + cnt[0][1] + cnt[0][2] + cnt[0][3],
	       cnt[1][0] + cnt[1][1] + cnt[1][2] + cnt[1][3],
	       cnt[2][0] + cnt[2][1] + cnt[2][2] + cnt[2][3]);
	printf("# as expected: %d; differing: %d; refusals naming the op: %d of %d\n",
	       n - mism, mism, named, refused);
	printf("# ===== END %s =====\n", title);
}

static void cell_error(struct cell *c, const char *log)
{
	printf("# ERROR %s x %s: %s\n", c->op, c->kfunc, c->detail);
	diag_log(c->kfunc, log);
}

/* --per-cell: one open and load per cell */
static int load_cell(const char *dir, struct cell *c)
{
	struct bpf_object *obj;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, c->obj);
	obj = load_obj(path, c->map, c->prog, &err);
	c->fd = !err && obj && bpf_program__fd(bpf_object__find_program_by_name(obj, c->prog)) >= 0;
	c->got = classify(c, err, vlog);
	bpf_object__close(obj);
	if (c->got == 'E')
		cell_error(c, vlog);
	return 1;
}

#define ROW_LOG (1 << 18)

/*
 * Load the @n cells of one object (one op) together.  libbpf loads the
 * programs one after the other and stops at the first one the verifier
 * refuses: that cell takes its verdict from its own log, and the others are
 * loaded again without it.  Once a load succeeds, every cell still in it
 * loaded.  The verifier checks each program on its own, so the verdicts are
 * those of loading each cell alone (--per-cell does that, to compare), for
 * one load per refusal instead of one per cell.  Returns the loads done.
 *
 * With @in_order, the programs libbpf loaded before the refused one (it
 * loads them in the object's order and stops at the first failure) are
 * taken as loaded and not loaded again: each program is verified about once
 * instead of once per refusal before it.
 */
static int load_row(const char *dir, struct cell *row, int n, bool in_order)
{
	static char *logs[64];
	int i, err = 0, loads = 0, left = n;
	int pos[64];
	char path[512];

	if (n > 64) {
		printf("# more than 64 kfuncs per op: use --per-cell\n");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (!logs[i] && !(logs[i] = malloc(ROW_LOG)))
			exit(1);
		row[i].got = 0;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, row[0].obj);
	while (left) {
		struct bpf_object *obj;
		struct bpf_program *p;
		struct bpf_map *m;
		int np = 0;

		lmsg[0] = '\0';
		lmsg_len = 0;
		obj = bpf_object__open_file(path, NULL);
		if (!obj) {
			snprintf(logs[0], ROW_LOG, "cannot open %s: %s\n", path, strerror(errno));
			err = -errno;
			goto all;
		}
		bpf_object__for_each_map(m, obj) {
			bool on = false;

			if (bpf_map__type(m) != BPF_MAP_TYPE_STRUCT_OPS)
				continue;
			for (i = 0; i < n; i++)
				on |= !row[i].got && !strcmp(row[i].map, bpf_map__name(m));
			bpf_map__set_autocreate(m, on);
		}
		for (i = 0; i < n; i++)
			pos[i] = -1;
		bpf_object__for_each_program(p, obj) {
			bool on = false;

			for (i = 0; i < n; i++) {
				if (row[i].got || strcmp(row[i].prog, bpf_program__name(p)))
					continue;
				on = true;
				pos[i] = np;
				logs[i][0] = '\0';
				bpf_program__set_log_buf(p, logs[i], ROW_LOG);
			}
			bpf_program__set_autoload(p, on);
			np++;
		}
		err = bpf_object__load(obj);
		loads++;
		/* a loaded cell must have its program fd (checked by cmd_matrix) */
		if (!err)
			bpf_object__for_each_program(p, obj)
				for (i = 0; i < n; i++)
					if (!row[i].got && !strcmp(row[i].prog, bpf_program__name(p)))
						row[i].fd = bpf_program__fd(p) >= 0;
		bpf_object__close(obj);
		if (!err)
			goto all;
		/* the program that failed is the one with a log */
		for (i = 0; i < n && (row[i].got || !logs[i][0]); i++)
			;
		if (i == n) {
			/* nothing to tell the cells apart: all of them failed */
			snprintf(logs[0], ROW_LOG, "%s", lmsg);
			goto all;
		}
		row[i].got = classify(&row[i], err, logs[i]);
		if (row[i].got == 'E')
			cell_error(&row[i], logs[i]);
		left--;
		for (int j = 0; in_order && j < n; j++) {
			if (row[j].got || pos[j] < 0 || pos[j] > pos[i])
				continue;
			row[j].got = classify(&row[j], 0, "");
			left--;
		}
	}
	return loads;
all:
	for (i = 0; i < n; i++) {
		if (row[i].got)
			continue;
		row[i].got = classify(&row[i], err, logs[0]);
		if (row[i].got == 'E')
			cell_error(&row[i], logs[0]);
	}
	return loads;
}

/*
 * Both kernels against the spec, strictly.  Patched: every cell as the
 * spec says, every refusal naming the op ("from sched_ext_ops.<op>"),
 * every loaded cell with its program fd.  Baseline: every cell as 6.12's
 * loads (A, S where a sleepable kfunc meets an op that cannot sleep), every
 * loaded cell with its fd, and, a negative control, the cells it loads that
 * the patched spec refuses (R) are exactly the spec's: those 6.12 leaves to
 * run time, and the departures 6.12 allows.
 */
static int cmd_matrix(const char *dir, const char *variant, bool per_cell)
{
	bool patched = !strcmp(variant, "patched");
	int n, i, ncol, loads = 0, mism = 0, errs = 0, unnamed = 0, nofd = 0;
	int ctl_want = 0, ctl_got = 0, ctl_dep = 0, at = 0, ar = 0;
	struct cell *cells;
	double t0, dt;

	n = read_cells(dir, variant, &cells);
	if (n <= 0)
		return 1;
	for (ncol = 1; ncol < n && !strcmp(cells[ncol].op, cells[0].op); ncol++)
		;
	for (i = 0; i < n; i++)
		if (strcmp(cells[i].op, cells[i - i % ncol].op) ||
		    strcmp(cells[i].kfunc, cells[i % ncol].kfunc) ||
		    strcmp(cells[i].obj, cells[i - i % ncol].obj))
			break;
	if (n % ncol || i < n) {
		printf("# cells.tsv: not %d whole rows of the same kfuncs, one object per op\n", ncol);
		return 1;
	}

	t0 = now();
	for (i = 0; i < n; i += ncol) {
		if (per_cell)
			for (int j = 0; j < ncol; j++)
				loads += load_cell(dir, &cells[i + j]);
		else
			loads += load_row(dir, &cells[i], ncol, false);
	}
	dt = now() - t0;

	print_table(cells, n, ncol, variant, "sched_ext kfunc matrix", "sched_ext_ops members",
		    "ops");
	for (i = 0; i < n; i++) {
		struct cell *c = &cells[i];

		at += !strcmp(c->token, "At");
		ar += !strcmp(c->token, "Ar");
		if (c->pexp == 'R' && c->bexp == 'A') {
			ctl_want++;
			ctl_dep += c->departure;
		}
		if (!patched && c->pexp == 'R' && c->got == 'A')
			ctl_got++;
		errs += c->got == 'E';
		if (c->got == 'E')
			continue;
		if (c->got != c->exp) {
			mism++;
			printf("# MISMATCH op=%s kfunc=%s (%s) expected=%c%s%s got=%c\n", c->op,
			       c->kfunc, c->group, c->exp, patched ? "" : " (6.12's loads)",
			       c->departure ? " (departure)" : "", c->got);
		}
		if (patched && c->got == 'R' && !c->named_op) {
			unnamed++;
			printf("# REFUSAL WITHOUT THE OP op=%s kfunc=%s: the log does not say"
			       " \"from sched_ext_ops.%s\"\n", c->op, c->kfunc, c->op);
		}
		if (c->got == 'A' && !c->fd) {
			nofd++;
			printf("# NO FD op=%s kfunc=%s: loaded, but libbpf has no program fd\n",
			       c->op, c->kfunc);
		}
	}
	printf("# matrix: %d cells in %.1f s (%d loads, %s), %.1f cells/s\n", n, dt, loads,
	       per_cell ? "one per cell" : "one per op and refusal", n / dt);
	printf("# matrix: %d cells load on both kernels with a run-time kf_tasks check left"
	       " (spec At %d, Ar %d)\n", at + ar, at, ar);
	if (patched)
		printf("# matrix: patched kernel: %d cells differ from the spec, %d refusals"
		       " do not name the op, %d loaded cells without an fd\n", mism, unnamed, nofd);
	else
		printf("# matrix: baseline kernel: %d cells differ from 6.12's loads, %d loaded cells"
		       " without an fd; negative control: %d cells the patched spec refuses (R)"
		       " load here, want %d (%d left to run time by 6.12, %d departures): %s\n",
		       mism, nofd, ctl_got, ctl_want, ctl_want - ctl_dep, ctl_dep,
		       ctl_got == ctl_want && !mism ? "exactly those" : "NOT exactly those (FAILED)");
	if (errs)
		printf("# matrix: %d cells neither loaded nor were refused as a verdict\n", errs);
	free(cells);
	return errs || mism || unnamed || nofd || (!patched && ctl_got != ctl_want) ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* the call-site matrix                                                */

/*
 * <dir>/cells.tsv of callsite.py, tab separated: site op kfunc group
 * core full baseline object program map refusal.  Each cell expects its
 * @variant's verdict (core, full or baseline; the bench-only limit is core);
 * pexp keeps the core's.
 */
static int read_callsite_cells(const char *dir, const char *variant, struct cell **out)
{
	int col_exp = !strcmp(variant, "baseline") ? 6 : !strcmp(variant, "full") ? 5 : 4;
	char path[512], line[1024];
	struct cell *cells = NULL;
	int n = 0, cap = 0, ln = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cells.tsv", dir);
	f = fopen(path, "r");
	if (!f) {
		printf("# cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *col[11], *save = NULL, *t;
		struct cell c = {};
		int k = 0;

		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (t = strtok_r(line, "\t", &save); t && k < 11; t = strtok_r(NULL, "\t", &save))
			col[k++] = t;
		if (k != 11 || t || strlen(col[4]) != 1 || strlen(col[5]) != 1 || strlen(col[6]) != 1) {
			printf("# %s:%d: want 11 tab-separated fields\n", path, ln);
			fclose(f);
			return -1;
		}
		snprintf(c.label, sizeof(c.label), "%s@%s", col[0], col[1]);
		snprintf(c.op, sizeof(c.op), "%s", col[1]);
		snprintf(c.kfunc, sizeof(c.kfunc), "%s", col[2]);
		snprintf(c.group, sizeof(c.group), "%s", col[3]);
		c.pexp = col[4][0];
		c.exp = col[col_exp][0];
		snprintf(c.obj, sizeof(c.obj), "%s", col[7]);
		snprintf(c.prog, sizeof(c.prog), "%s", col[8]);
		snprintf(c.map, sizeof(c.map), "%s", col[9]);
		snprintf(c.want, sizeof(c.want), "%s", col[10]);
		push_cell(&cells, &n, &cap, &c);
	}
	fclose(f);
	*out = cells;
	return n;
}

/*
 * Load @c alone with a verifier log and print its tail: why it got its
 * verdict.  A cell that loads gets the instruction-level log (the tail
 * shows the code that was let through).
 */
static void cell_log(const char *dir, struct cell *c)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	struct bpf_map *m;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, c->obj);
	vlog[0] = '\0';
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("# %s: cannot open %s\n", c->label, path);
		return;
	}
	bpf_object__for_each_map(m, obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS)
			bpf_map__set_autocreate(m, !strcmp(bpf_map__name(m), c->map));
	bpf_object__for_each_program(p, obj) {
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), c->prog));
		bpf_program__set_log_buf(p, vlog, sizeof(vlog));
		bpf_program__set_log_level(p, c->got == 'A' ? 2 : 1);
	}
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	printf("# %s x %s: loaded alone: %d; verifier log (tail):\n", c->label, c->kfunc, err);
	diag_tail("  ", vlog, c->got == 'A' ? 30 : 14);
}

/*
 * Every kfunc from every call site in every arming op (callsite.py): one
 * object per (call site, op), its cells loaded together (load_row(), the
 * programs loaded before a refusal taken as loaded), or one by one with
 * @per_cell.  Patched: each cell as callsite.spec says.  Baseline: each cell
 * as 6.12's rules say (A, S where a sleepable kfunc meets code that may not
 * sleep) and, as a negative control, the cells differing from the patched
 * spec are exactly its R cells.  Writes one "ok|not ok <site>@<op> <note>"
 * line per group to @results, for run-guest.sh's KTAP lines.
 */
static int cmd_callsite(const char *dir, const char *variant, const char *results, bool per_cell)
{
	bool patched = strcmp(variant, "baseline");
	int n, i, j, ncol, loads = 0, failed = 0, ndiff = 0, nr = 0, nbad = 0;
	struct cell *cells;
	double t0, dt;
	FILE *res;

	n = read_callsite_cells(dir, variant, &cells);
	if (n <= 0)
		return 1;
	for (ncol = 1; ncol < n && !strcmp(cells[ncol].obj, cells[0].obj); ncol++)
		;
	for (i = 0; i < n; i++)
		if (strcmp(cells[i].obj, cells[i - i % ncol].obj) ||
		    strcmp(cells[i].label, cells[i - i % ncol].label) ||
		    strcmp(cells[i].kfunc, cells[i % ncol].kfunc))
			break;
	if (n % ncol || i < n) {
		printf("# %s/cells.tsv: not %d whole groups of the same kfuncs, one object each\n",
		       dir, ncol);
		return 1;
	}
	res = fopen(results, "w");
	if (!res) {
		printf("# cannot write %s: %s\n", results, strerror(errno));
		return 1;
	}

	t0 = now();
	for (i = 0; i < n; i += ncol) {
		if (per_cell)
			for (j = 0; j < ncol; j++)
				loads += load_cell(dir, &cells[i + j]);
		else
			loads += load_row(dir, &cells[i], ncol, true);
	}
	dt = now() - t0;

	print_table(cells, n, ncol, variant, "sched_ext kfunc call-site matrix",
		    "<call site>@<arming op>", "groups");
	for (i = 0; i < n; i += ncol) {
		int mism = 0, errs = 0, diff = 0, r = 0, bad = 0;
		char note[400] = "";
		size_t len = 0;

		for (j = i; j < i + ncol; j++) {
			struct cell *c = &cells[j];
			/*
			 * baseline: differs from the patched spec where, and only
			 * where, it says R, or a known 6.12 bug the series fixes
			 * gives 6.12 another verdict (callsite.spec's "known")
			 */
			bool want_diff = c->pexp == 'R' || c->exp != c->pexp;
			bool neg = !patched && (c->got != c->pexp) != want_diff;

			errs += c->got == 'E';
			diff += c->got != c->pexp;
			r += want_diff;
			bad += neg;
			if (c->got == c->exp && !neg)
				continue;
			if (c->got != 'E')
				mism++;
			printf("# MISMATCH %s x %s (%s): expected %c%s, got %c\n", c->label, c->kfunc,
			       c->group, c->exp, patched ? "" : " (6.12's rules)", c->got);
			if (neg)
				printf("# NEGATIVE CONTROL %s x %s: the patched spec says %c, 6.12 %s it\n",
				       c->label, c->kfunc, c->pexp,
				       c->got == c->pexp ? "agrees with" : "differs from");
			if (c->got != 'E' && len < sizeof(note) - 60)
				len += snprintf(note + len, sizeof(note) - len, "%s%s %c not %c",
						len ? ", " : "", c->kfunc, c->got, c->exp);
			if (c->got != 'E')
				cell_log(dir, c);
		}
		ndiff += diff;
		nr += r;
		nbad += bad;
		if (!mism && !errs && !bad) {
			if (patched)
				fprintf(res, "ok %s %d cells as the spec\n", cells[i].label, ncol);
			else
				fprintf(res, "ok %s %d cells as 6.12's rules, %d differ from the patched spec: its %d R or known cells\n",
					cells[i].label, ncol, diff, r);
			continue;
		}
		failed++;
		fprintf(res, "not ok %s %d of %d cells differ from %s%s%s, %d errors\n",
			cells[i].label, mism, ncol, patched ? "the spec" : "6.12's rules",
			len ? ": " : "", note, errs);
	}
	fclose(res);
	printf("# callsite: %d cells (%d groups) in %.1f s (%d loads, %s), %.1f cells/s\n", n, n / ncol,
	       dt, loads, per_cell ? "one per cell" : "one per group and refusal", n / dt);
	if (!patched)
		printf("# callsite: baseline kernel: %d cells differ from the patched spec, which has"
		       " %d R cells: %s\n", ndiff, nr,
		       nbad ? "NOT exactly those (negative control FAILED)" : "exactly those");
	free(cells);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* kernel state, kernel log, load generation                          */

static void read_file(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t r = fd < 0 ? -1 : read(fd, buf, sz - 1);

	buf[r > 0 ? r : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

static const char *scx_state(void)
{
	static char s[32];

	read_file(STATE_PATH, s, sizeof(s));
	return s;
}

static bool wait_state(const char *want, double secs)
{
	double end = now() + secs;

	while (strcmp(scx_state(), want)) {
		if (now() > end)
			return false;
		usleep(20000);
	}
	return true;
}

/* the kernel log, from now on or (@from_boot) from its first message kept */
static int kmsg_open(bool from_boot)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && !from_boot)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* append the messages logged since kmsg_open() to @buf, one per line */
static void kmsg_read(int fd, char *buf, size_t sz)
{
	size_t len = strlen(buf);
	char rec[2048];

	for (;;) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		char *msg, *e;

		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		e = strchrnul(msg, '\n');
		if (len + (e - msg) + 2 < sz)
			len += sprintf(buf + len, "%.*s\n", (int)(e - msg), msg);
	}
}

/* @want must (@present) or must not be in @klog; says which, returns ok */
static bool expect_kmsg(const char *klog, const char *want, bool present)
{
	char line[512];
	bool found = log_line(klog, want, line, sizeof(line));

	if (found)
		printf("# kernel log: %s\n", line);
	else if (present)
		printf("# kernel log has no \"%s\"\n", want);
	return found == present;
}

static bool check_splats(const char *log, const char *what)
{
	bool ok = true;
	char line[512];

	for (size_t i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
		if (log_line(log, splats[i], line, sizeof(line))) {
			printf("# %s: kernel log: %s\n", what, line);
			ok = false;
		}
	return ok;
}

/* what the kernel log must (@present) or must not say; a NULL @text is skipped */
struct kmsg_want {
	const char *text;
	bool present;
};

/*
 * Read what the kernel logged since @kfd was opened (kmsg_open()) and close
 * it; check each of @wants and that no splat is there, printing the log's
 * tail if anything failed. Returns 1 if a check failed, else @ret.
 */
static int kmsg_check(int kfd, const char *what, const struct kmsg_want *wants,
		      int n, int ret)
{
	char *klog = calloc(1, 1 << 18);

	if (!klog) {
		close(kfd);
		return 1;
	}
	kmsg_read(kfd, klog, 1 << 18);
	close(kfd);
	for (int i = 0; i < n; i++)
		if (wants[i].text && !expect_kmsg(klog, wants[i].text, wants[i].present))
			ret = 1;
	if (!check_splats(klog, what))
		ret = 1;
	if (ret)
		diag_tail("kmsg: ", klog, 10);
	free(klog);
	return ret;
}

static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			;	/* best effort: the load works without it */
		close(fd);
	}
}

static void spin(double secs)
{
	double end = now() + secs;

	while (now() < end)
		;
}

static pid_t child(int kind, double end)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	switch (kind) {
	case 0:		/* CPU hog that yields and naps */
		for (int i = 0; now() < end; i++) {
			spin(0.002);
			if (i % 4)
				sched_yield();
			else
				usleep(500);
		}
		break;
	case 1: {	/* pipe ping-pong: wakeups, select_cpu, enqueue */
		int a[2], b[2];
		char c = 0;

		if (pipe(a) || pipe(b))
			_exit(1);
		if (fork() == 0) {	/* echoes until the other end is gone */
			close(a[1]);
			close(b[0]);
			while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
				;
			_exit(0);
		}
		close(a[0]);
		close(b[1]);
		while (now() < end && write(a[1], &c, 1) == 1 && read(b[0], &c, 1) == 1)
			;
		close(a[1]);
		wait(NULL);
		break;
	}
	case 2: {	/* RT bursts: the CPU is taken away, ops.cpu_release */
		struct sched_param sp = { .sched_priority = 1 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(0);
		while (now() < end) {
			spin(0.003);
			usleep(20000);
		}
		break;
	}
	}
	_exit(0);
}

/*
 * Keep the scheduler busy for @secs: CPU hogs, a ping-pong pair, RT bursts,
 * and a hog moved between cgroups (the cgroup_* ops).  Every 50 ms the
 * sched_ext state is read; with @until_disabled the load stops as soon as it
 * is no longer "enabled", otherwise leaving "enabled" is recorded.  Returns
 * true if the state stayed "enabled" throughout.
 */
static bool activity(double secs, bool until_disabled)
{
	double end = now() + secs;
	pid_t pids[6];
	int np = 0, moves = 0;
	bool cg, enabled = true;
	char pidstr[16];

	for (int i = 0; i < 3; i++)
		pids[np++] = child(0, end);
	pids[np++] = child(1, end);
	pids[np++] = child(2, end);

	write_str(CGROOT "/cgroup.subtree_control", "+cpu");
	cg = !mkdir(CGTEST, 0755) || errno == EEXIST;
	snprintf(pidstr, sizeof(pidstr), "%d", pids[0]);

	while (now() < end) {
		if (strcmp(scx_state(), "enabled")) {
			enabled = false;
			if (until_disabled)
				break;
		}
		if (cg) {
			write_str(moves++ % 2 ? CGROOT "/cgroup.procs" : CGTEST "/cgroup.procs", pidstr);
		}
		usleep(50000);
	}
	for (int i = 0; i < np; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	if (cg)
		rmdir(CGTEST);
	return enabled;
}

/* the ops name a case object gives its scheduler: <kind>_<case, '-' -> '_'> */
static void case_ops_name(const char *obj, const char *kind, char *name, size_t sz)
{
	const char *b = strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj;
	size_t n = strcspn(b, ".");

	snprintf(name, sz, "%s_%.*s", kind, (int)n, b);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
}

/* ------------------------------------------------------------------ */
/* the negative/positive scheduler pairs                               */

static int cmd_neg(const char *path, const char *op, const char *kfunc)
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

static int cmd_sleep(const char *path, const char *kfunc, const char *map)
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

static int cmd_load(const char *path)
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

static struct bpf_link *attach(struct bpf_object *obj, const char *map)
{
	struct bpf_link *link = bpf_map__attach_struct_ops(bpf_object__find_map_by_name(obj, map));

	if (!link)
		printf("# attach %s: %s\n", map, strerror(errno));
	return link;
}

/*
 * Load and attach the scheduler of @map in @path, run the load until it is
 * ejected, and check the kernel log says "sched_ext: <ops name>: <@msg>..."
 * and "disabled (runtime error)".  @what is printed when it is.  The object
 * stays open @linger seconds after the ejection (its timers keep firing).
 */
static int eject(const char *path, const char *kind, double secs, double linger,
		 const char *msg, const char *what)
{
	char name[128], map[64], err_msg[300], disabled[200];
	struct bpf_object *obj;
	struct bpf_link *link;
	int err, kfd, ret = 0;

	case_ops_name(path, kind, name, sizeof(name));
	snprintf(map, sizeof(map), "%s_ops", kind);
	obj = load_obj(path, map, NULL, &err);
	if (err) {
		printf("# %s must load: only its run time can catch it\n", map);
		diag_load_failure(map);
		bpf_object__close(obj);
		return 1;
	}
	kfd = kmsg_open(false);
	link = attach(obj, map);
	/* an error while enabling makes the attach itself fail: still look at the log */
	if (link)
		activity(secs, true);
	if (!wait_state("disabled", 5)) {
		printf("# state is \"%s\", not disabled: the run-time check did not eject %s\n",
		       scx_state(), name);
		ret = 1;
	}
	if (linger > 0)
		usleep(linger * 1e6);
	bpf_link__destroy(link);
	bpf_object__close(obj);

	snprintf(err_msg, sizeof(err_msg), "sched_ext: %s: %s", name, msg);
	snprintf(disabled, sizeof(disabled), "BPF scheduler \"%s\" disabled (runtime error)",
		 name);
	ret = kmsg_check(kfd, name, (struct kmsg_want[]){ { err_msg, true }, { disabled, true } },
			 2, ret);
	if (!ret)
		printf("# %s\n", what);
	return ret;
}

static int cmd_runtime(const char *path, double secs)
{
	return eject(path, "neg", secs, 0, "kfunc with mask", "baseline: caught at run time");
}

/*
 * An async case (async/async.bpf.h) the kernel only catches at run time
 * (6.12): it loads, and the call its timer callback makes outside the arming
 * op must eject it with @msg.
 */
static int cmd_async_runtime(const char *path, double secs, const char *msg)
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
static int cmd_async_refuse(const char *path, const char *op, const char *cb,
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

/*
 * the u64 global @var in the .bss of @obj (async.bpf.h's counters), or -1;
 * libbpf has given the object's BTF the section's offsets by now
 */
static long long bss_u64(struct bpf_object *obj, const char *var)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".bss");
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	unsigned long long v;
	long long ret = -1;
	int id, zero = 0;
	char *val;

	id = btf ? btf__find_by_name_kind(btf, ".bss", BTF_KIND_DATASEC) : -1;
	if (!map || id < 0)
		return -1;
	val = calloc(1, bpf_map__value_size(map));
	if (!val || bpf_map_lookup_elem(bpf_map__fd(map), &zero, val)) {
		free(val);
		return -1;
	}
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (int i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *var_t = btf__type_by_id(btf, vs->type);

		if (vs->size != sizeof(v) || vs->offset + sizeof(v) > bpf_map__value_size(map) ||
		    strcmp(btf__name_by_offset(btf, var_t->name_off), var))
			continue;
		memcpy(&v, val + vs->offset, sizeof(v));
		ret = v;
		break;
	}
	free(val);
	return ret;
}

/* after @secs of load: did the scheduler @name make its calls?  Says, returns ok */
typedef bool (*calls_fn)(struct bpf_object *obj, const char *name, double secs, const char *arg);

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
 * Load and attach the scheduler of <@kind>_ops in @path, keep it busy @secs:
 * it must stay enabled, @calls must find it made its calls, and it must
 * detach cleanly with no error and no splat in the kernel log.
 */
static int run_enabled(const char *path, const char *kind, double secs, calls_fn calls,
		       const char *arg)
{
	char name[128], map[64], ops[128], disabled[200], err_msg[200];
	struct bpf_object *obj;
	struct bpf_link *link;
	int err, kfd, ret = 0;
	double t0;

	case_ops_name(path, kind, name, sizeof(name));
	snprintf(map, sizeof(map), "%s_ops", kind);
	obj = load_obj(path, map, NULL, &err);
	if (err) {
		diag_load_failure(map);
		bpf_object__close(obj);
		return 1;
	}
	if (strcmp(scx_state(), "disabled")) {
		printf("# sched_ext state is \"%s\" before attaching\n", scx_state());
		bpf_object__close(obj);
		return 1;
	}
	kfd = kmsg_open(false);
	link = attach(obj, map);
	if (!link) {
		ret = 1;
		goto out;
	}
	if (!wait_state("enabled", 5)) {
		printf("# state is \"%s\" after attaching\n", scx_state());
		ret = 1;
	}
	read_file(OPS_PATH, ops, sizeof(ops));
	if (strcmp(ops, name)) {
		printf("# %s is \"%s\", want \"%s\"\n", OPS_PATH, ops, name);
		ret = 1;
	}
	t0 = now();
	if (!activity(secs, false)) {
		printf("# state left \"enabled\" under load: \"%s\"\n", scx_state());
		ret = 1;
	}
	if (!calls(obj, name, now() - t0, arg))
		ret = 1;
	bpf_link__destroy(link);
	if (!wait_state("disabled", 5)) {
		printf("# state is \"%s\" after detaching\n", scx_state());
		ret = 1;
	}
out:
	bpf_object__close(obj);
	/* detached by us, never ejected: no error message of the scheduler's */
	snprintf(disabled, sizeof(disabled),
		 "BPF scheduler \"%s\" disabled (unregistered from user space)", name);
	snprintf(err_msg, sizeof(err_msg), "sched_ext: %s: ", name);
	return kmsg_check(kfd, name,
			  (struct kmsg_want[]){ { link ? disabled : NULL, true }, { err_msg, false } },
			  2, ret);
}

static int cmd_pos(const char *path, double secs, const char *op)
{
	return run_enabled(path, "pos", secs, pos_calls, op);
}

/*
 * An async case that must run on both kernels: the callback's call is one an
 * unlocked context may make.
 */
static int cmd_async_run(const char *path, double secs, const char *must)
{
	if (strcmp(must, "calls") && strcmp(must, "ok")) {
		printf("# async-run: want calls or ok, not \"%s\"\n", must);
		return 1;
	}
	return run_enabled(path, "async", secs, async_counts, must);
}

/* ------------------------------------------------------------------ */
/* other program types                                                 */

static int cmd_prog(const char *path, const char *prog, const char *expect, const char *kfunc)
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
static int cmd_freplace(const char *tgt_path, const char *ext_path, const char *ext_prog,
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
static int cmd_ext_task_cgroup(const char *tgt_path, const char *ext_path, double secs)
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
static int cmd_tail_task_cgroup(const char *path, double secs)
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
			"       scxk tail-task-cgroup <obj> <secs>\n");
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
	if (!strcmp(cmd, "prog") && argc == 6)
		return cmd_prog(argv[2], argv[3], argv[4], argv[5]);
	return usage();
}
