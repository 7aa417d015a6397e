#!/usr/bin/env bash
# Stage 5: the guest's userspace payload, built against a variant's tree.
#
# - tools/testing/selftests/sched_ext: `runner` (BPF objects are embedded
#   as skeletons)
# - tools/sched_ext: scx_simple scx_qmap scx_central scx_flatcg
# - tools/bpf/bpftool: for poking around in `make shell`
# - hook: selftests/build.sh TREE OUTDIR VARIANT, if present and executable,
#   whose OUTDIR is packed at /selftests
# - hook: selftests/sched-load/build.sh, the same way, packed at /sched-load
# - hook: selftests/scx/build.sh, the same way, packed at /scx-suite
#
# Everything is staged under OUT as a root-filesystem overlay (OUT/usr/bin,
# OUT/selftests); shared libraries are resolved later by the initramfs
# builder. The tools' own Makefiles decide what to rebuild.
#
# VARIANT is the kind of kernel, patched|baseline (what the project tests
# expect); it is also baked in as /scx/variant. SCX_REFUSAL (env) is what
# the variant's verifier refusals name after "is not allowed" ("plain":
# nothing), baked in as /scx/refusal.
#
# Usage: build-payload.sh TREE VARIANT OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$here/lib.sh"

[ $# -eq 3 ] || die "usage: $0 TREE VARIANT OUT"
tree=$(readlink -f "$1") variant=$2 out=$3
[ -f "$tree/vmlinux" ] || die "$tree/vmlinux missing: build the kernel first (make kernel)"

# Build the tools as if run by hand, not as a sub-make of our Makefile
# (tools_make in scripts/lib.sh says why); the hooks below run make too.
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES

# The tools build in the tree; one payload build per tree at a time.
exec 8>"$tree/.scx-payload.lock"
flock -n 8 || { log "waiting for another build of this payload ($tree/.scx-payload.lock)" && flock 8; }

log "payload $variant: sched_ext selftests runner"
run_logged "$tree/.scx-selftests-build.log" \
	tools_make -C "$tree/tools/testing/selftests/sched_ext" ||
	die "building tools/testing/selftests/sched_ext failed; log: $tree/.scx-selftests-build.log"

log "payload $variant: example schedulers (tools/sched_ext)"
run_logged "$tree/.scx-tools-build.log" tools_make -C "$tree/tools/sched_ext" ||
	die "building tools/sched_ext failed; log: $tree/.scx-tools-build.log"

# bpftool without the optional LLVM/libbfd disassemblers: they would drag
# 100+ MB of libraries into the initramfs.
log "payload $variant: bpftool"
run_logged "$tree/.scx-bpftool-build.log" \
	tools_make -C "$tree/tools/bpf/bpftool" feature-llvm=0 feature-libbfd=0 \
	feature-libbfd-liberty=0 feature-libbfd-liberty-z=0 ||
	die "building tools/bpf/bpftool failed; log: $tree/.scx-bpftool-build.log"

rm -rf "$out"
mkdir -p "$out/usr/bin" "$out/scx"
echo "$variant" >"$out/scx/variant"
# What the kernel's verifier refusals name (the Makefile's variant table).
printf '%s\n' "${SCX_REFUSAL:-}" >"$out/scx/refusal"
# The variant's name (core, full, ...), for expectations per variant.
printf '%s\n' "${SCX_VARIANT_NAME:-$variant}" >"$out/scx/variant-name"
install -m 0755 "$tree/tools/testing/selftests/sched_ext/runner" "$out/usr/bin/runner"
for s in scx_simple scx_qmap scx_central scx_flatcg; do
	install -m 0755 "$tree/tools/sched_ext/build/bin/$s" "$out/usr/bin/$s"
done
install -m 0755 "$tree/tools/bpf/bpftool/bpftool" "$out/usr/bin/bpftool"
# Debug info is not needed in the guest and triples the initramfs.
"llvm-strip$LLVM_SUFFIX" --strip-debug "$out"/usr/bin/*

hook="$repo/selftests/build.sh"
if [ -x "$hook" ]; then
	log "payload $variant: project selftests ($hook)"
	mkdir -p "$out/selftests"
	"$hook" "$tree" "$out/selftests" "$variant" ||
		die "selftests/build.sh failed for $variant (tree $tree)"
elif [ -e "$hook" ]; then
	warn "$hook exists but is not executable; not building the project selftests"
fi

# The real schedulers under load (selftests/sched-load), packed at
# /sched-load. Its intermediates (a copy of tools/, libbpf, objects) stay in
# the tree's dot dir, so the next payload build is incremental.
hook="$repo/selftests/sched-load/build.sh"
if [ -x "$hook" ]; then
	log "payload $variant: sched-load ($hook)"
	run_logged "$tree/.scx-sched-load-build.log" \
		env SCHED_LOAD_BUILD_DIR="$tree/.scx-sched-load-build" \
		"$hook" "$tree" "$out/sched-load" "$variant" ||
		die "selftests/sched-load/build.sh failed for $variant; log: $tree/.scx-sched-load-build.log"
elif [ -e "$hook" ]; then
	warn "$hook exists but is not executable; not building sched-load"
fi

# The production schedulers of sched-ext/scx (selftests/scx), packed at
# /scx-suite; intermediates in the tree's dot dir, like sched-load's.
hook="$repo/selftests/scx/build.sh"
if [ -x "$hook" ]; then
	log "payload $variant: scx suite ($hook)"
	run_logged "$tree/.scx-suite-build.log" \
		env SCX_SUITE_BUILD_DIR="$tree/.scx-suite-build" \
		"$hook" "$tree" "$out/scx-suite" "$variant" || {
		# only this suite fails (the guest reports it as not in the
		# initramfs), not every other test of the kernel
		rm -rf "$out/scx-suite"
		warn "selftests/scx/build.sh failed for $variant: the scx suite will fail; log: $tree/.scx-suite-build.log"
	}
elif [ -e "$hook" ]; then
	warn "$hook exists but is not executable; not building the scx suite"
fi
log "payload $variant: staged in $out"
