#!/usr/bin/env bash
# Where the pipe round trip's instructions go, per kernel function, on the
# baseline and the patched kernel: the benchmark's pipe cell under one
# scheduler, booted twice per kernel with LOOPS and 2*LOOPS round trips
# under -icount, with a TCG plugin (insn-profile/tb-count.c) counting the
# instructions each translation block ran. The difference of the two boots,
# divided by the extra round trips, is each function's instructions per
# round trip (boot, scheduler loads and the rest cancel); the kernel's
# symbols (nm vmlinux) name the functions. A measurement, not a test: it
# prints a table and fails only if a boot or a dump did not happen.
#
# WORKLOAD=messaging does the same with the bench's messaging cell
# (MSG_GROUPS groups of 10 senders and 10 receivers, 25 loops: 2500
# messages per group and round), LOOPS and 2*LOOPS rounds per run: per
# message instead of per round trip; WORKLOAD=load with the scheduler's
# skeleton load (bench/src/scx-load-time.c), LOOPS and 2*LOOPS loads per
# run: where a load's instructions go.
#
# Usage: bench/insn-profile.sh BASELINE_TREE PATCHED_TREE
# Env: SCHED=simple (fair|simple|qmap), WORKLOAD=pipe (or messaging, load),
#      LOOPS=20000 round trips (messaging: rounds, default 20; load: 2),
#      MSG_GROUPS=4, TOP=25 rows, SMP=1 vCPUs,
#      OUT=$CACHE_DIR/bench/insn-profile (dumps, logs, table.md, and
#      functions.tsv: every function, for bench/insn-profile/scaling.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_TREE PATCHED_TREE (e.g. \$CACHE_DIR/build/baseline-bench \$CACHE_DIR/build/patched-bench)"
two_trees "$1" "$2"
SCHED=${SCHED:-simple} WORKLOAD=${WORKLOAD:-pipe} TOP=${TOP:-25} SMP=${SMP:-1} MSG_GROUPS=${MSG_GROUPS:-4}
case $WORKLOAD in
pipe) LOOPS=${LOOPS:-20000} unit="round trip" ;;
messaging) LOOPS=${LOOPS:-20} unit=message ;;
load) LOOPS=${LOOPS:-2} unit="scheduler load" ;;
*) die "WORKLOAD=$WORKLOAD: want pipe, messaging or load" ;;
esac
[[ $SMP =~ ^[1-9][0-9]*$ ]] || die "SMP=$SMP: want a number of vCPUs"
[[ $MSG_GROUPS =~ ^[1-9][0-9]*$ ]] || die "MSG_GROUPS=$MSG_GROUPS: want a number of groups"
OUT=${OUT:-$CACHE_DIR/bench/insn-profile}
case $SCHED in fair | simple | qmap) ;; *) die "SCHED=$SCHED: want fair, simple or qmap" ;; esac
[[ $LOOPS =~ ^[1-9][0-9]*$ ]] || die "LOOPS=$LOOPS: want a positive number of ${unit}s (messaging: rounds)"
command -v gcc >/dev/null || die "gcc not found: make deps"
mkdir -p "$OUT"

plugin=$OUT/tb-count.so
gcc -O2 -shared -fPIC -Wall -Werror -o "$plugin" "$here/insn-profile/tb-count.c"

# A cell runs a warm-up and then one timed run (bench.reps, bench.msg_reps):
# a boot runs 2 * bench.pipe round trips, or 2 * LOOPS messaging rounds.
reps=1
per_loop=1
[ "$WORKLOAD" = messaging ] && per_loop=$((MSG_GROUPS * 2500))
# cell_args N: the guest's knobs for a run of N round trips, rounds or
# loads (a load cell: a warm-up and one rep of N loads of the scheduler's
# skeleton each, plus one traced load for the filter cost, in both boots)
cell_args() {
	case $WORKLOAD in
	pipe) echo "bench.workloads=pipe bench.load=0 bench.pipe=$1" ;;
	messaging) echo "bench.workloads=messaging bench.load=0 bench.msg=$MSG_GROUPS,10,10,25,$1 bench.msg_rounds=" ;;
	load) echo "bench.workloads= bench.load=1 bench.load_iters=$1" ;;
	esac
}
what() { case $WORKLOAD in pipe) echo "round trips" ;; messaging) echo "rounds of $per_loop messages" ;; load) echo loads ;; esac; }
for v in baseline patched; do
	t=${ktree[$v]}
	p=$(payload_dir "$t")
	{ [ -f "$t/vmlinux" ] && [ -d "$p" ]; } ||
		die "$t: no vmlinux or payload (make payload BENCH=1$([ "$v" = baseline ] && echo ' BASELINE=1'))"
	w=$OUT/$v
	mkdir -p "$w"
	"$here/build-guest.sh" "$t" "$w/overlay"
	flock "$t/.scx-payload.lock" "$repo/initramfs/build-initramfs.sh" "$t" "$w/initramfs.cpio" \
		"$p" "$w/overlay"
	nm -n "$t/vmlinux" >"$w/vmlinux.nm"
	for n in "$LOOPS" $((2 * LOOPS)); do
		log "insn-profile: $v kernel, $WORKLOAD under $SCHED, $SMP vCPU(s), $n $(what) per run"
		rm -f "$w/$n.tb"
		rc=0
		"$repo/run-qemu.sh" --kernel "$t/arch/x86/boot/bzImage" --initrd "$w/initramfs.cpio" \
			--log "$w/$n.log" --icount --smp "$SMP" --memory 1G --timeout 3600 \
			--plugin "$plugin,outfile=$w/$n.tb" \
			--append "scx.payload=bench bench.reps=$reps bench.msg_reps=$reps $(cell_args "$n") bench.scheds=$SCHED" \
			>/dev/null 2>&1 || rc=$?
		[ "$rc" = 0 ] || die "$v kernel, $n $(what): run-qemu exited $rc (console: $w/$n.log)"
		[ -s "$w/$n.tb" ] || die "$v kernel, $n $(what): the plugin wrote no counts to $w/$n.tb"
		grep -a '^BENCH-PROGRESS \(cell\|load\)' "$w/$n.log" | tr -d '\r' | sed "s/^/# $v $n: /"
	done
done

b=$OUT/baseline p=$OUT/patched
{
	echo "# Instructions per $WORKLOAD $unit under $SCHED, $SMP vCPU(s), per function"
	echo
	echo "Kernels: $(basename "${ktree[baseline]}") (baseline), $(basename "${ktree[patched]}") (patched)." \
		"Two boots per kernel ($LOOPS and $((2 * LOOPS)) $(what) per run, a warm-up and $reps run)," \
		"-icount, a TCG plugin counting executed instructions per block; taken $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo
	python3 "$here/insn-profile/attribute.py" --unit "$unit" --tsv "$OUT/functions.tsv" \
		$(((reps + 1) * LOOPS * per_loop)) "$TOP" \
		"$b/vmlinux.nm" "$b/$LOOPS.tb" "$b/$((2 * LOOPS)).tb" \
		"$p/vmlinux.nm" "$p/$LOOPS.tb" "$p/$((2 * LOOPS)).tb"
} >"$OUT/table.md"
cat "$OUT/table.md"
echo "# written: $OUT/table.md"
