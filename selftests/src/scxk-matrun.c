// SPDX-License-Identifier: GPL-2.0
/*
 * scxk matrix-run: the kfunc matrix's run phase.  Every cell that loads
 * (matrix/runs.tsv, written by gen.py with matrix/matrun.py) is attached as
 * its kNN_run scheduler, its op is made to fire (matrix/run.list's
 * trigger), and the kernel must show the call made: the cell's counter,
 * incremented once the call returned, and for scx_bpf_exit()/_error() and
 * the calls the kernel refuses at run time, how the scheduler ended (ops.exit's
 * record, the kernel log).  A cell that cannot run here is counted apart
 * with its reason, never as passed.  One result line per op to @results.
 */
#include "scxk.h"
#include <pthread.h>
#include <sys/resource.h>

#ifndef SCHED_EXT
#define SCHED_EXT 7
#endif

/* TCG is slow, but an op that fires at all fires within a few rounds */
#define RUN_MAX_S	3.0
#define NR_HOGS_MAX	8
#define CG_RUN		CGTEST "-run"
/* enum scx_exit_kind: SCX_EXIT_UNREG_BPF, scx_bpf_exit() */
#define EXIT_UNREG_BPF	65

/* a line of runs.tsv, with the kind and message of the kernel it runs on */
struct mrun {
	char op[32], kfunc[48], map[40], hits[40], trigger[16], kind[8];
	char msg[240];
};

/* a tally of reasons: the summary prints each with its count */
struct tally {
	char what[16][240];
	int n[16], nr;
};

static void tally_add(struct tally *t, const char *what)
{
	for (int i = 0; i < t->nr; i++)
		if (!strcmp(t->what[i], what)) {
			t->n[i]++;
			return;
		}
	if (t->nr < 16) {
		snprintf(t->what[t->nr], sizeof(t->what[0]), "%s", what);
		t->n[t->nr++] = 1;
	}
}

static void tally_print(const struct tally *t)
{
	for (int i = 0; i < t->nr; i++)
		printf("#   %d: %s\n", t->n[i], t->what[i]);
}

static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			;	/* a failed step shows as a counter that never moved */
		close(fd);
	}
}

static void write_pid(const char *dir, pid_t pid)
{
	char path[128], s[16];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(s, sizeof(s), "%d", pid);
	write_str(path, s);
}

static void *nap(void *arg)
{
	for (;;)
		usleep(1000);
	return NULL;
}

/* a SCHED_EXT task (the only kind SCX_OPS_SWITCH_PARTIAL hands the
 * scheduler) that spins, yields and naps until killed; @threaded: with a
 * second thread (the cancel trigger moves the thread group) */
static pid_t hog(bool threaded)
{
	struct sched_param sp = {};
	pthread_t th;
	pid_t pid = fork();

	if (pid)
		return pid;
	sched_setscheduler(0, SCHED_EXT, &sp);
	if (threaded && pthread_create(&th, NULL, nap, NULL))
		_exit(1);
	for (int i = 0;; i++) {
		spin(0.001);
		if (i % 4)
			sched_yield();
		else
			usleep(300);
	}
}

/* an RT task that takes a CPU from them in bursts: ops.cpu_release, then
 * ops.cpu_acquire when the scheduler has the CPU back */
static pid_t rt_burst(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	pid_t pid = fork();

	if (pid)
		return pid;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(1);
	for (;;) {
		spin(0.002);
		usleep(3000);
	}
}

struct trig {
	pid_t hogs[NR_HOGS_MAX], rt;
	int nh, round;
	bool cgroup, cancel, dump;
};

static void trig_start(struct trig *t, const char *trigger)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(t, 0, sizeof(*t));
	t->nh = ncpu + 2 < NR_HOGS_MAX ? ncpu + 2 : NR_HOGS_MAX;
	t->cancel = !strcmp(trigger, "cancel");
	for (int i = 0; i < t->nh; i++)
		t->hogs[i] = hog(t->cancel && !i);
	t->rt = strcmp(trigger, "rt") ? 0 : rt_burst();
	t->cgroup = !strcmp(trigger, "cgroup");
	t->dump = !strcmp(trigger, "dump");
}

/* one round of the loader's part: nice and affinity of every hog
 * (set_weight, set_cpumask; dequeue of those waiting), a short-lived
 * SCHED_EXT child (init_task, enable, disable, exit_task), a cgroup made,
 * weighted, entered, left and removed (the cgroup ops), a thread group's
 * move refused (cgroup_cancel_move), nice 19 (the dump rows' trigger:
 * mx_set_weight_err) */
