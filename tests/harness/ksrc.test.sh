#!/usr/bin/env bash
# KSRC=/path/to/linux: the user's own 6.12.y tree instead of the tarball
# (scripts/kernel-source.sh), up to the build key, nothing built.
#
#   refused, one line saying what is supported: a tree of another version
#   (a Makefile with VERSION=6 PATCHLEVEL=1), no Makefile, no directory, a
#   git checkout with uncommitted changes, a plain tree with a .config;
#   accepted (small fake 6.12.118 trees, a git checkout and a plain one):
#   copied into the cache where prepare-tree.sh (unchanged, part of the
#   build key) finds it, the same commit, the user's tree untouched (HEAD,
#   index, refs, no worktree); the build key's tree follows the content:
#   the same tree elsewhere gives the same build, one more commit or an
#   edited file another.
# HARNESS_KSRC_FULL=1 also takes a real 6.12.118 checkout (a clone of the
# cache's pristine tree with one commit of its own) as far as the build
# key: about 7 min on the loaded 2 cores, so a counted skip by default.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
: "${CACHE_DIR:=$HOME/.cache/scx-kfilter}"
real_cache=$CACHE_DIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CACHE_DIR=$tmp/cache
unset MAKEFLAGS MAKELEVEL
supported='supported: Linux 6\.12\.y source trees \(proven on 6\.12\.118\)'
gitc() { git -c user.name=t -c user.email=t@localhost "$@"; }

# refused NAME REGEX KSRC [later]: make kernel stops with one line, builds
# nothing (and, unless "later", nothing is in the cache yet)
refused() {
	local name=$1 want=$2 rc=0
	make -C "$top" --no-print-directory kernel V=core KSRC="$3" >"$tmp/$name.out" 2>&1 || rc=$?
	echo "# $name: exit $rc: $(grep -m1 ERROR "$tmp/$name.out" || true)"
	check "$name:refused" "make kernel exited 0" test "$rc" != 0
	check "$name:one-line" "not one ERROR line matching '$want': $(head -n 3 "$tmp/$name.out")" \
		test "$(grep -cE "^ERROR: .*$want" "$tmp/$name.out")" = 1
	[ "${4:-}" = later ] ||
		check "$name:nothing-copied" "something landed in the cache: $(find "$CACHE_DIR/pristine" "$CACHE_DIR/build" -mindepth 1 -maxdepth 1 2>/dev/null | paste -sd' ')" \
			test -z "$(find "$CACHE_DIR/pristine" "$CACHE_DIR/build" -mindepth 1 -maxdepth 1 2>/dev/null)"
}
mkdir -p "$tmp/v6.1" "$tmp/v6.1-spaced" "$tmp/nomake"
printf 'VERSION=6\nPATCHLEVEL=1\n' >"$tmp/v6.1/Makefile"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 100\n' >"$tmp/v6.1-spaced/Makefile"
refused other-version "is Linux 6\.1 .*; $supported" "$tmp/v6.1"
refused other-version-kbuild-style "is Linux 6\.1\.100 .*; $supported" "$tmp/v6.1-spaced"
refused no-makefile "no kernel top-level Makefile.*; $supported" "$tmp/nomake"
refused no-directory "no such directory; $supported" "$tmp/none"

# A tiny "6.12.118" tree: what kernel-source.sh reads is the top Makefile.
mk_tree() {
	mkdir -p "$1/kernel/sched"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' >"$1/Makefile"
	echo "int x;" >"$1/kernel/sched/ext.c"
	ln -s kernel/sched/ext.c "$1/link"
}
mk_tree "$tmp/git"
git -C "$tmp/git" init -q
git -C "$tmp/git" add -A
gitc -C "$tmp/git" commit -qm "a 6.12.118 look-alike"
echo "ignored build output" >"$tmp/git/vmlinux.o" # untracked: does not matter

# status KSRC: the build dir make kernel-status names (the "build" line).
# build-kernel.sh --status fails on a cache without any earlier build of
# the variant (its ls finds nothing under pipefail): seed one.
mkdir -p "$CACHE_DIR/build/core-000000000000"
echo "build_seconds 1" >"$CACHE_DIR/build/core-000000000000/.scx-built"
status() { make -s -C "$top" --no-print-directory kernel-status V=core KSRC="$1" 2>"$tmp/status.err" | awk '{ print $2 }'; }

# snapshot DIR: what "never modified" means for a git checkout
snapshot() { (cd "$1" && git rev-parse HEAD && stat -c '%n %s %Y' .git/index && git for-each-ref && ls .git && git worktree list --porcelain); }
snapshot "$tmp/git" >"$tmp/git.before"
b1=$(status "$tmp/git")
echo "# git checkout: $b1"
check git:accepted "make kernel-status KSRC=<git checkout> named no build: $(tail -n 2 "$tmp/status.err")" test -n "$b1"
snapshot "$tmp/git" >"$tmp/git.after"
check git:untouched "the checkout changed: $(diff "$tmp/git.before" "$tmp/git.after" | head -n 4)" \
	cmp -s "$tmp/git.before" "$tmp/git.after"
