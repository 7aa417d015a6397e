#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh <kernel-src-tree> <outdir> <variant>
#
# Builds the sched_ext kfunc-filter tests for the guest into <outdir>:
#
#   run-guest.sh      the guest entry point (busybox sh): run-guest.sh <variant>
#   bin/scxk          the loader/runner, statically linked
#   matrix/           cells.tsv and one mx_<op>.bpf.o per sched_ext_ops member
#   callsite/         cells.tsv, groups and one cs_<site>_<op>.bpf.o per call
#                     site and arming op (matrix/callsite.py)
#   cases/            cases.list and one <case>.bpf.o per negative/positive pair
#   async/            async.list and one <case>.bpf.o per async-callback case
#   progs/            progs.list and progs.bpf.o (syscall, fentry, dummy struct_ops)
#
# Nothing else lands in <outdir>: it is packed into the guest as it is.  The
# intermediates (libbpf, bpftool, vmlinux.h, the generated C) go to
# $SCXK_BUILD_DIR, by default $CACHE_DIR/selftests-build/<hash of tree and
# outdir> (CACHE_DIR: the pipeline's cache, ~/.cache/scx-kfilter, so that
# make clean-cache removes it), so that rebuilds are incremental.
#
# The tree is only read: libbpf and bpftool build with OUTPUT=.  The
# kernel's vmlinux (for BTF) is $VMLINUX if set, else $KBUILD_OUTPUT/vmlinux,
# else <tree>/vmlinux.  <variant> (patched|baseline) is recorded in
# <outdir>/variant; the tests themselves are the same for both.
#
# Environment: CLANG (clang-19), CC (gcc), JOBS (2), VMLINUX, KBUILD_OUTPUT,
# SCXK_BUILD_DIR.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 <kernel-src-tree> <outdir> <variant>" >&2
	exit 2
fi
case "$3" in patched|baseline) ;; *) echo "$0: variant must be patched or baseline" >&2; exit 2;; esac

HERE=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
VARIANT=$3
B=${SCXK_BUILD_DIR:-${CACHE_DIR:-$HOME/.cache/scx-kfilter}/selftests-build/$(echo "$TREE $OUT" | sha256sum | cut -c1-12)}
CLANG=${CLANG:-clang-19}
CC=${CC:-gcc}
JOBS=${JOBS:-2}
NICE="nice -n 10"

VMLINUX=${VMLINUX:-}
if [ -z "$VMLINUX" ]; then
	for v in ${KBUILD_OUTPUT:+"$KBUILD_OUTPUT/vmlinux"} "$TREE/vmlinux"; do
		if [ -f "$v" ]; then VMLINUX=$v; break; fi
	done
fi
[ -f "$VMLINUX" ] || { echo "$0: no vmlinux (set VMLINUX or KBUILD_OUTPUT)" >&2; exit 1; }

step() { echo "build.sh: $*"; }
# shellcheck disable=SC2115 # OUT is $(cd DIR && pwd): never empty
rm -rf "$OUT/bin" "$OUT/matrix" "$OUT/callsite" "$OUT/cases" "$OUT/async" "$OUT/progs"
mkdir -p "$B/libbpf" "$B/bpftool" "$OUT/bin" "$OUT/matrix" "$OUT/callsite" "$OUT/cases" "$OUT/progs"
step "intermediates in $B"

step "libbpf from $TREE/tools/lib/bpf"
$NICE make -s -j"$JOBS" -C "$TREE/tools/lib/bpf" OUTPUT="$B/libbpf/" \
	DESTDIR="$B/libbpf-install" prefix= EXTRA_CFLAGS="-O2 -g" \
	"$B/libbpf/libbpf.a" install_headers >/dev/null

step "bpftool (bootstrap) from $TREE/tools/bpf/bpftool"
$NICE make -s -j"$JOBS" -C "$TREE/tools/bpf/bpftool" OUTPUT="$B/bpftool/" bootstrap >/dev/null
BPFTOOL=$B/bpftool/bootstrap/bpftool

step "vmlinux.h from $VMLINUX"
mkdir -p "$B/include"
"$BPFTOOL" btf dump file "$VMLINUX" format c > "$B/include/vmlinux.h.tmp"
mv "$B/include/vmlinux.h.tmp" "$B/include/vmlinux.h"

step "matrix programs (spec checked against 6.12's kernel/sched/ext.c)"
# the spec says what 6.12 does: gen.py checks it against 6.12's source,
# whichever kernel this is (matrix/ref-ext.sh finds it)
"$HERE/matrix/ref-ext.sh" "$TREE" > "$B/ref-ext.c.tmp"
mv "$B/ref-ext.c.tmp" "$B/ref-ext.c"
rm -rf "$B/matrix"
python3 "$HERE/matrix/gen.py" --ref "$B/ref-ext.c" --tree "$TREE" \
	--vmlinux-h "$B/include/vmlinux.h" --out "$B/matrix" --cases "$HERE/cases/cases.list"
rm -rf "$B/callsite"
python3 "$HERE/matrix/callsite.py" --ref "$B/ref-ext.c" --tree "$TREE" \
	--vmlinux-h "$B/include/vmlinux.h" --out "$B/callsite"

