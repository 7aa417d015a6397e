/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loadgen - what its files share: the tasks in the shared mapping, the
 * globals main() sets up, the helpers (loadgen.c says what loadgen does and
 * which file does what).
 */
#ifndef LOADGEN_H
#define LOADGEN_H

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
extern const char * const kind_names[NR_KINDS];

enum mode { M_THREAD, M_PROC, M_MIX };

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

/* loadgen.c: the run */
extern struct shared *sh;
extern int nr_tasks;
extern int go_rd, go_wr;
extern volatile sig_atomic_t got_signal;

void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die_setup(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR && !got_signal)
		;
}

/* loadgen-cgroup.c: the cgroup v2 children (-c, -M) */
extern int nr_cgroups;

int cg_attach(int cg, pid_t pid);
void cg_cleanup(void);
void cg_setup(void);
int mid_run_cgroup_ops(int step, unsigned long *moves,
		       unsigned long *reweights, unsigned long *cgmade);

/* loadgen-workers.c: the worker tasks, one loop per kind */
void worker_run(struct task *t);
void *thread_main(void *arg);

#endif /* LOADGEN_H */
