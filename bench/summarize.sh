#!/usr/bin/env bash
# Raw guest results of both kernels -> markdown tables (stdout) and the data
# file the plot reads.
#
# Raw lines (bench/guest/bench.sh):
#   run <workload> <sched> <rep> <ns_per_op> <total_ns> <ops> <ctx_switches>
#   load <sched> <rep> <load_ns> <prog_ns> <verify_us> <insns> <progs>
# Per cell: median, spread = (max - min) / median, ratio = patched median /
# baseline median, and the ratio's range over all pairs of repetitions
# (min patched / max baseline .. max patched / min baseline) for the plot.
#
# CELLS_CSV_OUT, if given, gets every row of the tables as CSV: table,
# cell, both medians, ratio, difference, both spreads and rep counts, and
# the ratio's range.
#
# Exits 3 if a cell has no numbers for one of the kernels.
#
# Usage: bench/summarize.sh RAW_BASELINE RAW_PATCHED PLOT_DATA_OUT [CELLS_CSV_OUT]
set -euo pipefail
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 RAW_BASELINE RAW_PATCHED PLOT_DATA_OUT [CELLS_CSV_OUT]" >&2; exit 64; }

awk -v datf="$3" -v csvf="${4:-}" '
function sortv(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
# stats(key): sets MED, MIN, MAX, N for the values collected under key.
function stats(key,    n, i, a) {
	n = cnt[key]
	for (i = 1; i <= n; i++) a[i] = val[key, i]
	sortv(a, n)
	N = n; MIN = a[1]; MAX = a[n]
	MED = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(key, v) { val[key, ++cnt[key]] = v; if (!(key in seen)) { seen[key] = 1; order[++nkeys] = key } }
function pct(x) { return sprintf("%.3f%%", 100 * x) }
FNR == 1 { kern = (NR == 1) ? "baseline" : "patched" }
$1 == "run" {
	cell = $2 " " $3
	add(kern SUBSEP cell SUBSEP "ns", $5)
	add(kern SUBSEP cell SUBSEP "sw", $8 / $7)
	if (!(cell in cseen)) { cseen[cell] = 1; cells[++ncells] = cell }
}
$1 == "load" {
	add(kern SUBSEP $2 SUBSEP "load", $4)
	add(kern SUBSEP $2 SUBSEP "progs", $5)
	add(kern SUBSEP $2 SUBSEP "verify", $6)
	add(kern SUBSEP $2 SUBSEP "insns", $7)
	if (!($2 in lseen)) { lseen[$2] = 1; lscheds[++nl] = $2 }
}
# filter <sched> <calls> <traced_ns> <calib_calls> <calib_ns>, or "absent"
$1 == "filter" { fcalls[kern, $2] = $3; fns[kern, $2] = $4; ccalls[kern, $2] = $5; cns[kern, $2] = $6 }
# row(cellkey, metric, label, extra): one table row for a metric (extra:
# one more column, or "" for none) and one line of plot data labelled plot
# (none if "").
function row(cellkey, metric, label, extra, plot,    bm, bmin, bmax, bn, pm, pmin, pmax, pn, r) {
	if (cnt["baseline" SUBSEP cellkey SUBSEP metric] == 0 || cnt["patched" SUBSEP cellkey SUBSEP metric] == 0) {
		printf "| %s | missing | missing | | | | |%s\n", label, (extra == "" ? "" : " |")
		missing++
		return
	}
	stats("baseline" SUBSEP cellkey SUBSEP metric); bm = MED; bmin = MIN; bmax = MAX; bn = N
	stats("patched" SUBSEP cellkey SUBSEP metric); pm = MED; pmin = MIN; pmax = MAX; pn = N
	r = pm / bm
	printf "| %s | %.1f | %.1f | **%.4f** | %+.1f | %s / %s | %d / %d |%s\n", label, bm, pm, r, pm - bm, \
		pct((bmax - bmin) / bm), pct((pmax - pmin) / pm), bn, pn, (extra == "" ? "" : " " extra " |")
	if (csvf != "")
		printf "%s,\"%s\",%.1f,%.1f,%.6f,%.1f,%.6f,%.6f,%d,%d,%.6f,%.6f\n", table, label, bm, pm, r, pm - bm, \
			(bmax - bmin) / bm, (pmax - pmin) / pm, bn, pn, pmin / bmax, pmax / bmin >> csvf
	if (plot != "")
		printf "\"%s\"\t%.4f\t%.4f\t%.4f\n", plot, 100 * (r - 1), 100 * (pmin / bmax - 1), 100 * (pmax / bmin - 1) >> datf
}
function med(k) { stats(k); return MED }
END {
	printf "" > datf
	if (csvf != "")
		print "table,cell,baseline_median,patched_median,ratio,difference,baseline_spread,patched_spread,baseline_reps,patched_reps,ratio_min,ratio_max" > csvf
	table = "run"
	print "## Run time"
	print ""
	print "| workload / scheduler | baseline ns/op | patched ns/op | patched/baseline | patched - baseline | spread (baseline / patched) | reps | ctx switches/op |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= ncells; i++) {
		split(cells[i], c, " ")
		s = (c[2] == "fair") ? "fair (control)" : "scx_" c[2]
		sw = sprintf("%.3f", med("baseline" SUBSEP cells[i] SUBSEP "sw"))
		if (cnt["patched" SUBSEP cells[i] SUBSEP "sw"])
			sw = sw " / " sprintf("%.3f", med("patched" SUBSEP cells[i] SUBSEP "sw"))
		# the plot label: "msg" for "messaging", to fit 12 cells
		pl = c[1]
		sub(/messaging/, "msg", pl)
		if (pl ~ /^perf-/)
			pl = "perf\\n" substr(pl, 6)
		row(cells[i], "ns", c[1] " / " s, sw, pl "\\n" c[2])
	}
	if (nl) {
		# gnuplot: the load-time cells are data set (index) 1.
		printf "\n\n" >> datf
		table = "load"
		print ""
		print "## Load time"
		print ""
		print "| load-time measure | baseline | patched | patched/baseline | patched - baseline | spread (baseline / patched) | reps |"
		print "|---|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= nl; i++) {
			s = lscheds[i]
			row(s, "progs", "scx_" s ": BPF_PROG_LOAD calls, guest ns (sum over programs, mean per load)", "", "prog load\\n" s)
			row(s, "verify", "scx_" s ": verifier time, us (kernel figure, 1 us steps; sum over programs, mean per load)", "", "")
			row(s, "load", "scx_" s ": whole skeleton load, guest ns (mean per load)", "", "load\\n" s)
			row(s, "insns", "scx_" s ": verified insns", "", "")
		}
		# What the filter itself costs in the patched load: time spent
		# in scx_kfunc_context_filter() (function_graph, one load).
		nf = 0
		for (i = 1; i <= nl; i++) {
			s = lscheds[i]
			if (!(("patched", s) in fcalls))
				continue
			if (fcalls["patched", s] == "absent") {
				printf "\nscx_%s: the patched kernel has no traceable scx_kfunc_context_filter(): filter cost not measured.\n", s
				continue
			}
			if (!nf++) {
				print ""
				print "The kfunc filter during one patched load. function_graph traces `scx_kfunc_context_filter()` (calls, guest ns = instructions, tracer entry and exit included) and the 4-instruction `bpf_jit_supports_kfunc_call()`, whose ns per call, less 4, is the tracer overhead; filter cost = traced - calls x overhead:"
				print ""
				print "| scheduler | filter calls | traced guest ns | tracer overhead per call | filter cost, guest ns | per call | share of the BPF_PROG_LOAD calls |"
				print "|---|---:|---:|---:|---:|---:|---:|"
			}
			stats("patched" SUBSEP s SUBSEP "progs")
			ov = cns["patched", s] / ccalls["patched", s] - 4
			cost = fns["patched", s] - fcalls["patched", s] * ov
			printf "| scx_%s | %d | %d | %.0f | %.0f | %.0f | %s |\n", s, fcalls["patched", s], fns["patched", s], \
				ov, cost, cost / fcalls["patched", s], pct(cost / MED)
		}
	}
	if (missing)
		exit 3
}' "$1" "$2"
