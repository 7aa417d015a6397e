#!/usr/bin/env bash
# Install the host packages the pipeline needs, and nothing more.
# Runs `apt-get update` at most once and only when something is missing, so a
# warm machine pays nothing and a fresh CI machine gets a clear error if apt
# cannot deliver.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# package  -> why we need it
PACKAGES=(
	linux-source-6.12   # the kernel tarball we patch
	clang-19 llvm-19 lld-19  # LLVM=-19 kernel build and BPF objects
	dwarves             # pahole, for CONFIG_DEBUG_INFO_BTF
	gcc make bc flex bison libssl-dev libelf-dev  # kernel build host tools
	zlib1g-dev libzstd-dev pkg-config  # libbpf / selftests / bpftool
	cpio zstd xz-utils git  # tarball extraction, series application
	patch               # selftests/sched-load/tool-fixes on the copied tools/
	ccache              # shared objects across variants and rebuilds
	python3             # kernel scripts
	python3-ply python3-git  # checkpatch.pl's SPDX check (make check-series)
	qemu-system-x86     # the guest
	busybox-static      # the guest's userspace
	gnuplot-nox         # make bench's plot
	shellcheck          # scripts/shellcheck.sh, the shell lint gate (make check)
)

missing=()
for p in "${PACKAGES[@]}"; do
	if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) != *'install ok installed'* ]]; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -eq 0 ]; then
	log "host packages: all present"
	exit 0
fi

log "host packages missing: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "need root to install: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})"

export DEBIAN_FRONTEND=noninteractive
apt-get update ||
	die "apt-get update failed; check network/apt sources, then install by hand: apt-get install -y ${missing[*]}"
apt-get install -y --no-install-recommends "${missing[@]}" ||
	die "apt-get install failed for: ${missing[*]} (see apt output above)"
log "host packages: installed ${missing[*]}"
