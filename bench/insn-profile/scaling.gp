# The instructions saved against the calls of the changed functions, per
# unit of work (bench/scaling.sh), log-log: one point per configuration,
# and the line of the reference's saving per call through the origin.
# gnuplot -e "datafile='scaling.dat'; outfile='scaling.svg'; slope=5.2" scaling.gp
# Data: one block per configuration (blocks two blank lines apart), each a
# header line with its label, then "label<TAB>calls_per_unit<TAB>saved_per_unit".
set terminal svg size 800,520 dynamic font "sans,12" background rgb "white"
set output outfile
set datafile separator "\t"
set title "sched_ext kfunc masks: instructions saved against calls of the changed functions\n(scx_simple, QEMU -icount, TCG plugin counts, 1 vCPU)" noenhanced
set xlabel "calls of the functions the series changes, per unit (pipe round trip or message)"
set ylabel "instructions saved per unit (baseline - patched)"
set logscale xy
set xrange [0.1:100]
set yrange [0.5:500]
set grid
set key top left noenhanced
plot slope * x title sprintf("%.2f per call (the 1-vCPU pipe's figure)", slope) lt 2, \
     for [i=0:*] datafile index i using 2:3 with points pt (5 + 2 * i) ps 1.6 title columnheader(1)
