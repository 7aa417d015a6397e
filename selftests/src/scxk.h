/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scxk - guest side of the sched_ext kfunc-filter tests: what the
 * subcommand files share (scxk.c has the list of subcommands and files).
 */
#ifndef SCXK_H
#define SCXK_H

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define STATE_PATH	"/sys/kernel/sched_ext/state"
#define OPS_PATH	"/sys/kernel/sched_ext/root/ops"
#define CGROOT		"/sys/fs/cgroup"
#define CGTEST		CGROOT "/scxk"

/* scxk.c: loading, the verifier's refusals, "# " diagnostics */
extern char vlog[1 << 20];		/* verifier log of the failing program */
extern char lmsg[16384];		/* libbpf's own warnings */
extern size_t lmsg_len;

double now(void);
void diag_tail(const char *prefix, const char *text, int max);
struct bpf_object *load_obj(const char *path, const char *map, const char *prog, int *err);
const char *log_line(const char *log, const char *needle, char *line, size_t sz);
const char *refusal(const char *log, const char *kfunc, char *rest, size_t sz);
const char *ctx_want(const char *want);
bool sleep_refusal(const char *log, const char *kfunc);
void diag_log(const char *what, const char *log);
void diag_load_failure(const char *what);

/* scxk-cells.c: one verdict per (op, kfunc) cell, for matrix and callsite */
struct cell {
	char op[32], kfunc[48], group[16], obj[64], prog[32], map[40];
	char exp, got;
	bool departure;
	bool named_op;			/* refusal said "from sched_ext_ops.<op>" */
	bool fd;			/* loaded and bpf_program__fd() gave an fd */
	char bexp;			/* matrix: the baseline's verdict */
	char token[4];			/* matrix: the spec's verdict (A, R, S, At, Ar) */
	char detail[200];
	/* call-site matrix only */
	char label[40];			/* the table row: "<site>@<op>" */
	char want[200];			/* what the refusal must say after "is not allowed" */
	char pexp;			/* the patched spec's verdict (exp is the kernel's) */
};

void push_cell(struct cell **cells, int *n, int *cap, const struct cell *c);
void print_table(struct cell *cells, int n, int ncol, const char *variant,
		 const char *title, const char *rows, const char *unit);
int load_cell(const char *dir, struct cell *c);
int load_row(const char *dir, struct cell *row, int n, bool in_order);

/* scxk-sched.c: kernel state, kernel log, load generation, attaching */
/* what the kernel log must (@present) or must not say; a NULL @text is skipped */
struct kmsg_want {
	const char *text;
	bool present;
};

/* after @secs of load: did the scheduler @name make its calls?  Says, returns ok */
typedef bool (*calls_fn)(struct bpf_object *obj, const char *name, double secs, const char *arg);

const char *scx_state(void);
int kmsg_open(bool from_boot);
void kmsg_read(int fd, char *buf, size_t sz);
bool expect_kmsg(const char *klog, const char *want, bool present);
int kmsg_check(int kfd, const char *what, const struct kmsg_want *wants,
	       int n, int ret);
bool activity(double secs, bool until_disabled);
/* burn the CPU for @secs */
void spin(double secs);
struct bpf_link *attach(struct bpf_object *obj, const char *map);
int eject(const char *path, const char *kind, double secs, double linger,
	  const char *msg, const char *what);
long long bss_u64(struct bpf_object *obj, const char *var);
int run_enabled(const char *path, const char *kind, double secs, calls_fn calls,
		const char *arg);

/* the subcommands, one file per family */
int cmd_matrix(const char *dir, const char *variant, bool per_cell);
int cmd_callsite(const char *dir, const char *variant, const char *results, bool per_cell);
int cmd_neg(const char *path, const char *op, const char *kfunc);
int cmd_sleep(const char *path, const char *kfunc, const char *map);
int cmd_load(const char *path);
int cmd_runtime(const char *path, double secs);
int cmd_pos(const char *path, double secs, const char *op);
int cmd_async_runtime(const char *path, double secs, const char *msg);
int cmd_async_refuse(const char *path, const char *op, const char *cb,
		     const char *kfunc, const char *fn);
int cmd_async_run(const char *path, double secs, const char *must);
int cmd_prog(const char *path, const char *prog, const char *expect, const char *kfunc);
int cmd_freplace(const char *tgt_path, const char *ext_path, const char *ext_prog,
		 const char *func, const char *expect, const char *kfunc, const char *op);
int cmd_ext_task_cgroup(const char *tgt_path, const char *ext_path, double secs);
int cmd_tail_task_cgroup(const char *path, double secs);
int cmd_task_cgroup_ops(const char *path, double secs);
int cmd_syscall_move(const char *path);
int cmd_task_cgroup_trace(const char *path, const char *msg);

#endif /* SCXK_H */
