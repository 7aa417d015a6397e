# shellcheck shell=bash
# How every stage invokes the kernel's build system; sourced, not executed.
# Part of the build key: changing anything here rebuilds the kernels.
#
# One definition so that config and build use the same compiler string (a
# different CC would make kconfig re-run and silently change the config).

# ccache shared by all variants and rebuilds. BASEDIR + NOHASHDIR make
# objects from different build trees (one per variant and key) hit the same
# cache entries: paths are rewritten relative, and the working directory
# (recorded in DWARF comp_dir only) is not hashed.
# shellcheck disable=SC2153 # CACHE_DIR is lib.sh's, sourced before this file
export CCACHE_DIR="$CACHE_DIR/ccache"
export CCACHE_BASEDIR="$CACHE_DIR/build"
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
# Worktree checkouts and generated headers have fresh mtimes; content is
# what matters.
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros

# Stable build metadata, so identical inputs give identical objects.
export KBUILD_BUILD_USER=scx-kfilter KBUILD_BUILD_HOST=qemu
# A fixed timestamp also makes scripts/Makefile.btf drop pahole's -j
# (pahole < 1.27: parallel encoding orders the BTF types differently on
# every link), so two kernels of nearly the same source get nearly the same
# BTF ids; libbpf's kfunc lookups scan by id, and the load-time benchmark
# measured that scan (bench/btf-repro.sh shows it).
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'

# kmake TREE ARGS...: the kernel's make, on LLVM, ccache'd, at low priority
# (the 2 cores are shared with other people).
kmake() {
	local tree=$1
	shift
	nice -n 10 make -C "$tree" -j"$(nproc)" \
		LLVM="$LLVM_SUFFIX" \
		CC="ccache clang$LLVM_SUFFIX" HOSTCC="ccache clang$LLVM_SUFFIX" \
		"$@"
}
