// SPDX-License-Identifier: GPL-2.0
/*
 * scxk matrix: every sched_ext_ops member x every sched_ext kfunc, against
 * the spec (patched) or 6.12's loads and the spec's R cells (baseline).
 */
#include "scxk.h"

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
 * Both kernels against the spec, strictly.  Patched: every cell as the
 * spec says, every refusal naming the op ("from sched_ext_ops.<op>"),
 * every loaded cell with its program fd.  Baseline: every cell as 6.12's
 * loads (A, S where a sleepable kfunc meets an op that cannot sleep), every
 * loaded cell with its fd, and, a negative control, the cells it loads that
 * the patched spec refuses (R) are exactly the spec's: those 6.12 leaves to
 * run time, and the departures 6.12 allows.
 */
int cmd_matrix(const char *dir, const char *variant, bool per_cell)
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
