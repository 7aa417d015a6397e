#!/bin/sh
# The kernel tree's own `perf bench sched` (tools/perf, built static by
# bench/build-perf.sh), run as one of bench.sh's workloads: prints the line
# every workload prints, "NS_PER_OP TOTAL_NS OPS CTX_SWITCHES".
#
#   perf-bench.sh pipe LOOPS          perf bench sched pipe -l LOOPS: an op
#                                     is one round trip (as pipe-pingpong's)
#   perf-bench.sh messaging G L       perf bench sched messaging -g G -l L
#                                     (processes, sockets, 20 senders and 20
#                                     receivers per group): an op is one
#                                     message, G x 20 x 20 x L of them
#
# perf prints the pipe figure in usecs/op with six decimals (1 ps steps)
# and the messaging total in ms: a messaging run must last seconds for
# its ratio to resolve 0.1%. CTX_SWITCHES is /proc/stat's ctxt over the
# whole command (perf's own start-up included).
set -eu
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

c0=$(ctxt)
case "${1:-}" in
pipe)
	[ $# -eq 2 ] || { echo "usage: $0 pipe LOOPS" >&2; exit 2; }
	out=$(perf bench sched pipe -l "$2")
	ops=$2
	# " 9.191884 usecs/op"
	ns=$(echo "$out" | awk '$2 == "usecs/op" { printf "%.3f", $1 * 1000 }')
	total=$(awk -v n="$ns" -v o="$ops" 'BEGIN { printf "%.0f", n * o }')
	;;
messaging)
	[ $# -eq 3 ] || { echo "usage: $0 messaging GROUPS LOOPS" >&2; exit 2; }
	out=$(perf bench sched messaging -g "$2" -l "$3")
	ops=$(($2 * 20 * 20 * $3))
	# " Total time: 1.234 [sec]"
	total=$(echo "$out" | awk '$1 == "Total" && $2 == "time:" { printf "%.0f", $3 * 1e9 }')
	ns=$(awk -v t="$total" -v o="$ops" 'BEGIN { if (t != "") printf "%.3f", t / o }')
	;;
*)
	echo "usage: $0 pipe LOOPS | messaging GROUPS LOOPS" >&2
	exit 2
	;;
esac
c1=$(ctxt)
if [ -z "$ns" ] || [ -z "$total" ]; then
	echo "perf-bench.sh: no figure in perf's output:" >&2
	echo "$out" >&2
	exit 1
fi
echo "$ns $total $ops $((c1 - c0))"
