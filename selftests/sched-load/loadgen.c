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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHED_EXT
#define SCHED_EXT	7
#endif

#define MAX_TASKS	256
#define MAX_CGROUPS	16
#define CG_ROOT		"/sys/fs/cgroup"

enum kind { K_SPIN, K_YIELD, K_SLEEP, K_PIPE, K_FORK, K_RT, NR_KINDS };
static const char * const kind_names[NR_KINDS] = {
	"spin", "yield", "sleep", "pipe", "fork", "rt",
};

enum mode { M_THREAD, M_PROC, M_MIX };
static const char * const mode_names[] = { "thread", "proc", "mix" };

enum tstate { T_SETUP, T_READY, T_DONE, T_FAILED };

/* Lives in a MAP_SHARED mapping: written by process and thread workers. */
struct task {
	int		idx;
	enum kind	kind;
	bool		proc;
	int		cg;		/* child cgroup index, -1: stays put */
	int		nice;
	bool		ext_policy;
	int		rfd, wfd;	/* pipe kind: my read and write ends */
	bool		leader;		/* pipe kind: writes first */
	pid_t		pid;		/* process workers: the child */
	volatile int	state;
	volatile uint64_t work;
	int		ext;		/* ext.enabled at the end, -1: unknown */
	char		err[128];
};

struct shared {
	volatile int	stop;
	struct task	tasks[MAX_TASKS];
};

static struct shared *sh;
static int nr_tasks;
static int go_rd = -1, go_wr = -1;

/* cgroups */
static int nr_cgroups;
static char cg_parent[64];
static bool cg_parent_made;
static bool cg_made[MAX_CGROUPS + 1];	/* +1: the transient one */
static const int cg_weights[] = { 100, 50, 200, 400, 25, 800, 10, 1000 };
#define NR_WEIGHTS	(int)(sizeof(cg_weights) / sizeof(cg_weights[0]))
/*
 * Task 0 (a spinner) gets -20: scx_qmap -H needs a CPU-bound nice -20 task.
 * Nothing above 10: next to a nice -20 spinner, a nice 19 task's share
 * (weight 15 vs 88761) is ~1ms in 5s, too close to "no work at all".
 */
static const int nice_cycle[] = { -20, 0, 5, 10, -5 };
#define NR_NICE		(int)(sizeof(nice_cycle) / sizeof(nice_cycle[0]))

static volatile sig_atomic_t got_signal;
volatile uint64_t lg_sink;	/* keeps the spin loops from being optimised out */

static void die_setup(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void msg(const char *fmt, ...)
{
	va_list ap;

	fputs("loadgen: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR && !got_signal)
		;
}

/* Write a string to a cgroup file; returns 0 or -errno. */
static int write_file(const char *path, const char *val)
{
	ssize_t len = strlen(val), ret;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, val, len);
	if (ret < 0)
		err = -errno;
	else if (ret != len)
		err = -EIO;
	close(fd);
	return err;
}

static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read(fd, buf, size - 1);
	close(fd);
	if (ret < 0)
		return -errno;
	buf[ret] = '\0';
	return 0;
}

static void cg_path(char *buf, size_t size, int cg, const char *file)
{
	snprintf(buf, size, "%s/lg%d%s%s", cg_parent, cg,
		 file ? "/" : "", file ? file : "");
}

static int cg_set_weight(int cg, int weight)
{
	char path[256], val[16];

	cg_path(path, sizeof(path), cg, "cpu.weight");
	snprintf(val, sizeof(val), "%d", weight);
	return write_file(path, val);
}

static int cg_attach(int cg, pid_t pid)
{
	char path[256], val[16];

	cg_path(path, sizeof(path), cg, "cgroup.procs");
	snprintf(val, sizeof(val), "%d", (int)pid);
	return write_file(path, val);
}

static void cg_cleanup(void)
{
	char path[256];
	int i;

	for (i = MAX_CGROUPS; i >= 0; i--) {
		if (!cg_made[i])
			continue;
		cg_path(path, sizeof(path), i, NULL);
		if (rmdir(path) && errno != ENOENT)
			msg("cleanup: rmdir %s: %s", path, strerror(errno));
		cg_made[i] = false;
	}
	if (cg_parent_made) {
		if (rmdir(cg_parent) && errno != ENOENT)
			msg("cleanup: rmdir %s: %s", cg_parent, strerror(errno));
		cg_parent_made = false;
	}
}

