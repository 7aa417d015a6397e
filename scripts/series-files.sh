#!/usr/bin/env bash
# List the patch files of a quilt-style series file, one path per line, in
# order. Format: one patch file name per line, relative to the series file's
# directory; '#' starts a comment; blank lines are ignored; anything after
# the name (quilt's -pN options) is ignored.
#
# Usage: series-files.sh SERIES_FILE|none
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:?usage: $0 SERIES_FILE|none}
[ "$series" = none ] && exit 0
if [ ! -f "$series" ]; then
	warn "series file $series does not exist: building with no patches"
	exit 0
fi
dir=$(dirname "$series")
sed -e 's/#.*//' "$series" | awk 'NF { print $1 }' | while read -r name; do
	[ -f "$dir/$name" ] || die "patch '$name' is listed in $series but $dir/$name does not exist"
	echo "$dir/$name"
done
