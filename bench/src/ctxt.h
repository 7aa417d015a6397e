/* SPDX-License-Identifier: GPL-2.0 */
/* The system-wide context switch count, the "ctxt" line of /proc/stat. */
#ifndef BENCH_CTXT_H
#define BENCH_CTXT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long ctxt(void)
{
	char line[256];
	long long n = -1;
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "ctxt ", 5)) {
			n = atoll(line + 5);
			break;
		}
	fclose(f);
	return n;
}
#endif
