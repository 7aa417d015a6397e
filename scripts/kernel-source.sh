#!/usr/bin/env bash
# The kernel source every build reads, checked before anything is built.
# Prints, on stdout, the tarball path that build-kernel.sh's prepare-tree.sh
# is to be given as KERNEL_TARBALL.
#
# Without KSRC: scripts/check-tarball.sh, then KERNEL_TARBALL as it is.
#
# With KSRC=/path/to/linux (your own 6.12.y tree, a git checkout or a plain
# tree): the tree is never modified (read, or fetched from, only). It must
# be Linux 6.12.y (anything else: one line saying what is supported). Its
# identity comes from its content:
#   - a git checkout: the git tree hash of HEAD (`git rev-parse HEAD^{tree}`);
#     uncommitted changes to tracked files are refused (they are not in
#     HEAD's tree); untracked and ignored files (a build) do not matter;
#   - a plain tree: a sha256 over every file's mode, path and content and
#     every symlink (recomputed only when a file's size or mtime changes);
#     a tree with build output (.config) is refused.
# The tree is copied once per identity into the cache's pristine/ as a git
# repo, as prepare-tree.sh does for a tarball (a git checkout: a depth-1
# fetch of HEAD, the same commit; a plain tree: copied and committed).
# prepare-tree.sh and build-kernel.sh are part of every build key, so they
# are not changed: they are handed a small stand-in file,
# $CACHE_DIR/ksrc/<hash>.tree, whose text is the tree's version and
# identity; prepare-tree.sh names a non-Debian source after its sha256
# (pristine/tarball-<16 hex>), and finds the copy made here under that name.
# The build key's "tree" line is therefore that name: the same tree content
# gives the same key wherever it lives.
#
# Env: KSRC, KERNEL_TARBALL, CACHE_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

: "${KERNEL_TARBALL:=/usr/src/linux-source-6.12.tar.xz}"
if [ -z "${KSRC:-}" ]; then
	"$here/check-tarball.sh"
	echo "$KERNEL_TARBALL"
	exit 0
fi

# What is supported: prepare-tree.sh's WANT_VERSION/WANT_PATCHLEVEL (as
# check-tarball.sh reads it) and the release the series is proven on.
want=$(sed -n 's/^WANT_VERSION=\([0-9][0-9]*\) WANT_PATCHLEVEL=\([0-9][0-9]*\)$/\1.\2/p' "$here/prepare-tree.sh")
[ -n "$want" ] || die "kernel-source.sh: no WANT_VERSION=N WANT_PATCHLEVEL=N line in $here/prepare-tree.sh"
PROVEN=6.12.118
supported="supported: Linux $want.y source trees (proven on $PROVEN)"

[ -d "$KSRC" ] || die "KSRC=$KSRC: no such directory; $supported"
ksrc=$(cd "$KSRC" && pwd -P)
mkv() { { sed -nE "s/^$1[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*\$/\\1/p" "$ksrc/Makefile" 2>/dev/null || true; } | head -n 1; }
v=$(mkv VERSION) p=$(mkv PATCHLEVEL) s=$(mkv SUBLEVEL)
if [ -z "$v" ] || [ -z "$p" ]; then
	die "KSRC=$KSRC: no kernel top-level Makefile with VERSION and PATCHLEVEL; $supported"
fi
[ "$v.$p" = "$want" ] ||
	die "KSRC=$KSRC is Linux $v.$p${s:+.$s} (its top-level Makefile); $supported"
release=$v.$p${s:+.$s}

mkdir -p "$CACHE_DIR/ksrc" "$CACHE_DIR/pristine"

# files_hash DIR: sha256 over the modes, paths and contents of DIR's files
# and its symlinks' targets, .git left out.
files_hash() {
	(
		cd "$1"
		find . -path ./.git -prune -o -type f -printf 'file %m %p\n' -o -type l -printf 'link %p %l\n' |
			LC_ALL=C sort
		find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
	) | sha256sum | cut -d' ' -f1
}

