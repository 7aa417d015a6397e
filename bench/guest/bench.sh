#!/bin/sh
# The "bench" guest payload (installed as /scx/payloads/bench.sh, run by
# /init with scx.payload=bench). Runs every workload under every scheduler
# and the scheduler load-time measurement, one process per repetition.
#
# Knobs on the kernel command line (the host's bench/run.sh sets them):
#   bench.reps=N            timed repetitions per pipe and load-time cell
#                           (default 5), after one untimed warm-up run
#   bench.msg_reps=N        the same for messaging cells (default 11)
#   bench.scheds=A,B        fair,simple,qmap,flatcg (fair = no BPF scheduler)
#   bench.workloads=A,B     pipe,messaging,perf-pipe,perf-messaging (the
#                           perf- ones: the tree's perf bench sched, with
#                           pipe's round trips and bench.perf_msg below)
#   bench.perf_msg=G,L      perf bench sched messaging -g G -l L (default
#                           4,500: about 2.6 guest seconds a run)
#   bench.pipe=N            pipe-pingpong round trips (default 50000)
#   bench.msg=G,S,R,L,K     messaging groups,senders,receivers,loops,rounds
#                           (default 4,10,10,25,80: one run = 80 rounds)
#   bench.msg_rounds=S:K,.. rounds per messaging run for scheduler S,
#                           instead of K above (e.g. fair:240: the fair
#                           class's rounds vary more, see docs/benchmark.md)
#   bench.load_iters=N      loads per load-time measurement, reported as
#                           the mean (default 1; with 10, scx_simple's
#                           means were bimodal from process to process)
#   bench.load=0            skip the load-time measurement
#   bench.restart=A,B       workloads whose every run (warm-up included)
#                           gets a freshly started BPF scheduler (default
#                           messaging,perf-messaging; none: start it once
#                           per scheduler)
#   bench.settle=SECS       idle time before every run (default 1): lets the
#                           previous run's deferred work (RCU callbacks,
#                           kworkers freeing its tasks, BPF objects) finish
#                           outside the timed window. Idle guest time is
#                           nearly free under -icount sleep=off.
#
# Output (console): progress lines "BENCH-PROGRESS ..." while running, then
# every number once more between BENCH-RESULTS-BEGIN/END with console
# printk held back, so kernel messages cannot break a result line:
#   run <workload> <sched> <rep> <ns_per_op> <total_ns> <ops> <ctx_switches>
#   load <sched> <rep> <load_ns> <prog_ns> <verify_us> <insns> <progs>
#   rounds <workload> <sched> <rep> <ns>/<ctx_switches>...  (one per round)
#   filter <sched> <calls> <traced_ns> <calib_calls> <calib_ns>
#   filter <sched> absent            (no kfunc filter in this kernel)
# Exit status: 0, or 1 if anything failed (a scheduler did not enable or
# was ejected, a benchmark failed or printed no number).
PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export PATH

reps=5 msg_reps=11 scheds=fair,simple,qmap,flatcg workloads=pipe,messaging restart=messaging,perf-messaging
pipe_loops=50000 msg_args=4,10,10,25,80 do_load=1 settle=1 msg_rounds='' load_iters=1 perf_msg=4,500
# shellcheck disable=SC2013 # /proc/cmdline is one line of blank-separated words
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	bench.reps=*) reps=${arg#*=} ;;
	bench.msg_reps=*) msg_reps=${arg#*=} ;;
	bench.restart=*) restart=${arg#*=} ;;
	bench.scheds=*) scheds=${arg#*=} ;;
	bench.workloads=*) workloads=${arg#*=} ;;
	bench.pipe=*) pipe_loops=${arg#*=} ;;
	bench.msg=*) msg_args=${arg#*=} ;;
	bench.msg_rounds=*) msg_rounds=${arg#*=} ;;
	bench.perf_msg=*) perf_msg=${arg#*=} ;;
	bench.load_iters=*) load_iters=${arg#*=} ;;
	bench.load=*) do_load=${arg#*=} ;;
	bench.settle=*) settle=${arg#*=} ;;
	esac
done

out=/tmp/bench-results.txt
: >"$out"
rc=0
state_file=/sys/kernel/sched_ext/state
sched_pid=
quiet=

fail() {
	echo "BENCH-ERROR $*"
	rc=1
}

scx_state() { cat "$state_file" 2>/dev/null || echo missing; }

# wait_state WANT: poll the sched_ext state for up to ~60 guest seconds.
wait_state() {
	i=0
	while [ "$(scx_state)" != "$1" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || return 1
		sleep 0.1
	done
	return 0
}

# Start scx_NAME in the background, wait for it to be enabled, then stop
# (SIGSTOP) its user-space loop: the BPF scheduler keeps scheduling, but
# the once-a-second statistics printout no longer lands inside a timed run.
start_sched() {
	[ "$1" = fair ] && return 0
	if [ "$(scx_state)" != disabled ]; then
		fail "sched_ext state is '$(scx_state)' before starting scx_$1"
		return 1
	fi
	"/usr/bin/scx_$1" >"/tmp/scx_$1.log" 2>&1 &
	sched_pid=$!
	if ! wait_state enabled; then
		fail "scx_$1 did not enable (state '$(scx_state)'); its output:"
		sed 's/^/# /' "/tmp/scx_$1.log"
		kill -INT "$sched_pid" 2>/dev/null
		wait "$sched_pid"
		sched_pid=
		return 1
	fi
	ops=$(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)
	[ -n "$quiet" ] || echo "BENCH-PROGRESS scheduler scx_$1 enabled (ops '$ops')"
	kill -STOP "$sched_pid"
	return 0
}

stop_sched() {
	[ "$1" = fair ] && return 0
	[ -n "$sched_pid" ] || return 1
	kill -CONT "$sched_pid"
	kill -INT "$sched_pid"
	wait "$sched_pid"
	sched_pid=
	if ! wait_state disabled; then
		fail "scx_$1 did not disable (state '$(scx_state)')"
		return 1
	fi
	[ -n "$quiet" ] || echo "BENCH-PROGRESS scheduler scx_$1 stopped: $(tail -n 1 "/tmp/scx_$1.log")"
}

# fresh_sched W S: before a run of workload W under S, restart S if W is
# one of bench.restart. A BPF scheduler's own state carries over from run to
# run and steers the order in which 80 runnable tasks go: scx_simple's
# global vtime and the long-lived tasks' vtimes made its messaging cost
# cycle over 3 runs within 2.3%; with a restart before every run, within
# 0.14-0.44% (scx_qmap: 0.012-0.024%). Pipe ping-pong has one runnable task at a time and no
# order to steer.
fresh_sched() {
	[ "$2" != fair ] || return 0
	case ",$restart," in *",$1,"*) ;; *) return 0 ;; esac
	quiet=1
	stop_sched "$2" && start_sched "$2"
	st=$?
	quiet=
	return $st
}

