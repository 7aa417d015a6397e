# shellcheck shell=bash
# Shared helpers, sourced (not executed) by the pipeline scripts.
# Kept tiny on purpose: logging, fatal errors, and the cache location, so
# every stage reports problems the same way and agrees on where things live.

# Messages go to stderr so that stdout stays free for values a caller
# captures (paths, keys).
log() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# One cache for everything that is expensive and independent of the
# checkout (pristine tree, build trees, ccache); the Makefile exports it.
: "${CACHE_DIR:=${HOME}/.cache/scx-kfilter}"
export CACHE_DIR

# payload_dir TREE: where this checkout stages its guest payload built
# against TREE. One per checkout: the tools build in the shared tree (under
# TREE/.scx-payload.lock), but two checkouts sharing a cached kernel must
# never boot each other's tests.
payload_dir() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
	printf '%s/.scx-payload-%s\n' "$1" "$(printf '%s' "$top" | sha1sum | cut -c1-8)"
}

# The kernel is always built with the versioned LLVM toolchain.
: "${LLVM_SUFFIX:=-19}"

# tools_make ARGS...: make for a tree's tools/ (the sched_ext selftests,
# tools/sched_ext, bpftool) with the kernel's LLVM, at low priority, as if
# run by hand: selftests' lib.mk only defaults OUTPUT to the source dir when
# MAKELEVEL is 0 (else the runner and its build dir land at /runner and
# /build on the host). LLVM= (not just CC=clang-19) makes these Makefiles
# add the clang-specific flags (e.g. -Wno-unused-command-line-argument,
# without which -rdynamic breaks -Werror); CLANG/LLVM_STRIP are spelled out
# for the BPF side.
tools_make() {
	(
		unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
		nice -n 10 make -j"$(nproc)" LLVM="$LLVM_SUFFIX" CLANG="clang$LLVM_SUFFIX" \
			LLVM_STRIP="llvm-strip$LLVM_SUFFIX" "$@"
	)
}

# two_trees BASELINE_TREE PATCHED_TREE: the bench scripts' kernel trees, as
# the global ktree[baseline] and ktree[patched] (resolved paths); one tree
# twice is refused, as two identical kernels would give ratios of ~1.0000
# that mean nothing.
two_trees() {
	declare -gA ktree
	ktree[baseline]=$(readlink -f "$1")
	ktree[patched]=$(readlink -f "$2")
	[ "${ktree[baseline]}" != "${ktree[patched]}" ] ||
		die "baseline and patched are the same tree (${ktree[baseline]}): nothing to compare"
}

# run_logged LOG CMD...: run a long, chatty command with its output in LOG,
# printing a heartbeat every HEARTBEAT_S seconds (default 30: CI sees
# progress, the console stays readable) and the tail of LOG if it fails.
# VERBOSE=1 streams everything.
run_logged() {
	local logf=$1 rc=0 hb
	shift
	if [ "${VERBOSE:-0}" = 1 ]; then
		"$@" 2>&1 | tee "$logf"
		return "${PIPESTATUS[0]}"
	fi
	"$@" >"$logf" 2>&1 &
	local pid=$! parent=$$
	# The heartbeat ends with the script: killed without the rest of its
	# process group, it would live on and keep the script's open files,
	# such as a held build lock, and every later build would wait on it.
	# Its last sleep outlives it: it must not hold the callers' lock fds
	# (8: the payload's, 9: the build's) either.
	(
		exec 8>&- 9>&-
		while sleep "${HEARTBEAT_S:-30}" && kill -0 "$parent" 2>/dev/null; do
			printf '    ... %s\n' "$(tail -n 1 "$logf" 2>/dev/null | cut -c1-100)" >&2
		done
	) &
	hb=$!
	wait "$pid" || rc=$?
	kill "$hb" 2>/dev/null || true
	wait "$hb" 2>/dev/null || true
	if [ "$rc" -ne 0 ]; then
		printf -- '---- last 40 lines of %s ----\n' "$logf" >&2
		tail -n 40 "$logf" >&2
		printf -- '---- end of %s ----\n' "$logf" >&2
	fi
	return "$rc"
}
