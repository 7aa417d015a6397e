#!/usr/bin/env bash
# Stage 6: busybox-static + /init + guest suites + payload -> initramfs.
#
# The archive is written with the kernel's own usr/gen_init_cpio from a
# generated file list, so device nodes (/dev/console, /dev/null) and root
# ownership need no root privileges and no mknod on the host. It is left
# uncompressed: under TCG the guest decompresses slowly, and QEMU loads
# the file from the page cache anyway.
#
# Usage: build-initramfs.sh TREE OUT_CPIO [OVERLAY_DIR...]
#   TREE          kernel tree (for usr/gen_init_cpio)
#   OVERLAY_DIR   copied over the root (e.g. the payload from build-payload.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -ge 2 ] || die "usage: $0 TREE OUT_CPIO [OVERLAY_DIR...]"
tree=$1 out=$2
shift 2

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
ldd "$busybox" >/dev/null 2>&1 && die "$busybox is dynamically linked; install busybox-static"

gen="$tree/usr/gen_init_cpio"
if [ ! -x "$gen" ]; then
	cc -O2 -o "$gen" "$tree/usr/gen_init_cpio.c" || die "cannot build $gen"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/scx-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,run,root,scx}
chmod 1777 "$root/tmp"

# busybox and one symlink per applet, at the paths busybox itself expects.
install -m 0755 "$busybox" "$root/bin/busybox"
"$busybox" --list-full | while read -r applet; do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done

install -m 0755 "$here/init" "$root/init"
install -m 0644 "$here/ktap.sh" "$here/t-glob.sh" "$root/scx/"
mkdir -p "$root/scx/payloads" "$root/scx/suites"
install -m 0755 "$here"/payloads/*.sh "$root/scx/payloads/"
install -m 0755 "$here"/suites/*.sh "$root/scx/suites/"

cat >"$root/etc/passwd" <<'X'
root:x:0:0:root:/root:/bin/sh
X
cat >"$root/etc/group" <<'X'
root:x:0:
X
cat >"$root/etc/profile" <<'X'
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
PS1='scx-guest:\w# '
X

# coreutils' stdbuf: C programs writing to a file or pipe block-buffer
# stdout, and a test that forks then duplicates the unflushed buffer in
# every child (the sched_ext runner's output repeated thousands of times).
# `stdbuf -oL` makes them line buffered. It finds its preload library at a
# fixed path, so both go to the host's paths.
for f in /usr/bin/stdbuf /usr/libexec/coreutils/libstdbuf.so; do
	if [ -f "$f" ]; then
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	fi
done

for d in "$@"; do
	[ -d "$d" ] || die "overlay directory not found: $d"
	cp -a "$d/." "$root/"
done

# Shared libraries of every dynamically linked executable, plus the loader,
# at the same paths as on the host (the guest runs the host's binaries).
find "$root" -type f -perm -u+x | while read -r f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
	ldd "$f" 2>/dev/null | grep -oE '/[^ ]+' || true
done | sort -u | while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

# The file list for gen_init_cpio: nodes first, then the tree.
list="$root.list"
trap 'rm -rf "$root" "$list"' EXIT
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	(cd "$root" && find . -mindepth 1 | sort) | while read -r p; do
		p=${p#.}
		src="$root$p"
		mode=$(stat -c '%a' "$src")
		if [ -L "$src" ]; then
			echo "slink $p $(readlink "$src") 0777 0 0"
		elif [ -d "$src" ]; then
			echo "dir $p $mode 0 0"
		else
			echo "file $p $src $mode 0 0"
		fi
	done
} >"$list"

mkdir -p "$(dirname "$out")"
"$gen" "$list" >"$out.tmp"
mv "$out.tmp" "$out"
log "initramfs: $out ($(du -h "$out" | cut -f1))"
