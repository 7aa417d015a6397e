#!/usr/bin/env bash
# The kernel tree's own perf (tools/perf), static, for the bench guest's
# `perf bench sched pipe|messaging`: features off (no libelf, traceevent,
# python...), since the sched benchmarks need none of them. Cached under
# $CACHE_DIR/bench/perf-<git tree id of tools/perf>: the series does not
# touch tools/perf, so both kernels share one build, and a tree whose
# tools/perf differs gets its own.
#
# Prints the perf binary's path (last line). About 90 s on 2 cores.
# Usage: bench/build-perf.sh TREE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 1 ] || die "usage: $0 TREE"
tree=$(readlink -f "$1")
[ -d "$tree/tools/perf" ] || die "$tree/tools/perf: no such directory (a kernel tree?)"
for t in flex bison gcc readelf; do
	command -v "$t" >/dev/null || die "$t not found (make deps)"
done
id=$(git -C "$tree" rev-parse HEAD:tools/perf 2>/dev/null) ||
	die "$tree is not a git worktree of the pristine tree: cannot key the perf build"
# a worktree with local changes in tools/perf would not match its id
[ -z "$(git -C "$tree" status --porcelain -- tools/perf)" ] ||
	die "$tree/tools/perf has uncommitted changes: the cache key would lie"
out="$CACHE_DIR/bench/perf-${id:0:12}"
if [ ! -x "$out/perf" ]; then
	mkdir -p "$out.tmp"
	log "perf: building $tree/tools/perf, static (once per tools/perf; about 90 s)"
	run_logged "$CACHE_DIR/bench/perf-build.log" nice -n 10 make -C "$tree/tools/perf" O="$out.tmp" -j"$(nproc)" \
		LDFLAGS=-static WERROR=0 NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_LIBPYTHON=1 NO_LIBPERL=1 \
		NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DEMANGLE=1 \
		NO_LIBNUMA=1 NO_LIBAUDIT=1 NO_LIBBPF=1 NO_LIBCRYPTO=1 NO_LIBCAP=1 NO_JVMTI=1 \
		NO_LIBBABELTRACE=1 NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 NO_AUXTRACE=1 NO_LIBLLVM=1 \
		NO_LIBPFM4=1 NO_SDT=1 NO_CAPSTONE=1 perf ||
		die "perf did not build: see $CACHE_DIR/bench/perf-build.log"
	# (grep -c reads all: grep -q under pipefail can fail on SIGPIPE)
	[ "$(readelf -l "$out.tmp/perf" | grep -c INTERP || true)" = 0 ] ||
		die "$out.tmp/perf is not static: the guest has no shared libraries"
	strip "$out.tmp/perf"
	# only the binary is kept (the objects are some 100 MB)
	rm -rf "$out"
	mkdir -p "$out"
	mv "$out.tmp/perf" "$out/perf"
	rm -rf "$out.tmp"
fi
echo "$out/perf"