g() { git -c safe.directory="$ksrc" -C "$ksrc" "$@"; }
if [ -e "$ksrc/.git" ] && [ "$(g rev-parse --show-toplevel 2>/dev/null)" = "$ksrc" ]; then
	kind=git
	tree=$(g rev-parse --verify -q 'HEAD^{tree}') ||
		die "KSRC=$KSRC: a git checkout without a commit; $supported"
	# --no-optional-locks: status must not refresh (write) the index.
	dirty=$(g --no-optional-locks status --porcelain --untracked-files=no) ||
		die "KSRC=$KSRC: git status failed"
	[ -z "$dirty" ] ||
		die "KSRC=$KSRC: uncommitted changes to tracked files ($(head -n 1 <<<"$dirty" | cut -c4-)...); commit or stash them: the build uses HEAD's tree"
	ident="git-tree $tree"
else
	kind=plain
	[ ! -e "$ksrc/.config" ] ||
		die "KSRC=$KSRC: holds build output (.config); use a clean tree (make mrproper in a copy) or a git checkout"
	# The content hash is cached per stat listing (paths, sizes, mtimes).
	statkey=$(cd "$ksrc" && find . -path ./.git -prune -o -printf '%p %s %T@ %m\n' | LC_ALL=C sort |
		sha256sum | cut -c1-32)
	sc="$CACHE_DIR/ksrc/stat-$statkey"
	if [ -s "$sc" ]; then
		fh=$(cat "$sc")
	else
		log "KSRC: hashing the files of $ksrc (once per change)"
		fh=$(files_hash "$ksrc")
		echo "$fh" >"$sc"
	fi
	ident="files-sha256 $fh"
fi

# The stand-in: its text is the identity, its sha256 names the pristine tree.
text="scx-kfilter KSRC: Linux $release, $ident"
stub="$CACHE_DIR/ksrc/$(sha256sum <<<"$text" | cut -c1-16).tree"
if ! [ -f "$stub" ] || [ "$(cat "$stub")" != "$text" ]; then
	printf '%s\n' "$text" >"$stub"
fi
id="tarball-$(sha256sum "$stub" | cut -c1-16)"
pristine="$CACHE_DIR/pristine/$id"

if ! [ -f "$pristine.done" ] || ! [ -d "$pristine/.git" ]; then
	exec 7>"$pristine.lock"
	flock 7
	if ! [ -f "$pristine.done" ] || ! [ -d "$pristine/.git" ]; then
		log "KSRC: copying $ksrc (Linux $release, $ident) into $pristine (once)"
		tmp="$pristine.tmp.$$"
		rm -rf "$tmp" "$pristine"
		trap 'rm -rf "$tmp"' EXIT
		git init -q "$tmp"
		git -C "$tmp" config gc.auto 0
		if [ "$kind" = git ]; then
			# A depth-1 fetch of HEAD: the same commit, none of the history;
			# no deltas to compute (pack.window=0), the copy is local.
			git -C "$tmp" -c safe.directory="$ksrc" -c pack.window=0 \
				fetch -q --depth=1 "file://$ksrc" HEAD ||
				die "KSRC=$KSRC: could not fetch HEAD from it"
			git -C "$tmp" checkout -q -B master FETCH_HEAD
			got=$(git -C "$tmp" rev-parse 'HEAD^{tree}')
			[ "$got" = "$tree" ] || die "KSRC=$KSRC: HEAD moved while it was copied ($tree, then $got); run again"
		else
			tar -C "$ksrc" --exclude=./.git -cf - . | tar -C "$tmp" -xf - ||
				die "KSRC=$KSRC: could not copy it"
			got=$(files_hash "$tmp")
			[ "$got" = "$fh" ] || die "KSRC=$KSRC: its files changed while they were copied; run again"
			# Like prepare-tree.sh: Debian-style .gitignore files may ignore '/*'.
			git -C "$tmp" add -f .
			git -C "$tmp" -c user.name=scx-kfilter -c user.email=scx-kfilter@localhost \
				commit -q -m "pristine $id: KSRC Linux $release, $ident" --no-verify
		fi
		mv "$tmp" "$pristine"
		trap - EXIT
		echo "$id $(date -u +%FT%TZ) $text" >"$pristine.done"
		log "KSRC: pristine tree ready: $pristine"
	fi
	exec 7>&-
fi

# prepare-tree.sh must find the copy under the same name (it prints its
# pristine tree without touching it when it is there).
got=$(KERNEL_TARBALL=$stub "$here/prepare-tree.sh" 2>/dev/null) || got=
[ "$got" = "$pristine" ] ||
	die "kernel-source.sh: prepare-tree.sh does not name KSRC's copy $pristine (got '${got:-nothing}'): its tree_id changed?"
echo "$stub"
