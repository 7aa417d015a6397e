#!/usr/bin/env bash
# Stage 1: tarball -> pristine kernel tree (a git repo) in the cache.
#
# Extracted once per tarball identity; every build variant later checks out
# a worktree of this repo, so patches are applied with `git am` and the
# pristine copy is never modified. Prints the pristine tree's path on stdout.
#
# Env: KERNEL_TARBALL (default: Debian's linux-source-6.12 tarball).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: "${KERNEL_TARBALL:=/usr/src/linux-source-6.12.tar.xz}"
WANT_VERSION=6 WANT_PATCHLEVEL=12

[ -f "$KERNEL_TARBALL" ] || die "kernel tarball not found: $KERNEL_TARBALL
  fix: apt-get install linux-source-6.12 (provides /usr/src/linux-source-6.12.tar.xz),
  or point KERNEL_TARBALL=/path/to/linux-6.12.x.tar.xz at another 6.12 tarball"

# The tree's identity: the Debian package version when the tarball is the
# packaged one (cheap, and what a human recognises), else the tarball's hash.
tree_id() {
	local owner ver
	if owner=$(dpkg-query -S "$(readlink -f "$KERNEL_TARBALL")" 2>/dev/null) &&
		[[ $owner == linux-source-6.12:* ]] &&
		ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null); then
		# No ~ or : in paths (make and PATH-like lists dislike them).
		echo "debian-linux-source-6.12-${ver}" | tr "~:" "__"
	else
		echo "tarball-$(sha256sum "$KERNEL_TARBALL" | cut -c1-16)"
	fi
}

id=$(tree_id)
pristine="$CACHE_DIR/pristine/$id"
stamp="$pristine.done"
mkdir -p "$CACHE_DIR/pristine"

if [ -f "$stamp" ] && [ -d "$pristine/.git" ]; then
	echo "$pristine"
	exit 0
fi

# Concurrent first runs: one extracts, the others wait and reuse it.
exec 7>"$pristine.lock"
flock 7
if [ -f "$stamp" ] && [ -d "$pristine/.git" ]; then
	echo "$pristine"
	exit 0
fi

log "extracting $KERNEL_TARBALL into $pristine (once; takes a minute or two)"
# Extract into a temporary sibling and rename at the end, so an interrupted
# run never leaves a half tree that looks complete.
tmp="$pristine.tmp.$$"
rm -rf "$tmp" "$pristine"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
tar -xf "$KERNEL_TARBALL" -C "$tmp" --strip-components=1 ||
	die "could not extract $KERNEL_TARBALL (corrupt or not a tarball?)"

mk="$tmp/Makefile"
v=$(sed -n 's/^VERSION = //p' "$mk" 2>/dev/null | head -1)
p=$(sed -n 's/^PATCHLEVEL = //p' "$mk" 2>/dev/null | head -1)
if [ "$v" != "$WANT_VERSION" ] || [ "$p" != "$WANT_PATCHLEVEL" ]; then
	die "$KERNEL_TARBALL is not a Linux $WANT_VERSION.$WANT_PATCHLEVEL tree (top Makefile says VERSION='$v' PATCHLEVEL='$p')
  fix: apt-get install linux-source-6.12, or set KERNEL_TARBALL= to a 6.12 tarball"
fi

# A git repo so variants can be worktrees and patches go in with `git am`.
# Debian's .gitignore ignores '/*', hence `add -f`.
log "committing the pristine tree to git (once)"
git -C "$tmp" init -q
git -C "$tmp" config gc.auto 0
git -C "$tmp" add -f .
git -C "$tmp" -c user.name=scx-kfilter -c user.email=scx-kfilter@localhost \
	commit -q -m "pristine $id" --no-verify
mv "$tmp" "$pristine"
trap - EXIT
echo "$id $(date -u +%FT%TZ)" >"$stamp"
log "pristine tree ready: $pristine"
echo "$pristine"
