#!/usr/bin/env bash
# The benchmark's guest overlay for one kernel tree: the static workloads,
# the load-time probe (linked against the tree's own libbpf and embedding
# the tree's scx_simple, scx_qmap and scx_flatcg BPF objects), the tree's
# perf if WORKLOADS has a perf- workload (bench/build-perf.sh) and the
# "bench" payload.
# Needs the tree's payload built first (make payload), for libbpf and the
# skeletons.
#
# Usage: bench/build-guest.sh TREE OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 TREE OUT_DIR"
tree=$(readlink -f "$1") out=$2
scx="$tree/tools/sched_ext"
libbpf="$scx/build/obj/libbpf/libbpf.a"
for f in "$libbpf" "$scx/build/include/scx_simple.bpf.skel.h" "$scx/build/include/scx_qmap.bpf.skel.h" \
	"$scx/build/include/scx_flatcg.bpf.skel.h"; do
	[ -f "$f" ] || die "$f missing: build the payload first (make payload)"
done

cc=(nice -n 10 gcc -O2 -Wall -Wextra -static)
rm -rf "$out"
mkdir -p "$out/usr/bin" "$out/scx/payloads"
"${cc[@]}" -o "$out/usr/bin/pipe-pingpong" "$here/src/pipe-pingpong.c"
"${cc[@]}" -o "$out/usr/bin/messaging" "$here/src/messaging.c"
# -Wextra off here: the kernel's scx headers trip -Wunused-parameter.
# --wrap: scx-load-time times the bpf(2) calls libbpf makes through syscall().
nice -n 10 gcc -O2 -Wall -static -Wl,--wrap=syscall \
	-I"$scx/build/include" -I"$scx/include" -I"$tree/tools/include" \
	-I"$tree/tools/include/uapi" -I"$tree/tools/lib" \
	-o "$out/usr/bin/scx-load-time" "$here/src/scx-load-time.c" \
	"$libbpf" -lelf -lz -lzstd -lpthread
strip "$out"/usr/bin/*
# perf bench sched, the kernel's own workloads, when asked for (the build
# takes minutes, once)
case ",${WORKLOADS:-}," in
*,perf-*)
	perf=$("$here/build-perf.sh" "$tree" | tail -n 1)
	install -m 0755 "$perf" "$out/usr/bin/perf"
	install -m 0755 "$here/guest/perf-bench.sh" "$out/usr/bin/perf-bench.sh"
	;;
esac
install -m 0755 "$here/guest/bench.sh" "$out/scx/payloads/bench.sh"
log "bench guest overlay: $out"
