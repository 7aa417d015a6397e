// SPDX-License-Identifier: GPL-2.0
/*
 * messaging: a hackbench-like load (`perf bench sched messaging`, process
 * mode, socketpairs). GROUPS groups, each of SENDERS sender processes and
 * RECEIVERS receiver processes; every receiver owns one AF_UNIX stream
 * socketpair, every sender of its group writes LOOPS messages of 100 bytes
 * to every receiver. All children are created and parked first; the clock
 * runs from releasing them until every child has reported that it is done.
 * Children exit, and are reaped, only after the clock has stopped: the
 * teardown of 80 processes (and the RCU work it queues) varies from run to
 * run and is not what this measures.
 *
 * Prints one line: <ns per message> <total ns> <messages> <context switches>
 * (CLOCK_MONOTONIC; under QEMU -icount shift=0 a guest "ns" is one
 * instruction; context switches: the system-wide count in /proc/stat over
 * the timed window).
 *
 * Usage: messaging [GROUPS [SENDERS [RECEIVERS [LOOPS]]]]  (default 4 10 10 25)
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

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Tell the parent where we are (@c on @ready_out), then wait until it
 * releases everybody (a byte or EOF on @wait_in).
 */
static void report_and_wait(int ready_out, char c, int wait_in)
{
	struct pollfd pfd = { .fd = wait_in, .events = POLLIN };

	if (write(ready_out, &c, 1) != 1)
		die(c == 'R' ? "write ready" : "write done");
	if (poll(&pfd, 1, -1) != 1)
		die(c == 'R' ? "poll wakefd" : "poll exitfd");
}

/* Ready: wait for the start. */
static void ready(int ready_out, int wake_in)
{
	report_and_wait(ready_out, 'R', wake_in);
}

/* Done: wait until the parent lets everybody exit, then exit. */
static void done(int ready_out, int exit_in)
{
	report_and_wait(ready_out, 'D', exit_in);
	_exit(0);
}

static void sender(const int *out, int receivers, long loops, int ready_out,
		   int wake_in, int exit_in)
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
	done(ready_out, exit_in);
}

static void receiver(int in, long bytes, int ready_out, int wake_in, int exit_in)
{
	char buf[MSG_SIZE];

	ready(ready_out, wake_in);
	while (bytes > 0) {
		ssize_t r = read(in, buf, bytes < MSG_SIZE ? bytes : MSG_SIZE);

		if (r <= 0)
			die("receiver read");
		bytes -= r;
	}
	done(ready_out, exit_in);
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

int main(int argc, char **argv)
{
	int groups = argc > 1 ? atoi(argv[1]) : 4;
	int senders = argc > 2 ? atoi(argv[2]) : 10;
	int receivers = argc > 3 ? atoi(argv[3]) : 10;
	long loops = argc > 4 ? atol(argv[4]) : 25;
	int readyfd[2], wakefd[2], exitfd[2], nchild = 0, failed = 0;
	long long t0, t1, sw0, sw1, msgs;
	int *rx, *tx;
	pid_t *pids;
	char c;

	if (groups <= 0 || senders <= 0 || receivers <= 0 || loops <= 0) {
		fprintf(stderr, "usage: %s [GROUPS [SENDERS [RECEIVERS [LOOPS]]]] (all > 0)\n", argv[0]);
		return 2;
	}
	rx = calloc(receivers, sizeof(*rx));
	tx = calloc(receivers, sizeof(*tx));
	pids = calloc((size_t)groups * (senders + receivers), sizeof(*pids));
	if (!rx || !tx || !pids)
		die("calloc");
	if (pipe(readyfd) || pipe(wakefd) || pipe(exitfd))
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
					 readyfd[1], wakefd[0], exitfd[0]);
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
				       wakefd[0], exitfd[0]);
			}
			pids[nchild++] = pid;
		}
		for (int r = 0; r < receivers; r++)
			close(tx[r]);
	}

	collect(readyfd[0], pids, nchild);
	sw0 = ctxt();
	t0 = now_ns();
	if (write(wakefd[1], &c, 1) != 1)
		die("write wakefd");
	collect(readyfd[0], pids, nchild);
	t1 = now_ns();
	sw1 = ctxt();

	if (write(exitfd[1], &c, 1) != 1)
		die("write exitfd");
	for (int i = 0; i < nchild; i++) {
		int status;

		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}

	if (failed) {
		fprintf(stderr, "messaging: %d children failed\n", failed);
		return 1;
	}
	msgs = (long long)groups * senders * receivers * loops;
	printf("%.3f %lld %lld %lld\n", (double)(t1 - t0) / msgs, t1 - t0, msgs, sw1 - sw0);
	return 0;
}
