// SPDX-License-Identifier: GPL-2.0
/*
 * scx-load-time: what loading a BPF scheduler costs, without attaching it.
 *
 * Opens the scheduler's own skeleton (the BPF object embedded in
 * scx_simple / scx_qmap, built from the same tree as the kernel) exactly as
 * the scheduler's main() does (SCX_OPS_OPEN, default options, SCX_OPS_LOAD),
 * asks the verifier for its statistics (log_level BPF_LOG_STATS, which adds
 * no per-instruction logging), destroys it, ITERS times over (default 1),
 * and reports the mean per load of:
 *
 *   load_ns      guest CLOCK_MONOTONIC around SCX_OPS_LOAD(): libbpf's work
 *                (relocations against vmlinux BTF, map creation) plus every
 *                BPF_PROG_LOAD (verification + JIT). Under QEMU -icount
 *                shift=0, guest ns are instructions.
 *   verify_us    the sum over the programs of the verifier's own
 *                "verification time N usec" (ktime around bpf_check()),
 *                i.e. the part of the load the kfunc filters can change.
 *                Each program's figure is truncated to 1 us, so one load of
 *                scx_simple (~1100 us) cannot resolve 0.1%: the mean over
 *                ITERS loads can.
 *   insns        the sum of "processed N insns" (= verified_insns), which
 *                must be the same for every load.
 *   progs        programs loaded.
 *
 * The struct_ops map is created but never attached: the scheduler is not
 * enabled and nothing is left behind when the process exits.
 *
 * Usage: scx-load-time simple|qmap [ITERS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>
#include "scx_simple.bpf.skel.h"
#include "scx_qmap.bpf.skel.h"

#define LOG_SIZE (64 * 1024)
#define MAX_PROGS 64

static char *logs[MAX_PROGS];
static struct bpf_program *progs[MAX_PROGS];
static int nprogs;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
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
		progs[nprogs++] = prog;
	}
}

/* The verifier's figures of the last load; frees its log buffers. */
static void collect(long long *verify_us, long long *insns)
{
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
		*verify_us += atoll(v + strlen("verification time "));
		*insns += atoll(p + strlen("processed "));
		free(logs[i]);
	}
}

/* One open + load + destroy of the named scheduler's skeleton. */
static int load_once(const char *name, long long *load_ns)
{
	long long t0, t1;

	nprogs = 0;
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
	} else {
		return -1;
	}
	*load_ns = t1 - t0;
	return 0;
}

int main(int argc, char **argv)
{
	long long load_ns, verify_us, insns, first_insns = -1;
	long long sum_load = 0, sum_verify = 0;
	int iters = 1;

	libbpf_set_print(print_fn);
	if (argc == 3)
		iters = atoi(argv[2]);
	if (argc < 2 || argc > 3 || iters < 1) {
		fprintf(stderr, "usage: %s simple|qmap [ITERS]\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < iters; i++) {
		if (load_once(argv[1], &load_ns)) {
			fprintf(stderr, "usage: %s simple|qmap [ITERS]\n", argv[0]);
			return 2;
		}
		/* the skeleton is destroyed, the log buffers are still ours */
		collect(&verify_us, &insns);
		if (first_insns >= 0 && insns != first_insns) {
			fprintf(stderr, "scx-load-time: load %d verified %lld insns, load 1 %lld\n",
				i + 1, insns, first_insns);
			return 1;
		}
		first_insns = insns;
		sum_load += load_ns;
		sum_verify += verify_us;
	}
	printf("%.1f %.2f %lld %d\n", (double)sum_load / iters,
	       (double)sum_verify / iters, insns, nprogs);
	return 0;
}
