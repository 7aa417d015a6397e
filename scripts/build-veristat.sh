#!/usr/bin/env bash
# A static veristat for the busybox guest, from a kernel tree: libbpf from
# TREE/tools/lib/bpf (static, its headers installed too, for whoever builds
# BPF objects or tools against the same libbpf) and
# TREE/tools/testing/selftests/bpf/veristat.c linked against it.
# Shared by bench/veristat.sh and selftests/scx/build.sh, so both guests
# run the same veristat.
#
# Usage: scripts/build-veristat.sh TREE OUTDIR
# Output (OUTDIR): libbpf/libbpf.a, libbpf-install/include/bpf/*.h,
#   src/veristat.c (the tree's, with the fix below), bin/veristat;
#   logs libbpf.log and veristat-build.log.
# The tree is only read (libbpf builds with OUTPUT=).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"

[ $# -eq 2 ] || die "usage: $0 TREE OUTDIR"
t=$(readlink -f "$1") b=$2
for f in tools/testing/selftests/bpf/veristat.c tools/lib/bpf/Makefile; do
	[ -e "$t/$f" ] || die "$t/$f missing: not a kernel tree"
done
command -v gcc >/dev/null || die "gcc not found: make deps"
mkdir -p "$b/libbpf" "$b/src" "$b/bin"
b=$(cd "$b" && pwd)

# As if run by hand, not as a sub-make (see scripts/build-payload.sh).
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES

log "veristat: libbpf from $(basename "$t")/tools/lib/bpf"
run_logged "$b/libbpf.log" nice -n 10 make -j"$(nproc)" -C "$t/tools/lib/bpf" \
	OUTPUT="$b/libbpf/" DESTDIR="$b/libbpf-install" prefix= EXTRA_CFLAGS="-O2 -g" \
	"$b/libbpf/libbpf.a" install_headers ||
	die "building libbpf failed; log: $b/libbpf.log"

# One fix on a copy (the tree stays as built): 6.12's veristat gives every
# map with max_entries 0 one entry, except the local-storage types, and its
# list misses BPF_MAP_TYPE_CGRP_STORAGE: a scheduler's cgroup-storage map
# (scx_flatcg's cgrp_ctx) then fails to create (EINVAL) and none of the
# object's programs is verified. The fix adds that type to the list.
log "veristat: veristat (static) from tools/testing/selftests/bpf/veristat.c (+ CGRP_STORAGE fix)"
sed 's/^\(\t*\)case BPF_MAP_TYPE_CGROUP_STORAGE:$/&\n\1case BPF_MAP_TYPE_CGRP_STORAGE:/' \
	"$t/tools/testing/selftests/bpf/veristat.c" >"$b/src/veristat.c"
[ "$(diff "$t/tools/testing/selftests/bpf/veristat.c" "$b/src/veristat.c" | grep -c '^>')" = 1 ] ||
	die "veristat.c: the BPF_MAP_TYPE_CGRP_STORAGE fix did not apply as one added line (another veristat.c?)"
run_logged "$b/veristat-build.log" nice -n 10 gcc -O2 -g -Wall -static \
	-I"$b/libbpf-install/include" -I"$t/tools/include" -I"$t/tools/include/uapi" \
	"$b/src/veristat.c" "$b/libbpf/libbpf.a" \
	-lelf -lz -lzstd -lm -o "$b/bin/veristat" ||
	die "building veristat failed; log: $b/veristat-build.log"
