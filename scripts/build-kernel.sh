#!/usr/bin/env bash
# One rule for every kernel variant: pristine tree -> worktree keyed by the
# build inputs -> series applied -> config merged -> bzImage.
#
# A variant is only data: a name, a series file (or "none") and fragments.
# The build dir is $CACHE_DIR/build/<variant>-<key>; a stamp file marks it
# complete, so unchanged inputs cost nothing and a failed or interrupted
# build never looks complete. The tree stays usable for building
# tools/testing/selftests/sched_ext and tools/sched_ext (in-tree vmlinux).
#
# Prints the build tree's path on stdout (last line).
# Usage: build-kernel.sh [--status] VARIANT SERIES_FILE|none FRAGMENT...
#   --status: build nothing; print "cached DIR", or "build DIR SECONDS"
#   with what the last build of that variant took (0 if none is known)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/kbuild.sh"

status=
if [ "${1:-}" = --status ]; then
	status=1
	shift
fi
[ $# -ge 3 ] || die "usage: $0 [--status] VARIANT SERIES_FILE|none FRAGMENT..."
variant=$1 series=$2
shift 2
frags=("$@")

mkdir -p "$CACHE_DIR/build"

# The build dir for the current inputs.
pristine=$("$here/prepare-tree.sh")
manifest=$("$here/kernel-key.sh" "$(basename "$pristine")" "$series" "${frags[@]}")
key=$(sha256sum <<<"$manifest" | cut -c1-12)
dir="$CACHE_DIR/build/$variant-$key"
stamp="$dir/.scx-built"
built() { [ -f "$stamp" ] && [ -f "$dir/arch/x86/boot/bzImage" ]; }

if [ -n "$status" ]; then
	if built; then
		echo "cached $dir"
	else
		# shellcheck disable=SC2012 # ls -t orders by mtime; the names are ours (VARIANT-12 hex)
		last=$(ls -1t "$CACHE_DIR/build/$variant"-????????????/.scx-built 2>/dev/null | head -1)
		echo "build $dir $( [ -n "$last" ] && awk '/^build_seconds / { print $2 }' "$last" || echo 0)"
	fi
	exit 0
fi

# One kernel build at a time per cache (the machine has 2 shared cores, and
# concurrent runs would fight over the same build dirs). A finished build
# never changes, so an up-to-date kernel does not wait for the lock.
if ! built; then
	exec 9>"$CACHE_DIR/build/.lock"
	if ! flock -n 9; then
		log "another kernel build holds $CACHE_DIR/build/.lock; waiting"
		flock 9
	fi
fi

if built; then
	log "kernel $variant: up to date ($dir)"
else
	log "kernel $variant: building in $dir (key $key)"
	rm -rf "$dir"
	git -C "$pristine" worktree prune
	git -C "$pristine" worktree add -q --detach "$dir" HEAD >/dev/null
	printf '%s\n' "$manifest" >"$dir/.scx-inputs"

	# A patch that does not apply removes the worktree: nothing half built
	# is left behind.
	"$here/apply-series.sh" "$dir" "$series" || {
		rm -rf "$dir"
		git -C "$pristine" worktree prune
		exit 1
	}
	"$here/merge-config.sh" "$dir" "${frags[@]}"

	start=$(date +%s)
	log "kernel $variant: make bzImage (log: $dir/.scx-build.log)"
	run_logged "$dir/.scx-build.log" kmake "$dir" bzImage ||
		die "kernel build failed for $variant; full log: $dir/.scx-build.log"
	secs=$(($(date +%s) - start))
	printf '%s\nbuild_seconds %s\n' "$manifest" "$secs" >"$stamp"
	log "kernel $variant: built in ${secs}s (ccache, all builds so far:$(ccache -s 2>/dev/null | grep -iE '^ *hits' | head -1 | tr -s ' ' || true))"

	# Keep the cache bounded: drop older builds of this variant, keeping
	# the previous one (cheap to go back to after an experiment).
	# Best effort: a failure here must not fail a finished build.
	# shellcheck disable=SC2010,SC2012 # ls -t orders by mtime, grep keeps our VARIANT-12hex names
	{ ls -1dt "$CACHE_DIR/build/$variant"-???????????? 2>/dev/null |
		grep -E "/$variant-[0-9a-f]{12}\$" | grep -vxF "$dir" | tail -n +2 |
		while read -r old; do
			log "removing old build $old"
			rm -rf "$old"
		done; } || true
	git -C "$pristine" worktree prune || true
fi

# A stable name for humans and for tools run by hand.
ln -sfn "$(basename "$dir")" "$CACHE_DIR/build/$variant"
log "bzImage ($variant): $dir/arch/x86/boot/bzImage"
echo "$dir"
