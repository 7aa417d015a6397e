#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh <kernel-src-tree> <outdir> [variant]
#
# The "scx" suite for the guest: the BPF side of the production sched_ext
# schedulers of sched-ext/scx v1.0.8 (the release for 6.12), compiled on
# the host, and a static loader to verify them in the guest.
# <outdir> gets:
#
#   run-guest.sh       guest entry point (busybox sh)
#   run-sched.sh       guest: one C scheduler run briefly under load
#   no-run.txt         the C schedulers not run, with the reason
#   expected.txt       per object and program, the baseline kernel's verdict
#   not-built.txt      schedulers that did not build here, with the reason
#   kconfig            the tree's .config, for libbpf's __kconfig externs
#   <name>.bpf.o       one object per scheduler (scx_simple, scx_lavd, ...)
#   bin/scx_<name>     static: the C schedulers' own loaders (scheds/c)
#   bin/bpf-loadall    static: every program's verdict from as few whole-object
#                      loads as possible (bpf-loadall.c)
#   build-info.txt     tarball checksum, compiler, flags: for the record
#
# The scx sources come from $SCX_TARBALL (default
# ../shared/third-party/scx-v1.0.8-bpf.tar.xz next to the checkout), never
# from the repository: extracted once into $CACHE_DIR/third-party/, keyed by
# the tarball's sha256. Objects are built the way upstream's build does
# (meson for scheds/c, scx_utils::BpfBuilder for the Rust schedulers): the
# same flags, include dirs and link steps, but with clang-19 and our own
# libbpf linker (bpf-link.c) instead of bpftool / libbpf-rs.
#
# <tree> is only read: it gives libbpf (headers and the static library,
# built by scripts/build-veristat.sh, which bench/veristat.sh shares); the
# objects use the tarball's own vmlinux.h, the one these schedulers were
# written against. [variant] is only recorded.
# Intermediates: $SCX_SUITE_BUILD_DIR, default
# $CACHE_DIR/scx-suite-build/<tree's basename>.
# Environment: SCX_TARBALL, SCX_SUITE_BUILD_DIR, CLANG (clang-19).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$repo/scripts/lib.sh"

case $# in 2 | 3) ;; *) die "usage: $0 <kernel-src-tree> <outdir> [variant]" ;; esac
ksrc=$(readlink -f "$1")
[ -f "$ksrc/.config" ] || die "$ksrc/.config missing: not a configured kernel tree"
mkdir -p "$2"
out=$(cd "$2" && pwd)
variant=${3:-unknown}
CLANG=${CLANG:-clang-19}
SCX_TARBALL=${SCX_TARBALL:-$(dirname "$repo")/shared/third-party/scx-v1.0.8-bpf.tar.xz}
b=${SCX_SUITE_BUILD_DIR:-$CACHE_DIR/scx-suite-build/$(basename "$ksrc")}
[ -f "$SCX_TARBALL" ] || die "SCX_TARBALL=$SCX_TARBALL: no such file (the sched-ext/scx v1.0.8 BPF sources: set SCX_TARBALL=/path/to/scx-v1.0.8-bpf.tar.xz)"
command -v "$CLANG" >/dev/null || die "$CLANG not found: make deps"
case "$out/" in "$ksrc"/*) die "<outdir> must not be inside the kernel tree" ;; esac
mkdir -p "$b"
b=$(cd "$b" && pwd)

# 1. The sources, extracted once per tarball content. Concurrent payload
#    builds (one per kernel) share the extraction, hence the lock.
sum=$(sha256sum "$SCX_TARBALL" | cut -d' ' -f1)
src_root=$CACHE_DIR/third-party/scx-${sum:0:16}
mkdir -p "$CACHE_DIR/third-party"
(
	flock 9
	if [ ! -e "$src_root/.extracted" ]; then
		log "scx: extracting $(basename "$SCX_TARBALL") into $src_root"
		rm -rf "$src_root"
		mkdir -p "$src_root"
		tar -C "$src_root" -xJf "$SCX_TARBALL"
		echo "$sum" >"$src_root/.extracted"
	fi
) 9>"$CACHE_DIR/third-party/.scx-extract.lock"
scx=$(find "$src_root" -mindepth 1 -maxdepth 1 -type d -name 'scx-*' | head -n 1)
[ -d "$scx/scheds/include" ] || die "$src_root: no scx-*/scheds/include in the tarball"

