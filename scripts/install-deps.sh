#!/usr/bin/env bash
# The host packages the pipeline needs, by group.
#
# Usage:
#   install-deps.sh [GROUP...]          install what is missing (make deps;
#                                       make, the main job, calls it too)
#   install-deps.sh --check [GROUP...]  install nothing: if a package is
#                                       missing, one line naming them and
#                                       `make deps`, exit 1 (every other
#                                       target, for the groups it needs)
# No GROUP: every group. Under CI (CI set and not 0/false/no), --check
# installs what is missing instead: a CI machine has nobody to run make deps.
#
# Installing runs `apt-get update` at most once and only when something is
# missing, so a warm machine pays nothing and a fresh CI machine gets a
# clear error if apt cannot deliver.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# package            groups         why
PACKAGES='
linux-source-6.12    tarball        the kernel tarball we patch (not with KSRC=)
clang-19             build          LLVM=-19 kernel build and BPF objects
llvm-19              build
lld-19               build
dwarves              build          pahole, for CONFIG_DEBUG_INFO_BTF
gcc                  build          kernel build host tools
make                 build
bc                   build
flex                 build
bison                build
libssl-dev           build
libelf-dev           build
zlib1g-dev           build          libbpf / selftests / bpftool
libzstd-dev          build
pkg-config           build
cpio                 build,guest    kheaders, and the initramfs
zstd                 build
xz-utils             build          tarball extraction
git                  build          series application, the cached trees
patch                build          selftests/sched-load/tool-fixes on the copied tools/
ccache               build          shared objects across variants and rebuilds
python3              build          kernel scripts
python3-ply          series         checkpatch.pl SPDX check (make check-series)
python3-git          series
qemu-system-x86      guest          the guest
busybox-static       guest          the guest userspace
gnuplot-nox          bench          make bench plot
shellcheck           lint           scripts/shellcheck.sh, the shell lint gate (make check)
'
GROUPS_KNOWN="tarball build guest series bench lint"

check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
for g in "$@"; do
	[[ " $GROUPS_KNOWN " == *" $g "* ]] || die "install-deps.sh: unknown group '$g' (one of: $GROUPS_KNOWN)"
done

# The packages of the groups asked for (all of them if none).
want=()
while read -r pkg groups _; do
	[ -n "$pkg" ] || continue
	if [ $# -eq 0 ]; then
		want+=("$pkg")
		continue
	fi
	for g in "$@"; do
		if [[ ",$groups," == *",$g,"* ]]; then
			want+=("$pkg")
			break
		fi
	done
done <<<"$PACKAGES"

# One dpkg-query for all of them; a package it does not know is missing.
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${want[@]}" 2>/dev/null |
	awk '/ install ok installed$/ { print $1 }' || true)
missing=()
for p in "${want[@]}"; do
	grep -qxF "$p" <<<"$installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
	[ -n "$check" ] || log "host packages: all present"
	exit 0
fi

ci=${CI:-}
case "$ci" in "" | 0 | false | no) ci= ;; esac
if [ -n "$check" ] && [ -z "$ci" ]; then
	die "missing host packages${1:+ (for: $*)}: ${missing[*]}; install them with: make deps"
fi

log "host packages missing: ${missing[*]}${ci:+ (CI: installing them)}"
[ "$(id -u)" -eq 0 ] || die "need root to install: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})"

export DEBIAN_FRONTEND=noninteractive
apt-get update ||
	die "apt-get update failed; check network/apt sources, then install by hand: apt-get install -y ${missing[*]}"
apt-get install -y --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]} (see apt output above)"
log "host packages: installed ${missing[*]}"
