#!/usr/bin/env bash
# make check: every kernel of KERNELS through `make check-one`, the patched
# kernels against the baseline side by side, sched-load's table, with
# DEBUG=1 the two 6.12 reproductions, the harness's own tests; then the run
# as one KTAP document (runs/check-<run id>/report.ktap, runs/latest), and
# the last line summing everything: "N passed, N failed[, N skipped]".
# Exits 1 if anything failed, 2 on a bad SCHED_LOAD or KERNELS.
#
# The Makefile passes, in the environment: MAKE (the make to call the
# one-kernel targets with), CACHE_DIR, RUN_ID, LOG_DIR, KEEP_RUNS,
# SCHED_LOAD, T, and
#   CHECK_KERNELS        the kernels to run, in order
#   CHECK_VARIANTS       the known variants
#   CHECK_RUN_DIR        check-one's run directory, with @K@ for the kernel
#                        (the Makefile's run_dir: spelled in one place)
#   CHECK_DEBUG          1: also run the reproductions (make check DEBUG=1)
#   HARNESS_KERNEL, HARNESS_APPEND: for tests/harness/run.sh
#
# Usage: scripts/check.sh (from the top of the tree, as make runs it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"

: "${MAKE:?}" "${RUN_ID:?}" "${CHECK_KERNELS:?}" "${CHECK_VARIANTS:?}" "${CHECK_RUN_DIR:?}"
: "${SCHED_LOAD:=quick}" "${KEEP_RUNS:=10}" "${LOG_DIR:=$CACHE_DIR/logs}" "${T:=}"
read -r -a kernels <<<"$CHECK_KERNELS"
debug=${CHECK_DEBUG:-}

case "$SCHED_LOAD" in
quick | full | off) ;;
*) echo "ERROR: SCHED_LOAD: unknown mode '$SCHED_LOAD' (quick|full|off)" >&2 && exit 2 ;;
esac

rc=0
# sums: every totals line of the run; gsums: the guests'; hsums: the harness's
sums=$(mktemp) gsums=$(mktemp) hsums=$(mktemp)
trap 'rm -f "$sums" "$gsums" "$hsums"' EXIT
cdir=$CACHE_DIR/runs/check-$RUN_ID
mkdir -p "$cdir"
# the last KEEP_RUNS whole runs are kept
# shellcheck disable=SC2012 # run directories are named by us: no odd characters
ls -1dt "$CACHE_DIR"/runs/check-2* 2>/dev/null | tail -n +$((KEEP_RUNS + 1)) | xargs -r rm -rf || true

logs=() docs=()
for k in "${kernels[@]}"; do
	case " $CHECK_VARIANTS " in
	*" $k "*) ;;
	*) echo "ERROR: KERNELS: unknown kernel '$k' ($CHECK_VARIANTS)" >&2 && exit 2 ;;
	esac
	echo "==> check: $k kernel" >&2
	"$MAKE" --no-print-directory check-one V="$k" BASELINE= | tee -a "$sums" "$gsums" || rc=1
	d=${CHECK_RUN_DIR//@K@/$k}
	l=$d/console.log
	[ ! -f "$l" ] || logs+=("$l")
	docs+=("$k=$d/report.ktap")
	[ ! -f "$d/timings.tsv" ] || sed "s|^|$k/|" "$d/timings.tsv" >>"$cdir/timings.tsv"
done

# Each patched kernel against the baseline, when both ran.
if [[ " ${kernels[*]} " == *" baseline "* ]]; then
	lb=${CHECK_RUN_DIR//@K@/baseline}/console.log
	for a in "${kernels[@]}"; do
		[ "$a" != baseline ] || continue
		la=${CHECK_RUN_DIR//@K@/$a}/console.log
		{ [ -f "$la" ] && [ -f "$lb" ]; } || continue
		echo
		echo "# $a against baseline:"
		"$here/side-by-side.sh" --save "$la" "$lb" || true
	done
fi

if [ "$SCHED_LOAD" != off ] && [ ${#logs[@]} -gt 0 ]; then
	t=$(dirname "${logs[0]}")/sched-load.txt
	echo
	echo "# sched-load per run and kernel ($t):"
	"$top/selftests/sched-load/summarize.sh" "${logs[@]}" >"$t" || true
	cat "$t"
	ln -sfn "$t" "$LOG_DIR/sched-load.txt" || true
fi

# run_repro NAME WHAT: one of the 6.12 reproductions, a boot per kernel
run_repro() {
	echo "==> check: $2, one boot per kernel" >&2
	"$MAKE" --no-print-directory "$1" | tee "$cdir/$1.ktap" | tee -a "$sums" "$gsums" || rc=1
	docs+=("$1=$cdir/$1.ktap")
}
if [ -n "$debug" ]; then
	run_repro repro-cgroup-move "the 6.12 ops.cgroup_move() deadlock"
	run_repro repro-sleepable-timer "the 6.12 sleepable bpf_timer callback"
fi

echo "==> check: harness tests (tests/harness)" >&2
hk=$cdir/harness.ktap
T=$T "$top/tests/harness/run.sh" | tee "$hk" | tee -a "$sums" "$hsums" || rc=1
docs+=("harness=$hk")
sed -nE 's/^# ([A-Za-z0-9_.-]+): ([0-9]+) s$/harness\t\1.test.sh\t\2/p' "$hk" >>"$cdir/timings.tsv"

"$here/ktap-nest.sh" "${docs[@]}" >"$cdir/report.ktap" || rc=1
ln -sfn "$cdir" "$CACHE_DIR/runs/latest"
echo
echo "# the whole run as one KTAP document: $cdir/report.ktap ($CACHE_DIR/runs/latest), seconds per test: $cdir/timings.tsv"
"$here/ktap-verify.sh" "$cdir/report.ktap" | tee -a "$sums" || rc=1
echo "# kernel-side tests (guests of ${kernels[*]}): $("$here/sum-totals.sh" "$gsums" || true)"
echo "# harness self-tests (host): $("$here/sum-totals.sh" "$hsums" || true)"
echo "# totals over: ${kernels[*]}, the harness tests and the run's own checks"
"$here/sum-totals.sh" "$sums" || rc=1
exit "$rc"
