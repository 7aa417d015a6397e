// SPDX-License-Identifier: GPL-2.0
/*
 * scxk syscall-move: a SYSCALL program moves a real task out of the DSQ
 * its scheduler parked it on (progs/syscall-move.bpf.c).
 */
#include "scxk.h"
#include <poll.h>

/* wait up to @ms for a byte on @fd: did the task run? */
static bool ran(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&pfd, 1, ms) == 1 && read(fd, &c, 1) == 1;
}

/* up to 5 s for @pid to be asleep (blocked in its read), so that its next
 * wakeup, not its first run, goes through ops.enqueue() as the victim */
static bool asleep(pid_t pid)
{
	char path[64], buf[256], *s;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY);
		n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = '\0';
			s = strrchr(buf, ')');
			if (s && s[1] == ' ' && s[2] == 'S')
				return true;
		}
		usleep(10000);
	}
	return false;
}

int cmd_syscall_move(const char *path)
{
	int err, kfd, ret = 1, go[2] = { -1, -1 }, back[2] = { -1, -1 }, key = 0;
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct bpf_link *link = NULL;
	struct bpf_program *move;
	struct bpf_object *obj;
	struct bpf_map *victim;
	pid_t pid = -1;
	char c = 0;

	kfd = kmsg_open(false);
	obj = load_obj(path, "sm_ops", NULL, &err);
	if (err) {
		diag_load_failure("syscall-move");
		goto out;
	}
	move = bpf_object__find_program_by_name(obj, "sm_move");
	victim = bpf_object__find_map_by_name(obj, "sm_victim");
	if (!move || !victim || pipe(go) || pipe(back)) {
		printf("# no sm_move, no sm_victim or no pipe\n");
		goto out;
	}
	link = attach(obj, "sm_ops");
	if (!link)
		goto out;
	/* the victim sleeps until told to go, then says it ran */
	pid = fork();
	if (pid == 0) {
		if (read(go[0], &c, 1) == 1 && write(back[1], &c, 1) == 1)
			_exit(0);
		_exit(1);
	}
	if (pid < 0 || !asleep(pid) ||
	    bpf_map_update_elem(bpf_map__fd(victim), &key, &pid, BPF_ANY)) {
		printf("# cannot start the victim task: %s\n", strerror(errno));
		goto out;
	}
	if (write(go[1], &c, 1) != 1)
		goto out;
	/* parked: it must not run while it sits on SM_DSQ */
	if (ran(back[0], 500)) {
		printf("# the victim ran before the move: the scheduler did not park it (parked %lld)\n",
		       bss_u64(obj, "nr_parked"));
		goto out;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(move), &topts);
	printf("# sm_move: test run %d, retval %u; parked %lld, moved %lld; state %s\n",
	       err, topts.retval, bss_u64(obj, "nr_parked"), bss_u64(obj, "nr_moved"),
	       scx_state());
	if (err || bss_u64(obj, "nr_moved") != 1) {
		printf("# the SYSCALL program did not move exactly one task\n");
		goto out;
	}
	if (!ran(back[0], 5000)) {
		printf("# the victim did not run within 5 s of the move\n");
		goto out;
	}
	ret = strcmp(scx_state(), "enabled") ? 1 : 0;
	if (ret)
		printf("# the scheduler left \"enabled\": %s\n", scx_state());
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	bpf_link__destroy(link);
	bpf_object__close(obj);
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (back[i] >= 0)
			close(back[i]);
	}
	return kmsg_check(kfd, "syscall-move", NULL, 0, ret);
}
