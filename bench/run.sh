#!/usr/bin/env bash
# The kfunc-mask benchmark: boot the baseline and the patched kernel with
# identical QEMU settings (TCG, -icount shift=0,sleep=off, -smp BENCH_SMP,
# 1 by default: guest time counts instructions), run the guest payload
# bench/guest/bench.sh in each, and report baseline vs patched side by
# side, plus the static instruction count of the changed op-call paths.
#
# Both kernels and their payloads must be built (`make bench` does that
# through the pipeline: make payload BENCH=1 / make payload BENCH=1 BASELINE=1).
#
# Usage: bench/run.sh BASELINE_TREE PATCHED_TREE
# Knobs (environment):
#   REPS=5            repetitions per pipe and load-time cell (>= 5)
#   MSG_REPS=11       repetitions per messaging cell
#   PIPE_LOOPS=50000  pipe-pingpong round trips per run
#   MSG_ARGS=4,10,10,25,80  messaging groups,senders,receivers,loops,rounds
#                     (one messaging run = the sum of 80 independent rounds)
#   MSG_ROUNDS=fair:240  rounds per messaging run for some schedulers instead
#                     (the fair class's rounds vary most: 80 gave a 0.115%
#                     spread, see docs/benchmark.md)
#   LOAD_ITERS=1      scheduler loads per load-time rep (the mean is kept;
#                     10 measured worse, see docs/benchmark.md)
#   SCHEDS=fair,simple,qmap,flatcg
#   WORKLOADS=pipe,messaging  run-time workloads (pipe alone: minutes, not
#                     the better part of an hour); also perf-pipe and
#                     perf-messaging, the tree's perf bench sched pipe
#                     (PIPE_LOOPS round trips) and messaging (PERF_MSG)
#   PERF_MSG=4,500    perf bench sched messaging -g 4 -l 500 (perf prints
#                     ms: 2.6 guest s a run resolve 0.04%)
#   BENCH_JOBS=2      boot the two kernels at once (1: one after the other;
#                     the numbers do not depend on it, only the wall time)
#   BENCH_TIMEOUT=7200  seconds per guest (a starved guest took over 3600)
#   BENCH_LOAD=1      0: no load-time or filter-cost cells (run time only)
#   BENCH_SMP=1       vCPUs per guest; only 1 is accepted (see below)
#   RESULTS_DIR=$CACHE_DIR/bench/runs/<UTC time>-<checkout>  where the
#                     tables, the cells as CSV, raw numbers and plot go (a
#                     new directory per run, linked as .../runs/latest; copy
#                     it under bench/results/ to publish it)
# Exit status: 0 when every cell produced numbers; non-zero if a kernel did
# not boot or finish, a scheduler did not enable, or a run gave no number.
# Never fails on the numbers themselves.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BASELINE_TREE PATCHED_TREE"
two_trees "$1" "$2"
variants=(baseline patched)
grep -q '^patch ' "${ktree[patched]}/.scx-inputs" 2>/dev/null ||
	die "the patched kernel (${ktree[patched]}) was built with no patches (an empty series file?): nothing to compare"

REPS=${REPS:-11} MSG_REPS=${MSG_REPS:-11} PIPE_LOOPS=${PIPE_LOOPS:-50000}
MSG_ARGS=${MSG_ARGS:-4,10,10,25,80} SCHEDS=${SCHEDS:-fair,simple,qmap,flatcg}
WORKLOADS=${WORKLOADS:-pipe,messaging} PERF_MSG=${PERF_MSG:-4,500}
export WORKLOADS
MSG_ROUNDS=${MSG_ROUNDS-fair:240} LOAD_ITERS=${LOAD_ITERS:-1}
BENCH_JOBS=${BENCH_JOBS:-2} BENCH_TIMEOUT=${BENCH_TIMEOUT:-7200} BENCH_SMP=${BENCH_SMP:-1}
BENCH_LOAD=${BENCH_LOAD:-1}
case $BENCH_LOAD in 0 | 1) ;; *) die "BENCH_LOAD=$BENCH_LOAD: want 1 (measure scheduler load time) or 0" ;; esac
# With more than one vCPU, -icount guest time stops counting instructions:
# TCG runs the vCPUs in turns, and a pipe round trip across two of them
# read 8400.525 ns on both kernels (8200.513 with 4 vCPUs), boot after boot
# (2026-12-05, bench/insn-profile.sh runs): a time set by the turns, not by
# the work. Instruction counts stay valid (make insn-scaling).
[ "$BENCH_SMP" = 1 ] || die "BENCH_SMP=$BENCH_SMP: guest time under -icount is not an instruction count with more than one vCPU (a pipe round trip read 8400.525 ns on both kernels with 2); use make insn-scaling (SMP=) for more vCPUs"
work="$CACHE_DIR/bench"
logdir="$CACHE_DIR/logs"
if [ -z "${RESULTS_DIR:-}" ]; then
	RESULTS_DIR=$work/runs/$(date -u +%Y%m%d-%H%M%S)-$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
	mkdir -p "$work/runs"
	ln -sfn "$(basename "$RESULTS_DIR")" "$work/runs/latest"
