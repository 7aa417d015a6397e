// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-loadall OBJ: the verdict of every program of a BPF object, from as
 * few loads of the whole object as possible.
 *
 * The object is loaded the way the scheduler's own loader loads it
 * (libbpf's bpf_object__load(): its struct_ops map is created, not
 * attached), with veristat's fix-ups: every program autoloaded, no
 * pinning, a map of size 0 gets one entry except the local-storage types.
 * libbpf stops at the first program the kernel refuses and names it
 * ("prog 'X': failed to load"); that program is then "failure", it is
 * left out (its struct_ops slots set to NULL, as a loader would to drop a
 * callback) and the object is loaded again, until a load succeeds: every
 * program it loaded is "success". So each program is verified on its own
 * merits, and an object with K refused programs costs K + 1 loads.
 *
 * Why not veristat: it loads one program per load, but libbpf loads every
 * struct_ops program the ops map refers to with it, so an object of N
 * callbacks costs N whole loads (scx_layered: 21 loads of about 30 s
 * each under TCG, its layered_dump hitting the 1M instruction limit in
 * each). And its verdict for a callback is the verdict of the whole
 * scheduler: one refused callback made all of them "failure", which would
 * hide a second refusal.
 *
 * Output, on stdout, one line per program: "OBJ,PROG,VERDICT,INSNS"
 * (veristat's CSV shape plus the instructions the verifier processed, 0
 * if not loaded); VERDICT is success, failure, or skipped (libbpf left it
 * out by itself, e.g. a callback the kernel's ops struct lacks). libbpf's messages (a refused program's verifier log)
 * go to stderr. Exit 0 if every verdict is known; 1 if a load failed
 * outside any program (a map, BTF, kconfig: then nothing is printed).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define MAX_PROGS 256

static char failed_at[256];	/* the program libbpf last said it failed to load */

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[1024];
	const char *p;
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fputs(msg, stderr);
	/* libbpf_prog_load's failure: "libbpf: prog 'NAME': failed to load: ERR" */
	p = strstr(msg, "prog '");
	if (p && strstr(msg, "': failed to load: ")) {
		p += strlen("prog '");
		n = strcspn(p, "'");
		if (n < sizeof(failed_at)) {
			memcpy(failed_at, p, n);
			failed_at[n] = '\0';
		}
	}
	return 0;
}

/* Drop PROG from every struct_ops map's slots (libbpf's shadow-type way). */
static void drop_from_struct_ops(struct bpf_object *obj, struct bpf_program *prog)
{
	struct bpf_map *map;
	size_t sz, off;
	void **slot;
	char *data;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		data = bpf_map__initial_value(map, &sz);
		for (off = 0; data && off + sizeof(void *) <= sz; off += sizeof(void *)) {
			slot = (void **)(data + off);
			if (*slot == prog)
				*slot = NULL;
		}
	}
}

static void fix_maps(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		bpf_map__set_pin_path(map, NULL);
		switch (bpf_map__type(map)) {
		case BPF_MAP_TYPE_SK_STORAGE:
		case BPF_MAP_TYPE_TASK_STORAGE:
		case BPF_MAP_TYPE_INODE_STORAGE:
		case BPF_MAP_TYPE_CGROUP_STORAGE:
		case BPF_MAP_TYPE_CGRP_STORAGE:
			break;
		default:
			if (bpf_map__max_entries(map) == 0)
				bpf_map__set_max_entries(map, 1);
		}
	}
}

static int is_refused(char refused[][256], int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(refused[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static char refused[MAX_PROGS][256];
	struct bpf_prog_info info;
	struct bpf_program *prog;
	struct bpf_object *obj;
	int nr_refused = 0, err;
	const char *base;
	__u32 len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJ\n", argv[0]);
		return 2;
	}
	base = strrchr(argv[1], '/');
	base = base ? base + 1 : argv[1];
	libbpf_set_print(print_fn);

	for (;;) {
		obj = bpf_object__open_file(argv[1], NULL);
		if (!obj) {
			fprintf(stderr, "bpf-loadall: cannot open %s\n", argv[1]);
			return 1;
		}
		bpf_object__for_each_program(prog, obj) {
			int keep = !is_refused(refused, nr_refused, bpf_program__name(prog));

			bpf_program__set_autoload(prog, keep);
			if (!keep)
				drop_from_struct_ops(obj, prog);
			/*
			 * The verifier's statistics and messages, not its
			 * instruction trace: with log level 0, libbpf loads
			 * a refused program a second time at level 1 to
			 * show why, and at level 1 the verifier prints
			 * every instruction it walks (layered_dump's 1M
			 * twice). Level 4 still has the error message.
			 */
			bpf_program__set_log_level(prog, 4);
		}
		fix_maps(obj);
		failed_at[0] = '\0';
		err = bpf_object__load(obj);
		if (!err)
			break;
		/* Not at a program, or at one already dropped: no verdicts. */
		if (!failed_at[0] || is_refused(refused, nr_refused, failed_at) ||
		    nr_refused == MAX_PROGS) {
			fprintf(stderr, "bpf-loadall: loading %s failed outside any program: %d\n",
				argv[1], err);
			bpf_object__close(obj);
			return 1;
		}
		fprintf(stderr, "bpf-loadall: %s: '%s' refused (%d); loading the rest again\n",
			base, failed_at, err);
		strcpy(refused[nr_refused++], failed_at);
		bpf_object__close(obj);
	}

	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (fd >= 0 && bpf_prog_get_info_by_fd(fd, &info, &len))
			info.verified_insns = 0;
		/* Neither loaded nor refused: libbpf left it out on its own. */
		printf("%s,%s,%s,%u\n", base, name,
		       fd >= 0 ? "success" :
		       is_refused(refused, nr_refused, name) ? "failure" : "skipped",
		       fd >= 0 ? info.verified_insns : 0);
	}
	bpf_object__close(obj);
	return 0;
}
