#!/usr/bin/env bash
# bench/summarize.sh on synthetic raw results: the medians, spreads, ratios
# and differences of the tables are what the numbers give; a cell one
# kernel has no numbers for is "missing" and exits 3. The bench reports
# these figures as measured, so the arithmetic must be right.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run <workload> <sched> <rep> <ns_per_op> <total_ns> <ops> <ctx_switches>
# load <sched> <rep> <load_ns> <prog_ns> <verify_us> <insns> <progs>
cat >"$tmp/base" <<'RAW'
run pipe fair 1 101 0 1000 2000
run pipe fair 2 99 0 1000 2000
run pipe fair 3 102 0 1000 2000
run pipe fair 4 100 0 1000 2000
run pipe fair 5 100 0 1000 2000
load simple 1 9000 400 3 130 4
load simple 2 9100 400 3 130 4
load simple 3 9200 404 4 130 4
load simple 4 9300 396 2 130 4
filter simple absent
RAW
cat >"$tmp/patch" <<'RAW'
run pipe fair 1 90 0 1000 3000
run pipe fair 2 90 0 1000 3000
run pipe fair 3 90 0 1000 3000
run pipe fair 4 90 0 1000 3000
run pipe fair 5 90 0 1000 3000
load simple 1 9000 440 3 130 4
load simple 2 9000 440 3 130 4
load simple 3 9000 440 3 130 4
load simple 4 9000 440 3 130 4
filter simple 4 64 2 24
RAW

rc=0
"$top/bench/summarize.sh" "$tmp/base" "$tmp/patch" "$tmp/plot" "$tmp/cells.csv" >"$tmp/md" 2>&1 || rc=$?
check complete-exit-0 "exit $rc: $(cat "$tmp/md")" [ "$rc" = 0 ]
# Odd count: the middle value (100); spread (102 - 99) / 100; ctx 2 vs 3.
row='| pipe / fair (control) | 100.0 | 90.0 | **0.9000** | -10.0 | 3.000% / 0.000% | 5 / 5 | 2.000 / 3.000 |'
check run-time-row "want: $row" grep -qxF "$row" "$tmp/md"
# Even count: the mean of the middle two (400, 400); spread 8 / 400.
row='| scx_simple: BPF_PROG_LOAD calls, guest ns (sum over programs, mean per load) | 400.0 | 440.0 | **1.1000** | +40.0 | 2.000% / 0.000% | 4 / 4 |'
check prog-load-row "want: $row" grep -qxF "$row" "$tmp/md"
row='| scx_simple: whole skeleton load, guest ns (mean per load) | 9150.0 | 9000.0 | **0.9836** | -150.0 | 3.279% / 0.000% | 4 / 4 |'
check whole-load-row "want: $row" grep -qxF "$row" "$tmp/md"
# Plot data: ratio - 1 and the range over pairs, in percent, per data set.
check plot-run-time "$(cat "$tmp/plot")" grep -qxF "$(printf '"pipe\\nfair"\t-10.0000\t-11.7647\t-9.0909')" "$tmp/plot"
check plot-prog-load "$(cat "$tmp/plot")" grep -qxF "$(printf '"prog load\\nsimple"\t10.0000\t8.9109\t11.1111')" "$tmp/plot"
# Tracer overhead 24 / 2 - 4 = 8 per call; filter 64 - 4 x 8 = 32 ns, 8
# per call, 32 / 440 of the patched BPF_PROG_LOAD median.
check filter-row "$(cat "$tmp/md")" grep -qxF '| scx_simple | 4 | 64 | 8 | 32 | 8 | 7.273% |' "$tmp/md"

# The same cells as CSV: one header, a line per table row (1 run-time, 4
# load-time), the figures of the rows above.
check csv-rows "$(cat "$tmp/cells.csv")" test "$(wc -l <"$tmp/cells.csv")" = 6
check csv-run-time "$(cat "$tmp/cells.csv")" grep -qxF 'run,"pipe / fair (control)",100.0,90.0,0.900000,-10.0,0.030000,0.000000,5,5,0.882353,0.909091' "$tmp/cells.csv"
check csv-prog-load "$(cat "$tmp/cells.csv")" grep -qxF 'load,"scx_simple: BPF_PROG_LOAD calls, guest ns (sum over programs, mean per load)",400.0,440.0,1.100000,40.0,0.020000,0.000000,4,4,1.089109,1.111111' "$tmp/cells.csv"
# Plot labels: "msg" for messaging, "perf" on a line of its own.
printf 'run perf-messaging fair 1 100 0 1000 2000\n' >>"$tmp/base"
printf 'run perf-messaging fair 1 100 0 1000 2000\n' >>"$tmp/patch"
"$top/bench/summarize.sh" "$tmp/base" "$tmp/patch" "$tmp/plot" >/dev/null 2>&1 || true
check plot-label-perf-msg "$(cat "$tmp/plot")" grep -qF '"perf\nmsg\nfair"' "$tmp/plot"
sed -i '/perf-messaging/d' "$tmp/base" "$tmp/patch"

# The patched kernel gave no load-time numbers: missing, exit 3.
grep -v '^load' "$tmp/patch" >"$tmp/patch-noload"
rc=0
"$top/bench/summarize.sh" "$tmp/base" "$tmp/patch-noload" "$tmp/plot" >"$tmp/md" 2>&1 || rc=$?
check missing-exit-3 "exit $rc, want 3" [ "$rc" = 3 ]
check missing-row "$(cat "$tmp/md")" grep -qF '| scx_simple: BPF_PROG_LOAD calls, guest ns (sum over programs, mean per load) | missing | missing |' "$tmp/md"
done_testing
