// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-pingpong: two processes bounce a 4-byte token over two pipes, like
 * `perf bench sched pipe`. Every round trip is two writes, two reads and,
 * on one CPU, two context switches (two wakeups, two sleeps).
 *
 * Prints one line: <ns per round trip> <total ns> <round trips> <context switches>
 * measured with CLOCK_MONOTONIC in the parent from the first write to the
 * last read. Under QEMU -icount shift=0 a guest "ns" is one instruction.
 * Context switches: the system-wide count in /proc/stat over the same window.
 *
 * Usage: pipe-pingpong [ROUND_TRIPS]   (default 20000)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "pipe-pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xread(int fd, void *buf, size_t len)
{
	ssize_t r = read(fd, buf, len);

	if (r != (ssize_t)len)
		die("read");
}

static void xwrite(int fd, const void *buf, size_t len)
{
	ssize_t r = write(fd, buf, len);

	if (r != (ssize_t)len)
		die("write");
}

#include "ctxt.h"
#include "clock.h"

int main(int argc, char **argv)
{
	long loops = argc > 1 ? strtol(argv[1], NULL, 0) : 20000;
	int ping[2], pong[2], status;
	long long t0, t1, sw0, sw1;
	int token = 0;
	pid_t pid;

	if (loops <= 0) {
		fprintf(stderr, "usage: %s [ROUND_TRIPS>0]\n", argv[0]);
		return 2;
	}
	if (pipe(ping) || pipe(pong))
		die("pipe");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(ping[1]);
		close(pong[0]);
		for (long i = 0; i < loops; i++) {
			xread(ping[0], &token, sizeof(token));
			token++;
			xwrite(pong[1], &token, sizeof(token));
		}
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);

	sw0 = ctxt();
	t0 = now_ns();
	for (long i = 0; i < loops; i++) {
		xwrite(ping[1], &token, sizeof(token));
		xread(pong[0], &token, sizeof(token));
	}
	t1 = now_ns();
	sw1 = ctxt();

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pipe-pingpong: child failed\n");
		return 1;
	}
	if (token != loops) {
		fprintf(stderr, "pipe-pingpong: token %d, expected %ld\n", token, loops);
		return 1;
	}
	printf("%.3f %lld %ld %lld\n", (double)(t1 - t0) / loops, t1 - t0, loops, sw1 - sw0);
	return 0;
}
