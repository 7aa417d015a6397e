// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin: how many guest instructions ran at each translation
 * block address, and how often the block ran, written to the file given
 * as outfile=PATH when QEMU exits, one "vaddr instructions executions"
 * line per translation. The kernel's symbols turn it into instructions
 * per function, and a function's first block into its calls
 * (insn-profile.sh).
 *
 * QEMU 7.2 loads plugins of API version 1; the few calls used here are
 * declared below, so no QEMU source is needed to build it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One per translation: a block translated again gets another. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;		/* bumped inline by the generated code */
	struct block *next;
};

static struct block *blocks;
static char *outfile;

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));

	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	b->next = blocks;
	blocks = b;	/* single-threaded TCG (-icount): no lock needed */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(outfile, "w");
	struct block *b;

	if (!f) {
		perror(outfile);
		return;
	}
	for (b = blocks; b; b = b->next)
		if (b->execs)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->vaddr,
				b->insns * b->execs, b->execs);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "outfile=", 8))
			outfile = strdup(argv[i] + 8);
	if (!outfile) {
		fprintf(stderr, "tb-count: outfile=PATH is required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
