// SPDX-License-Identifier: GPL-2.0
/*
 * scxk: the kernel's sched_ext state and log, the load a running scheduler
 * is kept busy with, and attaching a case's scheduler: ejected at run time
 * (eject()) or staying enabled (run_enabled()).
 */
#include "scxk.h"

/* Kernel log lines that fail any test that attached a scheduler */
static const char *const splats[] = {
	"WARNING:", "BUG:", "Oops", "INFO: task", "rcu_sched self-detected stall",
	"rcu: INFO:", "possible circular locking", "possible recursive locking",
	"inconsistent lock state", "scheduling while atomic", "Call Trace:",
};

static void read_file(const char *path, char *buf, size_t sz)
{
	int fd = open(path, O_RDONLY);
	ssize_t r = fd < 0 ? -1 : read(fd, buf, sz - 1);

	buf[r > 0 ? r : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

const char *scx_state(void)
{
	static char s[32];

	read_file(STATE_PATH, s, sizeof(s));
	return s;
}

static bool wait_state(const char *want, double secs)
{
	double end = now() + secs;

	while (strcmp(scx_state(), want)) {
		if (now() > end)
			return false;
		usleep(20000);
	}
	return true;
}

/* the kernel log, from now on or (@from_boot) from its first message kept */
int kmsg_open(bool from_boot)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && !from_boot)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* append the messages logged since kmsg_open() to @buf, one per line */
void kmsg_read(int fd, char *buf, size_t sz)
{
	size_t len = strlen(buf);
	char rec[2048];

	for (;;) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		char *msg, *e;

		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		e = strchrnul(msg, '\n');
		if (len + (e - msg) + 2 < sz)
			len += sprintf(buf + len, "%.*s\n", (int)(e - msg), msg);
	}
}

/* @want must (@present) or must not be in @klog; says which, returns ok */
bool expect_kmsg(const char *klog, const char *want, bool present)
{
	char line[512];
	bool found = log_line(klog, want, line, sizeof(line));

	if (found)
		printf("# kernel log: %s\n", line);
	else if (present)
		printf("# kernel log has no \"%s\"\n", want);
	return found == present;
}

static bool check_splats(const char *log, const char *what)
{
	bool ok = true;
	char line[512];

	for (size_t i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
		if (log_line(log, splats[i], line, sizeof(line))) {
			printf("# %s: kernel log: %s\n", what, line);
			ok = false;
		}
	return ok;
}

/*
 * Read what the kernel logged since @kfd was opened (kmsg_open()) and close
 * it; check each of @wants and that no splat is there, printing the log's
 * tail if anything failed. Returns 1 if a check failed, else @ret.
 */
int kmsg_check(int kfd, const char *what, const struct kmsg_want *wants,
		      int n, int ret)
{
	char *klog = calloc(1, 1 << 18);

	if (!klog) {
		close(kfd);
		return 1;
	}
	/*
	 * bpf_link__destroy() can return before the scheduler is unregistered
	 * (a forked child may still hold the link's fd), so an ejected
	 * scheduler can still be "disabling" here. The kernel prints why it
	 * disabled a scheduler before its state says "disabled": wait for that.
	 */
	wait_state("disabled", 10);
	kmsg_read(kfd, klog, 1 << 18);
	close(kfd);
	for (int i = 0; i < n; i++)
		if (wants[i].text && !expect_kmsg(klog, wants[i].text, wants[i].present))
			ret = 1;
	if (!check_splats(klog, what))
		ret = 1;
	if (ret)
		diag_tail("kmsg: ", klog, 10);
	free(klog);
	return ret;
}

static void write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, s, strlen(s)) < 0)
			;	/* best effort: the load works without it */
		close(fd);
	}
}

void spin(double secs)
{
	double end = now() + secs;

	while (now() < end)
		;
}