fi
[ ! -e "$RESULTS_DIR/results.md" ] ||
	die "RESULTS_DIR=$RESULTS_DIR already holds a run (results.md): name a new directory, or leave RESULTS_DIR unset for a dated one"
mkdir -p "$work" "$logdir" "$RESULTS_DIR"

# The same QEMU settings for both kernels, by construction: one array.
qemu_opts=(--icount --smp "$BENCH_SMP" --memory 1G --timeout "$BENCH_TIMEOUT")
guest_args="scx.payload=bench bench.reps=$REPS bench.msg_reps=$MSG_REPS bench.pipe=$PIPE_LOOPS bench.msg=$MSG_ARGS bench.msg_rounds=$MSG_ROUNDS bench.load_iters=$LOAD_ITERS bench.scheds=$SCHEDS bench.workloads=$WORKLOADS bench.perf_msg=$PERF_MSG bench.load=$BENCH_LOAD"

# Host tools (scripts/install-deps.sh, run by make bench's payload stage):
# gnuplot for the plot, llvm-objdump and pahole for the static count.
command -v gnuplot >/dev/null || die "gnuplot not found: make deps (or apt-get install gnuplot-nox)"

start=$(date +%s)

# 1. Guest images: the pipeline's initramfs (busybox, /init, the tree's
#    payload) plus the benchmark overlay, per kernel. The payload is read
#    under its builder's lock.
for v in "${variants[@]}"; do
	t=${ktree[$v]}
	[ -f "$t/arch/x86/boot/bzImage" ] || die "$t/arch/x86/boot/bzImage missing (make kernel BENCH=1$([ "$v" = baseline ] && echo ' BASELINE=1'))"
	p=$(payload_dir "$t")
	[ -d "$p" ] || die "$p missing (make payload BENCH=1$([ "$v" = baseline ] && echo " BASELINE=1"))"
	log "bench $v: guest image ($(basename "$t"))"
	"$here/build-guest.sh" "$t" "$work/$v/overlay"
	flock "$t/.scx-payload.lock" \
		"$repo/initramfs/build-initramfs.sh" "$t" "$work/$v/initramfs.cpio" \
		"$p" "$work/$v/overlay"
done

# 2. Boot. Progress: one line per cell, from the guest's BENCH-PROGRESS
#    lines (median and spread computed here); errors and the run-qemu
#    verdict pass through.
progress() {
	awk -v tag="$1" '
	function show(s) { print "[" tag "] " s; fflush() }
	{ sub(/\r$/, "") }
	/^BENCH-PROGRESS cell / {
		split($0, h, ":"); split(h[1], w, " "); n = split(h[2], v, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		show(sprintf("%-9s / %-6s median %10.1f ns/op  spread %.3f%%  (%d reps)", w[3], w[4], m, 100 * (v[n] - v[1]) / m, n))
		next
	}
	/^BENCH-PROGRESS load / {
		split($0, h, ":"); split(h[1], w, " "); n = split(h[2], v, " ")
		for (i = 1; i <= n; i++) { split(v[i], f, "/"); pl[i] = f[2]; vt[i] = f[3]; ins = f[4] }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && pl[j - 1] + 0 > pl[j] + 0; j--) { t = pl[j]; pl[j] = pl[j - 1]; pl[j - 1] = t }
		for (i = 2; i <= n; i++) for (j = i; j > 1 && vt[j - 1] + 0 > vt[j] + 0; j--) { t = vt[j]; vt[j] = vt[j - 1]; vt[j - 1] = t }
		m = pl[int((n + 1) / 2)]
		show(sprintf("load scx_%-6s prog loads median %.0f ns  spread %.3f%%, verifier %d us, %d insns verified (%d reps)", w[3], m, 100 * (pl[n] - pl[1]) / m, vt[int((n + 1) / 2)], ins, n))
		next
	}
	/^BENCH-PROGRESS / { sub(/^BENCH-PROGRESS /, ""); show($0); next }
	/^BENCH-ERROR / { show("ERROR: " substr($0, 13)); next }
	/^run-qemu: / { show($0); next }'
}

