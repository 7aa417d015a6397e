#!/usr/bin/env bash
# Before any build: can CACHE_DIR hold what the stages write? Fails with one
# line naming the directory, what is wrong (not a directory, cannot be
# created, read-only, full) and what to do. Otherwise the first sign is a
# mkdir or tar error deep in a stage, or a build dying minutes in.
# A 1 MiB probe file, not an empty one: a full file system still lets one
# create an empty file.
# Env: CACHE_DIR (default ~/.cache/scx-kfilter, scripts/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

d=$CACHE_DIR
fix="set CACHE_DIR= to a writable directory with a few GB free (make ... CACHE_DIR=/path)"
# why ERRTEXT: the system's reason, the part after the last ': '
why() { sed -n '$s/.*: //p' <<<"$1"; }

if [ -e "$d" ] && [ ! -d "$d" ]; then
	die "CACHE_DIR=$d is not a directory (a file is in its place): remove it or $fix"
fi
err=$(mkdir -p "$d" 2>&1) || die "CACHE_DIR=$d cannot be created ($(why "$err")): $fix"
probe=$(mktemp "$d/.scx-write-probe.XXXXXX" 2>&1) ||
	die "CACHE_DIR=$d is not writable ($(why "$probe")): make it writable or $fix"
if ! err=$(dd if=/dev/zero of="$probe" bs=1M count=1 status=none 2>&1); then
	rm -f "$probe"
	avail=$(df -Ph "$d" 2>/dev/null | awk 'NR == 2 { print $4 }')
	die "CACHE_DIR=$d is full ($(why "$err"), ${avail:-?} available): free space there or $fix"
fi
rm -f "$probe"
