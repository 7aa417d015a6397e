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
# Usage: bench/insn-profile.sh BASELINE_TREE PATCHED_TREE
# Env: SCHED=simple (fair|simple|qmap), LOOPS=20000, TOP=25 rows, SMP=1 vCPUs,
#      OUT=$CACHE_DIR/bench/insn-profile (dumps, logs, table.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_TREE PATCHED_TREE (e.g. \$CACHE_DIR/build/baseline-bench \$CACHE_DIR/build/patched-bench)"
two_trees "$1" "$2"
SCHED=${SCHED:-simple} LOOPS=${LOOPS:-20000} TOP=${TOP:-25} SMP=${SMP:-1}
[[ $SMP =~ ^[1-9][0-9]*$ ]] || die "SMP=$SMP: want a number of vCPUs"
OUT=${OUT:-$CACHE_DIR/bench/insn-profile}
case $SCHED in fair | simple | qmap) ;; *) die "SCHED=$SCHED: want fair, simple or qmap" ;; esac
[[ $LOOPS =~ ^[1-9][0-9]*$ ]] || die "LOOPS=$LOOPS: want a positive number of round trips"
command -v gcc >/dev/null || die "gcc not found: make deps"
mkdir -p "$OUT"

plugin=$OUT/tb-count.so
gcc -O2 -shared -fPIC -Wall -Werror -o "$plugin" "$here/insn-profile/tb-count.c"

# The pipe cell runs a warm-up and then REPS timed runs: with one rep, a
# boot runs 2 * bench.pipe round trips.
reps=1
for v in baseline patched; do
	t=${tree[$v]}
	[ -f "$t/vmlinux" ] && [ -d "$t/.scx-payload" ] ||
		die "$t: no vmlinux or payload (make payload BENCH=1$([ "$v" = baseline ] && echo ' BASELINE=1'))"
	w=$OUT/$v
	mkdir -p "$w"
	"$here/build-guest.sh" "$t" "$w/overlay"
	flock "$t/.scx-payload.lock" "$repo/initramfs/build-initramfs.sh" "$t" "$w/initramfs.cpio" \
		"$t/.scx-payload" "$w/overlay"
	nm -n "$t/vmlinux" >"$w/vmlinux.nm"
	for n in "$LOOPS" $((2 * LOOPS)); do
		log "insn-profile: $v kernel, pipe under $SCHED, $n round trips per run"
		rm -f "$w/$n.tb"
		rc=0
		"$repo/run-qemu.sh" --kernel "$t/arch/x86/boot/bzImage" --initrd "$w/initramfs.cpio" \
			--log "$w/$n.log" --icount --smp "$SMP" --memory 1G --timeout 3600 \
			--plugin "$plugin,outfile=$w/$n.tb" \
			--append "scx.payload=bench bench.reps=$reps bench.pipe=$n bench.scheds=$SCHED bench.workloads=pipe bench.load=0" \
			>/dev/null 2>&1 || rc=$?
		[ "$rc" = 0 ] || die "$v kernel, $n round trips: run-qemu exited $rc (console: $w/$n.log)"
		[ -s "$w/$n.tb" ] || die "$v kernel, $n round trips: the plugin wrote no counts to $w/$n.tb"
		grep -a '^BENCH-PROGRESS cell' "$w/$n.log" | tr -d '\r' | sed "s/^/# $v $n: /"
	done
done

b=$OUT/baseline p=$OUT/patched
{
	echo "# Instructions per pipe round trip under $SCHED, per function"
	echo
	echo "Kernels: $(basename "${tree[baseline]}") (baseline), $(basename "${tree[patched]}") (patched)." \
		"Two boots per kernel ($LOOPS and $((2 * LOOPS)) round trips per run, a warm-up and $reps run)," \
		"-icount, a TCG plugin counting executed instructions per block; taken $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo
	python3 "$here/insn-profile/attribute.py" $(((reps + 1) * LOOPS)) "$TOP" \
		"$b/vmlinux.nm" "$b/$LOOPS.tb" "$b/$((2 * LOOPS)).tb" \
		"$p/vmlinux.nm" "$p/$LOOPS.tb" "$p/$((2 * LOOPS)).tb"
} >"$OUT/table.md"
cat "$OUT/table.md"
echo "# written: $OUT/table.md"
