#!/usr/bin/env bash
# make check: every kernel of KERNELS through `make check-one`, the patched
# kernels against the baseline side by side, sched-load's table, with
# DEBUG=1 the two 6.12 reproductions, the harness's own tests; then the run
# as one KTAP document (runs/check-<run id>/report.ktap, runs/latest) with
# its JUnit and JSON forms, and the last line summing everything:
# "N passed, N failed[, N skipped]". Exits 1 if anything failed, 2 on a bad
# SCHED_LOAD or KERNELS.
#
# The screen: one progress line per stage (a kernel, a reproduction, the
# harness tests) and per guest suite or harness test file, "[i/N] what ...
# elapsed", lock waits, then the totals, each failure with its log and the
# reports' paths. Each stage's full output is in the run's directory.
# CHECK_VERBOSE=1 streams everything instead (VERBOSE=1).
#
# The Makefile passes, in the environment: MAKE (the make to call the
# one-kernel targets with), CACHE_DIR, RUN_ID, LOG_DIR, KEEP_RUNS,
# SCHED_LOAD, T, and
#   CHECK_KERNELS        the kernels to run, in order
#   CHECK_VARIANTS       the known variants
#   CHECK_RUN_DIR        check-one's run directory, with @K@ for the kernel
#                        (the Makefile's run_dir: spelled in one place)
#   CHECK_DEBUG          1: also run the reproductions (make check DEBUG=1)
#   CHECK_VERBOSE        1: stream every stage's output
#   HARNESS              quick|full, HARNESS_KERNEL, HARNESS_APPEND: for
#                        tests/harness/run.sh
#
# Usage: scripts/check.sh (from the top of the tree, as make runs it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
. "$here/ktap-read.sh"
. "$here/progress.sh"

: "${MAKE:?}" "${RUN_ID:?}" "${CHECK_KERNELS:?}" "${CHECK_VARIANTS:?}" "${CHECK_RUN_DIR:?}"
: "${SCHED_LOAD:=quick}" "${KEEP_RUNS:=10}" "${LOG_DIR:=$CACHE_DIR/logs}" "${T:=}"
read -r -a kernels <<<"$CHECK_KERNELS"
verbose=${CHECK_VERBOSE:-}
debug=${CHECK_DEBUG:-}

case "$SCHED_LOAD" in
quick | full | off) ;;
*) echo "ERROR: SCHED_LOAD: unknown mode '$SCHED_LOAD' (quick|full|off)" >&2 && exit 2 ;;
esac
# Every kernel is checked before the first boot: a typo in the last one
# should not cost the first ones' 10 minutes each.
for k in "${kernels[@]}"; do
	case " $CHECK_VARIANTS " in
	*" $k "*) ;;
	*) echo "ERROR: KERNELS: unknown kernel '$k' ($CHECK_VARIANTS)" >&2 && exit 2 ;;
	esac
done

rc=0
# sums: every totals line of the run; gsums: the guests'; hsums: the harness's
sums=$(mktemp) gsums=$(mktemp) hsums=$(mktemp)
trap 'rm -f "$sums" "$gsums" "$hsums"' EXIT
cdir=$CACHE_DIR/runs/check-$RUN_ID
mkdir -p "$cdir"
# the last KEEP_RUNS whole runs are kept
# shellcheck disable=SC2012 # run directories are named by us: no odd characters
ls -1dt "$CACHE_DIR"/runs/check-2* 2>/dev/null | tail -n +$((KEEP_RUNS + 1)) | xargs -r rm -rf || true
failures=$cdir/failures.txt
# a filtered run's harness report lists only some names (make list-tests)
[ -z "$T" ] || echo "T=$T" >"$cdir/filter"
: >"$failures"
start=$SECONDS

