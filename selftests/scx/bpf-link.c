// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-link OUT IN...: statically link BPF objects with libbpf's BPF linker,
 * what upstream scx's builds call for the same step (meson: `bpftool gen
 * object`; the Rust schedulers: libbpf-rs's Linker). Built on the host
 * against the libbpf the suite's veristat uses; no bpftool needed.
 */
#include <stdio.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_linker *linker;
	int i, err = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OUT IN...\n", argv[0]);
		return 2;
	}
	linker = bpf_linker__new(argv[1], NULL);
	if (!linker) {
		fprintf(stderr, "bpf-link: cannot create %s\n", argv[1]);
		return 1;
	}
	for (i = 2; i < argc && !err; i++) {
		err = bpf_linker__add_file(linker, argv[i], NULL);
		if (err)
			fprintf(stderr, "bpf-link: adding %s failed: %d\n", argv[i], err);
	}
	if (!err) {
		err = bpf_linker__finalize(linker);
		if (err)
			fprintf(stderr, "bpf-link: writing %s failed: %d\n", argv[1], err);
	}
	bpf_linker__free(linker);
	return err ? 1 : 0;
}