# The state a cell must run in: enabled under a BPF scheduler, disabled
# under the fair class.
expect_state() {
	if [ "$1" = fair ]; then want=disabled; else want=enabled; fi
	[ "$(scx_state)" = "$want" ] && return 0
	fail "sched_ext state '$(scx_state)' during a $1 run, expected '$want'"
	return 1
}

# workload_cmd W S: the command line of workload W under scheduler S
workload_cmd() {
	case "$1" in
	pipe) echo "/usr/bin/pipe-pingpong $pipe_loops" ;;
	messaging)
		k=$(echo "$msg_rounds" | tr ',' '\n' | sed -n "s/^$2://p" | tail -n 1)
		# shellcheck disable=SC2046 # msg_args: comma-separated numbers, one word each
		set -- $(echo "$msg_args" | tr ',' ' ')
		echo "/usr/bin/messaging $1 $2 $3 $4 ${k:-$5}"
		;;
	perf-pipe) echo "/usr/bin/perf-bench.sh pipe $pipe_loops" ;;
	perf-messaging) echo "/usr/bin/perf-bench.sh messaging $(echo "$perf_msg" | tr ',' ' ')" ;;
	esac
}

run_cell() {
	w=$1 s=$2
	cmd=$(workload_cmd "$w" "$s")
	if [ -z "$cmd" ]; then
		fail "unknown workload '$w'"
		return 1
	fi
	# Warm-up: first-touch page faults, slab growth and the like; run
	# exactly as the timed runs are (output captured by the shell).
	fresh_sched "$w" "$s" || return 1
	sleep "$settle"
	line=$($cmd) || { fail "$w under $s: warm-up run failed"; return 1; }
	n=$reps
	case "$w" in *messaging) n=$msg_reps ;; esac
	vals=
	r=1
	while [ $r -le "$n" ]; do
		fresh_sched "$w" "$s" || return 1
		sleep "$settle"
		line=$($cmd 2>/tmp/bench-stderr)
		st=$?
		# shellcheck disable=SC2086 # the result line's fields, one word each
		set -- $line
		if [ $st -ne 0 ] || [ $# -ne 4 ]; then
			fail "$w under $s, rep $r: status $st, output '$line'"
			cat /tmp/bench-stderr
			return 1
		fi
		expect_state "$s" || return 1
		echo "run $w $s $r $1 $2 $3 $4" >>"$out"
		# messaging's per-round ns/ctx switches, kept with the results.
		sed -n "s/^messaging-rounds: /rounds $w $s $r /p" /tmp/bench-stderr >>"$out"
		vals="$vals $1"
		r=$((r + 1))
	done
	echo "BENCH-PROGRESS cell $w $s:$vals"
}

