#!/usr/bin/env bash
# Run CMD holding LOCK (flock), and say what it waits for when someone else
# holds it: a silent flock looks like a hung run (make check's quiet screen
# shows these "waiting" lines).
#
# Usage: scripts/with-lock.sh LOCK WHAT CMD...
#   WHAT names the holder, e.g. "another run staging this payload"
# Exit: CMD's status.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 3 ] || die "usage: $0 LOCK WHAT CMD..."
lock=$1 what=$2
shift 2
# flock -E: a status of our own for "held by someone else"
busy=242 rc=0
flock -n -E "$busy" "$lock" "$@" || rc=$?
[ "$rc" = "$busy" ] || exit "$rc"
log "waiting for $what ($lock)"
exec flock "$lock" "$@"
