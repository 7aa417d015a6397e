#!/usr/bin/env bash
# Boot the kernel with the project's initramfs, run one shell command in
# the guest, and exit with that command's own status: 125 when the guest
# never finished it (build failure, panic, hang). `make run` cannot do
# that, as make turns every failed recipe into its own exit 2.
#
# Usage:
#   scripts/run.sh [VAR=value...] CMD   make run CMD=CMD VAR=value..., then
#                                       the status from its console log
#   scripts/run.sh --from-log LOG       only that status, from a console log
#   scripts/run.sh --boot ARGS...       make run's recipe (see boot below)
# The guest's /init prints "SCX-GUEST-EXIT: N" after the command; the last
# such line is the status.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	echo "usage: $0 [VAR=value...] CMD | --from-log LOG" >&2
	exit 2
}

# guest_status LOG: the guest command's status, or nothing if it never
# finished (console lines end in \r).
guest_status() {
	[ -f "$1" ] || return 0
	tr -d '\r' <"$1" | sed -n 's/^SCX-GUEST-EXIT: \([0-9][0-9]*\)$/\1/p' | tail -n 1
}

# report LOG WHY: say what the guest command did and exit with its status.
report() {
	local st
	st=$(guest_status "$1")
	if [ -z "$st" ]; then
		echo "ERROR: the guest never finished the command ($2); console: $1" >&2
		exit 125
	fi
	echo "# guest command exited $st; console: $1" >&2
	exit "$st"
}

# boot KERNEL INITRD LOG TIMEOUT APPEND [QEMU_ARG...]: the run itself, for
# make run's recipe, which has built the initramfs; CMD from the
# environment. Writes LOG's path to $SCX_RUN_LOG_PATH if that is set, so
# the wrapper below finds the console log make chose.
boot() {
	[ $# -ge 5 ] || usage
	local kernel=$1 initrd=$2 log=$3 timeout=$4 append=$5 c rc=0
	shift 5
	# The command travels on the kernel command line, base64 so that
	# blanks and quotes survive; the line has a length limit.
	c=$(printf '%s' "${CMD:?make run needs CMD}" | base64 -w0)
	if [ ${#c} -gt 1500 ]; then
		echo "ERROR: CMD is too long for the kernel command line (${#c} bytes encoded, 1500 max)" >&2
		exit 2
	fi
	[ -z "${SCX_RUN_LOG_PATH:-}" ] || echo "$log" >"$SCX_RUN_LOG_PATH"
	# A log of an earlier run in the same RUN_DIR must not answer for this one.
	rm -f "$log"
	"$top/run-qemu.sh" --kernel "$kernel" --initrd "$initrd" --log "$log" \
		--timeout "$timeout" --append "scx.payload=run scx.cmd=$c $append" "$@" >&2 || rc=$?
	report "$log" "run-qemu.sh exit $rc"
}

case "${1:-}" in
--from-log)
	[ $# -eq 2 ] || usage
	report "$2" "no SCX-GUEST-EXIT line"
	;;
--boot)
	shift
	boot "$@"
	;;
"" | -*) usage ;;
esac

# The wrapper: every argument but the last is a make variable.
vars=("${@:1:$#-1}")
cmd=${!#}
for v in "${vars[@]}"; do
	[[ $v =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || usage
done
path_file=$(mktemp)
trap 'rm -f "$path_file"' EXIT
rc=0
SCX_RUN_LOG_PATH=$path_file "${MAKE:-make}" -C "$top" --no-print-directory run "${vars[@]}" CMD="$cmd" || rc=$?
log=$(cat "$path_file")
if [ -z "$log" ]; then
	echo "ERROR: make run stopped before the guest booted (make exit $rc)" >&2
	exit 125
fi
# make's recipe has said what the command did; only its status is left.
st=$(guest_status "$log")
exit "${st:-125}"