static int cg_make(int cg, int weight)
{
	char path[256];
	int err;

	cg_path(path, sizeof(path), cg, NULL);
	if (mkdir(path, 0755))
		return -errno;
	cg_made[cg] = true;
	err = cg_set_weight(cg, weight);
	return err;
}

static void cg_setup(void)
{
	char path[256], buf[512];
	int i, err;

	if (read_file(CG_ROOT "/cgroup.controllers", buf, sizeof(buf)))
		die_setup("%s/cgroup.controllers: %s (is cgroup2 mounted there?)",
			  CG_ROOT, strerror(errno));
	if (!strstr(buf, "cpu"))
		die_setup("cgroup2 has no cpu controller (controllers: %s)", buf);
	err = write_file(CG_ROOT "/cgroup.subtree_control", "+cpu");
	if (err)
		die_setup("enable +cpu in %s/cgroup.subtree_control: %s",
			  CG_ROOT, strerror(-err));

	snprintf(cg_parent, sizeof(cg_parent), "%s/loadgen-%d", CG_ROOT,
		 (int)getpid());
	if (mkdir(cg_parent, 0755))
		die_setup("mkdir %s: %s", cg_parent, strerror(errno));
	cg_parent_made = true;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", cg_parent);
	err = write_file(path, "+cpu");
	if (err)
		die_setup("enable +cpu in %s: %s", path, strerror(-err));

	for (i = 0; i < nr_cgroups; i++) {
		err = cg_make(i, cg_weights[i % NR_WEIGHTS]);
		if (err)
			die_setup("create cgroup lg%d with cpu.weight %d: %s", i,
				  cg_weights[i % NR_WEIGHTS], strerror(-err));
	}
}

static void kill_workers(void)
{
	int i;

	for (i = 0; i < nr_tasks; i++)
		if (sh->tasks[i].proc && sh->tasks[i].pid > 0)
			kill(sh->tasks[i].pid, SIGKILL);
}

static void die_setup(const char *fmt, ...)
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

/* ---- workers ---------------------------------------------------------- */

static void task_fail(struct task *t, const char *what, int err)
{
	snprintf(t->err, sizeof(t->err), "%s: %s", what, strerror(err));
	t->state = T_FAILED;
}

