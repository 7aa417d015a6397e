#!/usr/bin/env bash
# make bench: every series variant against the baseline, in one run. For
# each variant, bench/run.sh boots the baseline and that variant with the
# same QEMU settings and writes its own results (RESULTS_DIR/<variant>/);
# under -icount the baseline's figures repeat exactly from boot to boot, so
# each pair is side by side. Then one table of the run-time cells, a
# column per variant, and what kf_tasks costs: core minus limit (the
# bench-only variant without the kf_tasks stores and check).
#
# Usage: bench/run-variants.sh BASELINE_TREE NAME=TREE...
# Environment: as bench/run.sh (REPS, SCHEDS, WORKLOADS, ...); RESULTS_DIR
# (default $CACHE_DIR/bench/runs/<UTC time>-<checkout>). SCHEDS_<NAME>
# overrides SCHEDS for one variant (the limit's scx_bpf_task_cgroup()
# accepts any task: it must not run scx_flatcg).
# Exit status: non-zero if any pair's bench/run.sh failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -ge 2 ] || die "usage: $0 BASELINE_TREE NAME=TREE..."
base=$1
shift
if [ -z "${RESULTS_DIR:-}" ]; then
	RESULTS_DIR=$CACHE_DIR/bench/runs/$(date -u +%Y%m%d-%H%M%S)-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
	mkdir -p "$CACHE_DIR/bench/runs"
	ln -sfn "$(basename "$RESULTS_DIR")" "$CACHE_DIR/bench/runs/latest"
fi
[ ! -e "$RESULTS_DIR/results.md" ] ||
	die "RESULTS_DIR=$RESULTS_DIR already holds a run (results.md): name a new directory"
mkdir -p "$RESULTS_DIR"

rc=0
names=()
for nt in "$@"; do
	name=${nt%%=*} tree=${nt#*=}
	names+=("$name")
	var=SCHEDS_${name^^}
	log "bench: baseline against $name ($tree)"
	RESULTS_DIR=$RESULTS_DIR/$name SCHEDS=${!var:-${SCHEDS:-fair,simple,qmap,flatcg}} \
		"$here/run.sh" "$base" "$tree" || {
		warn "bench: the $name pair failed (see $RESULTS_DIR/$name)"
		rc=1
	}
done

# One table: each variant's run-time cells against the baseline.
{
	echo "# make bench: every variant against the baseline"
	echo
	echo "Guest instructions per unit of work under QEMU -icount (1 vCPU), medians;"
	echo "ratio = variant / baseline. Each variant's own results.md has the spreads."
	echo
	printf '| cell | baseline |'
	for n in "${names[@]}"; do printf ' %s | %s/baseline |' "$n" "$n"; done
	echo
	printf '|---|---:|'
	for _ in "${names[@]}"; do printf -- '---:|---:|'; done
	echo
	awk -F, -v names="${names[*]}" -v dir="$RESULTS_DIR" '
	function unq(s) { gsub(/^"|"$/, "", s); return s }
	BEGIN {
		n = split(names, nm, " ")
		for (i = 1; i <= n; i++) {
			f = dir "/" nm[i] "/cells.csv"
			while ((getline line < f) > 0) {
				split(line, c, ",")
				# the cell name is quoted and may hold commas: take it whole
				if (c[1] != "run") continue
				q = index(line, "\""); rest = substr(line, q + 1); e = index(rest, "\"")
				cell = substr(rest, 1, e - 1)
				split(substr(rest, e + 2), v, ",")
				if (!(cell in seen)) { seen[cell] = 1; order[++m] = cell; bmed[cell] = v[1] }
				vmed[cell, i] = v[2]; vrat[cell, i] = v[3]
			}
			close(f)
		}
		for (j = 1; j <= m; j++) {
			cell = order[j]
			printf "| %s | %s |", cell, bmed[cell]
			for (i = 1; i <= n; i++)
				printf " %s | %s |", ((cell, i) in vmed) ? vmed[cell, i] : "-", ((cell, i) in vrat) ? sprintf("%.4f", vrat[cell, i]) : "-"
			printf "\n"
		}
	}'
	# kf_tasks: core minus limit, per cell both ran
	if [[ " ${names[*]} " == *" core "* && " ${names[*]} " == *" limit "* ]]; then
		echo
		echo "What kf_tasks costs (core minus limit, guest instructions per unit of work):"
		echo
		join -t, <(awk -F, '$1 == "run" { print $2 "," $4 }' "$RESULTS_DIR/core/cells.csv" | sort) \
			<(awk -F, '$1 == "run" { print $2 "," $4 }' "$RESULTS_DIR/limit/cells.csv" | sort) |
			awk -F, '{ printf "- %s: %+.1f\n", $1, $2 - $3 }'
	fi
} >"$RESULTS_DIR/results.md"
cat "$RESULTS_DIR/results.md"
log "bench: results in $RESULTS_DIR (results.md; one directory per variant)"
exit "$rc"
