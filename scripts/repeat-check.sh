#!/usr/bin/env bash
# Boot one kernel's check payload N times in a row, to reproduce a failure
# that shows up once in many runs (a hang, a rare splat). Each boot is one
# `make check-one` with the given make variables and its own RUN_ID, so its
# console log and any hang snapshot stay in the cache (runs/<variant>-<id>/).
#
# One line per boot: number, wall seconds, the report's summary line and the
# console log. Stops at the first failed boot unless --keep-going. The last
# line is "repeat: N boots, N failed"; exit 0 only if none failed.
#
# Example (the hotplug run alone, patched kernel, 20 boots):
#   scripts/repeat-check.sh 20 \
#     T=sched:hotplug-scx_qmap
#
# Usage: repeat-check.sh [--keep-going] N [VAR=value ...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

keep_going=0
if [ "${1:-}" = --keep-going ]; then
	keep_going=1
	shift
fi
if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 [--keep-going] N [VAR=value ...]  (N: boots, at least 1)" >&2
	exit 2
fi
n=$1
shift

cache=${CACHE_DIR:-$HOME/.cache/scx-kfilter}
logdir=$cache/repeat
mkdir -p "$logdir"
stamp=$(date +%Y%m%d-%H%M%S)
failed=0
for i in $(seq 1 "$n"); do
	id=repeat-$stamp-$i
	out=$logdir/$id.out
	t0=$(date +%s)
	rc=0
	make -C "$top" --no-print-directory check-one RUN_ID="$id" "$@" \
		>"$out" 2>&1 || rc=$?
	secs=$(($(date +%s) - t0))
	summary=$(tail -n 1 "$out")
	echo "boot $i/$n: ${secs}s, exit $rc: $summary (output: $out)"
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		grep -E '^ *not ok ' "$out" | sed 's/^/  /' || true
		[ "$keep_going" -eq 1 ] || {
			n=$i
			break
		}
	fi
done
echo "repeat: $n boots, $failed failed"
[ "$failed" -eq 0 ]
