#!/usr/bin/env bash
# A mistyped knob must stop the run with one line saying what is wrong,
# never quietly mean something else:
#
#   DEBUG=on, BASELINE="yes please"   not a yes/no value ("off" before)
#   SERIES=<missing file>             no series ("no patches" before, and
#                                     make bench compared the baseline with
#                                     itself)
#   run-qemu.sh --smp above CONFIG_NR_CPUS   (16 booted 8 vCPUs before)
#   bench/run.sh on two identical kernels    (ratios of ~1.0000 before)
#
# Each: a non-zero exit and the message. No kernel is built; the --smp case
# needs the cached patched kernel's .config (HARNESS_KERNEL), else a skip.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
: "${CACHE_DIR:=$HOME/.cache/scx-kfilter}"
kernel=${HARNESS_KERNEL:-$CACHE_DIR/build/core/arch/x86/boot/bzImage}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused NAME REGEX CMD...: CMD exits non-zero and prints REGEX
refused() {
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$tmp/$name.out" 2>&1 || rc=$?
	echo "# $name: exit $rc: $(tail -n 1 "$tmp/$name.out")"
	check "$name:exit-non-zero" "exited 0: $(tail -n 3 "$tmp/$name.out")" test "$rc" != 0
	check "$name:clear-message" "no line matching '$want': $(tail -n 3 "$tmp/$name.out")" \
		grep -qE -e "$want" "$tmp/$name.out"
}

refused make-debug-on "DEBUG='on': want 1 or 0" make -C "$top" --no-print-directory check DEBUG=on
refused make-baseline-typo "BASELINE='yes please': want 1 or 0" \
	make -C "$top" --no-print-directory check "BASELINE=yes please"
refused make-series-missing "SERIES=$tmp/none: no such series file" \
	make -C "$top" --no-print-directory check SERIES="$tmp/none"

mkdir -p "$tmp/tree"
echo "patch 0001-x.patch 0" >"$tmp/tree/.scx-inputs"
refused bench-same-tree "baseline and patched are the same tree" \
	"$top/bench/run.sh" "$tmp/tree" "$tmp/tree"
mkdir -p "$tmp/nopatch"
echo "tree x" >"$tmp/nopatch/.scx-inputs"
refused bench-no-patches "built with no patches" \
	"$top/bench/run.sh" "$tmp/tree" "$tmp/nopatch"

cfg=$(dirname "$kernel")/../../../.config
if [ -f "$kernel" ] && [ -f "$cfg" ]; then
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg")
	: >"$tmp/empty.cpio"
	refused smp-above-nr-cpus "--smp $((nr + 1)): this kernel supports at most $nr CPUs" \
		"$top/run-qemu.sh" --kernel "$kernel" --initrd "$tmp/empty.cpio" \
		--log "$tmp/smp.log" --smp "$((nr + 1))"
else
	skip smp-above-nr-cpus "no kernel with a .config at $kernel (make kernel)"
fi
done_testing