stub=$(KSRC=$tmp/git "$top/scripts/kernel-source.sh" 2>/dev/null)
p=$(KERNEL_TARBALL=$stub "$top/scripts/prepare-tree.sh" 2>/dev/null)
check git:prepare-tree-finds-it "prepare-tree.sh named '$p'" test -d "$p/.git"
check git:same-commit "the cached copy's HEAD is not the checkout's" \
	test "$(git -C "$p" rev-parse HEAD)" = "$(git -C "$tmp/git" rev-parse HEAD)"
check git:key-names-it "kernel-key.sh's manifest has no line 'tree $(basename "$p")'" \
	grep -qx "tree $(basename "$p")" <("$top/scripts/kernel-key.sh" "$(basename "$p")" none "$top/kconfig-fragments/base.config")
git clone -q "$tmp/git" "$tmp/elsewhere"
check git:content-not-path "the same commit elsewhere gave another build: $(status "$tmp/elsewhere") vs $b1" \
	test "$(status "$tmp/elsewhere")" = "$b1"
echo "int y;" >>"$tmp/elsewhere/kernel/sched/ext.c"
refused git-uncommitted "uncommitted changes to tracked files" "$tmp/elsewhere" later
gitc -C "$tmp/elsewhere" commit -qam "one more"
b2=$(status "$tmp/elsewhere")
check git:new-commit-new-key "one more commit kept the build $b1" test -n "$b2" -a "$b2" != "$b1"

mk_tree "$tmp/plain"
b3=$(status "$tmp/plain")
echo "# plain tree: $b3"
check plain:accepted "make kernel-status KSRC=<plain tree> named no build: $(tail -n 2 "$tmp/status.err")" test -n "$b3"
check plain:not-the-git-build "a plain tree gave the git checkout's build $b1" test "$b3" != "$b1"
cp -a "$tmp/plain" "$tmp/plain-copy"
touch "$tmp/plain-copy/Makefile"
check plain:content-not-path "the same files elsewhere (newer mtime) gave another build" \
	test "$(status "$tmp/plain-copy")" = "$b3"
echo "int z;" >>"$tmp/plain-copy/kernel/sched/ext.c"
check plain:edit-new-key "an edited file kept the build" test "$(status "$tmp/plain-copy")" != "$b3"
p=$(KERNEL_TARBALL=$(KSRC=$tmp/plain "$top/scripts/kernel-source.sh" 2>/dev/null) "$top/scripts/prepare-tree.sh" 2>/dev/null)
check plain:copied "the cached copy lacks the tree's files or its symlink" \
	test -f "$p/kernel/sched/ext.c" -a -L "$p/link"
touch "$tmp/plain-copy/.config"
refused plain-built "holds build output \(\.config\)" "$tmp/plain-copy" later

# A real 6.12.118 checkout: a clone of the pristine tree, one commit of ours.
pristine=$(find "$real_cache/pristine" -mindepth 1 -maxdepth 1 -type d -name 'debian-linux-source-6.12-*' 2>/dev/null | head -n 1 || true)
if [ "${HARNESS_KSRC_FULL:-0}" != 1 ]; then
	skip real-checkout "HARNESS_KSRC_FULL=1 runs it (about 7 min: a clone of the pristine tree and its copy)"
elif [ -z "$pristine" ]; then
	skip real-checkout "no pristine 6.12.118 tree in $real_cache/pristine (make kernel)"
else
	git clone -q -s "$pristine" "$tmp/linux"
	echo "# scx-kfilter KSRC test" >>"$tmp/linux/README"
	gitc -C "$tmp/linux" commit -qam "a commit of our own"
	snapshot "$tmp/linux" >"$tmp/linux.before"
	b4=$(status "$tmp/linux")
	echo "# real checkout: $b4"
	check real:accepted "make kernel-status KSRC=<6.12.118 checkout> named no build: $(tail -n 2 "$tmp/status.err")" test -n "$b4"
	snapshot "$tmp/linux" >"$tmp/linux.after"
	check real:untouched "the checkout changed" cmp -s "$tmp/linux.before" "$tmp/linux.after"
	stub=$(KSRC=$tmp/linux "$top/scripts/kernel-source.sh" 2>/dev/null)
	check real:version "the stand-in does not say 6.12.118: $(cat "$stub")" grep -q 'Linux 6\.12\.118, git-tree ' "$stub"
fi
done_testing