run_variant() {
	local v=$1 t=${ktree[$1]}
	{
		rc=0
		nice -n 10 "$repo/run-qemu.sh" --kernel "$t/arch/x86/boot/bzImage" \
			--initrd "$work/$v/initramfs.cpio" --log "$logdir/bench-$v.log" \
			"${qemu_opts[@]}" --append "$guest_args" 2>&1 || rc=$?
		echo "$rc" >"$work/$v/qemu-rc"
	} | progress "$v"
}

log "bench: booting ${variants[*]} (${qemu_opts[*]}; $guest_args; $BENCH_JOBS at a time)"
pids=()
for v in "${variants[@]}"; do
	rm -f "$work/$v/qemu-rc"
	if [ "$BENCH_JOBS" -ge 2 ]; then
		run_variant "$v" &
		pids+=($!)
	else
		run_variant "$v"
	fi
done
for p in "${pids[@]}"; do wait "$p" || true; done

# 3. Numbers out of the console logs (the block printed with printk held
#    back), checked before anything is summarised.
failed=0
for v in "${variants[@]}"; do
	rc=$(cat "$work/$v/qemu-rc" 2>/dev/null || echo missing)
	raw="$RESULTS_DIR/raw-$v.txt"
	tr -d '\r' <"$logdir/bench-$v.log" |
		sed -n '/^BENCH-RESULTS-BEGIN$/,/^BENCH-RESULTS-END$/p' |
		grep -E '^(run|load|rounds|filter) ' >"$raw" || true
	if [ "$rc" != 0 ]; then
		warn "bench $v: guest failed (run-qemu exit $rc); console log: $logdir/bench-$v.log"
		failed=1
	fi
	if [ ! -s "$raw" ]; then
		warn "bench $v: no results in $logdir/bench-$v.log"
		failed=1
	fi
done

