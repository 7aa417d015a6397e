#!/usr/bin/env bash
# The build key of a kernel variant: a sha256 over everything that goes into
# its bzImage. Same key = same kernel = no rebuild.
#
# Prints the manifest (human readable, one input per line) on stdout; the key
# is the sha256 of that manifest. Inputs: the pristine tree's identity, the
# patches (names, order and contents), the kconfig fragments, the compiler
# version, and the scripts that do the building.
#
# Usage: kernel-key.sh TREE_ID SERIES_FILE|none FRAGMENT...
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

[ $# -ge 3 ] || die "usage: $0 TREE_ID SERIES_FILE|none FRAGMENT..."
tree_id=$1 series=$2
shift 2

echo "tree $tree_id"
patches=$("$here/series-files.sh" "$series")
if [ -n "$patches" ]; then
	while read -r p; do
		echo "patch $(basename "$p") $(sha256sum <"$p" | cut -d' ' -f1)"
	done <<<"$patches"
fi
for f in "$@"; do
	echo "fragment $(basename "$f") $(sha256sum <"$f" | cut -d' ' -f1)"
done
echo "compiler $(clang"$LLVM_SUFFIX" --version | head -1)"
echo "ccache $(ccache --version | head -1)"
# The scripts whose behaviour shapes the kernel (not the ones that only
# package or boot it).
for s in prepare-tree.sh series-files.sh apply-series.sh merge-config.sh \
	kbuild.sh build-kernel.sh kernel-key.sh; do
	echo "script $s $(sha256sum <"$here/$s" | cut -d' ' -f1)"
done
