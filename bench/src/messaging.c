// SPDX-License-Identifier: GPL-2.0
/*
 * messaging: a hackbench-like load (`perf bench sched messaging`, process
 * mode, socketpairs). GROUPS groups, each of SENDERS sender processes and
 * RECEIVERS receiver processes; every receiver owns one AF_UNIX stream
 * socketpair, every sender of its group writes LOOPS messages of 100 bytes
 * to every receiver.
 *
 * One run is ROUNDS independent rounds, each with fresh pipes, sockets and
 * children. In a round all children are created and parked first; the
 * clock runs from releasing them until every child has reported that it
 * is done. Children are killed, and reaped, only after the clock has
 * stopped, one by one in the reverse order of their creation: the teardown
 * of 80 processes (and the RCU work it queues) is not what this measures,
 * and the order leaves the kernel's freelists as the round found them (see
 * run_round()). The run's figure is the sum of its rounds' timed windows.
 *
 * Why rounds: with 80 runnable tasks on one CPU, the order they run in,
 * and so the cost of a round, is decided by differences of a few
 * instructions in the state the round starts from; one round lands in one
 * of a few schedules up to 2-3% apart. Summing many independent rounds
 * averages those draws, where one long round would not (its schedule is
 * drawn once). See docs/benchmark.md.
 *
 * Prints one line: <ns per message> <total ns> <messages> <context switches>
 * over all rounds (CLOCK_MONOTONIC; under QEMU -icount shift=0 a guest
 * "ns" is one instruction; context switches: the system-wide count in
 * /proc/stat over the timed windows). With ROUNDS > 1 also one line on
 * stderr, "messaging-rounds: <ns>/<ctx switches> ..." per round, to check
 * that rounds are independent draws.
 *
 * Usage: messaging [GROUPS [SENDERS [RECEIVERS [LOOPS [ROUNDS]]]]]
 *        (default 4 10 10 25 1)
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE 100

/* In a child: where to tell the parent it failed (it is waiting for us). */
static int report_fd = -1;

static void die(const char *what)
{
	char c = 'E';

	fprintf(stderr, "messaging: %s: %s\n", what, strerror(errno));
	if (report_fd >= 0 && write(report_fd, &c, 1) != 1)
		fprintf(stderr, "messaging: cannot report the failure\n");
	exit(1);
}

#include "ctxt.h"
#include "clock.h"

/* Ready: tell the parent, then wait for the start (a byte on @wake_in). */
static void ready(int ready_out, int wake_in)
{
	struct pollfd pfd = { .fd = wake_in, .events = POLLIN };
	char c = 'R';

	if (write(ready_out, &c, 1) != 1)
		die("write ready");
	if (poll(&pfd, 1, -1) != 1)
		die("poll wakefd");
}

/*
 * Done: tell the parent, then park until it kills us (see run_round()
 * for why it, and not we, decides when we exit).
 */
static void done(int ready_out)
{
	char c = 'D';

	if (write(ready_out, &c, 1) != 1)
		die("write done");
	for (;;)
		pause();
}

static void sender(const int *out, int receivers, long loops, int ready_out,
		   int wake_in)
{
	char msg[MSG_SIZE];

	memset(msg, 'm', sizeof(msg));
	ready(ready_out, wake_in);
	for (long i = 0; i < loops; i++) {
		for (int j = 0; j < receivers; j++) {
			size_t done = 0;

			while (done < sizeof(msg)) {
				ssize_t w = write(out[j], msg + done, sizeof(msg) - done);

				if (w <= 0)
					die("sender write");
				done += w;
			}
		}
	}
	done(ready_out);
}

static void receiver(int in, long bytes, int ready_out, int wake_in)
{
	char buf[MSG_SIZE];

	ready(ready_out, wake_in);
	while (bytes > 0) {
		ssize_t r = read(in, buf, bytes < MSG_SIZE ? bytes : MSG_SIZE);

		if (r <= 0)
			die("receiver read");
		bytes -= r;
	}
	done(ready_out);
}

/*
 * A child that dies without saying so (killed by a signal) leaves collect()
 * waiting for its byte forever: after ROUND_LIMIT_S seconds of a round,
 * kill the round's children and fail, instead of hanging the guest until
 * the host's timeout. Armed only outside the timed window.
 */
#define ROUND_LIMIT_S 60
static const pid_t *round_pids;
static int round_n;

static void on_stuck(int sig)
{
	static const char msg[] = "messaging: a round took over 60 s: a child died or stopped without reporting\n";

	(void)sig;
	for (int i = 0; i < round_n; i++)
		kill(round_pids[i], SIGKILL);
	_exit(write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0 ? 2 : 1);
}

/*
 * Read one status byte from each of the n children. A child that failed
 * says so ('E'); the others would wait for it forever, so stop them all.
 */
static void collect(int fd, const pid_t *pids, int n)
{
	char c;

	for (int i = 0; i < n; i++) {
		if (read(fd, &c, 1) != 1)
			die("read status");
		if (c == 'E') {
			for (int j = 0; j < n; j++)
				kill(pids[j], SIGKILL);
			while (wait(NULL) > 0)
				;
			fprintf(stderr, "messaging: a child failed\n");
			exit(1);
		}
	}
}

/*
 * One round: fork and park all children, time the message phase, then
 * kill and reap them, newest first. Returns the timed ns; *sw gets the
 * context switches in the timed window.
 */
