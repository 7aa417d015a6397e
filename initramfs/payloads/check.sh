#!/bin/sh
# The "check" payload: run every guest suite, then the project's own guest
# tests (/selftests/run-guest.sh and /sched-load/run-guest.sh, if packed),
# and finish with a clean copy of all result lines for the host.
#
# Result lines go to the console as they happen (for humans), and are also
# collected; at the end they are repeated between SCX-RESULTS-BEGIN/END with
# kernel console messages held back, so a kernel message interleaved with
# a result line cannot corrupt what the host counts.
set -o pipefail
out=/tmp/scx-results.out
: >"$out"
rc=0

wanted() {
	[ -z "${SCX_SUITES:-}" ] && return 0
	for w in $(echo "$SCX_SUITES" | tr ',' ' '); do
		case "$1" in *"$w"*) return 0 ;; esac
	done
	return 1
}

run_suite() {
	name=$1
	shift
	wanted "$name" || return 0
	echo "# suite: $name"
	# Only stdout is collected; suites send raw tool output to stderr.
	if ! "$@" | tee -a "$out"; then
		echo "# suite $name failed"
		rc=1
	fi
}

for s in /scx/suites/*.sh; do
	[ -e "$s" ] || continue
	run_suite "$(basename "$s" .sh)" sh "$s"
done
# A suite that was wanted but not packed is a failure, not a silent skip:
# a payload build that lost it must not look like a shorter green run.
missing() {
	wanted "$1" || return 0
	run_suite "$1" echo "not ok 1 $1 # $2 is not in the initramfs (payload build lost it: rebuild with make payload)"
	rc=1
}
# The project's tests want the kernel kind (patched|baseline).
if [ -x /selftests/run-guest.sh ]; then
	run_suite selftests /selftests/run-guest.sh "$(cat /scx/variant 2>/dev/null || echo patched)" \
		"${SCX_FAMILIES:-}"
else
	missing selftests /selftests/run-guest.sh
fi
# The real schedulers under load, last (the longest); scx.sched_load= on
# the kernel command line picks quick (default) or full, off skips it;
# scx.sched_load_only=<awk regexp> runs only the matching runs.
sched_load=quick
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	scx.sched_load=*) sched_load=${arg#scx.sched_load=} ;;
	scx.sched_load_only=*) export ONLY="${arg#scx.sched_load_only=}" ;;
	esac
done
if [ "$sched_load" = off ]; then
	case "sched-load" in
	*"${SCX_T:-}"*) run_suite sched-load echo "ok 1 sched-load # SKIP scx.sched_load=off" ;;
	esac
elif [ -x /sched-load/run-guest.sh ]; then
	run_suite sched-load /sched-load/run-guest.sh \
		"$(cat /scx/variant 2>/dev/null || echo patched)" "$sched_load"
else
	missing sched-load /sched-load/run-guest.sh
fi

loglevel=$(cut -f1 /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
echo "SCX-RESULTS-BEGIN"
grep -E '^(not )?ok [0-9]+ ' "$out"
echo "SCX-RESULTS-END"
echo "$loglevel" >/proc/sys/kernel/printk
exit "$rc"
