// SPDX-License-Identifier: GPL-2.0
/*
 * scxk callsite: every sched_ext kfunc from six call sites in three arming
 * ops (callsite.py's cells.tsv), one result line per call site and op.
 */
#include "scxk.h"

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
int cmd_callsite(const char *dir, const char *variant, const char *results, bool per_cell)
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
