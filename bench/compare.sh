#!/usr/bin/env bash
# Two `make bench` results side by side: every cell of their run-time and
# load-time tables (results.md), with each run's patched/baseline ratio,
# its spreads, and how far the ratio moved. For comparing series revisions
# or a change to the method; cells only one run has are listed too.
#
# Usage: bench/compare.sh RESULTS_DIR_A RESULTS_DIR_B  (markdown on stdout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 RESULTS_DIR_A RESULTS_DIR_B (e.g. bench/results/2026-12-05-v2-pipe bench/results/2026-12-05-v3)"
for d in "$1" "$2"; do
	[ -f "$d/results.md" ] || die "$d/results.md: no such file (a make bench results directory?)"
done

# cells DIR: "cell<TAB>ratio<TAB>spreads" for each row of both tables
cells() {
	# only the ratio tables: their header's first column names them
	awk -F'|' '/^## (Run|Load) time/ { on = 1; next } /^## / { on = 0 }
		!/^\|/ { tab = 0; next }
		on && $2 ~ /^ *(workload \/ scheduler|load-time measure) *$/ { tab = 1; next }
		on && tab && $2 !~ /^-+$/ {
			c = $2; r = $5; sp = $7
			gsub(/^ +| +$/, "", c); gsub(/[ *]/, "", r); gsub(/^ +| +$/, "", sp)
			if (c != "" && r ~ /^[0-9.]+$/) print c "\t" r "\t" sp
		}' "$1/results.md"
}
echo "| cell | $(basename "$1") ratio | spreads | $(basename "$2") ratio | spreads | B - A |"
echo "|---|---:|---:|---:|---:|---:|"
join -t $'\t' -a1 -a2 -e '-' -o 0,1.2,1.3,2.2,2.3 <(cells "$1" | sort) <(cells "$2" | sort) |
	awk -F'\t' '{ d = ($2 != "-" && $4 != "-") ? sprintf("%+.4f", $4 - $2) : "-"
		printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, d }'