# btf_layout TREE: one line: the number of BTF types and the ids of a few
# sched_ext types in TREE's vmlinux (bpftool from TREE's payload build).
btf_layout() {
	local bt="$1/tools/bpf/bpftool/bpftool"
	[ -x "$bt" ] || { echo "(no bpftool in $1)"; return 0; }
	"$bt" btf dump file "$1/vmlinux" 2>/dev/null | awk '
		/^\[/ { n++ }
		/^\[[0-9]+\] (STRUCT .sched_ext_ops.|FUNC .scx_bpf_dispatch.|FUNC .scx_bpf_consume.) / {
			gsub(/'"'"'/, "", $3); ids = ids sprintf(", %s %s", $3, $1)
		}
		END { printf "%d types%s\n", n, ids }'
}

# 4. Report: tables, static count, plot.
md="$RESULTS_DIR/results.md"
elapsed=$(($(date +%s) - start))
subtitle="$(date -u +%Y-%m-%d) | baseline $(basename "${ktree[baseline]}") vs patched $(basename "${ktree[patched]}") | reps $REPS (messaging $MSG_REPS)"
summary_rc=0
{
	echo "# Benchmark results: baseline vs patched (kfunc masks removed)"
	echo
	echo "Taken $(date -u '+%Y-%m-%d %H:%M UTC') by \`make bench\` (bench/run.sh), ${elapsed}s of guest runs and image builds."
	echo
	echo "- kernels: \`${ktree[baseline]##*/}\` (baseline, series none) and \`${ktree[patched]##*/}\` (patched), same config and compiler"
	echo "- QEMU: $(qemu-system-x86_64 --version | head -1), run-qemu.sh \`${qemu_opts[*]}\` (TCG, \`-icount shift=0,sleep=off\`, -cpu max)"
	echo "- guest command line: \`$guest_args\`"
	echo "- method (docs/benchmark.md): a messaging run is the sum of the timed windows of its rounds (fresh children each, released just after a timer tick; clock stops at the last message, then the children are killed and reaped newest-first; per-round figures in the raw files; MSG_ROUNDS sets more rounds for some schedulers); a fresh BPF scheduler for every messaging run; a load-time rep is the mean of LOAD_ITERS=$LOAD_ITERS loads in one process; guest vm.stat_interval 3600, ASLR off, 1 s idle before every run"
	echo "- checkout: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "- host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo
	"$here/summarize.sh" "$RESULTS_DIR/raw-baseline.txt" "$RESULTS_DIR/raw-patched.txt" \
		"$RESULTS_DIR/plot.dat" "$RESULTS_DIR/cells.csv" || summary_rc=$?
	echo
	echo "Guest ns are instructions (\`-icount shift=0\`). Median of the repetitions;"
	echo "spread = (max - min) / median; ratio = patched median / baseline median."
	echo "Load time: bench/src/scx-load-time.c opens the scheduler's skeleton as the"
	echo "scheduler does and times SCX_OPS_LOAD() (no attach); \"BPF_PROG_LOAD calls\""
	echo "is the guest time inside the bpf(2) BPF_PROG_LOAD calls for the scheduler's"
	echo "programs (verification + JIT, where the kfunc filters run); \"verifier time\""
	echo "is the sum of the verifier's own per-program figure (BPF_LOG_STATS), in"
	echo "guest us, truncated to 1 us per program: a cross-check, too coarse for 0.1%."
	echo
	echo "Where each kernel's BTF puts the sched_ext types (libbpf resolves every"
	echo "kfunc extern by a linear scan of the vmlinux BTF, so the whole-load time"
	echo "moves with these ids; scripts/kbuild.sh pins pahole's type order, so"
	echo "two builds of the same source give the same .BTF and these ids differ"
	echo "by the types the series adds: bench/results/2026-12-05-btf-repro/):"
	echo
	for v in "${variants[@]}"; do
		btf_layout "${ktree[$v]}" | sed "s/^/- $v: /"
	done
	echo
	echo "## Static instruction count of the changed paths"
	echo
	"$here/static-count.sh" "${ktree[baseline]}/vmlinux" "${ktree[patched]}/vmlinux"
	echo
	echo "Every function of kernel/sched/build_policy.o (ext.c) whose count differs,"
	echo "the list taken from the objects (bench/static-diff.sh): a function"
	echo "inlined elsewhere shows as 0 here and in its callers."
	echo
	"$here/static-diff.sh" "${ktree[baseline]}" "${ktree[patched]}"
	echo
	echo "![plot](results.svg)"
} >"$md"
[ "$summary_rc" = 0 ] || { warn "bench: some cells have no numbers (see $md)"; failed=1; }

if [ -s "$RESULTS_DIR/plot.dat" ]; then
	haveload=0
	grep -q '^load ' "$RESULTS_DIR/raw-baseline.txt" && haveload=1
	gnuplot -e "datafile='$RESULTS_DIR/plot.dat'; outfile='$RESULTS_DIR/results.svg'; subtitle='$subtitle'; haveload=$haveload" \
		"$here/plot.gp" || { warn "bench: gnuplot failed"; failed=1; }
fi

echo
cat "$md"
echo
log "bench: results in $RESULTS_DIR (results.md, cells.csv, results.svg, raw-*.txt); console logs $logdir/bench-*.log"
log "bench: to publish it: cp -r $RESULTS_DIR bench/results/$(date -u +%Y-%m-%d)-<name> and commit; make bench-compare A=<dir> B=<dir> compares two"
log "bench: took $(($(date +%s) - start))s"
if [ "$failed" != 0 ]; then
	echo "bench: FAILED: something broke (see the warnings above); numbers may be incomplete" >&2
	exit 1
fi