load_cell() {
	s=$1
	sleep "$settle"
	/usr/bin/scx-load-time "$s" "$load_iters" >/dev/null || { fail "load-time $s: warm-up failed"; return 1; }
	vals=
	r=1
	while [ $r -le "$reps" ]; do
		sleep "$settle"
		line=$(/usr/bin/scx-load-time "$s" "$load_iters")
		st=$?
		# shellcheck disable=SC2086 # the result line's fields, one word each
		set -- $line
		if [ $st -ne 0 ] || [ $# -ne 5 ]; then
			fail "load-time $s, rep $r: status $st, output '$line'"
			return 1
		fi
		echo "load $s $r $1 $2 $3 $4 $5" >>"$out"
		vals="$vals $1/$2/$3/$4"
		r=$((r + 1))
	done
	echo "BENCH-PROGRESS load $s (load_ns/prog_ns/verify_us/insns):$vals"
}

# filter_cell S: what the kfunc filter itself costs during one load of S.
# function_graph traces scx_kfunc_context_filter() and, to calibrate, the
# 4-instruction bpf_jit_supports_kfunc_call() (the verifier calls it once
# per kfunc call instruction): per function the number of calls and the
# sum of their durations in guest ns, i.e. instructions under -icount
# shift=0, the tracer's own entry and exit included. The calibration
# function's duration per call is that tracer overhead (plus 4). Untimed,
# after every timed cell: tracing perturbs the load. A kernel without the
# filter (the baseline) reports "absent".
filter_cell() {
	s=$1 t=/sys/kernel/tracing fn=scx_kfunc_context_filter cal=bpf_jit_supports_kfunc_call
	if ! grep -qx "$fn" "$t/available_filter_functions" 2>/dev/null; then
		echo "filter $s absent" >>"$out"
		return 0
	fi
	if ! grep -qx "$cal" "$t/available_filter_functions"; then
		fail "filter $s: $cal is not traceable, nothing to calibrate the tracer with"
		return 1
	fi
	echo 0 >"$t/tracing_on"
	echo nop >"$t/current_tracer"
	echo 8192 >"$t/buffer_size_kb"
	echo "$fn" >"$t/set_ftrace_filter"
	echo "$cal" >>"$t/set_ftrace_filter"
	echo function_graph >"$t/current_tracer"
	echo >"$t/trace"
	sleep "$settle"
	echo 1 >"$t/tracing_on"
	/usr/bin/scx-load-time "$s" 1 >/dev/null
	st=$?
	echo 0 >"$t/tracing_on"
	lost=$(awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }' "$t/per_cpu/cpu0/stats")
	line=$(awk -v fn="$fn();" -v cal="$cal();" '
		function dur(    i) { for (i = 2; i <= NF; i++) if ($i == "us") return $(i - 1) * 1000; return -1 }
		index($0, fn) { d = dur(); if (d >= 0) { ns += d; n++ } }
		index($0, cal) { d = dur(); if (d >= 0) { cns += d; cn++ } }
		END { printf "%d %.0f %d %.0f", n, ns, cn, cns }' "$t/trace")
	echo nop >"$t/current_tracer"
	echo >"$t/set_ftrace_filter"
	echo >"$t/trace"
	echo 1 >"$t/tracing_on"
	# shellcheck disable=SC2086 # the spec's fields, one word each
	set -- $line
	if [ $st -ne 0 ] || [ "$lost" != 0 ] || [ "$1" = 0 ] || [ "$3" = 0 ]; then
		fail "filter $s: load status $st, $lost trace events lost, calls/ns '$line'"
		return 1
	fi
	echo "filter $s $line" >>"$out"
	echo "BENCH-PROGRESS filter $s: $1 calls of $fn, $2 guest ns traced; $3 calls of $cal, $4 ns"
}

# Fewer sources of run-to-run variation: no address-space randomisation;
# no vmstat_update/vmstat_shepherd kworker runs once a second (a timed
# messaging run is 30 guest ms); and start only once the kernel has switched
# from tsc-early to the refined tsc clocksource (1.4 s after boot, with a
# console message), not in the middle of the first cell.
echo 0 >/proc/sys/kernel/randomize_va_space
echo 3600 >/proc/sys/vm/stat_interval
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
i=0
while [ "$(cat "$cs" 2>/dev/null)" = tsc-early ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "BENCH-PROGRESS start: kernel $(uname -r) ($(cat /scx/variant 2>/dev/null)), $(nproc) CPU(s)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
	"reps $reps (messaging $msg_reps), pipe $pipe_loops, messaging $msg_args${msg_rounds:+ (rounds $msg_rounds)}, perf messaging $perf_msg, $load_iters loads per load-time rep, restart for $restart"

for s in $(echo "$scheds" | tr ',' ' '); do
	start_sched "$s" || continue
	for w in $(echo "$workloads" | tr ',' ' '); do
		run_cell "$w" "$s"
	done
	stop_sched "$s"
done

if [ "$do_load" != 0 ]; then
	for s in $(echo "$scheds" | tr ',' ' '); do
		[ "$s" = fair ] && continue
		load_cell "$s"
	done
	for s in $(echo "$scheds" | tr ',' ' '); do
		[ "$s" = fair ] && continue
		filter_cell "$s"
	done
fi

loglevel=$(cut -f1 /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
echo "BENCH-RESULTS-BEGIN"
cat "$out"
echo "BENCH-RESULTS-END"
echo "$loglevel" >/proc/sys/kernel/printk
exit "$rc"