nstages=$((${#kernels[@]} + 1))
[ -z "$debug" ] || nstages=$((nstages + 2))
stage=0
[ -n "$verbose" ] || progress_note "make check: ${kernels[*]}, then the harness tests ($nstages stages); each stage's output in $cdir/"

logs=() docs=()
for k in "${kernels[@]}"; do
	stage=$((stage + 1))
	d=${CHECK_RUN_DIR//@K@/$k}
	l=$d/console.log
	if [ -n "$verbose" ]; then
		echo "==> check: $k kernel" >&2
		"$MAKE" --no-print-directory check-one V="$k" BASELINE= | tee -a "$sums" "$gsums" || rc=1
	else
		out=$cdir/$k.out
		t0=$SECONDS
		"$MAKE" --no-print-directory check-one V="$k" BASELINE= >"$out" 2>&1 &
		watch_guest $! "[$stage/$nstages] $k kernel" "$out" "$l" || rc=1
		# check-one's last line is its report's totals (the guest's own
		# lines in between end in \r, and never match)
		{ kt_last_totals "$out" || true; } | tee -a "$sums" >>"$gsums"
		progress_line "[$stage/$nstages] $k kernel" "$(last_totals "$out")" $((SECONDS - t0))
		log_of=$l
		[ -f "$log_of" ] || log_of=$out
		if [ -f "$d/report.ktap" ]; then
			ktap_failures "$k" "$log_of" "$d/report.ktap" >>"$failures"
		else
			echo "  $k: no report (check-one stopped before it) -- log: $out" >>"$failures"
		fi
	fi
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
		if [ -n "$verbose" ]; then
			echo
			echo "# $a against baseline:"
			"$here/side-by-side.sh" --save "$la" "$lb" || true
		else
			"$here/side-by-side.sh" --save "$la" "$lb" >/dev/null 2>&1 || true
			echo "# $a against baseline: $(dirname "$la")/side-by-side.txt"
		fi
	done
fi

if [ "$SCHED_LOAD" != off ] && [ ${#logs[@]} -gt 0 ]; then
	mkdir -p "$LOG_DIR"
	t=$(dirname "${logs[0]}")/sched-load.txt
	"$top/selftests/sched-load/summarize.sh" "${logs[@]}" >"$t" || true
	if [ -n "$verbose" ]; then
		echo
		echo "# sched-load per run and kernel ($t):"
		cat "$t"
	else
		echo "# sched-load per run and kernel: $t"
	fi
	ln -sfn "$t" "$LOG_DIR/sched-load.txt" || true
fi

# run_repro NAME WHAT: one of the 6.12 reproductions, a boot per kernel
run_repro() {
	local name=$1 what=$2 t0=$SECONDS r=0
	stage=$((stage + 1))
	if [ -n "$verbose" ]; then
		echo "==> check: $what, one boot per kernel" >&2
		"$MAKE" --no-print-directory "$name" | tee "$cdir/$name.ktap" | tee -a "$sums" "$gsums" || rc=1
	else
		progress_note "[$stage/$nstages] $what, one boot per kernel (output: $cdir/$name.out)"
		"$MAKE" --no-print-directory "$name" >"$cdir/$name.ktap" 2>"$cdir/$name.out" || r=1
		[ "$r" = 0 ] || rc=1
		tee -a "$sums" <"$cdir/$name.ktap" >>"$gsums"
		progress_line "[$stage/$nstages] $name" "$(last_totals "$cdir/$name.ktap")" $((SECONDS - t0))
		ktap_failures "$name" "$cdir/$name.out" "$cdir/$name.ktap" >>"$failures"
	fi
	docs+=("$name=$cdir/$name.ktap")
}
if [ -n "$debug" ]; then
	run_repro repro-cgroup-move "the 6.12 ops.cgroup_move() deadlock"
	run_repro repro-sleepable-timer "the 6.12 sleepable bpf_timer callback"
fi

stage=$((stage + 1))
hk=$cdir/harness.ktap
if [ -n "$verbose" ]; then
	echo "==> check: harness tests (tests/harness)" >&2
	T=$T "$top/tests/harness/run.sh" | tee "$hk" | tee -a "$sums" "$hsums" || rc=1
else
	t0=$SECONDS r=0
	T=$T HARNESS_PROGRESS="[$stage/$nstages] harness" "$top/tests/harness/run.sh" >"$hk" || r=1
	[ "$r" = 0 ] || rc=1
	tee -a "$sums" <"$hk" >>"$hsums"
	progress_line "[$stage/$nstages] harness tests" "$(last_totals "$hk")" $((SECONDS - t0))
	ktap_failures harness "$hk" "$hk" >>"$failures"
fi
docs+=("harness=$hk")
sed -nE 's/^# ([A-Za-z0-9_.-]+): ([0-9]+) s$/harness\t\1.test.sh\t\2/p' "$hk" >>"$cdir/timings.tsv"

"$here/ktap-nest.sh" "${docs[@]}" >"$cdir/report.ktap" || rc=1
ln -sfn "$cdir" "$CACHE_DIR/runs/latest"
"$here/ktap-convert.sh" junit check "$cdir/timings.tsv" <"$cdir/report.ktap" >"$cdir/junit.xml" || rc=1
"$here/ktap-convert.sh" json check "$cdir/timings.tsv" <"$cdir/report.ktap" >"$cdir/summary.json" || rc=1
echo
if [ -n "$verbose" ]; then
	echo "# the whole run as one KTAP document: $cdir/report.ktap ($CACHE_DIR/runs/latest), seconds per test: $cdir/timings.tsv"
	"$here/ktap-verify.sh" "$cdir/report.ktap" | tee -a "$sums" || rc=1
else
	v=$cdir/report-verify.ktap
	"$here/ktap-verify.sh" "$cdir/report.ktap" >"$v" || rc=1
	cat "$v" >>"$sums"
	ktap_failures report "$v" "$v" >>"$failures"
	if [ -s "$failures" ]; then
		echo "# failures ($(wc -l <"$failures")), each with its log:"
		head -n 40 "$failures"
		[ "$(wc -l <"$failures")" -le 40 ] || echo "#   ... all of them in $failures"
	fi
	echo "# the whole run ($CACHE_DIR/runs/latest): KTAP $cdir/report.ktap, JUnit $cdir/junit.xml, JSON $cdir/summary.json, seconds per test $cdir/timings.tsv"
	echo "# make check: $(fmt_secs $((SECONDS - start)))"
fi
echo "# kernel-side tests (guests of ${kernels[*]}): $("$here/sum-totals.sh" "$gsums" || true)"
echo "# harness self-tests (host): $("$here/sum-totals.sh" "$hsums" || true)"
echo "# totals over: ${kernels[*]}, the harness tests and the run's own checks"
"$here/sum-totals.sh" "$sums" || rc=1
exit "$rc"
