#!/usr/bin/env bash
# Stage 2: apply a quilt-style series to a git tree with `git am`, in order.
# The first patch that does not apply stops everything with its name; the
# half-applied `git am` session is aborted so the tree is left clean.
#
# Usage: apply-series.sh TREE SERIES_FILE|none
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"

tree=${1:?usage: $0 TREE SERIES_FILE|none}
series=${2:?usage: $0 TREE SERIES_FILE|none}
patches=$("$here/series-files.sh" "$series")
[ -n "$patches" ] || {
	log "series: no patches"
	exit 0
}

n=0
while read -r p; do
	n=$((n + 1))
	# Fixed committer so the resulting tree does not depend on who builds.
	if ! git -C "$tree" -c user.name=scx-kfilter -c user.email=scx-kfilter@localhost \
		am --quiet "$(readlink -f "$p")" >"$tree/.scx-am.log" 2>&1; then
		# git's errors, without its advice on resolving (we abort instead).
		grep -vE '^(hint:|When you have resolved|If you prefer to skip|To restore the original)' \
			"$tree/.scx-am.log" >&2 || true
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		die "patch $n '$(basename "$p")' ($p) does not apply to the pristine 6.12 tree; fix or rebase it (series: $series)"
	fi
done <<<"$patches"
log "series: applied $n patch(es) from $series"
