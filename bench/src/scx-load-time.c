// SPDX-License-Identifier: GPL-2.0
/*
 * scx-load-time: what loading a BPF scheduler costs, without attaching it.
 *
 * Opens the scheduler's own skeleton (the BPF object embedded in
 * scx_simple / scx_qmap / scx_flatcg, built from the same tree as the kernel)
 * exactly as
 * the scheduler's main() does (SCX_OPS_OPEN, default options, SCX_OPS_LOAD),
 * asks the verifier for its statistics (log_level BPF_LOG_STATS, which adds
 * no per-instruction logging), destroys it, ITERS times over (default 1),
 * and prints, on one line, the mean per load of:
 *
 *   load_ns      guest CLOCK_MONOTONIC around SCX_OPS_LOAD(): libbpf's work
 *                (relocations against vmlinux BTF, map creation) plus every
 *                BPF_PROG_LOAD (verification + JIT), less the time spent
 *                aligning each BPF_PROG_LOAD to the tick (below). Under
 *                QEMU -icount shift=0, guest ns are instructions.
 *   prog_ns      guest ns inside the bpf(2) BPF_PROG_LOAD calls libbpf
 *                makes for the skeleton's programs, summed: verification
 *                and JIT, the part of the load the kfunc filters can
 *                change, without libbpf's own work. Measured by wrapping
 *                libc's syscall() (linked with -Wl,--wrap=syscall).
 *   verify_us    the sum over the programs of the verifier's own
 *                "verification time N usec" (ktime around bpf_check()).
 *                Each program's figure is truncated to 1 us, so it cannot
 *                resolve 0.1% of scx_simple's ~1100 us: kept as the
 *                kernel's own cross-check of prog_ns.
 *   insns        the sum of "processed N insns" (= verified_insns), which
 *                must be the same for every load.
 *   progs        programs loaded.
 *
 * The struct_ops map is created but never attached: the scheduler is not
 * enabled and nothing is left behind when the process exits.
 *
 * Usage: scx-load-time simple|qmap|flatcg [ITERS]
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/random.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>
#include "scx_simple.bpf.skel.h"
#include "scx_qmap.bpf.skel.h"
#include "scx_flatcg.bpf.skel.h"
#include "clock.h"

#define LOG_SIZE (64 * 1024)
#define MAX_PROGS 64

static char *logs[MAX_PROGS];
static struct bpf_program *progs[MAX_PROGS];
static long long prog_ns[MAX_PROGS];
static int prog_loads[MAX_PROGS];
static int nprogs;
/* guest ns spent aligning to the tick inside SCX_OPS_LOAD(), not load time */
static long long align_ns;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);

/*
 * libbpf.a is one relocatable object (libbpf-in.o), so its own call of
 * bpf_prog_load() cannot be wrapped; its bpf(2) calls go through libc's
 * syscall(), which can (-Wl,--wrap=syscall). A BPF_PROG_LOAD carrying one
 * of our log buffers is one of the skeleton's programs: libbpf's feature
 * probes load programs of their own, which stay in load_ns only.
 *
 * Each program's load starts just after a timer tick: scx_simple's
 * programs verify in ~170 us each, so whether one of them met a tick
 * (~2,400 guest ns, every 4 ms) would be a draw worth 0.2% of the total.
 * Aligned, none of them meets one; longer loads meet theirs at the same
 * phase every time. (The 0.2% split measured before and after this was
 * the random-number refill: see reseed_crng().)
 */
long __wrap_syscall(long number, ...)
{
	long a[6], ret, t0;
	va_list ap;

	/* as libc's syscall() does: six argument registers, used or not */
	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number != __NR_bpf || a[0] != BPF_PROG_LOAD)
		return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);

	align_ns += align_to_tick();
	t0 = now_ns();
	ret = __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	t0 = now_ns() - t0;
	for (int i = 0; i < nprogs; i++) {
		const union bpf_attr *attr = (const void *)a[1];

		if (attr->log_buf == (unsigned long)logs[i]) {
			prog_ns[i] += t0;
			prog_loads[i]++;
		}
	}
	return ret;
}

static void want_stats(struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		if (nprogs == MAX_PROGS) {
			fprintf(stderr, "scx-load-time: more than %d programs\n", MAX_PROGS);
			exit(1);
		}
		logs[nprogs] = calloc(1, LOG_SIZE);
		if (!logs[nprogs])
			exit(1);
		bpf_program__set_log_level(prog, 4 /* BPF_LOG_STATS */);
		bpf_program__set_log_buf(prog, logs[nprogs], LOG_SIZE);
		prog_ns[nprogs] = 0;
		prog_loads[nprogs] = 0;
		progs[nprogs++] = prog;
	}
}