# 2. libbpf and veristat from the tree; the linker against that libbpf.
"$repo/scripts/build-veristat.sh" "$ksrc" "$b/veristat"
libbpf=$b/veristat/libbpf/libbpf.a
libbpf_inc=$b/veristat/libbpf-install/include
# One fix, on a copy of the tree's libbpf linker.c (upstream libbpf commit
# "libbpf: Do not resolve size on duplicate FUNCs", after 6.12): when two
# inputs declare the same extern kfunc (every scheduler and lib/ declare
# scx_bpf_error_bstr), 6.12's linker tries to size the FUNC and fails with
# "failed to resolve size of underlying type". Upstream scx links with a
# newer libbpf's bpftool, so it never meets this. libbpf.a is one
# relocatable object, so the fixed linker.o replaces its bpf_linker__*
# functions by weakening them in a copy of the archive.
sed 's|^\(\t*\)dst_var = &dst_sec->sec_vars\[glob_sym->var_idx\];$|\1/* FUNCs have no size */\n\1if (btf_is_func(t))\n\1\tcontinue;\n&|' \
	"$ksrc/tools/lib/bpf/linker.c" >"$b/linker.c"
[ "$(diff "$ksrc/tools/lib/bpf/linker.c" "$b/linker.c" | grep -c '^>')" = 3 ] ||
	die "linker.c: the duplicate-FUNC fix did not apply as three added lines (another libbpf?)"
nice -n 10 gcc -O2 -Wall -c -I"$ksrc/tools/lib/bpf" -I"$ksrc/tools/include" \
	-I"$ksrc/tools/include/uapi" "$b/linker.c" -o "$b/linker.o"
objcopy -W bpf_linker__new -W bpf_linker__add_file -W bpf_linker__finalize \
	-W bpf_linker__free "$libbpf" "$b/libbpf-weak-linker.a"
nice -n 10 gcc -O2 -Wall -I"$libbpf_inc" "$here/bpf-link.c" "$b/linker.o" "$b/libbpf-weak-linker.a" \
	-lelf -lz -lzstd -o "$b/bpf-link"
# The guest's loader (bpf-loadall.c), static, against the same libbpf.
nice -n 10 gcc -O2 -Wall -static -I"$libbpf_inc" -I"$ksrc/tools/include/uapi" "$here/bpf-loadall.c" "$libbpf" \
	-lelf -lz -lzstd -o "$b/bpf-loadall"

# 3. The flags upstream uses for every BPF object (meson's bpf_base_cflags
#    and bpf_includes; BpfBuilder's are the same), with the compiler's
#    system include dirs after ours, as both do.
sys_incls=()
while read -r d; do sys_incls+=(-idirafter "$d"); done < <(
	"$CLANG" -v -E - </dev/null 2>&1 |
		sed -n '/^#include <\.\.\.> search starts here:$/,/^End of search list\.$/p' |
		sed '1d;$d;s/^ *//')
cflags=(-g -O2 -Wall -Wno-compare-distinct-pointer-types -D__TARGET_ARCH_x86
	-mcpu=v3 -mlittle-endian "${sys_incls[@]}" -target bpf -I"$libbpf_inc"
	-I"$scx/scheds/include" -I"$scx/scheds/include/arch/x86"
	-I"$scx/scheds/include/bpf-compat" -I"$scx/lib/include")

