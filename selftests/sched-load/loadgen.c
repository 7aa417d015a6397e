// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen - a bounded, machine-parsable load generator for sched_ext tests
 *
 * Starts N worker tasks (threads, processes or both) of several kinds, lets
 * them run for a fixed time and prints how much work each one did:
 *
 *   spin   CPU-bound chunks of arithmetic              (unit: one chunk)
 *   yield  sched_yield() loop                          (unit: one yield)
 *   sleep  short nanosleep() loop                      (unit: one sleep)
 *   pipe   ping-pong pairs over two pipes              (unit: one round trip)
 *   fork   fork() + _exit() + waitpid() loop           (unit: one child)
 *   rt     SCHED_FIFO bursts of ~200us every 2ms       (unit: one burst)
 *
 * Optionally the process workers are spread over cgroup v2 children with
 * different cpu.weight (created under the cgroup2 root and removed at exit),
 * moved between them during the run and the weights changed (-M), every task
 * can get a different nice value (-N) and the non-RT tasks can be switched
 * to SCHED_EXT (-E, for schedulers running with SCX_OPS_SWITCH_PARTIAL).
 *
 * Output (stdout), one line per task and per kind, then the summary:
 *
 *   loadgen: task=3 kind=pipe mode=proc cgroup=lg1 nice=-20 policy=other work=1234 ext=1
 *   loadgen: kind=pipe tasks=4 total=4936 min=1234
 *   loadgen: tasks=16 total=123456 min=789 max=99999 starved=0 secs=20 ...
 *
 * SIGINT or SIGTERM ends the run early (not an error; signal=N in the
 * summary says so and elapsed_ms how long it ran).
 *
 * A task that did no work is starved.  ext=1 means /proc/<tid>/sched said
 * ext.enabled=1 when the task finished (ext=-1: unknown).  The exit status
 * is 0 if every task made progress, 1 if a task starved, got stuck or a
 * cgroup operation failed during the run, 2 on usage or setup errors.
 *
 * The files: loadgen.c (this one: options, setup, the run, the summary),
 * loadgen.h (what they share), loadgen-workers.c (the worker tasks, one
 * loop per kind), loadgen-cgroup.c (the cgroup v2 children: setup, the
 * moves and weight changes during the run, cleanup).
 */
#include "loadgen.h"

const char * const kind_names[NR_KINDS] = {
	"spin", "yield", "sleep", "pipe", "fork", "rt",
};
static const char * const mode_names[] = { "thread", "proc", "mix" };

struct shared *sh;
int nr_tasks;
int go_rd = -1, go_wr = -1;

/*
 * Task 0 (a spinner) gets -20: scx_qmap -H needs a CPU-bound nice -20 task.
 * Nothing above 10: next to a nice -20 spinner, a nice 19 task's share
 * (weight 15 vs 88761) is ~1ms in 5s, too close to "no work at all".
 */
static const int nice_cycle[] = { -20, 0, 5, 10, -5 };
#define NR_NICE		(int)(sizeof(nice_cycle) / sizeof(nice_cycle[0]))

volatile sig_atomic_t got_signal;

