#!/usr/bin/env bash
# Before any build: is KERNEL_TARBALL the kernel the series is for? Reads
# VERSION/PATCHLEVEL/SUBLEVEL from the tarball's top-level Makefile (tar
# stops at the first match; about a second for Debian's tarball, where it
# comes early) and fails with one line: what was found, what is wanted,
# what to do. prepare-tree.sh checks the same, but only after minutes of
# extraction, and in several lines.
#
# The wanted VERSION.PATCHLEVEL is prepare-tree.sh's WANT_VERSION and
# WANT_PATCHLEVEL (one place says which kernel the series is for).
# Env: KERNEL_TARBALL (default: Debian's linux-source-6.12 tarball).
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

: "${KERNEL_TARBALL:=/usr/src/linux-source-6.12.tar.xz}"
t=$KERNEL_TARBALL
want=$(sed -n 's/^WANT_VERSION=\([0-9][0-9]*\) WANT_PATCHLEVEL=\([0-9][0-9]*\)$/\1.\2/p' "$here/prepare-tree.sh")
[ -n "$want" ] || die "check-tarball.sh: no WANT_VERSION=N WANT_PATCHLEVEL=N line in $here/prepare-tree.sh to say which kernel is wanted"
fix="apt-get install linux-source-$want (make deps), or set KERNEL_TARBALL= to a Linux $want tarball"

[ -f "$t" ] || die "KERNEL_TARBALL=$t: no such file, want a Linux $want source tarball: $fix"
# The first member names the top directory (linux-source-6.12/, linux-6.12.5/).
top=$(tar -tf "$t" 2>/dev/null | head -n 1 || true)
top=${top%%/*}
mk=
[ -z "$top" ] || mk=$(tar -xOf "$t" --occurrence=1 "$top/Makefile" 2>/dev/null || true)
v=$(sed -n 's/^VERSION = \([0-9][0-9]*\)$/\1/p' <<<"$mk" | head -n 1)
p=$(sed -n 's/^PATCHLEVEL = \([0-9][0-9]*\)$/\1/p' <<<"$mk" | head -n 1)
s=$(sed -n 's/^SUBLEVEL = \([0-9][0-9]*\)$/\1/p' <<<"$mk" | head -n 1)
where="not a readable tar archive"
[ -z "$top" ] || where="top directory $top"
if [ -z "$v" ] || [ -z "$p" ]; then
	die "KERNEL_TARBALL=$t: found no kernel top-level Makefile with VERSION and PATCHLEVEL in it ($where), want a Linux $want source tarball: $fix"
fi
[ "$v.$p" = "$want" ] ||
	die "KERNEL_TARBALL=$t is Linux $v.$p${s:+.$s} (its top-level Makefile), want Linux $want (what the series is for): $fix"
