#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh <kernel-src-tree> <outdir> <variant>
#
# Builds the sched_ext load tests for the guest into <outdir>:
#
#   run-guest.sh   guest entry point (busybox sh): run-guest.sh <variant> [quick|full]
#   lib/*.sh       the parts run-guest.sh sources (results, loadgen and scheduler
#                  control, the kinds of runs, hotplug)
#   runs.list      what run-guest.sh runs (one line per run, see the file)
#   log-patterns   kernel log lines that fail any run (extended regexps)
#   known-splats   the project's scripts/known-splats.txt (REGEX;WHY lines)
#   known-splats.awk  scripts/known-splats.awk, which applies them
#   splat-patterns the project's scripts/splat-patterns.txt (what a splat is)
#   bin/loadgen    the load generator (loadgen*.c), static
#   bin/scx_*      every scheduler in <tree>/tools/sched_ext (the Makefile's
#                  c-sched-targets), relinked statically: nothing else to copy
#   variant        <variant>, for the record
#   build/         intermediates (copied tools/ subtree with tool-fixes/*.patch
#                  applied, libbpf, bpftool,
#                  vmlinux.h, objects): not needed in the guest;
#                  $SCHED_LOAD_BUILD_DIR instead if set (outside the tree)
#
# The tree is only read.  tools/sched_ext's Makefile writes next to its
# sources in places (and derives paths from ../../), so the tools/ subtrees
# it needs are copied to <outdir>/build/src/tools (mtimes kept, so rebuilds
# are incremental) and everything else in <outdir>/build/src is a symlink
# into the tree.  The build output goes to O=<outdir>/build/scx.
#
# The kernel's vmlinux (for BTF) is $VMLINUX if set, else
# $KBUILD_OUTPUT/vmlinux, else <tree>/vmlinux.
#
# Environment: CLANG (clang-19), LLVM_STRIP (llvm-strip-19), CC (gcc),
# JOBS (2), VMLINUX, KBUILD_OUTPUT, SCHED_LOAD_BUILD_DIR.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 <kernel-src-tree> <outdir> <variant>" >&2
	exit 2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
VARIANT=$3
# Intermediates: <outdir>/build unless SCHED_LOAD_BUILD_DIR says otherwise
# (the payload build wipes <outdir> every time and keeps them elsewhere).
B=${SCHED_LOAD_BUILD_DIR:-$OUT/build}
CLANG=${CLANG:-clang-19}
LLVM_STRIP=${LLVM_STRIP:-llvm-strip-19}
CC=${CC:-gcc}
JOBS=${JOBS:-2}
NICE="nice -n 10"

step() { echo "build.sh: $*"; }
die() { echo "build.sh: error: $*" >&2; exit 1; }

VMLINUX=${VMLINUX:-}
if [ -z "$VMLINUX" ]; then
	for v in ${KBUILD_OUTPUT:+"$KBUILD_OUTPUT/vmlinux"} "$TREE/vmlinux"; do
		if [ -f "$v" ]; then VMLINUX=$v; break; fi
	done
fi
[ -f "$VMLINUX" ] || die "no vmlinux (set VMLINUX or KBUILD_OUTPUT)"
VMLINUX=$(cd "$(dirname "$VMLINUX")" && pwd)/$(basename "$VMLINUX")
[ -f "$TREE/tools/sched_ext/Makefile" ] || die "$TREE/tools/sched_ext/Makefile: not found"
case "$OUT/" in "$TREE"/*) die "<outdir> must not be inside the kernel tree" ;; esac

mkdir -p "$OUT/bin" "$B"
B=$(cd "$B" && pwd)
# (a dot dir at the top of the tree is fine: the shadow tree links only *)
case "$B/" in "$TREE"/tools/*|"$TREE"/[!.]*) die "the build dir must not be inside the kernel tree (except a top-level dot dir)" ;; esac

step "loadgen (static)"
# loadgen.c: options, setup, the run; loadgen-workers.c, loadgen-cgroup.c
$NICE "$CC" -static -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -pthread \
	"$HERE"/loadgen*.c -o "$OUT/bin/loadgen.tmp"
mv "$OUT/bin/loadgen.tmp" "$OUT/bin/loadgen"

# Shadow source tree: symlinks to the tree, but a real copy of the tools/
# parts the sched_ext build uses, so nothing can be written into <tree>.
step "shadow tree $B/src -> $TREE"
SRC=$B/src
mkdir -p "$SRC/tools"
for e in "$TREE"/*; do
	name=$(basename "$e")
	[ "$name" = tools ] && continue
	ln -sfn "$e" "$SRC/$name"
done
for d in arch build include lib scripts bpf sched_ext; do
	[ -d "$TREE/tools/$d" ] || die "$TREE/tools/$d: not found"
	mkdir -p "$SRC/tools/$d"
	cp -a "$TREE/tools/$d/." "$SRC/tools/$d/"
done
# Fixes to the schedulers' own user-space bugs (tool-fixes/*.patch, each
# says why), applied to the fresh copy every time; the tree stays pristine.
for p in "$HERE"/tool-fixes/*.patch; do
	[ -e "$p" ] || continue
	step "tool fix $(basename "$p")"
	patch -s -d "$SRC" -p1 --no-backup-if-mismatch < "$p" ||
		die "$(basename "$p") does not apply to $TREE/tools"
done

SCHEDS=$(sed -n 's/^c-sched-targets[[:space:]]*=[[:space:]]*//p' \
	"$SRC/tools/sched_ext/Makefile")
