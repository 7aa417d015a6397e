// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen: the worker tasks (threads or processes), one loop per kind,
 * each counting its units of work in the shared mapping.
 */
#include "loadgen.h"

volatile uint64_t lg_sink;	/* keeps the spin loops from being optimised out */

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

void worker_run(struct task *t)
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

void *thread_main(void *arg)
{
	worker_run(arg);
	return NULL;
}
