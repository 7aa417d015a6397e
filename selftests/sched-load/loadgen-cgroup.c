// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen: the cgroup v2 children the process workers are spread over (-c):
 * created under the cgroup2 root with different cpu.weight, tasks moved
 * between them and weights changed during the run (-M), removed at exit.
 */
#include "loadgen.h"

int nr_cgroups;
static char cg_parent[64];
static bool cg_parent_made;
static bool cg_made[MAX_CGROUPS + 1];	/* +1: the transient one */
static const int cg_weights[] = { 100, 50, 200, 400, 25, 800, 10, 1000 };
#define NR_WEIGHTS	(int)(sizeof(cg_weights) / sizeof(cg_weights[0]))

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

int cg_attach(int cg, pid_t pid)
{
	char path[256], val[16];

	cg_path(path, sizeof(path), cg, "cgroup.procs");
	snprintf(val, sizeof(val), "%d", (int)pid);
	return write_file(path, val);
}

void cg_cleanup(void)
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

void cg_setup(void)
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

int mid_run_cgroup_ops(int step, unsigned long *moves,
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