[ -n "$SCHEDS" ] || die "no c-sched-targets in tools/sched_ext/Makefile"
step "schedulers: $SCHEDS (BTF from $VMLINUX)"

# CC stays the host compiler for the user-space halves (the Makefile's
# -Werror flags are known good with gcc); CLANG compiles the BPF halves.
SCX_O=$B/scx
mkdir -p "$SCX_O"
start=$(date +%s)
$NICE make -s -j"$JOBS" -C "$SRC/tools/sched_ext" O="$SCX_O" \
	VMLINUX_BTF="$VMLINUX" CC="$CC" CLANG="$CLANG" LLVM_STRIP="$LLVM_STRIP" \
	all > "$B/scx-make.log" 2>&1 || {
		tail -n 40 "$B/scx-make.log" >&2
		die "tools/sched_ext build failed (log: $B/scx-make.log)"
	}
step "tools/sched_ext built in $(( $(date +%s) - start ))s"

# The Makefile links dynamically (-lelf -lz); relink each scheduler from
# its object and libbpf.a, statically, so the guest needs no libraries.
OBJ=$SCX_O/build/obj
[ -f "$OBJ/libbpf/libbpf.a" ] || die "$OBJ/libbpf/libbpf.a: not found"
for s in $SCHEDS; do
	[ -f "$OBJ/sched_ext/$s.o" ] || die "$OBJ/sched_ext/$s.o: not found"
	$NICE "$CC" -static -o "$OUT/bin/$s.tmp" "$OBJ/sched_ext/$s.o" \
		"$OBJ/libbpf/libbpf.a" -lelf -lz -lzstd -lpthread
	mv "$OUT/bin/$s.tmp" "$OUT/bin/$s"
done

install -m 0755 "$HERE/run-guest.sh" "$OUT/run-guest.sh"
# run-guest.sh sources its parts from lib/ next to it
rm -rf "${OUT:?}/lib"
mkdir -p "$OUT/lib"
install -m 0644 "$HERE"/lib/*.sh "$OUT/lib/"
# the guest's one KTAP writer and T= matcher (initramfs/), for boots
# without the project's /scx too
install -m 0644 "$HERE/../../initramfs/ktap.sh" "$HERE/../../initramfs/t-glob.sh" "$OUT/lib/"
install -m 0644 "$HERE/runs.list" "$HERE/log-patterns" "$OUT/"
# The project's known splats: a run that hits only these is skipped, not
# passed (run-guest.sh).  Kept in sync with what the host report ignores.
KNOWN=$HERE/../../scripts/known-splats.txt
if [ -f "$KNOWN" ]; then
	install -m 0644 "$KNOWN" "$OUT/known-splats"
else
	echo "# no scripts/known-splats.txt: every splat fails a run" > "$OUT/known-splats"
fi
# ... and the matching, the host's own (busybox awk runs it in the guest)
install -m 0644 "$HERE/../../scripts/known-splats.awk" "$OUT/known-splats.awk"
# The host's splat patterns: one list of what a splat is, for both.
install -m 0644 "$HERE/../../scripts/splat-patterns.txt" "$OUT/splat-patterns"
echo "$VARIANT" > "$OUT/variant"
echo "$VMLINUX" > "$OUT/vmlinux-btf"
step "done: $(cd "$OUT/bin" && echo *) -> $OUT"
