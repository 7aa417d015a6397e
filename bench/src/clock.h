/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest time for the benchmarks. Under QEMU -icount shift=0 a guest ns is
 * one instruction, so these clock reads count instructions.
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H
#include <time.h>

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Spin until an interrupt takes a bite out of our clock reads (a read
 * normally follows the previous one within ~90 guest ns; the periodic tick
 * costs ~1,700 or more), so that what comes next starts at the same phase
 * of the tick every time: whether a tick lands inside a short timed window
 * is otherwise a draw. Gives up after 10 ms (no tick seen: HZ >= 100).
 * Returns the guest ns spent spinning.
 */
static inline long long align_to_tick(void)
{
	long long start = now_ns(), prev = start, t;

	for (;;) {
		t = now_ns();
		if (t - prev > 1000 || t - start > 10000000)
			return t - start;
		prev = t;
	}
}
#endif
