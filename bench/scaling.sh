#!/usr/bin/env bash
# How the saving grows with the work (docs/benchmark.md): bench/insn-profile.sh
# under scx_simple for the pipe round trip with 1, 2 and 4 vCPUs and for
# messaging with 1, 2 and 4 groups (20, 40, 80 tasks) on 1 vCPU, then
# bench/insn-profile/scaling.py: the saving per unit of work, the calls of
# the functions the series changes, the saving per call, and how well the
# calls predict the saving (from the 1-vCPU pipe's per-call savings, and
# from the static count). A measurement: fails only if a run fails.
#
# Usage: bench/scaling.sh BASELINE_TREE PATCHED_TREE
# Env: CONFIGS (default below; LABEL:WORKLOAD:SMP:GROUPS:LOOPS, space
#      separated; GROUPS "-" for pipe; LOOPS: round trips, or messaging
#      rounds of GROUPS x 2500 messages), OUT=$CACHE_DIR/bench/scaling,
#      RESULTS_DIR=bench/results/<date>-scaling (table.md, scaling.svg,
#      per-run tables), REUSE=1 (keep runs whose functions.tsv exists)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_TREE PATCHED_TREE"
two_trees "$1" "$2"
CONFIGS=${CONFIGS:-"pipe-1cpu:pipe:1:-:20000 pipe-2cpu:pipe:2:-:20000 pipe-4cpu:pipe:4:-:20000 msg-20tasks:messaging:1:1:80 msg-40tasks:messaging:1:2:40 msg-80tasks:messaging:1:4:20"}
OUT=${OUT:-$CACHE_DIR/bench/scaling}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date -u +%Y-%m-%d)-scaling}
mkdir -p "$OUT" "$RESULTS_DIR"

"$here/static-diff.sh" "${ktree[baseline]}" "${ktree[patched]}" >"$RESULTS_DIR/static-diff.md"
runs=()
for c in $CONFIGS; do
	IFS=: read -r label workload smp groups loops <<<"$c"
	[ -n "$loops" ] || die "CONFIGS entry '$c': want LABEL:WORKLOAD:SMP:GROUPS:LOOPS"
	runs+=("$label=$OUT/$label")
	if [ "${REUSE:-0}" = 1 ] && [ -s "$OUT/$label/functions.tsv" ]; then
		log "scaling: $label: reusing $OUT/$label (REUSE=1)"
		continue
	fi
	log "scaling: $label ($workload, $smp vCPU(s)$([ "$workload" = messaging ] && echo ", $groups group(s)"))"
	g=$groups
	[ "$workload" = messaging ] || g=4
	SCHED=simple WORKLOAD=$workload SMP=$smp MSG_GROUPS=$g LOOPS=$loops OUT=$OUT/$label \
		"$here/insn-profile.sh" "${ktree[baseline]}" "${ktree[patched]}" >"$OUT/$label.log" 2>&1 ||
		die "insn-profile for $label failed: see $OUT/$label.log"
	cp "$OUT/$label/table.md" "$RESULTS_DIR/$label.md"
done
{
	echo "# How the saving grows with the work (scx_simple)"
	echo
	echo "Kernels $(basename "${ktree[baseline]}") and $(basename "${ktree[patched]}"); taken $(date -u '+%Y-%m-%d %H:%M UTC') by bench/scaling.sh; configurations (label:workload:vCPUs:groups:loops): $CONFIGS. Units: a pipe round trip, a message."
	echo
	python3 "$here/insn-profile/scaling.py" --dat "$OUT/scaling.dat" "$RESULTS_DIR/static-diff.md" "${runs[@]}"
	echo
	echo "![saving against calls](scaling.svg)"
} >"$RESULTS_DIR/table.md"
# the plot: the 1-vCPU configurations (with more vCPUs the kernels' paths
# differ, see docs/benchmark.md); the reference's saving per call as a line
slope=$(sed -n 's/^# slope -*//p' "$OUT/scaling.dat")
awk -F'\t' '(!/^#/ && $1 !~ /-[0-9]+cpu$/) || $1 ~ /-1cpu$/ {
	printf "%s%s\n%s\t%s\t%s\n", (n++ ? "\n\n" : ""), $1, $1, $2, -$3 }' "$OUT/scaling.dat" >"$OUT/scaling-1cpu.dat"
gnuplot -e "datafile='$OUT/scaling-1cpu.dat'; outfile='$RESULTS_DIR/scaling.svg'; slope=$slope" \
	"$here/insn-profile/scaling.gp" || die "gnuplot failed on $OUT/scaling-1cpu.dat"
cat "$RESULTS_DIR/table.md"
log "scaling: written $RESULTS_DIR/table.md"
