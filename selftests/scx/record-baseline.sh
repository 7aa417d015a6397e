#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# record-baseline.sh BASELINE_TREE [RUN_TREE]
#
# Boots a built kernel under QEMU with only the scx suite in its
# initramfs and runs it twice over (scx.scx_reps, default 2; SCX_REPS= to
# change): every object loaded, every C scheduler run under load. For BASELINE_TREE alone, writes
# selftests/scx/expected.txt from the console log (gen-expected.sh: a
# verdict that differs between the two runs is "flaky"). With RUN_TREE
# (a series kernel), boots that one instead and only reports: its KTAP
# lines, compared against the committed expected.txt. No kernel is built.
#
# Output: $SCX_RECORD_DIR (default $CACHE_DIR/scx-suite-record/<tree>):
# payload/, initramfs.cpio, console.log.
# Environment: SCX_REPS, SCX_RECORD_DIR, SCX_TIMEOUT (seconds, 3600),
# QEMU_ARGS (extra run-qemu.sh options).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/lib.sh
. "$repo/scripts/lib.sh"

case $# in 1 | 2) ;; *) die "usage: $0 BASELINE_TREE [RUN_TREE]" ;; esac
base=$(readlink -f "$1")
t=$(readlink -f "${2:-$1}")
[ -f "$t/arch/x86/boot/bzImage" ] || die "$t/arch/x86/boot/bzImage missing: that kernel is not built"
variant=baseline
[ "$t" = "$base" ] || variant=patched
d=${SCX_RECORD_DIR:-$CACHE_DIR/scx-suite-record/$(basename "$t")}
read -r -a qemu_extra <<<"${QEMU_ARGS:-}"

mkdir -p "$d"
ov=$d/overlay
rm -rf "$ov"
mkdir -p "$ov/scx/payloads"
"$here/build.sh" "$t" "$ov/scx-suite" "$variant"
# A payload of its own, so nothing else runs (check.sh would also run the
# other suites).
printf '#!/bin/sh\nexec /scx-suite/run-guest.sh\n' >"$ov/scx/payloads/scx-suite.sh"
chmod 0755 "$ov/scx/payloads/scx-suite.sh"
"$repo/initramfs/build-initramfs.sh" "$t" "$d/initramfs.cpio" "$ov"

log "scx: booting $(basename "$t") (TCG; every object loaded ${SCX_REPS:-2} times)"
rc=0
nice -n 10 "$repo/run-qemu.sh" --kernel "$t/arch/x86/boot/bzImage" --initrd "$d/initramfs.cpio" \
	--log "$d/console.log" --timeout "${SCX_TIMEOUT:-3600}" --smp 2 \
	--append "scx.payload=scx-suite scx.scx_reps=${SCX_REPS:-2}" \
	"${qemu_extra[@]}" >/dev/null 2>"$d/run-qemu.err" || rc=$?
tr -d '\r' <"$d/console.log" | grep -E '^(# |(not )?ok [0-9]+ |1\.\.[0-9]+$)' | grep -v '^# time: ' || true
log "scx: guest exit $rc; console log $d/console.log"
# run-qemu.sh's 64 and above are the boot's own failures (timeout, splat,
# QEMU killed): a partial run must not become the expected list.
[ "$rc" -lt 64 ] || die "scx: the boot failed (run-qemu.sh exit $rc, $d/run-qemu.err); expected.txt left as it was"
if [ "$variant" = baseline ]; then
	"$here/gen-expected.sh" "$d/console.log" >"$d/expected.txt"
	cp "$d/expected.txt" "$here/expected.txt"
	log "scx: wrote $here/expected.txt ($(grep -vc '^#' "$here/expected.txt") programs)"
fi
