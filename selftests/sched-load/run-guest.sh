#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh <variant> [quick|full]
#
# Runs in the QEMU guest under busybox sh, from the directory build.sh made
# (bin/, runs.list, log-patterns, splat-patterns).  Needs /proc, /sys, cgroup2 on
# /sys/fs/cgroup, devtmpfs (/dev/kmsg) and root.
#
# For every line of runs.list that applies to the mode (and a default run
# for any bin/scx_* the list does not name), prints one TAP line
#
#   ok <n> sched:<name>        or        not ok <n> sched:<name>
#
# (control:<name> for a run that starts no scheduler: loadgen alone, the
# hotplug cycle without a scheduler; the reference, not a scheduler run)
#
# preceded by '# ' diagnostics with the measured numbers (enabled, seconds,
# loadgen's total and smallest work count, errors), then a summary
# "# sched-load: ..." line.  Exit status 0 if nothing failed.
#
# A run whose checks all pass but whose kernel log holds a known splat
# (known-splats: the project's scripts/known-splats.txt) is reported as
# "ok <n> sched:<name> # SKIP known splat: <why>", never as a pass; any
# other splat fails it.
#
# quick: loadgen runs 5 s per run, 20 reloads, one hotplug cycle.
# full:  20 s per run, 50 reloads, three hotplug cycles, more options.
# SECS, RELOADS, HOTPLUG_CYCLES and LOGDIR in the environment override;
# EXCLUDE=<awk regexp> leaves the matching names out; SCX_T=<pattern>
# (make check T=, initramfs/t-glob.sh) runs only the runs whose
# "sched:<name>" (or "control:<name>") it selects, e.g. SCX_T='sched:H-*'.
#
# Every wait is bounded: a scheduler that does not enable, does not stop or
# hangs is killed and reported, and the whole script finishes.

# shellcheck disable=SC3043 # busybox ash, the only shell that runs this, has local
set -u

cd "$(dirname "$0")" || exit 2
HERE=$(pwd)
VARIANT=${1:-unknown}
MODE=${2:-quick}
case "$MODE" in
quick)	SECS=${SECS:-5}; RELOADS=${RELOADS:-20}; HOTPLUG_CYCLES=${HOTPLUG_CYCLES:-1} ;;
full)	SECS=${SECS:-20}; RELOADS=${RELOADS:-50}; HOTPLUG_CYCLES=${HOTPLUG_CYCLES:-3} ;;
*)	echo "usage: $0 <variant> [quick|full]" >&2; exit 2 ;;
esac

PATH=$HERE/bin:$PATH
export PATH
SCX=/sys/kernel/sched_ext
CPU1=/sys/devices/system/cpu/cpu1/online
LOGDIR=${LOGDIR:-/tmp/sched-load}
LG_ARGS="-n 12 -k spin,yield,sleep,pipe,fork,rt -N -c 3 -M"
# A lockdep + KASAN kernel (make check DEBUG=1: /proc/lockdep exists)
# took 20-31 s to verify and enable scx_qmap under TCG, and over 60 s on a
# busier host: the bounded waits below get 4 times as long there.
SLOW=1
[ -e /proc/lockdep ] && SLOW=4
ENABLE_TIMEOUT=$((60 * SLOW))	# s: BPF load, verification and enable under TCG
STOP_TIMEOUT=$((20 * SLOW))	# s: SIGINT until the process is gone / state disabled
ERROR_TIMEOUT=$((90 * SLOW))	# s: error runs, until the kernel ejects the scheduler
LG_CAP=$((SECS + 60 * SLOW))	# s: hard cap on a timed loadgen (it stops itself)
SCHED_CAP=1800		# s: hard cap on any scheduler process

mkdir -p "$LOGDIR" || exit 2
N=0 PASS=0 FAIL=0 SKIP=0
T_START=0

# ---- the functions, one file per job (lib/) ---------------------------------

# The guest's KTAP writer and T= (SCX_T) matcher, packed in lib/ by build.sh
KTAP_DIR=$HERE/lib
# shellcheck source=../../initramfs/ktap.sh # build.sh packs it in lib/
. "$KTAP_DIR/ktap.sh"
# shellcheck source=lib/util.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/util.sh"
# shellcheck source=lib/results.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/results.sh"
# shellcheck source=lib/loadgen-ctl.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/loadgen-ctl.sh"
# shellcheck source=lib/sched-ctl.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/sched-ctl.sh"
# shellcheck source=lib/runs.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/runs.sh"
# shellcheck source=lib/hotplug.sh # build.sh packs lib/ next to run-guest.sh
. "$HERE/lib/hotplug.sh"

# ---- main -------------------------------------------------------------------

