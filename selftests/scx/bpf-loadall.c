// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-loadall OBJ: load every program of a BPF object at once, as the
 * scheduler's own loader does (its struct_ops map is created, not
 * attached: the schedulers use SEC(".struct_ops.link")), with veristat's
 * fix-ups (every program autoloaded, no pinning, a map of size 0 gets one
 * entry except the local-storage types). On success prints "OBJ,PROG,
 * success" for each program, in veristat's CSV shape, and exits 0; on any
 * failure exits 1 and prints nothing on stdout (libbpf says why on
 * stderr): run-guest.sh then asks veristat for each program's verdict.
 *
 * Why: veristat verifies one program per load, but libbpf loads every
 * struct_ops program the scheduler's ops map refers to with it, so an
 * object of N callbacks costs N full loads; scx_layered's took over ten
 * minutes under TCG. One load per object gives the same verdicts when
 * everything verifies, which is what the suite expects of most objects.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	const char *base;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJ\n", argv[0]);
		return 2;
	}
	base = strrchr(argv[1], '/');
	base = base ? base + 1 : argv[1];
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "bpf-loadall: cannot open %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, true);
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
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "bpf-loadall: loading %s failed: %d\n", argv[1], err);
		bpf_object__close(obj);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		printf("%s,%s,%s\n", base, bpf_program__name(prog),
		       bpf_program__fd(prog) >= 0 ? "success" : "failure");
	bpf_object__close(obj);
	return 0;
}
