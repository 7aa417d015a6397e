#!/usr/bin/env bash
# Stage 3: kconfig fragments -> .config in TREE, verified.
#
# tinyconfig, then the fragments merged in order (later ones win), then
# olddefconfig. Kconfig silently drops options whose dependencies are not
# met, so every CONFIG_ line of the fragments is checked against the result:
# a fragment that asks for something the tree cannot give is an error, not
# a surprise at test time.
#
# Usage: merge-config.sh TREE FRAGMENT...
set -euo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
. "$here/kbuild.sh"

[ $# -ge 2 ] || die "usage: $0 TREE FRAGMENT..."
tree=$1
shift
frags=()
for f in "$@"; do
	[ -f "$f" ] || die "kconfig fragment not found: $f"
	frags+=("$(readlink -f "$f")")
done

kmake "$tree" -s tinyconfig
# -m: merge only; olddefconfig below resolves the dependencies.
(cd "$tree" && ./scripts/kconfig/merge_config.sh -m .config "${frags[@]}") >"$tree/.scx-merge-config.log" 2>&1 ||
	die "merge_config.sh failed, see $tree/.scx-merge-config.log"
kmake "$tree" -s olddefconfig

# The wanted value of each symbol is its last mention across the fragments.
missing=$(awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym); want[sym] = $0; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "unset"; next }
	END { for (s in want) print s "\t" want[s] }
' "${frags[@]}" | sort | while IFS=$'\t' read -r sym want; do
	got=$(grep -E "^(# )?${sym}[= ]" "$tree/.config" || true)
	if [ "$want" = unset ]; then
		# Not set means: no "CONFIG_X=" line (absent or "is not set").
		case "$got" in "$sym="*) echo "  $sym: want unset, got '$got'" ;; esac
	elif [ "$got" != "$want" ]; then
		echo "  $want: got '${got:-absent}'"
	fi
done)
if [ -n "$missing" ]; then
	die "config options from ${*} did not make it into $tree/.config (unmet dependencies or typos):
$missing"
fi
log "config: $# fragment(s) merged and verified"
