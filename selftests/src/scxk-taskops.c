// SPDX-License-Identifier: GPL-2.0
/*
 * scxk task-cgroup-ops: scx_bpf_task_cgroup() on the op's own task from
 * every task op the spec marks At (progs/task-cgroup-ops.bpf.c), under a
 * load that reaches each of them; scxk task-cgroup-trace: from a tracing
 * program (progs/task-cgroup-trace.bpf.c).
 */
#include "scxk.h"
#include <sys/resource.h>

/* the BPF object's counters, one per op */
static const char *const tco_counts[] = {
	"nr_select_cpu", "nr_enqueue", "nr_dequeue", "nr_tick", "nr_runnable",
	"nr_running", "nr_stopping", "nr_quiescent", "nr_yield", "nr_set_weight",
	"nr_set_cpumask", "nr_enable", "nr_disable", "nr_exit_task",
};

/* a CPU hog that yields (ops.yield) and naps (runnable/quiescent) */
static pid_t hog(double end)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	for (int i = 0; now() < end; i++) {
		spin(0.002);
		if (i % 4)
			sched_yield();
		else
			usleep(500);
	}
	_exit(0);
}

/*
 * @secs of load: more hogs than CPUs, so that some always wait in the BPF
 * queue, and every 10 ms the parent flips each hog's nice value
 * (ops.set_weight) and affinity (ops.set_cpumask): both take a waiting
 * task off the queue (ops.dequeue).  A short-lived child forked and reaped
 * each time gives ops.enable, ops.disable, ops.exit_task.  Returns false as
 * soon as the scheduler is no longer enabled.
 */
#define NR_HOGS_MAX	16

static bool churn(double secs)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nr_hogs = ncpu + 2 < NR_HOGS_MAX ? ncpu + 2 : NR_HOGS_MAX;
	double end = now() + secs;
	pid_t hogs[NR_HOGS_MAX], c;
	bool enabled = true;
	cpu_set_t set;

	for (int i = 0; i < nr_hogs; i++)
		hogs[i] = hog(end);
	for (int n = 0; now() < end; n++) {
		if (strcmp(scx_state(), "enabled")) {
			enabled = false;
			break;
		}
		CPU_ZERO(&set);
		for (int cpu = 0; cpu < ncpu; cpu++)
			if (n % 3 || cpu == n % ncpu)
				CPU_SET(cpu, &set);
		for (int i = 0; i < nr_hogs; i++) {
			setpriority(PRIO_PROCESS, hogs[i], n % 4 < 2 ? 5 : 0);
			sched_setaffinity(hogs[i], sizeof(set), &set);
		}
		c = fork();
		if (c == 0) {
			usleep(1000);
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		usleep(10000);
	}
	for (int i = 0; i < nr_hogs; i++) {
		kill(hogs[i], SIGKILL);
		waitpid(hogs[i], NULL, 0);
	}
	return enabled;
}

int cmd_task_cgroup_ops(const char *path, double secs)
{
	struct bpf_link *link = NULL;
	struct bpf_object *obj;
	int err, kfd, ret = 1;
	size_t i;

	kfd = kmsg_open(false);
	obj = load_obj(path, "tco_ops", NULL, &err);
	if (err) {
		diag_load_failure("task-cgroup-ops");
		goto out;
	}
	link = attach(obj, "tco_ops");
	if (!link)
		goto out;
	ret = churn(secs) ? 0 : 1;
	if (ret)
		printf("# the scheduler left \"enabled\" under load: %s\n", scx_state());
	for (i = 0; i < sizeof(tco_counts) / sizeof(tco_counts[0]); i++) {
		long long n = bss_u64(obj, tco_counts[i]);

		printf("# ops.%s: scx_bpf_task_cgroup() returned %lld times\n",
		       tco_counts[i] + 3, n);
		if (n <= 0)
			ret = 1;
	}
out:
	bpf_link__destroy(link);
	bpf_object__close(obj);
	/* 6.12's mask check and the kf_tasks check name their refusals so */
	return kmsg_check(kfd, "task-cgroup-ops",
			  (struct kmsg_want[]){ { "called on a task not being operated on", false },
						{ "kfunc with mask", false } },
			  2, ret);
}

/*
 * scx_bpf_task_cgroup() from a tp_btf program (progs/task-cgroup-trace.bpf.c)
 * attached while tct_ops runs: the program loads, makes the call, and the
 * scheduler is ejected with "disabled (runtime error)" after the kernel's
 * message @msg (the series: the task is not being operated on; 6.12: the
 * kfunc's mask).
 */
int cmd_task_cgroup_trace(const char *path, const char *msg)
{
	struct bpf_link *link = NULL, *tlink = NULL;
	struct bpf_program *tp;
	struct bpf_object *obj;
	int err, kfd, ret = 1;

	kfd = kmsg_open(false);
	obj = load_obj(path, "tct_ops", NULL, &err);
	if (err) {
		diag_load_failure("task-cgroup-trace");
		goto out;
	}
	tp = bpf_object__find_program_by_name(obj, "tct_wakeup");
	link = attach(obj, "tct_ops");
	if (!tp || !link)
		goto out;
	tlink = bpf_program__attach(tp);
	if (!tlink) {
		printf("# attach tct_wakeup: %s\n", strerror(errno));
		goto out;
	}
	activity(5, true);
	printf("# scx_bpf_task_cgroup() called %lld times from tp_btf/sched_wakeup; state %s\n",
	       bss_u64(obj, "nr_calls"), scx_state());
	if (bss_u64(obj, "nr_calls") <= 0)
		printf("# the tracing program never made the call\n");
	else if (!strcmp(scx_state(), "enabled"))
		printf("# the scheduler was not ejected\n");
	else
		ret = 0;
out:
	bpf_link__destroy(tlink);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return kmsg_check(kfd, "task-cgroup-trace",
			  (struct kmsg_want[]){ { msg, true },
						{ "disabled (runtime error)", true } },
			  2, ret);
}
