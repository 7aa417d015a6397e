# The benchmark plot: patched vs baseline per cell, in percent.
# gnuplot -e "datafile='plot.dat'; outfile='results.svg'; subtitle='...'" bench/plot.gp
# (outfile ending in .png: a PNG instead)
# Data: "label" ratio_pct lo_pct hi_pct (bench/summarize.sh); the bar is the
# ratio of the medians, the whiskers the ratio's range over all pairs of
# repetitions (min patched / max baseline .. max patched / min baseline).
if (!exists("subtitle")) subtitle = ""
# haveload=0: no load-time cells (e.g. SCHEDS=fair): the run-time panel only.
if (!exists("haveload")) haveload = 1
# The output's extension picks the terminal: .png (pngcairo) or .svg.
if (outfile[strlen(outfile)-3:] eq ".png") {
	set terminal pngcairo size 1200,560 font "sans,10" background rgb "white"
} else {
	set terminal svg size 1200,560 dynamic font "sans,12" background rgb "white"
}
set output outfile
set multiplot layout 1,(haveload ? 2 : 1) title "sched_ext kfunc masks: patched / baseline - 1, in guest instructions (QEMU -icount shift=0, -smp 1)\n".subtitle noenhanced
set ylabel "patched vs baseline (%); below 0 = patched cheaper"
set grid ytics
set style fill solid 0.6 border -1
set boxwidth 0.6
set xtics noenhanced
set xzeroaxis lt -1
set bmargin 5
set tmargin 5
set datafile separator "\t"
set key top left noenhanced

if (haveload) set size 0.62,1
set title "run time: ns per operation" noenhanced
plot datafile index 0 using 0:2 with boxes lc rgb "#4477aa" title "ratio of medians", \
     '' index 0 using 0:2:3:4:xticlabels(stringcolumn(1)) with yerrorbars lc rgb "black" pt 0 title "range over repetitions"

if (haveload) {
	set size 0.38,1
	set origin 0.62,0
	set title "load time (same BTF type order: docs/benchmark.md)" noenhanced
	unset ylabel
	plot datafile index 1 using 0:2 with boxes lc rgb "#aa7744" notitle, \
	     '' index 1 using 0:2:3:4:xticlabels(stringcolumn(1)) with yerrorbars lc rgb "black" pt 0 notitle
}
unset multiplot