/* Read ext.enabled from /proc/thread-self/sched (CONFIG_SCHED_DEBUG). */
static int read_ext_enabled(void)
{
	char buf[4096], *p;
	int fd, val = -1;
	ssize_t len;

	fd = open("/proc/thread-self/sched", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	p = strstr(buf, "ext.enabled");
	if (p && (p = strchr(p, ':')))
		val = atoi(p + 1);
	return val;
}

static void work_spin(struct task *t)
{
	uint64_t x = t->idx + 1, n = 0;
	int i;

	while (!sh->stop) {
		for (i = 0; i < 20000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		lg_sink = x;
		t->work = ++n;
	}
}

static void work_yield(struct task *t)
{
	uint64_t n = 0;

	while (!sh->stop) {
		sched_yield();
		t->work = ++n;
	}
}

static void work_sleep(struct task *t)
{
	struct timespec ts = { .tv_nsec = 100 * 1000 };
	uint64_t n = 0;

	while (!sh->stop) {
		nanosleep(&ts, NULL);
		t->work = ++n;
	}
}

/*
 * The leader writes first and counts a round trip when the reply comes
 * back; the follower counts one per echo.  On stop, the main thread writes
 * a byte into every pipe so nobody stays blocked in read().
 */
static void work_pipe(struct task *t)
{
	uint64_t n = 0;
	char c = 0;

	while (!sh->stop) {
		if (t->leader && write(t->wfd, &c, 1) != 1)
			break;
		if (read(t->rfd, &c, 1) != 1)
			break;
		if (!t->leader && write(t->wfd, &c, 1) != 1)
			break;
		t->work = ++n;
	}
}

static void work_fork(struct task *t)
{
	uint64_t n = 0;
	pid_t pid;

	while (!sh->stop) {
		pid = fork();
		if (pid < 0) {
			/* transient (EAGAIN): back off and retry */
			sleep_ns(1000000);
			continue;
		}
		if (!pid)
			_exit(0);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		t->work = ++n;
	}
}

static void work_rt(struct task *t)
{
	struct timespec ts = { .tv_nsec = 2 * 1000 * 1000 };
	uint64_t n = 0, end, x = 1;
	int i;

	while (!sh->stop) {
		end = now_ns() + 200 * 1000;
		do {
			for (i = 0; i < 1000; i++)
				x = x * 6364136223846793005ull + 1;
		} while (now_ns() < end && !sh->stop);
		lg_sink = x;
		t->work = ++n;
		nanosleep(&ts, NULL);
	}
}

static void worker_setup(struct task *t)
{
	struct sched_param sp = { 0 };
	pid_t tid = syscall(SYS_gettid);
	char name[16];

	snprintf(name, sizeof(name), "lg-%s-%d", kind_names[t->kind], t->idx);
	prctl(PR_SET_NAME, name);

	if (t->nice && setpriority(PRIO_PROCESS, tid, t->nice))
		return task_fail(t, "setpriority", errno);
	if (t->kind == K_RT) {
		sp.sched_priority = 1;
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			return task_fail(t, "sched_setscheduler(SCHED_FIFO)", errno);
	} else if (t->ext_policy) {
		if (sched_setscheduler(0, SCHED_EXT, &sp))
			return task_fail(t, "sched_setscheduler(SCHED_EXT)", errno);
	}
	t->state = T_READY;
}

static void worker_run(struct task *t)
{
	char c;

	worker_setup(t);
	if (t->state == T_FAILED)
		return;

	/* start barrier: EOF once main closed the last write end */
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;

	switch (t->kind) {
	case K_SPIN:	work_spin(t);	break;
	case K_YIELD:	work_yield(t);	break;
	case K_SLEEP:	work_sleep(t);	break;
	case K_PIPE:	work_pipe(t);	break;
	case K_FORK:	work_fork(t);	break;
	case K_RT:	work_rt(t);	break;
	default:	break;
	}
	t->ext = read_ext_enabled();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	t->state = T_DONE;
}

static void *thread_main(void *arg)
{
	worker_run(arg);
	return NULL;
}

/* ---- main ------------------------------------------------------------- */

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

static int mid_run_cgroup_ops(int step, unsigned long *moves,
			      unsigned long *reweights, unsigned long *cgmade)
{
	int i, err, cg, nproc = 0, pick;
	struct task *t;

	/* every step: move one process worker to the next cgroup */
	for (i = 0; i < nr_tasks; i++)
		nproc += sh->tasks[i].proc;
	if (nproc) {
		pick = step % nproc;
		for (i = 0; i < nr_tasks; i++) {
			t = &sh->tasks[i];
			if (!t->proc || pick--)
				continue;
			cg = (t->cg + 1) % nr_cgroups;
			err = cg_attach(cg, t->pid);
			if (err) {
				msg("move task %d (pid %d) to lg%d: %s", i,
				    (int)t->pid, cg, strerror(-err));
				return -1;
			}
			t->cg = cg;
			(*moves)++;
			break;
		}
	}
	/* every 5th step: change a weight */
	if (step % 5 == 0) {
		cg = (step / 5) % nr_cgroups;
		err = cg_set_weight(cg, cg_weights[(step / 5 + cg + 1) % NR_WEIGHTS]);
		if (err) {
			msg("change cpu.weight of lg%d: %s", cg, strerror(-err));
			return -1;
		}
		(*reweights)++;
	}
	/* every 10th step: create or remove a transient cgroup */
	if (step % 10 == 0) {
		char path[256];

		if (!cg_made[MAX_CGROUPS]) {
			err = cg_make(MAX_CGROUPS, 300);
			if (err) {
				msg("create transient cgroup: %s", strerror(-err));
				return -1;
			}
			(*cgmade)++;
		} else {
			cg_path(path, sizeof(path), MAX_CGROUPS, NULL);
			if (rmdir(path)) {
				msg("rmdir %s: %s", path, strerror(errno));
				return -1;
			}
			cg_made[MAX_CGROUPS] = false;
		}
	}
	return 0;
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
