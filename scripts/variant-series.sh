#!/usr/bin/env bash
# One series file for a variant built from several (the core series, then
# a follow-up on top of it): the patches of each, in order, linked into
# $CACHE_DIR/series/NAME/ with a series file listing them. Prints that
# series file's path. The kernel's build key hashes each patch's name and
# contents, not where the series file lives.
#
# Usage: variant-series.sh NAME SERIES_FILE...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

[ $# -ge 2 ] || die "usage: $0 NAME SERIES_FILE..."
name=$1
shift
dir=$CACHE_DIR/series/$name
mkdir -p "$CACHE_DIR/series"
tmp=$(mktemp -d "$CACHE_DIR/series/.$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for s in "$@"; do
	patches=$("$here/series-files.sh" "$s")
	[ -n "$patches" ] || die "series $s lists no patch"
	while read -r p; do
		b=$(basename "$p")
		[ ! -e "$tmp/$b" ] || die "$b is in two series ($*): patch names must differ"
		ln -s "$(readlink -f "$p")" "$tmp/$b"
		echo "$b" >>"$tmp/series"
	done <<<"$patches"
done
# Every make of a run asks: keep an identical list in place (a build may be
# reading it), replace it whole otherwise.
same() {
	cmp -s "$tmp/series" "$dir/series" || return 1
	while read -r b; do
		[ "$(readlink "$tmp/$b")" = "$(readlink "$dir/$b" 2>/dev/null)" ] || return 1
	done <"$tmp/series"
}
if ! same; then
	rm -rf "$dir.old"
	[ ! -e "$dir" ] || mv "$dir" "$dir.old"
	mv "$tmp" "$dir"
	rm -rf "$dir.old"
fi
echo "$dir/series"