static void trig_round(struct trig *t)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), r = t->round++;
	struct sched_param sp = {};
	cpu_set_t set;
	pid_t c;

	CPU_ZERO(&set);
	for (int cpu = 0; cpu < ncpu; cpu++)
		if (r % 2 || cpu == r % ncpu)
			CPU_SET(cpu, &set);
	for (int i = 0; i < t->nh; i++) {
		setpriority(PRIO_PROCESS, t->hogs[i], r % 2);
		sched_setaffinity(t->hogs[i], sizeof(set), &set);
	}
	/* every round from the third: a hog not yet SCHED_EXT then gets it
	 * when it is enabled (ops.set_weight is called then too) */
	if (t->dump && r >= 2)
		setpriority(PRIO_PROCESS, t->hogs[0], 19);
	c = fork();
	if (c == 0) {
		sched_setscheduler(0, SCHED_EXT, &sp);
		usleep(500);
		_exit(0);
	}
	if (c > 0)
		waitpid(c, NULL, 0);
	if (t->cgroup && (!mkdir(CG_RUN, 0755) || errno == EEXIST)) {
		write_str(CG_RUN "/cpu.weight", r % 2 ? "50" : "200");
		write_pid(CG_RUN, t->hogs[0]);
		write_pid(CGROOT, t->hogs[0]);
		rmdir(CG_RUN);
	}
	/* refused (EBUSY) by mx_prep_move_refuse at the second thread */
	if (t->cancel && (!mkdir(CG_RUN, 0755) || errno == EEXIST)) {
		write_pid(CG_RUN, t->hogs[0]);
		write_pid(CGROOT, t->hogs[0]);
		rmdir(CG_RUN);
	}
}

static void trig_stop(struct trig *t)
{
	for (int i = 0; i < t->nh; i++)
		kill(t->hogs[i], SIGKILL);
	if (t->rt)
		kill(t->rt, SIGKILL);
	for (int i = 0; i < t->nh; i++)
		waitpid(t->hogs[i], NULL, 0);
	if (t->rt)
		waitpid(t->rt, NULL, 0);
	rmdir(CG_RUN);
}

/* the .bss string @var of @obj (ops.exit's message), or "" */
static void bss_str(struct bpf_object *obj, const char *var, char *out, size_t sz)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".bss");
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	int id, zero = 0;
	char *val;

	out[0] = '\0';
	id = btf ? btf__find_by_name_kind(btf, ".bss", BTF_KIND_DATASEC) : -1;
	if (!map || id < 0)
		return;
	val = calloc(1, bpf_map__value_size(map));
	if (!val || bpf_map_lookup_elem(bpf_map__fd(map), &zero, val)) {
		free(val);
		return;
	}
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (int i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *var_t = btf__type_by_id(btf, vs->type);

		if (strcmp(btf__name_by_offset(btf, var_t->name_off), var) ||
		    vs->offset + vs->size > bpf_map__value_size(map))
			continue;
		snprintf(out, sz, "%.*s", (int)vs->size, val + vs->offset);
		break;
	}
	free(val);
}

/* does the kernel log say "sched_ext: <name>: <one of @msgs, '|'-separated>"? */
static bool said(const char *klog, const char *name, const char *msg)
{
	char want[320], line[512];

	snprintf(want, sizeof(want), "sched_ext: %s: %s", name, msg);
	return log_line(klog, want, line, sizeof(line));
}

/*
 * Run one cell: attach, fire its op until the counter moves (and, where
 * the cell's proof is the scheduler's end, until it ended), detach, and
 * read what the kernel says.  Returns true if it showed what runs.tsv
 * wants; says why not.
 */