SYS_INCLUDES=$($CLANG -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
BPF_CFLAGS="-g -O2 --target=bpf -mcpu=v3 -D__TARGET_ARCH_x86 -mlittle-endian
	-I$B/include -I$B/libbpf-install/include -I$TREE/tools/sched_ext/include
	-I$HERE/include -I$HERE/matrix -I$HERE/cases $SYS_INCLUDES
	-Wall -Werror -Wno-compare-distinct-pointer-types -Wno-unused-variable"

# bpfcc <src> <obj> [extra flags]: compile and strip DWARF (BTF stays)
bpfcc() {
	# shellcheck disable=SC2086 # NICE, CLANG and BPF_CFLAGS are command words: split on purpose
	$NICE $CLANG $BPF_CFLAGS "${@:3}" -c "$1" -o "$2.tmp" &&
	llvm-strip-19 -g "$2.tmp" -o "$2" &&
	rm -f "$2.tmp"
}
export -f bpfcc
export CLANG BPF_CFLAGS NICE

# shellcheck disable=SC2011,SC2016 # generated mx_*.bpf.c names have no blanks; $1 $2 are the inner bash's
ls "$B"/matrix/mx_*.bpf.c | xargs -P"$JOBS" -I{} bash -c \
	'bpfcc "$1" "$2/$(basename "$1" .c).o"' _ {} "$OUT/matrix"
cp "$B/matrix/cells.tsv" "$OUT/matrix/"

step "call-site matrix programs"
# shellcheck disable=SC2011,SC2016 # generated cs_*.bpf.c names have no blanks; $1 $2 are the inner bash's
ls "$B"/callsite/cs_*.bpf.c | xargs -P"$JOBS" -I{} bash -c \
	'bpfcc "$1" "$2/$(basename "$1" .c).o"' _ {} "$OUT/callsite"
cp "$B/callsite/cells.tsv" "$B/callsite/groups" "$B/callsite/known" "$OUT/callsite/"

step "negative/positive schedulers"
for src in "$HERE"/cases/*.bpf.c; do
	name=$(basename "$src" .bpf.c)
	bpfcc "$src" "$OUT/cases/$name.bpf.o" -DCASE_NAME="\"${name//-/_}\""
done
cp "$HERE/cases/cases.list" "$OUT/cases/"
# every case in the list has its object, and every object its line
# shellcheck disable=SC2013 # case names: one word each
for name in $(grep -v '^#' "$OUT/cases/cases.list" | awk 'NF { print $1 }'); do
	[ -f "$OUT/cases/$name.bpf.o" ] || { echo "build.sh: cases.list: no cases/$name.bpf.c" >&2; exit 1; }
done

step "async-callback schedulers"
mkdir -p "$OUT/async"
for src in "$HERE"/async/*.bpf.c; do
	name=$(basename "$src" .bpf.c)
	bpfcc "$src" "$OUT/async/$name.bpf.o" -I"$HERE/async" -DCASE_NAME="\"${name//-/_}\""
done
cp "$HERE/async/async.list" "$OUT/async/"
# shellcheck disable=SC2013 # async case names: one word each
for name in $(grep -v '^#' "$OUT/async/async.list" | awk -F'|' 'NF > 1 { gsub(/[ \t]/, "", $1); print $1 }'); do
	[ -f "$OUT/async/$name.bpf.o" ] || { echo "build.sh: async.list: no async/$name.bpf.c" >&2; exit 1; }
done

step "other program types"
bpfcc "$HERE/progs/progs.bpf.c" "$OUT/progs/progs.bpf.o"
bpfcc "$HERE/progs/freplace-target.bpf.c" "$OUT/progs/freplace-target.bpf.o"
bpfcc "$HERE/progs/freplace-ext.bpf.c" "$OUT/progs/freplace-ext.bpf.o"
bpfcc "$HERE/progs/task-cgroup-target.bpf.c" "$OUT/progs/task-cgroup-target.bpf.o"
bpfcc "$HERE/progs/task-cgroup-ext.bpf.c" "$OUT/progs/task-cgroup-ext.bpf.o"
bpfcc "$HERE/progs/task-cgroup-tailcall.bpf.c" "$OUT/progs/task-cgroup-tailcall.bpf.o"
bpfcc "$HERE/progs/task-cgroup-ops.bpf.c" "$OUT/progs/task-cgroup-ops.bpf.o"
bpfcc "$HERE/progs/syscall-move.bpf.c" "$OUT/progs/syscall-move.bpf.o"
bpfcc "$HERE/progs/task-cgroup-trace.bpf.c" "$OUT/progs/task-cgroup-trace.bpf.o"
cp "$HERE/progs/progs.list" "$OUT/progs/"

step "scxk (static)"
# src/scxk.c: the core and the subcommand table; src/scxk-*.c: one file per family
# shellcheck disable=SC2086 # NICE and CC are command words: split on purpose
$NICE $CC -O2 -g -Wall -Werror -static \
	-I"$B/libbpf-install/include" -I"$TREE/tools/include/uapi" \
	"$HERE"/src/scxk*.c "$B/libbpf/libbpf.a" -lelf -lz -lzstd \
	-o "$OUT/bin/scxk"

mkdir -p "$OUT/intree-diff"
cp "$HERE/intree-diff/intree-diff.list" "$OUT/intree-diff/"
install -m 0755 "$HERE/intree-diff/intree-diff.sh" "$OUT/intree-diff/"
install -m 0755 "$HERE/run-guest.sh" "$OUT/run-guest.sh"
echo "$VARIANT" > "$OUT/variant"
# shellcheck disable=SC2012 # counts our own *.bpf.o files
step "done: $(grep -vc "^#" "$OUT/matrix/cells.tsv") matrix cells, $(grep -vc "^#" "$OUT/callsite/cells.tsv") call-site cells, $(ls "$OUT"/cases/*.bpf.o | wc -l) cases -> $OUT"