o=$b/obj
bpftool=$ksrc/tools/bpf/bpftool/bpftool
# What the objects and loaders are made from: rebuilt only when it changes
# (a payload build per kernel and check run would otherwise redo them).
key=$({
	echo "$sum"
	"$CLANG" --version | head -n 1
	sha256sum "$here/build.sh" "$here/bpf-link.c" "$libbpf" "$b/linker.c" "$bpftool" 2>&1 | cut -d" " -f1
} | sha256sum | cut -d" " -f1)
build_all() {
	rm -rf "$o"
	mkdir -p "$o"
	: >"$b/not-built.txt"
	built=()
	# not_built NAME REASON: listed, never silently dropped; the log says more.
	not_built() {
		warn "scx: $1 not built: $2 (log: $o/$1.log)"
		echo "$1 $2" >>"$b/not-built.txt"
	}
	# cc NAME SRC OBJ: one compilation unit, its messages in NAME's log.
	cc() {
		echo "+ $CLANG ${cflags[*]} -c $2 -o $3" >>"$o/$1.log"
		nice -n 10 "$CLANG" "${cflags[@]}" -c "$2" -o "$3" >>"$o/$1.log" 2>&1
	}

	# The library the C schedulers are linked with (meson: lib/ -> scx_lib).
	log "scx: lib (sdt_task)"
	if ! cc lib "$scx/lib/sdt_task.bpf.c" "$o/sdt_task.bpf.o" ||
		! "$b/bpf-link" "$o/lib.bpf.o" "$o/sdt_task.bpf.o" >>"$o/lib.log" 2>&1; then
		die "scx: lib/sdt_task.bpf.c does not build (log: $o/lib.log); every C scheduler links it"
	fi

	# C schedulers: every scheds/c/*.bpf.c, linked with the library as
	# meson's bpftool_build_skel does for what the loader embeds.
	for s in "$scx"/scheds/c/*.bpf.c; do
		n=$(basename "$s" .bpf.c)
		log "scx: $n (scheds/c)"
		if ! cc "$n" "$s" "$o/$n.unlinked.o"; then
			not_built "$n" "clang failed on scheds/c/$n.bpf.c"
		elif ! "$b/bpf-link" "$o/$n.bpf.o" "$o/$n.unlinked.o" "$o/lib.bpf.o" >>"$o/$n.log" 2>&1; then
			not_built "$n" "linking with lib.bpf.o failed"
		else
			built+=("$n")
		fi
	done

	# Rust schedulers: src/bpf's entry (main.bpf.c, or the only top-level
	# .bpf.c: scx_mitosis) plus every other .bpf.c there that no source
	# #includes (scx_layered's util/timer; scx_lavd #includes its parts), each
	# compiled on its own and linked, as BpfBuilder's compile_link_gen does.
	for d in "$scx"/scheds/rust/*/src/bpf; do
		n=$(basename "$(dirname "$(dirname "$d")")")
		log "scx: $n (scheds/rust)"
		srcs=()
		for f in "$d"/*.bpf.c; do
			grep -qs "^#include \"$(basename "$f")\"" "$d"/*.c || srcs+=("$f")
		done
		if [ "${#srcs[@]}" = 0 ]; then
			not_built "$n" "no BPF entry file in src/bpf"
			continue
		fi
		objs=() ok=1
		for f in "${srcs[@]}"; do
			u=$o/$n.$(basename "$f" .bpf.c).unlinked.o
			cc "$n" "$f" "$u" || { ok=0; not_built "$n" "clang failed on src/bpf/$(basename "$f")"; break; }
			objs+=("$u")
		done
		[ "$ok" = 1 ] || continue
		if "$b/bpf-link" "$o/$n.bpf.o" "${objs[@]}" >>"$o/$n.log" 2>&1; then
			built+=("$n")
		else
			not_built "$n" "linking $(for f in "${srcs[@]}"; do basename "$f"; done | paste -sd+) failed"
		fi
	done
	[ "${#built[@]}" -gt 0 ] || die "scx: no scheduler built"

	# The C schedulers' own user-space loaders (scheds/c/<name>.c), to run them
	# under load in the guest: a skeleton of the linked object from the tree's
	# bpftool (meson: bpftool gen skeleton), compiled statically against the
	# same libbpf. A loader that does not build is listed in not-built.txt:
	# its object then fails in the guest (the baseline ran it).
	mkdir -p "$b/user"
	runnable=()
	for s in "$scx"/scheds/c/*.c; do
		case "$s" in *.bpf.c) continue ;; esac
		n=$(basename "$s" .c)
		[ -e "$o/$n.bpf.o" ] || continue
		log "scx: $n (scheds/c user space)"
		if [ ! -x "$bpftool" ]; then
			not_built "$n" "no $bpftool for its skeleton (make payload builds it)"
		elif ! "$bpftool" gen skeleton "$o/$n.bpf.o" name "$n" >"$b/user/$n.bpf.skel.h" 2>>"$o/$n.log"; then
			not_built "$n" "bpftool gen skeleton failed"
		elif ! nice -n 10 gcc -O2 -Wall -static -I"$b/user" -I"$libbpf_inc" \
			-I"$scx/scheds/include" -I"$scx/scheds/include/arch/x86" -I"$scx/lib/include" \
			"$s" "$libbpf" -lelf -lz -lzstd -lpthread -lm -o "$b/user/$n" >>"$o/$n.log" 2>&1; then
			not_built "$n" "its loader scheds/c/$n.c does not compile"
		else
			runnable+=("$n")
		fi
	done
	printf '%s\n' "${built[@]}" >"$o/built.list"
	printf '%s\n' "${runnable[@]}" >"$o/runnable.list"
	cp "$b/not-built.txt" "$o/not-built.txt"
	echo "$key" >"$o/.key"
}
if [ "$(cat "$o/.key" 2>/dev/null)" = "$key" ]; then
	log "scx: objects and loaders up to date ($o)"
else
	build_all
fi
mapfile -t built <"$o/built.list"
mapfile -t runnable < <(grep . "$o/runnable.list" || true)
cp "$o/not-built.txt" "$b/not-built.txt"


# 4. The guest's directory.
rm -rf "$out"
mkdir -p "$out/bin"
install -m 0755 "$b/bpf-loadall" "$out/bin/bpf-loadall"
strip "$out/bin/bpf-loadall"
for n in "${built[@]}"; do install -m 0644 "$o/$n.bpf.o" "$out/$n.bpf.o"; done
for n in "${runnable[@]}"; do install -m 0755 "$b/user/$n" "$out/bin/$n"; done
[ "${#runnable[@]}" = 0 ] || strip "${runnable[@]/#/$out/bin/}"
install -m 0755 "$here/run-guest.sh" "$here/run-sched.sh" "$out/"
# the guest's one KTAP writer, for boots without the project's /scx too
mkdir -p "$out/lib"
install -m 0644 "$repo/initramfs/ktap.sh" "$repo/initramfs/t-glob.sh" "$out/lib/"
install -m 0644 "$here/no-run.txt" "$out/no-run.txt"
install -m 0644 "$here/expected.txt" "$out/expected.txt"
install -m 0644 "$b/not-built.txt" "$out/not-built.txt"
# The kernel's config for libbpf's __kconfig externs (the guest kernel has
# no /proc/config.gz): run-guest.sh puts it at /boot/config-$(uname -r).
install -m 0644 "$ksrc/.config" "$out/kconfig"
{
	echo "tarball $(basename "$SCX_TARBALL") sha256 $sum"
	echo "variant $variant tree $(basename "$ksrc")"
	echo "clang $("$CLANG" --version | head -n 1)"
	echo "cflags ${cflags[*]}" | sed "s|$scx|<scx>|g; s|$libbpf_inc|<libbpf>|g"
} >"$out/build-info.txt"
log "scx: ${#built[@]} objects (${built[*]}), ${#runnable[@]} C loaders, $(wc -l <"$b/not-built.txt") not built -> $out"
