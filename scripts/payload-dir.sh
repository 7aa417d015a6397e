#!/usr/bin/env bash
# Print where this checkout stages its guest payload for a kernel tree
# (payload_dir in lib.sh); the Makefile asks here.
#
# Usage: payload-dir.sh TREE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
[ $# -eq 1 ] || die "usage: $0 TREE"
payload_dir "$1"