/*
 * The figures of the last load; frees its log buffers. A program that
 * libbpf loaded twice (a retry on EAGAIN) would count its verification
 * twice: refuse.
 */
static void collect(long long *load_ns, long long *verify_us, long long *insns)
{
	*load_ns = 0;
	*verify_us = 0;
	*insns = 0;

	for (int i = 0; i < nprogs; i++) {
		const char *v = strstr(logs[i], "verification time ");
		const char *p = strstr(logs[i], "processed ");

		if (!v || !p) {
			fprintf(stderr, "scx-load-time: no verifier stats for %s:\n%s\n",
				bpf_program__name(progs[i]), logs[i]);
			exit(1);
		}
		if (prog_loads[i] != 1) {
			fprintf(stderr, "scx-load-time: %s: %d BPF_PROG_LOAD calls, expected 1\n",
				bpf_program__name(progs[i]), prog_loads[i]);
			exit(1);
		}
		*load_ns += prog_ns[i];
		*verify_us += atoll(v + strlen("verification time "));
		*insns += atoll(p + strlen("processed "));
		free(logs[i]);
	}
}

/*
 * Start the load with every CPU's batch of kernel random numbers stale.
 * get_random_u32() hands out a per-CPU batch of 24 and refills it (one
 * ChaCha20 state setup and two blocks, ~2,830 guest ns) when it runs out;
 * a program load draws some (the JIT's random image offset), so where a
 * refill fell depended on what every earlier process had drawn, and it fell
 * into one of scx_simple's program loads in some repetitions and not in
 * others, 0.21% apart. Reseeding makes every batch refill at its first use,
 * so each load's refills come at the same points.
 */
static void reseed_crng(void)
{
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || ioctl(fd, RNDRESEEDCRNG) < 0) {
		perror("scx-load-time: RNDRESEEDCRNG on /dev/urandom (needs root)");
		exit(1);
	}
	close(fd);
}

/* One open + load + destroy of the named scheduler's skeleton. */
static int load_once(const char *name, long long *load_ns)
{
	long long t0, t1;

	reseed_crng();
	nprogs = 0;
	align_ns = 0;
	if (!strcmp(name, "simple")) {
		struct scx_simple *skel = SCX_OPS_OPEN(simple_ops, scx_simple);

		want_stats(skel->obj);
		t0 = now_ns();
		SCX_OPS_LOAD(skel, simple_ops, scx_simple, uei);
		t1 = now_ns();
		scx_simple__destroy(skel);
	} else if (!strcmp(name, "qmap")) {
		struct scx_qmap *skel = SCX_OPS_OPEN(qmap_ops, scx_qmap);

		want_stats(skel->obj);
		t0 = now_ns();
		SCX_OPS_LOAD(skel, qmap_ops, scx_qmap, uei);
		t1 = now_ns();
		scx_qmap__destroy(skel);
	} else if (!strcmp(name, "flatcg")) {
		struct scx_flatcg *skel = SCX_OPS_OPEN(flatcg_ops, scx_flatcg);

		/* as scx_flatcg's main(): sizes its per-CPU loops */
		skel->rodata->nr_cpus = libbpf_num_possible_cpus();
		want_stats(skel->obj);
		t0 = now_ns();
		SCX_OPS_LOAD(skel, flatcg_ops, scx_flatcg, uei);
		t1 = now_ns();
		scx_flatcg__destroy(skel);
	} else {
		return -1;
	}
	*load_ns = t1 - t0 - align_ns;
	return 0;
}

int main(int argc, char **argv)
{
	long long load_ns, progs_ns, verify_us, insns, first_insns = -1;
	long long sum_load = 0, sum_progs = 0, sum_verify = 0;
	int iters = 1;

	libbpf_set_print(print_fn);
	if (argc == 3)
		iters = atoi(argv[2]);
	if (argc < 2 || argc > 3 || iters < 1) {
		fprintf(stderr, "usage: %s simple|qmap|flatcg [ITERS]\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < iters; i++) {
		if (load_once(argv[1], &load_ns)) {
			fprintf(stderr, "usage: %s simple|qmap|flatcg [ITERS]\n", argv[0]);
			return 2;
		}
		/* the skeleton is destroyed, the log buffers are still ours */
		collect(&progs_ns, &verify_us, &insns);
		if (first_insns >= 0 && insns != first_insns) {
			fprintf(stderr, "scx-load-time: load %d verified %lld insns, load 1 %lld\n",
				i + 1, insns, first_insns);
			return 1;
		}
		first_insns = insns;
		sum_load += load_ns;
		sum_progs += progs_ns;
		sum_verify += verify_us;
	}
	printf("%.1f %.1f %.2f %lld %d\n", (double)sum_load / iters,
	       (double)sum_progs / iters, (double)sum_verify / iters, insns, nprogs);
	return 0;
}