static pid_t child(int kind, double end)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	switch (kind) {
	case 0:		/* CPU hog that yields and naps */
		for (int i = 0; now() < end; i++) {
			spin(0.002);
			if (i % 4)
				sched_yield();
			else
				usleep(500);
		}
		break;
	case 1: {	/* pipe ping-pong: wakeups, select_cpu, enqueue */
		int a[2], b[2];
		char c = 0;

		if (pipe(a) || pipe(b))
			_exit(1);
		if (fork() == 0) {	/* echoes until the other end is gone */
			close(a[1]);
			close(b[0]);
			while (read(a[0], &c, 1) == 1 && write(b[1], &c, 1) == 1)
				;
			_exit(0);
		}
		close(a[0]);
		close(b[1]);
		while (now() < end && write(a[1], &c, 1) == 1 && read(b[0], &c, 1) == 1)
			;
		close(a[1]);
		wait(NULL);
		break;
	}
	case 2: {	/* RT bursts: the CPU is taken away, ops.cpu_release */
		struct sched_param sp = { .sched_priority = 1 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(0);
		while (now() < end) {
			spin(0.003);
			usleep(20000);
		}
		break;
	}
	}
	_exit(0);
}

/*
 * Keep the scheduler busy for @secs: CPU hogs, a ping-pong pair, RT bursts,
 * and a hog moved between cgroups (the cgroup_* ops).  Every 50 ms the
 * sched_ext state is read; with @until_disabled the load stops as soon as it
 * is no longer "enabled", otherwise leaving "enabled" is recorded.  Returns
 * true if the state stayed "enabled" throughout.
 */
bool activity(double secs, bool until_disabled)
{
	double end = now() + secs;
	pid_t pids[6];
	int np = 0, moves = 0;
	bool cg, enabled = true;
	char pidstr[16];

	for (int i = 0; i < 3; i++)
		pids[np++] = child(0, end);
	pids[np++] = child(1, end);
	pids[np++] = child(2, end);

	write_str(CGROOT "/cgroup.subtree_control", "+cpu");
	cg = !mkdir(CGTEST, 0755) || errno == EEXIST;
	snprintf(pidstr, sizeof(pidstr), "%d", pids[0]);

	while (now() < end) {
		if (strcmp(scx_state(), "enabled")) {
			enabled = false;
			if (until_disabled)
				break;
		}
		if (cg) {
			write_str(moves++ % 2 ? CGROOT "/cgroup.procs" : CGTEST "/cgroup.procs", pidstr);
		}
		usleep(50000);
	}
	for (int i = 0; i < np; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	if (cg)
		rmdir(CGTEST);
	return enabled;
}

/* the ops name a case object gives its scheduler: <kind>_<case, '-' -> '_'> */
static void case_ops_name(const char *obj, const char *kind, char *name, size_t sz)
{
	const char *b = strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj;
	size_t n = strcspn(b, ".");

	snprintf(name, sz, "%s_%.*s", kind, (int)n, b);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
}

struct bpf_link *attach(struct bpf_object *obj, const char *map)
{
	struct bpf_link *link = bpf_map__attach_struct_ops(bpf_object__find_map_by_name(obj, map));

	if (!link)
		printf("# attach %s: %s\n", map, strerror(errno));
	return link;
}

/*
 * Load and attach the scheduler of @map in @path, run the load until it is
 * ejected, and check the kernel log says "sched_ext: <ops name>: <@msg>..."
 * and "disabled (runtime error)".  @what is printed when it is.  The object
 * stays open @linger seconds after the ejection (its timers keep firing).
 */
int eject(const char *path, const char *kind, double secs, double linger,
		 const char *msg, const char *what)
{
	char name[128], map[64], err_msg[300], disabled[200];
	struct bpf_object *obj;
	struct bpf_link *link;
	int err, kfd, ret = 0;

	case_ops_name(path, kind, name, sizeof(name));
	snprintf(map, sizeof(map), "%s_ops", kind);
	obj = load_obj(path, map, NULL, &err);
	if (err) {
		printf("# %s must load: only its run time can catch it\n", map);
		diag_load_failure(map);
		bpf_object__close(obj);
		return 1;
	}
	kfd = kmsg_open(false);
	link = attach(obj, map);
	/* an error while enabling makes the attach itself fail: still look at the log */
	if (link)
		activity(secs, true);
	if (!wait_state("disabled", 5)) {
		printf("# state is \"%s\", not disabled: the run-time check did not eject %s\n",
		       scx_state(), name);
		ret = 1;
	}
	if (linger > 0)
		usleep(linger * 1e6);
	bpf_link__destroy(link);
	bpf_object__close(obj);

	snprintf(err_msg, sizeof(err_msg), "sched_ext: %s: %s", name, msg);
	snprintf(disabled, sizeof(disabled), "BPF scheduler \"%s\" disabled (runtime error)",
		 name);
	ret = kmsg_check(kfd, name, (struct kmsg_want[]){ { err_msg, true }, { disabled, true } },
			 2, ret);
	if (!ret)
		printf("# %s\n", what);
	return ret;
}

/*
 * the u64 global @var in the .bss of @obj (async.bpf.h's counters), or -1;
 * libbpf has given the object's BTF the section's offsets by now
 */
long long bss_u64(struct bpf_object *obj, const char *var)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".bss");
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	unsigned long long v;
	long long ret = -1;
	int id, zero = 0;
	char *val;

	id = btf ? btf__find_by_name_kind(btf, ".bss", BTF_KIND_DATASEC) : -1;
	if (!map || id < 0)
		return -1;
	val = calloc(1, bpf_map__value_size(map));
	if (!val || bpf_map_lookup_elem(bpf_map__fd(map), &zero, val)) {
		free(val);
		return -1;
	}
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (int i = 0; i < btf_vlen(t); i++, vs++) {
		const struct btf_type *var_t = btf__type_by_id(btf, vs->type);

		if (vs->size != sizeof(v) || vs->offset + sizeof(v) > bpf_map__value_size(map) ||
		    strcmp(btf__name_by_offset(btf, var_t->name_off), var))
			continue;
		memcpy(&v, val + vs->offset, sizeof(v));
		ret = v;
		break;
	}
	free(val);
	return ret;
}