static bool run_cell(struct bpf_object *obj, const struct mrun *r, char *klog, size_t ksz)
{
	bool ends = strcmp(r->kind, "call") || !strcmp(r->trigger, "dump");
	char name[64], want[200], line[512], emsg[128];
	struct bpf_map *map = bpf_object__find_map_by_name(obj, r->map);
	struct bpf_link *link;
	struct trig t = {};
	bool ok = true, enabled, loop;
	long long hits = 0;
	double end;
	int kfd;

	snprintf(name, sizeof(name), "mr_%s_%s", r->op, r->map + 1);
	name[strlen(name) - 4] = '\0';	/* "kNN_run" -> "NN" */
	if (!wait_state("disabled", 5)) {
		printf("# %s x %s: sched_ext is \"%s\" before attaching\n", r->op, r->kfunc,
		       scx_state());
		return false;
	}
	kfd = kmsg_open(false);
	link = map ? bpf_map__attach_struct_ops(map) : NULL;
	if (!link) {
		printf("# %s x %s: attach %s: %s\n", r->op, r->kfunc, r->map, strerror(errno));
		close(kfd);
		return false;
	}
	loop = strcmp(r->trigger, "attach") && strcmp(r->trigger, "detach");
	if (loop)
		trig_start(&t, r->trigger);
	for (end = now() + RUN_MAX_S; now() < end;) {
		hits = bss_u64(obj, r->hits);
		if (hits > 0 && (!ends || strcmp(scx_state(), "enabled")))
			break;
		if (!strcmp(r->trigger, "detach"))
			break;
		if (loop)
			trig_round(&t);
		usleep(2000);
	}
	if (loop)
		trig_stop(&t);
	enabled = !strcmp(scx_state(), "enabled");
	bpf_link__destroy(link);
	if (!wait_state("disabled", 5)) {
		printf("# %s x %s: \"%s\" after detaching\n", r->op, r->kfunc, scx_state());
		ok = false;
	}
	hits = bss_u64(obj, r->hits);
	klog[0] = '\0';
	kmsg_read(kfd, klog, ksz);
	close(kfd);

	if (hits <= 0) {
		printf("# %s x %s: the call was not seen made (counter %lld after %.0f s of %s)\n",
		       r->op, r->kfunc, hits, RUN_MAX_S, r->trigger);
		ok = false;
	}
	if (!ends) {
		/* detached by us, never ejected */
		snprintf(want, sizeof(want), "sched_ext: %s: ", name);
		if (!enabled || log_line(klog, want, line, sizeof(line))) {
			printf("# %s x %s: ejected (state %s before detaching): %s\n", r->op,
			       r->kfunc, enabled ? "enabled" : "not enabled",
			       log_line(klog, want, line, sizeof(line)) ? line : "no message");
			ok = false;
		}
	} else if (!strcmp(r->kind, "exit")) {
		bss_str(obj, "mx_exit_msg", emsg, sizeof(emsg));
		if (bss_u64(obj, "mx_exit_kind") != EXIT_UNREG_BPF || strcmp(emsg, r->msg)) {
			printf("# %s x %s: ops.exit saw kind %lld \"%s\", want %d \"%s\"\n",
			       r->op, r->kfunc, bss_u64(obj, "mx_exit_kind"), emsg,
			       EXIT_UNREG_BPF, r->msg);
			ok = false;
		}
	} else {
		/* error, eject, and the dump rows' trigger: an error exit, the
		 * kernel's own (SCX_EXIT_ERROR: "runtime error") or the BPF
		 * scheduler's (SCX_EXIT_ERROR_BPF: "scx_bpf_error") */
		const char *msg = strcmp(r->kind, "call") ? r->msg : "mx: dump trigger";

		snprintf(want, sizeof(want), "BPF scheduler \"%s\" disabled (%s)", name,
			 strcmp(r->kind, "eject") ? "scx_bpf_error" : "runtime error");
		if (!log_line(klog, want, line, sizeof(line)) || !said(klog, name, msg)) {
			printf("# %s x %s: want the kernel to eject %s with \"%s\"\n", r->op,
			       r->kfunc, name, msg);
			ok = false;
		}
	}
	if (!check_splats(klog, name))
		ok = false;
	if (!ok)
		diag_tail("kmsg: ", klog, 6);
	return ok;
}

/* runs.tsv: op kfunc map counter trigger kind-patched msg kind-baseline msg */
static int read_runs(const char *dir, bool patched, struct mrun **out)
{
	char path[512], line[1024];
	struct mrun *runs = NULL;
	int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/runs.tsv", dir);
	f = fopen(path, "r");
	if (!f) {
		printf("# cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *col[9], *s = line;
		struct mrun r = {};
		int i, k = patched ? 5 : 7;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < 9 && s; i++)
			col[i] = strsep(&s, "\t");
		if (i < 9 || s) {
			printf("# %s: bad line: %s\n", path, line);
			fclose(f);
			free(runs);
			return -1;
		}
		snprintf(r.op, sizeof(r.op), "%s", col[0]);
		snprintf(r.kfunc, sizeof(r.kfunc), "%s", col[1]);
		snprintf(r.map, sizeof(r.map), "%s", col[2]);
		snprintf(r.hits, sizeof(r.hits), "%s", col[3]);
		snprintf(r.trigger, sizeof(r.trigger), "%s", col[4]);
		snprintf(r.kind, sizeof(r.kind), "%s", col[k]);
		snprintf(r.msg, sizeof(r.msg), "%s", col[k + 1]);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			runs = realloc(runs, cap * sizeof(*runs));
			if (!runs)
				exit(1);
		}
		runs[n++] = r;
	}
	fclose(f);
	*out = runs;
	return n;
}

