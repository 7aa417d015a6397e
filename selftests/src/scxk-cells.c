// SPDX-License-Identifier: GPL-2.0
/*
 * scxk: loading the cells of a kfunc matrix (one program per op x kfunc,
 * or per call site, op and kfunc), their verdicts and the table printed
 * for both matrices (scxk matrix, scxk callsite).
 */
#include "scxk.h"

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
void push_cell(struct cell **cells, int *n, int *cap, const struct cell *c)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*cells = realloc(*cells, *cap * sizeof(**cells));
		if (!*cells)
			exit(1);
	}
	(*cells)[(*n)++] = *c;
}

/*
 * The table: one row per op (per call site and op: the cell's label), one
 * column per kfunc (numbered, legend above), groups separated by '|'.  Upper
 * case: as the spec expects; lower case: differs from the spec; E: error
 * (neither loaded nor refused as expected).  @title names the matrix, @rows
 * says what its rows are, @unit what one is.
 */
void print_table(struct cell *cells, int n, int ncol, const char *variant,
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
int load_cell(const char *dir, struct cell *c)
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
int load_row(const char *dir, struct cell *row, int n, bool in_order)
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
