#!/usr/bin/env bash
# Each checkout stages its own guest payload for a shared cached kernel:
# two checkouts once shared TREE/.scx-payload, and one's payload build
# restaged what the other was about to boot (its tests, not the booting
# checkout's, ran). No kernel is built and nothing boots.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tree=$tmp/cache/build/core
mine=$("$top/scripts/payload-dir.sh" "$tree")
# a second checkout: the same scripts elsewhere
mkdir -p "$tmp/other/scripts"
cp "$top/scripts/lib.sh" "$top/scripts/payload-dir.sh" "$tmp/other/scripts/"
other=$("$tmp/other/scripts/payload-dir.sh" "$tree")

# shellcheck disable=SC2016 # expanded by that bash
check under-the-tree "got $mine" bash -c '[[ $1 == "$2"/.scx-payload-* ]]' _ "$mine" "$tree"
check stable "asked twice: $mine, $("$top/scripts/payload-dir.sh" "$tree")" \
	test "$mine" = "$("$top/scripts/payload-dir.sh" "$tree")"
check per-checkout "both checkouts got $mine" test "$mine" != "$other"
# the Makefile stages and boots what this script names
# shellcheck disable=SC2016 # $(PAYLOAD) is make's
made=$(CACHE_DIR=$tmp/cache make -s --no-print-directory -C "$top" \
	--eval 'print-payload-for-test: ; @echo $(PAYLOAD)' print-payload-for-test V=core)
check makefile-agrees "make's PAYLOAD is $made, payload-dir.sh says $mine" test "$made" = "$mine"
done_testing
