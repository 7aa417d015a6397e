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

# The kernel is always built with the versioned LLVM toolchain.
: "${LLVM_SUFFIX:=-19}"

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
	(
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
