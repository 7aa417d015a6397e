#!/usr/bin/env bash
# Boot a built kernel tree with its own in-tree sched_ext selftests: build
# the tree's tools/testing/selftests/sched_ext runner against its vmlinux,
# pack it with the guest suites, boot the tree's bzImage and print the KTAP
# report (scripts/ktap-report.sh) of the scx-selftests suite. Used by
# check-series.sh at every patch and by table-mutation.sh.
#
# Files land in the tree: .scx-boot-build-TAG.log, .scx-boot-TAG.cpio and
# .scx-boot-console-TAG.log.
#
# Usage: intree-boot.sh TREE TAG [KERNEL_CMDLINE_WORD...]
#   e.g. intree-boot.sh TREE mutation scx.t=scx-selftest:kfunc_context_matrix
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$here/lib.sh"
. "$here/ktap-write.sh"

[ $# -ge 2 ] || die "usage: $0 TREE TAG [KERNEL_CMDLINE_WORD...]"
dir=$1 tag=$2
shift 2
[ -f "$dir/arch/x86/boot/bzImage" ] || die "$dir: no arch/x86/boot/bzImage (build the tree first)"

pl=$dir/.scx-boot-payload rc=0
rm -rf "$pl"
mkdir -p "$pl/usr/bin" "$pl/scx"
# as scripts/build-payload.sh builds it
tools_make -C "$dir/tools/testing/selftests/sched_ext" >"$dir/.scx-boot-build-$tag.log" 2>&1 || {
	kt_not_ok build "the in-tree selftests did not build: $(grep -m3 -E 'error' "$dir/.scx-boot-build-$tag.log" | paste -sd' ' -)"
	kt_totals
	exit 1
}
install -m 0755 "$dir/tools/testing/selftests/sched_ext/runner" "$pl/usr/bin/runner"
echo patched >"$pl/scx/variant"
"$repo/initramfs/build-initramfs.sh" "$dir" "$dir/.scx-boot-$tag.cpio" "$pl" >/dev/null 2>&1
"$repo/run-qemu.sh" --kernel "$dir/arch/x86/boot/bzImage" --initrd "$dir/.scx-boot-$tag.cpio" \
	--log "$dir/.scx-boot-console-$tag.log" --timeout 1200 \
	--append "scx.payload=check scx.t=scx-selftest scx.sched_load=off $*" >/dev/null 2>&1 || rc=$?
# A tree at one patch of the series runs that patch's set of in-tree tests,
# which scripts/intree-exits.txt (the variants' final sets) does not list.
SCX_EXIT_KINDS=off exec "$here/ktap-report.sh" --qemu-rc "$rc" "$dir/.scx-boot-console-$tag.log"
