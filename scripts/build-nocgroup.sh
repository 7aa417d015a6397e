#!/usr/bin/env bash
# make build-nocgroup: build (never boot) kernel variants without
# CONFIG_CGROUP_SCHED, so without EXT_GROUP_SCHED, and fail on any compiler
# warning the reference variant (the first, the baseline) does not have.
# The series' code under #ifdef CONFIG_EXT_GROUP_SCHED is only compiled out
# in such a build; nothing else in make check builds one.
#
# Warnings are compared without line and column numbers: the series moves
# lines of the files it touches. Builds are cached like any other, and
# ccache replays a cached object's warnings, so a cached build is judged
# the same as a fresh one.
#
# Usage: build-nocgroup.sh REF=SERIES NAME=SERIES[+SERIES...]...
#   SERIES: a series file or none; '+' joins a core and a follow-up
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib.sh"
. "$here/ktap-write.sh"

[ $# -ge 2 ] || die "usage: $0 REF=SERIES NAME=SERIES[+SERIES...]..."
frags=("$top/kconfig-fragments/base.config" "$top/kconfig-fragments/no-cgroup-sched.config")
tarball=$("$here/kernel-source.sh")

# build NAME SPEC: the build tree's path, or nothing if the build failed
build() {
	local name=$1 sfile series
	IFS=+ read -ra series <<<"$2"
	if [ "${#series[@]}" -gt 1 ]; then
		sfile=$("$here/variant-series.sh" "$name" "${series[@]}")
	else
		sfile=${series[0]}
	fi
	KERNEL_TARBALL=$tarball "$here/build-kernel.sh" "$name-nocgroup" "$sfile" "${frags[@]}" | tail -1
}
# warnings DIR: the build's compiler warnings, "file: warning: text"
warnings() {
	grep -E '^[^ :]+:[0-9]+:[0-9]+: warning: ' "$1/.scx-build.log" |
		sed -E 's/^([^ :]+):[0-9]+:[0-9]+: /\1: /' | sort -u || true
}

kt_header
kt_plan $#
# The reference's warnings, read once; ref_name says whether it is set.
ref_name='' ref_warnings=''
for spec in "$@"; do
	name=${spec%%=*}
	if ! dir=$(build "$name" "${spec#*=}") || [ -z "$dir" ]; then
		kt_not_ok "build-nocgroup:$name" "the build failed (see the log above)"
		continue
	fi
	# Judge the config the build used, not the fragment's intent.
	cfg=$(grep -E '^CONFIG_(CGROUP_SCHED|EXT_GROUP_SCHED|SCHED_CLASS_EXT)=' "$dir/.config" | paste -sd' ' -)
	all=$(warnings "$dir")
	if [ "$cfg" != "CONFIG_SCHED_CLASS_EXT=y" ]; then
		kt_not_ok "build-nocgroup:$name" "unexpected config: $cfg"
		continue
	fi
	if [ -z "$ref_name" ]; then
		ref_name=$name ref_warnings=$all
		kt_ok "build-nocgroup:$name" "the reference: $(grep -c . <<<"$all" || true) warning(s) ($dir)"
		continue
	fi
	new=$(comm -23 <(echo "$all") <(echo "$ref_warnings"))
	if [ -n "$new" ]; then
		kt_not_ok "build-nocgroup:$name" "$(wc -l <<<"$new") warning(s) the reference has not, log: $dir/.scx-build.log"
		kt_diag "$new"
	else
		kt_ok "build-nocgroup:$name" "no new warning ($dir)"
	fi
done
kt_totals
