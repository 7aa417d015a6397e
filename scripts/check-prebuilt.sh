#!/usr/bin/env bash
# make run/shell/check-one BZIMAGE=/path: a kernel built outside the cache
# boots with the project's initramfs for variant V, whose payload (runner,
# schedulers, the project's tests) is built against V's cached tree. Before
# anything is built: is BZIMAGE an x86 bzImage, and is V's tree built? The
# kernel itself is never built here; one line says what is wrong.
#
# Usage: check-prebuilt.sh BZIMAGE TREE VARIANT
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 BZIMAGE TREE VARIANT"
bz=$1 tree=$2 v=$3

[ -f "$bz" ] || die "BZIMAGE=$bz: no such file (want a kernel's arch/x86/boot/bzImage)"
# The x86 boot protocol's "HdrS" magic at 0x202 marks a bzImage.
magic=$(dd if="$bz" bs=1 skip=514 count=4 2>/dev/null || true)
[ "$magic" = HdrS ] || die "BZIMAGE=$bz: not an x86 bzImage (no HdrS boot header at 0x202)"
[ -f "$tree/vmlinux" ] ||
	die "BZIMAGE=$bz boots with the V=$v initramfs, built against V=$v's cached tree, which is not built ($tree): make kernel V=$v once, or pick a built V="