static long long run_round(int groups, int senders, int receivers, long loops,
			   int *rx, int *tx, pid_t *pids, long long *sw)
{
	int readyfd[2], wakefd[2], nchild = 0, failed = 0;
	long long t0, t1, sw0, sw1;
	char c = 0;

	if (pipe(readyfd) || pipe(wakefd))
		die("pipe");

	for (int g = 0; g < groups; g++) {
		for (int r = 0; r < receivers; r++) {
			int sv[2];
			pid_t pid;

			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
				die("socketpair");

			rx[r] = sv[0];
			tx[r] = sv[1];
			pid = fork();
			if (pid < 0)
				die("fork");
			if (pid == 0) {
				report_fd = readyfd[1];
				close(tx[r]);
				receiver(rx[r], (long)senders * loops * MSG_SIZE,
					 readyfd[1], wakefd[0]);
			}
			pids[nchild++] = pid;
			close(rx[r]);
		}
		for (int s = 0; s < senders; s++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (pid == 0) {
				report_fd = readyfd[1];
				sender(tx, receivers, loops, readyfd[1],
				       wakefd[0]);
			}
			pids[nchild++] = pid;
		}
		for (int r = 0; r < receivers; r++)
			close(tx[r]);
	}

	round_pids = pids;
	round_n = nchild;
	alarm(ROUND_LIMIT_S);
	collect(readyfd[0], pids, nchild);
	/* which task a tick preempts steers the 80 tasks' order: fix its phase */
	align_to_tick();
	sw0 = ctxt();
	t0 = now_ns();
	if (write(wakefd[1], &c, 1) != 1)
		die("write wakefd");
	collect(readyfd[0], pids, nchild);
	t1 = now_ns();
	sw1 = ctxt();
	alarm(0);

	/*
	 * Kill and reap the children one by one, last created first, and
	 * close the pipes in the reverse order of their creation: the kernel
	 * objects of this round (tasks, mms, sockets, pipes) go back to their
	 * LIFO slab and page freelists in a fixed order, as near the reverse
	 * of their allocation as we can make it, so the next round is handed
	 * the same objects in the same order. Freed
	 * in creation order (children exiting by themselves, in the order
	 * they got to run), each round got them reversed, and the rounds'
	 * costs alternated between two or three schedules: 2.3% apart under
	 * scx_simple, 1-3% under the fair class.
	 */
	for (int i = nchild - 1; i >= 0; i--) {
		int status;

		if (kill(pids[i], SIGKILL))
			die("kill");
		if (waitpid(pids[i], &status, 0) != pids[i])
			die("waitpid");
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			failed++;
	}
	if (failed) {
		fprintf(stderr, "messaging: %d children failed\n", failed);
		exit(1);
	}
	close(wakefd[1]);
	close(wakefd[0]);
	close(readyfd[1]);
	close(readyfd[0]);
	*sw = sw1 - sw0;
	return t1 - t0;
}

int main(int argc, char **argv)
{
	int groups = argc > 1 ? atoi(argv[1]) : 4;
	int senders = argc > 2 ? atoi(argv[2]) : 10;
	int receivers = argc > 3 ? atoi(argv[3]) : 10;
	long loops = argc > 4 ? atol(argv[4]) : 25;
	int rounds = argc > 5 ? atoi(argv[5]) : 1;
	/*
	 * Between rounds: the reaped children's deferred teardown (RCU
	 * callbacks freeing tasks, sockets, pipes) runs while we sleep, not in
	 * the next timed window. Idle is nearly free under -icount sleep=off.
	 */
	const struct timespec settle = { .tv_sec = 0, .tv_nsec = 50000000 };
	long long total = 0, sw = 0, msgs, *ns_round, *sw_round;
	int *rx, *tx;
	pid_t *pids;

	if (groups <= 0 || senders <= 0 || receivers <= 0 || loops <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: %s [GROUPS [SENDERS [RECEIVERS [LOOPS [ROUNDS]]]]] (all > 0)\n", argv[0]);
		return 2;
	}
	rx = calloc(receivers, sizeof(*rx));
	tx = calloc(receivers, sizeof(*tx));
	pids = calloc((size_t)groups * (senders + receivers), sizeof(*pids));
	ns_round = calloc(rounds, sizeof(*ns_round));
	sw_round = calloc(rounds, sizeof(*sw_round));
	if (!rx || !tx || !pids || !ns_round || !sw_round)
		die("calloc");
	if (signal(SIGALRM, on_stuck) == SIG_ERR)
		die("signal");

	for (int i = 0; i < rounds; i++) {
		if (i && nanosleep(&settle, NULL))
			die("nanosleep");
		ns_round[i] = run_round(groups, senders, receivers, loops,
					rx, tx, pids, &sw_round[i]);
		total += ns_round[i];
		sw += sw_round[i];
	}

	msgs = (long long)groups * senders * receivers * loops * rounds;
	printf("%.3f %lld %lld %lld\n", (double)total / msgs, total, msgs, sw);
	if (rounds > 1) {
		fprintf(stderr, "messaging-rounds:");
		for (int i = 0; i < rounds; i++)
			fprintf(stderr, " %lld/%lld", ns_round[i], sw_round[i]);
		fprintf(stderr, "\n");
	}
	return 0;
}