# runs.list without comments and blank lines, plus a default run for each
# scheduler binary the list does not name
build_plan() {
	local b s
	grep -v '^[[:space:]]*#' runs.list | grep -v '^[[:space:]]*$' > "$LOGDIR/plan"
	for b in bin/scx_*; do
		[ -x "$b" ] || continue
		s=${b#bin/}
		grep -q "[[:space:]]$s\([[:space:]]\|\$\)" "$LOGDIR/plan" ||
			echo "run | $s | quick full | - | - | $s" >> "$LOGDIR/plan"
	done
	awk -F'|' -v m="$MODE" -v excl="${EXCLUDE:-}" '
		{ n = $2; gsub(/[[:space:]]/, "", n) }
		(" " $3 " ") ~ (" " m " ") && (excl == "" || n !~ excl)' \
		"$LOGDIR/plan" |
		while IFS= read -r l; do
			# kind | name | modes | expect | lgx | cmd, as run_prefix decides
			r=${l#*|}
			t_glob_match "${SCX_T:-}" "$(run_prefix "$(trim "${l%%|*}")" "$(trim "${l##*|}")"):$(trim "${r%%|*}")" &&
				printf '%s\n' "$l"
		done > "$LOGDIR/plan.$MODE"
}

T_START=$(now_cs)
# The host's splat patterns (CODE;KIND;REGEX;ADVICE) but its sched_ext
# stalls, which each run judges against its expectations; then the guest's
# extras (log-patterns).
awk -F';' '!/^#/ && NF >= 3 && $2 != "sched_ext stall" { print $3 }' splat-patterns > "$LOGDIR/splat.re"
sed -n 's/^splat-extra	//p' log-patterns >> "$LOGDIR/splat.re"
build_plan

ktap_plan_count "$(wc -l < "$LOGDIR/plan.$MODE")"
echo "# sched-load: variant=$VARIANT mode=$MODE secs=$SECS reloads=$RELOADS hotplug_cycles=$HOTPLUG_CYCLES kernel=$(uname -r) cpus=$(nproc) online=$(rd /sys/devices/system/cpu/online) timeouts=x$SLOW enable=${ENABLE_TIMEOUT}s"
# shellcheck disable=SC2012 # bin/ holds only our scx_* builds: plain names, and ls gives "" for none
echo "# sched-load: schedulers: $(cd bin && ls scx_* 2>/dev/null | tr '\n' ' ')"

if [ ! -e $SCX/state ]; then
	echo "# sched-load: $SCX/state missing: kernel without CONFIG_SCHED_CLASS_EXT"
fi
if [ "$(nproc)" -lt 2 ]; then
	echo "# sched-load: WARNING: only $(nproc) CPU online; the runs expect 2 (QEMU -smp 2,sockets=2 for a kernel without ACPI)"
fi

while IFS="|" read -r kind name _modes expect lgx cmd <&3; do
	kind=$(trim "$kind") name=$(trim "$name") expect=$(trim "$expect")
	lgx=$(trim "$lgx") cmd=$(trim "$cmd")
	[ "$lgx" = - ] && lgx=
	# a run that starts no scheduler is a control (run_prefix): reported
	# as control:NAME, not counted as a scheduler run
	begin_run "$name" "$(run_prefix "$kind" "$cmd")"
	parse_expect "$kind" "$expect"
	EXIT_LINE='' STOP_S='' EJECT_S='' KILL_S='' LG_TOTAL='' LG_MIN='' LG_SECS='' end_skip=''
	if [ ! -e $SCX/state ]; then
		err "no $SCX: the kernel lacks sched_ext"
		end_run
		continue
	fi
	# shellcheck disable=SC2086 # cmd is the runs.list column of arguments: split on purpose
	case "$kind" in
	none)		do_none "$lgx" ;;
	run)		do_run "$lgx" $cmd ;;
	error)		do_error "$lgx" $cmd ;;
	reload)		do_reload "$lgx" $cmd ;;
	kill)		do_kill "$lgx" $cmd ;;
	hotplug)	do_hotplug "$lgx" $cmd ;;
	*)		err "runs.list: unknown kind '$kind'" ;;
	esac
	if [ -n "$end_skip" ]; then
		end_run "$end_skip"
	else
		end_run
	fi
done 3< "$LOGDIR/plan.$MODE"

echo "# sched-load: variant=$VARIANT mode=$MODE pass=$PASS fail=$FAIL skip=$SKIP runs=$N secs=$(since "$T_START")${LOCKDEP_OFF:+ lockdep_off_runs=$LOCKDEP_OFF}"
echo "# sched-load: ${SCHED_RUNS:-0} scheduler runs + ${CONTROLS:-0} controls"
[ "$FAIL" -eq 0 ]
