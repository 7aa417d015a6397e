#!/usr/bin/env bash
# make run BZIMAGE=/path: a kernel built outside the cache boots with the
# project's initramfs for V, and no kernel is built for it.
#
#   make -n: the run boots BZIMAGE and no recipe calls build-kernel.sh;
#   refused in one line: BZIMAGE missing or not a bzImage, V's tree not
#   built (the payload needs it), a target that boots several kernels;
#   one boot (a copy of the cached baseline bzImage outside the cache,
#   V=baseline): `scripts/run.sh V=baseline BZIMAGE=... 'exit 3'` exits 3,
#   make says "guest command exited 3", and no kernel build ran.
# The boot is skipped (counted) if the baseline kernel is not built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
: "${CACHE_DIR:=$HOME/.cache/scx-kfilter}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MAKEFLAGS MAKELEVEL
cached=$CACHE_DIR/build/baseline/arch/x86/boot/bzImage
mkdir -p "$tmp/x"
# Any file with the boot header does for make -n; the real one if there.
if [ -f "$cached" ]; then cp "$cached" "$tmp/x/bzImage"; else
	head -c 514 /dev/zero >"$tmp/x/bzImage" && printf HdrS >>"$tmp/x/bzImage"
fi
bz=$tmp/x/bzImage

make -n -C "$top" --no-print-directory run V=baseline BZIMAGE="$bz" CMD=true RUN_ID=t >"$tmp/n.out" 2>&1 || true
check dry-run:boots-it "make -n run does not boot $bz: $(grep -m1 'run.sh --boot' "$tmp/n.out" || tail -n 2 "$tmp/n.out")" \
	grep -qF "scripts/run.sh --boot $bz " "$tmp/n.out"
check dry-run:builds-no-kernel "make -n run BZIMAGE= still builds a kernel: $(grep -m1 build-kernel "$tmp/n.out" || true)" \
	test -z "$(grep build-kernel "$tmp/n.out" || true)"
make -n -C "$top" --no-print-directory run V=baseline CMD=true RUN_ID=t >"$tmp/n0.out" 2>&1 || true
check dry-run:default-builds "without BZIMAGE, make -n run names no build-kernel.sh (the check above means nothing)" \
	grep -q build-kernel "$tmp/n0.out"

# refused NAME REGEX VAR=value...: make stops with one line
refused() {
	local name=$1 want=$2 rc=0
	shift 2
	make -C "$top" --no-print-directory "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	echo "# $name: exit $rc: $(grep -m1 -E 'ERROR|\*\*\*' "$tmp/$name.out" || true)"
	check "$name:refused" "exited 0" test "$rc" != 0
	check "$name:says-why" "no line matching '$want': $(head -n 3 "$tmp/$name.out")" grep -qE "$want" "$tmp/$name.out"
}
echo "not a kernel" >"$tmp/x/text"
refused missing "BZIMAGE=$tmp/x/none: no such file" run V=baseline BZIMAGE="$tmp/x/none" CMD=true
refused not-bzimage "not an x86 bzImage" run V=baseline BZIMAGE="$tmp/x/text" CMD=true
refused tree-not-built "which is not built .*make kernel V=core" run V=core BZIMAGE="$bz" CMD=true CACHE_DIR="$tmp/empty"
refused several-kernels "BZIMAGE=.*one-kernel targets only.*not check" check BZIMAGE="$bz"

no_boot boot "a boot of the baseline kernel after its payload's build (about 85 s)" && { done_testing; exit; }
if [ ! -f "$cached" ] || [ ! -f "$CACHE_DIR/build/baseline/vmlinux" ]; then
	skip boot "no cached baseline kernel at $cached (make kernel V=baseline)"
	done_testing
	exit
fi
# the builds there, their stamps and bzImages (the payload's build writes
# into the tree, so the directories' own mtimes move)
builds() {
	find "$CACHE_DIR/build" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort
	stat -c '%n %Y' "$CACHE_DIR"/build/*/.scx-built "$CACHE_DIR"/build/*/arch/x86/boot/bzImage 2>/dev/null || true
}
before=$(builds)
rc=0
env -u RUN_ID "$top/scripts/run.sh" V=baseline BZIMAGE="$bz" 'echo from-my-kernel; exit 3' >"$tmp/boot.out" 2>&1 || rc=$?
grep -E 'from-my-kernel|guest command exited|==> kernel|ERROR' "$tmp/boot.out" | tr -d '\r' | sed 's/^/# /' || true
check boot:exit-status "scripts/run.sh exited $rc, want 3" test "$rc" = 3
check boot:says-status "no 'guest command exited 3' line" grep -q 'guest command exited 3' "$tmp/boot.out"
check boot:no-kernel-build "a kernel build step ran: $(grep -m1 '==> kernel' "$tmp/boot.out" || true)" \
	test -z "$(grep '==> kernel' "$tmp/boot.out" || true)"
after=$(builds)
check boot:no-build-changed "a build in the cache changed: $(diff <(echo "$before") <(echo "$after") | head -n 3)" \
	test "$before" = "$after"
done_testing