void msg(const char *fmt, ...)
{
	va_list ap;

	fputs("loadgen: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void kill_workers(void)
{
	int i;

	for (i = 0; i < nr_tasks; i++)
		if (sh->tasks[i].proc && sh->tasks[i].pid > 0)
			kill(sh->tasks[i].pid, SIGKILL);
}

void die_setup(const char *fmt, ...)
{
	va_list ap;

	fputs("loadgen: setup failed: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	printf("loadgen: setup failed\n");
	fflush(stdout);
	if (sh) {
		sh->stop = 1;
		kill_workers();
		while (waitpid(-1, NULL, 0) > 0)
			;
	}
	cg_cleanup();
	exit(2);
}

static void usage(const char *prog)
{
	fprintf(stderr,
"Usage: %s [-t SECS] [-n TASKS] [-k KINDS] [-m thread|proc|mix] [-c NCG] [-M]\n"
"          [-N] [-E] [-g GRACE] [-q]\n"
"\n"
"  -t SECS   run time in seconds (default 5)\n"
"  -n TASKS  number of worker tasks, at most %d (default 8); kinds are\n"
"            assigned round robin, a pipe pair counts as two tasks\n"
"  -k KINDS  comma list of spin,yield,sleep,pipe,fork,rt (default\n"
"            spin,yield,sleep,pipe)\n"
"  -m MODE   workers are threads, processes or alternate (default mix)\n"
"  -c NCG    create NCG (<= %d) cgroup v2 children of %s with\n"
"            different cpu.weight and spread the process workers over them\n"
"  -M        during the run, move process workers between the cgroups,\n"
"            change cpu.weight and create/remove a cgroup (needs -c >= 2)\n"
"  -N        give the tasks different nice values (-20,0,5,10,-5 cycle)\n"
"  -E        switch the non-RT tasks to SCHED_EXT\n"
"  -g GRACE  seconds to wait for workers to stop (default 10)\n"
"  -q        no per-task lines\n",
		prog, MAX_TASKS, MAX_CGROUPS, CG_ROOT);
}

static int parse_kinds(const char *arg, enum kind *kinds)
{
	char *dup = strdup(arg), *tok, *save = NULL;
	int n = 0, k;

	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < NR_KINDS; k++)
			if (!strcmp(tok, kind_names[k]))
				break;
		if (k == NR_KINDS || n == NR_KINDS * 4) {
			free(dup);
			return -1;
		}
		kinds[n++] = k;
	}
	free(dup);
	return n;
}

static void on_signal(int sig)
{
	got_signal = sig;
	if (sh)
		sh->stop = 1;
}

int main(int argc, char **argv)
{
	enum kind kinds[NR_KINDS * 4] = { K_SPIN, K_YIELD, K_SLEEP, K_PIPE };
	int nr_kinds = 4, want = 8, secs = 5, grace = 10, opt, i, k;
	uint64_t start, deadline, elapsed, total = 0, min = UINT64_MAX, max = 0;
	unsigned long moves = 0, reweights = 0, cgmade = 0;
	enum mode mode = M_MIX;
	bool migrate = false, nice_spread = false, ext_policy = false;
	bool quiet = false;
	int starved = 0, stuck = 0, failed = 0, errors = 0, on_ext = 0, rt = 0;
	pthread_t threads[MAX_TASKS];
	bool thread_made[MAX_TASKS] = { false };
	struct sigaction sa = { .sa_handler = on_signal };
	int pfd[2][2];

	setvbuf(stdout, NULL, _IOLBF, 0);

	while ((opt = getopt(argc, argv, "t:n:k:m:c:MNEg:qh")) != -1) {
		switch (opt) {
		case 't':
			secs = atoi(optarg);
			break;
		case 'n':
			want = atoi(optarg);
			break;
		case 'k':
			nr_kinds = parse_kinds(optarg, kinds);
			if (nr_kinds <= 0) {
				fprintf(stderr, "loadgen: bad kind list '%s'\n", optarg);
				return 2;
			}
			break;
		case 'm':
			for (i = 0; i < 3; i++)
				if (!strcmp(optarg, mode_names[i]))
					break;
			if (i == 3) {
				fprintf(stderr, "loadgen: bad mode '%s'\n", optarg);
				return 2;
			}
			mode = i;
			break;
		case 'c':
			nr_cgroups = atoi(optarg);
			break;
		case 'M':
			migrate = true;
			break;
		case 'N':
			nice_spread = true;
			break;
		case 'E':
			ext_policy = true;
			break;
		case 'g':
			grace = atoi(optarg);
			break;
		case 'q':
			quiet = true;
			break;
		default:
			usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (secs <= 0 || want <= 0 || want > MAX_TASKS || grace <= 0 ||
	    nr_cgroups < 0 || nr_cgroups > MAX_CGROUPS ||
	    (migrate && nr_cgroups < 2)) {
		usage(argv[0]);
		return 2;
	}
	if (nr_cgroups && mode == M_THREAD) {
		fprintf(stderr, "loadgen: -c needs process workers (-m proc|mix)\n");
		return 2;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		sh = NULL;
		die_setup("mmap: %s", strerror(errno));
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* lay out the tasks: kinds round robin, a pipe pair takes two slots */
	for (i = 0, k = 0; nr_tasks < want; k++) {
		enum kind kind = kinds[k % nr_kinds];
		int j, n = kind == K_PIPE ? 2 : 1;

		if (kind == K_PIPE) {
			if (nr_tasks + 2 > MAX_TASKS)
				break;
			if (pipe2(pfd[0], O_CLOEXEC) || pipe2(pfd[1], O_CLOEXEC))
				die_setup("pipe: %s", strerror(errno));
		}
		for (j = 0; j < n; j++) {
			struct task *t = &sh->tasks[nr_tasks];

			t->idx = nr_tasks;
			t->kind = kind;
			t->proc = mode == M_PROC ||
				  (mode == M_MIX && (nr_tasks & 1));
			t->cg = -1;
			t->nice = nice_spread ? nice_cycle[nr_tasks % NR_NICE] : 0;
			t->ext_policy = ext_policy && kind != K_RT;
			t->ext = -1;
			t->rfd = t->wfd = -1;
			if (kind == K_PIPE) {
				t->leader = j == 0;
				t->rfd = pfd[j][0];
				t->wfd = pfd[!j][1];
			}
			nr_tasks++;
		}
	}

	if (nr_cgroups)
		cg_setup();
	{
		int go[2];

		if (pipe2(go, O_CLOEXEC))
			die_setup("pipe: %s", strerror(errno));
		go_rd = go[0];
		go_wr = go[1];
	}

	/* processes first (fork before any thread exists), then threads */
	for (i = 0; i < nr_tasks; i++) {
		struct task *t = &sh->tasks[i];
		pid_t pid;

		if (!t->proc)
			continue;
		pid = fork();
		if (pid < 0)
			die_setup("fork: %s", strerror(errno));
		if (!pid) {
			close(go_wr);
			worker_run(t);
			_exit(t->state == T_DONE ? 0 : 1);
		}
		t->pid = pid;
		if (nr_cgroups) {
			int err;

			t->cg = i % nr_cgroups;
			err = cg_attach(t->cg, pid);
			if (err)
				die_setup("move pid %d into lg%d: %s", (int)pid,
					  t->cg, strerror(-err));
		}
	}
	for (i = 0; i < nr_tasks; i++) {
		int err;

		if (sh->tasks[i].proc)
			continue;
		err = pthread_create(&threads[i], NULL, thread_main, &sh->tasks[i]);
		if (err)
			die_setup("pthread_create: %s", strerror(err));
		thread_made[i] = true;
	}

	/* wait (bounded) until every worker is set up */
	deadline = now_ns() + (uint64_t)grace * 1000000000ull;
	for (;;) {
		int ready = 0;

		for (i = 0; i < nr_tasks; i++) {
			struct task *t = &sh->tasks[i];

			if (t->state == T_FAILED)
				die_setup("task %d (%s): %s", i,
					  kind_names[t->kind], t->err);
			ready += t->state == T_READY;
		}
		if (ready == nr_tasks)
			break;
		if (now_ns() > deadline)
			die_setup("only %d of %d tasks ready after %ds", ready,
				  nr_tasks, grace);
		sleep_ns(1000000);
	}

	/* go */
	start = now_ns();
	close(go_wr);
	if (migrate) {
		int step = 0;

		while (!sh->stop && now_ns() - start < (uint64_t)secs * 1000000000ull) {
			sleep_ns(100 * 1000000ull);
			if (!errors && mid_run_cgroup_ops(step++, &moves,
							  &reweights, &cgmade))
				errors++;
		}
	} else {
		uint64_t end = start + (uint64_t)secs * 1000000000ull, now;

		while (!sh->stop && (now = now_ns()) < end)
			sleep_ns(end - now);
	}
	sh->stop = 1;
	elapsed = now_ns() - start;

	/* wake pipe readers; extra bytes are harmless */
	for (i = 0; i < nr_tasks; i++) {
		ssize_t ret;

		if (sh->tasks[i].kind != K_PIPE)
			continue;
		ret = write(sh->tasks[i].wfd, "x", 1);
		(void)ret;
	}

	/* wait (bounded) for every worker to finish */
	deadline = now_ns() + (uint64_t)grace * 1000000000ull;
	for (;;) {
		int done = 0;

		for (i = 0; i < nr_tasks; i++)
			done += sh->tasks[i].state == T_DONE;
		if (done == nr_tasks || now_ns() > deadline)
			break;
		sleep_ns(2000000);
	}
	for (i = 0; i < nr_tasks; i++) {
		struct task *t = &sh->tasks[i];

		if (t->state != T_DONE) {
			stuck++;
			msg("task %d (%s, %s) did not stop within %ds", i,
			    kind_names[t->kind], t->proc ? "proc" : "thread",
			    grace);
			continue;
		}
		if (thread_made[i])
			pthread_join(threads[i], NULL);
	}
	if (stuck)
		kill_workers();
	for (i = 0; i < nr_tasks; i++) {
		struct task *t = &sh->tasks[i];
		int status;

		if (!t->proc || t->pid <= 0)
			continue;
		if (waitpid(t->pid, &status, 0) < 0)
			continue;
		if (t->state == T_DONE &&
		    (!WIFEXITED(status) || WEXITSTATUS(status))) {
			msg("task %d (pid %d) exited abnormally (status 0x%x)",
			    i, (int)t->pid, status);
			failed++;
		}
	}
	cg_cleanup();

	for (i = 0; i < nr_tasks; i++) {
		struct task *t = &sh->tasks[i];
		uint64_t w = t->work;
		char cg[16] = "-";

		total += w;
		if (w < min)
			min = w;
		if (w > max)
			max = w;
		if (!w)
			starved++;
		if (t->ext == 1)
			on_ext++;
		if (t->kind == K_RT)
			rt++;
		if (quiet && w)
			continue;
		if (t->cg >= 0)
			snprintf(cg, sizeof(cg), "lg%d", t->cg);
		printf("loadgen: task=%d kind=%s mode=%s cgroup=%s nice=%d policy=%s work=%llu ext=%d%s\n",
		       i, kind_names[t->kind], t->proc ? "proc" : "thread", cg,
		       t->nice, t->kind == K_RT ? "fifo" :
		       t->ext_policy ? "ext" : "other",
		       (unsigned long long)w, t->ext,
		       !w ? " STARVED" : t->state != T_DONE ? " STUCK" : "");
	}
	for (k = 0; k < NR_KINDS; k++) {
		uint64_t kt = 0, kmin = UINT64_MAX;
		int n = 0;

		for (i = 0; i < nr_tasks; i++) {
			if (sh->tasks[i].kind != (enum kind)k)
				continue;
			n++;
			kt += sh->tasks[i].work;
			if (sh->tasks[i].work < kmin)
				kmin = sh->tasks[i].work;
		}
		if (n)
			printf("loadgen: kind=%s tasks=%d total=%llu min=%llu\n",
			       kind_names[k], n, (unsigned long long)kt,
			       (unsigned long long)kmin);
	}
	printf("loadgen: tasks=%d total=%llu min=%llu max=%llu starved=%d secs=%d elapsed_ms=%llu stuck=%d failed=%d on_ext=%d rt=%d cgroups=%d moves=%lu reweights=%lu cgcreated=%lu errors=%d signal=%d\n",
	       nr_tasks, (unsigned long long)total, (unsigned long long)min,
	       (unsigned long long)max, starved, secs,
	       (unsigned long long)(elapsed / 1000000), stuck, failed, on_ext,
	       rt, nr_cgroups, moves, reweights, cgmade, errors, (int)got_signal);

	if (starved)
		msg("%d of %d tasks starved (did no work in %ds)", starved,
		    nr_tasks, secs);
	if (starved || stuck || failed || errors)
		return 1;
	return 0;
}