/* the row's object with the kNN_run maps of its cells that run, or NULL */
static struct bpf_object *load_runs(const char *dir, struct mrun *row, int n)
{
	struct bpf_object *obj;
	struct bpf_map *m;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/mx_%s.bpf.o", dir, row[0].op);
	lmsg[0] = '\0';
	lmsg_len = 0;
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("# %s: cannot open %s: %s\n", row[0].op, path, strerror(errno));
		return NULL;
	}
	/* libbpf then loads only the programs those maps use */
	bpf_object__for_each_map(m, obj) {
		bool on = false;

		if (bpf_map__type(m) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		for (int i = 0; i < n; i++)
			on |= strcmp(row[i].kind, "skip") && !strcmp(row[i].map, bpf_map__name(m));
		bpf_map__set_autocreate(m, on);
	}
	err = bpf_object__load(obj);
	if (err) {
		printf("# %s: the run maps did not load (%d)\n", row[0].op, err);
		if (lmsg[0])
			diag_tail("libbpf: ", lmsg, 10);
		bpf_object__close(obj);
		return NULL;
	}
	return obj;
}

/*
 * @rows: a file naming the ops to run, one a line (run-guest.sh: those T=
 * selects), or "-" for all.  Writes "ok|not ok|skip <op> <note>" per op to
 * @results.  Returns 0 if no cell failed.
 */
int cmd_matrix_run(const char *dir, const char *variant, const char *rows, const char *results)
{
	int n, i, j, called = 0, skipped = 0, ejected = 0, failed = 0, nrun = 0;
	bool patched = strcmp(variant, "baseline");
	struct tally skips = {}, ejects = {};
	char wanted[4096] = "\n", *klog;
	struct mrun *runs;
	FILE *res, *f;
	double t0;

	n = read_runs(dir, patched, &runs);
	if (n <= 0)
		return 1;
	if (strcmp(rows, "-")) {
		f = fopen(rows, "r");
		if (!f) {
			printf("# cannot open %s: %s\n", rows, strerror(errno));
			return 1;
		}
		if (fread(wanted + 1, 1, sizeof(wanted) - 3, f) == 0)
			;	/* no row wanted: nothing runs */
		fclose(f);
		strcat(wanted, "\n");
	}
	res = fopen(results, "w");
	klog = malloc(1 << 18);
	if (!res || !klog) {
		printf("# cannot write %s: %s\n", results, strerror(errno));
		return 1;
	}
	/* the cgroup trigger's cgroups need the cpu controller (as activity()) */
	write_str(CGROOT "/cgroup.subtree_control", "+cpu");
	t0 = now();
	for (i = 0; i < n; i = j) {
		int rc = 0, rs = 0, re = 0, rf = 0;
		double rt0 = now();
		struct bpf_object *obj = NULL;
		const char *skip_why = "";
		char want[40];

		for (j = i; j < n && !strcmp(runs[j].op, runs[i].op); j++)
			;
		snprintf(want, sizeof(want), "\n%s\n", runs[i].op);
		if (strcmp(rows, "-") && !strstr(wanted, want))
			continue;
		/* one load per row, if any of its cells runs */
		for (int k = i; k < j && !obj; k++)
			if (strcmp(runs[k].kind, "skip")) {
				obj = load_runs(dir, &runs[i], j - i);
				if (!obj)
					break;
			}
		for (int k = i; k < j; k++) {
			struct mrun *r = &runs[k];

			if (!strcmp(r->kind, "skip")) {
				rs++;
				skip_why = r->msg;
				tally_add(&skips, r->msg);
				continue;
			}
			nrun++;
			if (obj && run_cell(obj, r, klog, 1 << 18)) {
				if (!strcmp(r->kind, "eject")) {
					re++;
					tally_add(&ejects, r->msg);
				} else {
					rc++;
				}
				continue;
			}
			rf++;
			printf("# RUN FAILED %s x %s (%s%s%s)\n", r->op, r->kfunc, r->kind,
			       strcmp(r->msg, "-") ? ": " : "", strcmp(r->msg, "-") ? r->msg : "");
		}
		bpf_object__close(obj);
		called += rc;
		skipped += rs;
		ejected += re;
		failed += rf;
		/* ktap_times: the row's own time, not the whole run's */
		printf("# time: matrix:%s %.2f\n", runs[i].op, now() - rt0);
		if (!rc && !re && !rf)
			fprintf(res, "skip %s cannot run here: %s\n", runs[i].op, skip_why);
		else
			fprintf(res, "%s %s %d failed, %d called, %d cannot run here, %d refused at"
				" run time as the kernel's check says\n", rf ? "not ok" : "ok",
				runs[i].op, rf, rc, rs, re);
	}
	fclose(res);
	printf("# matrix run (%s kernel): %d cells run in %.1f s\n", variant, nrun, now() - t0);
	printf("# matrix run: %d cells called, %d cannot run here, %d refused at run time as the"
	       " kernel's check says, %d failed\n", called, skipped, ejected, failed);
	if (skipped) {
		printf("# matrix run: cannot run here, by reason:\n");
		tally_print(&skips);
	}
	if (ejected) {
		printf("# matrix run: refused at run time (counted apart, not as called), by message:\n");
		tally_print(&ejects);
	}
	free(klog);
	free(runs);
	return failed ? 1 : 0;
}
