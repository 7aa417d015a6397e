#!/usr/bin/env bash
# `make NAME-one` (a reproduction of a 6.12 bug, one boot) on each kernel of
# KERNELS: one KTAP document per kernel (a "N passed, N failed" line added),
# nested into one on stdout; exits 0 only if every kernel's run passed, 2 on
# an unknown kernel.
#
# The Makefile passes MAKE, CHECK_KERNELS and CHECK_VARIANTS in the
# environment (as for scripts/check.sh).
#
# Usage: scripts/repro-each-kernel.sh NAME   (repro-cgroup-move, repro-sleepable-timer)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ktap-read.sh"
. "$here/ktap-write.sh"
[ $# -eq 1 ] || { echo "usage: $0 NAME" >&2 && exit 2; }
name=$1
: "${MAKE:?}" "${CHECK_KERNELS:?}" "${CHECK_VARIANTS:?}"

rc=0
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
docs=()
for k in $CHECK_KERNELS; do
	case " $CHECK_VARIANTS " in
	*" $k "*) ;;
	*) echo "ERROR: KERNELS: unknown kernel '$k' ($CHECK_VARIANTS)" >&2 && exit 2 ;;
	esac
	echo "==> $name: $k kernel" >&2
	"$MAKE" --no-print-directory "$name-one" V="$k" BASELINE= >"$d/$k.ktap" || rc=1
	read -r p f s < <(kt_count_results "$d/$k.ktap")
	# a run that reported nothing did not pass
	[ $((p + f + s)) -gt 0 ] || f=1
	kt_summary "$p" "$f" "$s" >>"$d/$k.ktap"
	docs+=("$k=$d/$k.ktap")
done
"$here/ktap-nest.sh" "${docs[@]}" >"$d/all.ktap" || rc=1
cat "$d/all.ktap"
[ "$rc" -eq 0 ] && case "$(tail -n 1 "$d/all.ktap")" in *" 0 failed"*) ;; *) false ;; esac