/*
 * Load and attach the scheduler of <@kind>_ops in @path, keep it busy @secs:
 * it must stay enabled, @calls must find it made its calls, and it must
 * detach cleanly with no error and no splat in the kernel log.
 */
int run_enabled(const char *path, const char *kind, double secs, calls_fn calls,
		       const char *arg)
{
	char name[128], map[64], ops[128], disabled[200], err_msg[200];
	struct bpf_object *obj;
	struct bpf_link *link;
	int err, kfd, ret = 0;
	double t0;

	case_ops_name(path, kind, name, sizeof(name));
	snprintf(map, sizeof(map), "%s_ops", kind);
	obj = load_obj(path, map, NULL, &err);
	if (err) {
		diag_load_failure(map);
		bpf_object__close(obj);
		return 1;
	}
	if (strcmp(scx_state(), "disabled")) {
		printf("# sched_ext state is \"%s\" before attaching\n", scx_state());
		bpf_object__close(obj);
		return 1;
	}
	kfd = kmsg_open(false);
	link = attach(obj, map);
	if (!link) {
		ret = 1;
		goto out;
	}
	if (!wait_state("enabled", 5)) {
		printf("# state is \"%s\" after attaching\n", scx_state());
		ret = 1;
	}
	read_file(OPS_PATH, ops, sizeof(ops));
	if (strcmp(ops, name)) {
		printf("# %s is \"%s\", want \"%s\"\n", OPS_PATH, ops, name);
		ret = 1;
	}
	t0 = now();
	if (!activity(secs, false)) {
		printf("# state left \"enabled\" under load: \"%s\"\n", scx_state());
		ret = 1;
	}
	if (!calls(obj, name, now() - t0, arg))
		ret = 1;
	bpf_link__destroy(link);
	if (!wait_state("disabled", 5)) {
		printf("# state is \"%s\" after detaching\n", scx_state());
		ret = 1;
	}
out:
	bpf_object__close(obj);
	/* detached by us, never ejected: no error message of the scheduler's */
	snprintf(disabled, sizeof(disabled),
		 "BPF scheduler \"%s\" disabled (unregistered from user space)", name);
	snprintf(err_msg, sizeof(err_msg), "sched_ext: %s: ", name);
	return kmsg_check(kfd, name,
			  (struct kmsg_want[]){ { link ? disabled : NULL, true }, { err_msg, false } },
			  2, ret);
}
