#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dev/boot.sh <bzImage> <outdir> <variant> [command]
#
# For development only (the pipeline has its own initramfs and QEMU stages):
# packs <outdir> and busybox into a throw-away initramfs,
# boots <bzImage> under QEMU/TCG and runs "<outdir>/run-guest.sh <variant>"
# (or [command]) as /init; the console goes to stdout.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 <bzImage> <outdir> <variant> [command]" >&2; exit 2; }
KERNEL=$1 OUT=$(cd "$2" && pwd) CMD=${4:-/t/run-guest.sh $3}
R=$(mktemp -d /tmp/scxk-initramfs.XXXXXX)
trap 'rm -rf "$R"' EXIT

mkdir -p "$R"/{bin,dev,proc,sys,tmp,t}
cp /bin/busybox "$R/bin/"
for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -s busybox "$R/bin/$a"; done
mknod -m 600 "$R/dev/console" c 5 1
mknod -m 666 "$R/dev/null" c 1 3
cp -a "$OUT/." "$R/t/"
cat > "$R/init" <<INIT
#!/bin/sh
mount -t devtmpfs none /dev
mount -t proc none /proc
mount -t sysfs none /sys
mount -t debugfs none /sys/kernel/debug
mount -t cgroup2 none /sys/fs/cgroup
mount -t tmpfs none /tmp
$CMD
echo "GUEST-EXIT \$?"
reboot -f
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$R.cpio.gz"
trap 'rm -rf "$R" "$R.cpio.gz"' EXIT

timeout "${BOOT_TIMEOUT:-1800}" nice -n 10 qemu-system-x86_64 -accel tcg -smp 2,sockets=2 -m 2G \
	-nographic -no-reboot -kernel "$KERNEL" -initrd "$R.cpio.gz" \
	-append "console=ttyS0 panic=-1 rdinit=/init quiet"
