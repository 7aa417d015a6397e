#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The "scx" suite in the guest (busybox sh): each production scheduler's
# BPF object next to this script is loaded, every program's verdict
# compared with expected.txt, the baseline kernel's. A whole object is
# loaded once (bin/bpf-loadall); if that fails, veristat verifies each
# program on its own (its default, as BPF CI runs it) to tell which ones
# fail. One KTAP line per object, "ok N scx:<scheduler>"; a "# "
# diagnostic names each program whose verdict differs (and shows the end
# of its verifier log), or that was flaky on the baseline (reported, not
# counted), and how the object was loaded.
#
# Every verdict also goes to stderr (the console) as
# "SCX-VERDICT <rep> <object> <program> <verdict>": gen-expected.sh makes
# expected.txt from these. scx.scx_reps=N on the kernel command line loads
# each object N times (default 1; the results compare the first run, and a
# verdict that changes between runs is reported as a diagnostic).
dir=$(cd "$(dirname "$0")" && pwd)
veristat=$dir/bin/veristat
expected=$dir/expected.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -r /scx/ktap.sh ]; then
	# shellcheck source=initramfs/ktap.sh
	. /scx/ktap.sh
else
	scx_t_wants() { return 0; } # selftests/dev/boot.sh has no /scx
fi
reps=1
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in scx.scx_reps=[1-9]*) reps=${arg#scx.scx_reps=} ;; esac
done

# libbpf resolves the schedulers' __kconfig externs (CONFIG_HZ,
# LINUX_KERNEL_VERSION, ...) from /boot/config-$(uname -r) or
# /proc/config.gz; the lean guest kernel has no IKCONFIG, so build.sh packs
# the tree's .config. Without it scx_flash and scx_layered fail to open
# ("failed to open system Kconfig"), which would hide their verdicts.
kconf=/boot/config-$(uname -r)
if [ ! -e /proc/config.gz ] && [ ! -e "$kconf" ]; then
	if [ -r "$dir/kconfig" ]; then
		mkdir -p /boot && cp "$dir/kconfig" "$kconf"
	else
		echo "# scx: no $dir/kconfig and no $kconf: objects with __kconfig externs will fail to open"
	fi
fi

# The objects: what was built, what did not build (a failure, not a
# skip), and what the baseline verified (an object the baseline had but
# this payload lacks fails too).
objs=$(
	{
		for f in "$dir"/*.bpf.o; do [ -e "$f" ] && basename "$f"; done
		awk 'NF { print $1 ".bpf.o" }' "$dir/not-built.txt" 2>/dev/null
		grep -v '^#' "$expected" 2>/dev/null | awk 'NF { print $1 }'
	} | sort -u
)
[ -r "$expected" ] || echo "# scx: $expected missing: every program will be reported as unexpected"
n=0
for o in $objs; do scx_t_wants "scx:${o%.bpf.o}" && n=$((n + 1)); done
echo "1..$n"

i=0 failed=0
for o in $objs; do
	name=scx:${o%.bpf.o}
	scx_t_wants "$name" || continue
	i=$((i + 1))
	start=$(cut -d' ' -f1 /proc/uptime)
	: >"$tmp/verdicts"
	if [ ! -e "$dir/$o" ]; then
		why=$(awk -v n="${o%.bpf.o}" '$1 == n { $1 = ""; print }' "$dir/not-built.txt" 2>/dev/null)
		echo "# $name: not in the payload (not built:${why:- no reason recorded})"
	else
		r=1 loads=
		while [ "$r" -le "$reps" ]; do
			# One load of the whole object first: if everything
			# verifies, that is every program's verdict. Otherwise
			# veristat, one program per load, says which ones fail.
			if "$dir/bin/bpf-loadall" "$dir/$o" >"$tmp/veristat.csv" 2>"$tmp/veristat.err"; then
				loads="$loads whole"
			else
				loads="$loads per-program"
				"$veristat" -q -o csv -e file,prog,verdict "$dir/$o" >"$tmp/veristat.csv" 2>"$tmp/veristat.err" ||
					echo "# $name: veristat exited $? (run $r): $(tail -n 3 "$tmp/veristat.err" | tr '\n' ' ')"
			fi
			awk -F, -v r="$r" '$1 != "file_name" && NF >= 3 { print r, $1, $2, $3 }' \
				"$tmp/veristat.csv" >>"$tmp/verdicts"
			r=$((r + 1))
		done
		sed 's/^/SCX-VERDICT /' "$tmp/verdicts" >&2
		echo "# $name: loaded:$loads"
	fi
	# Compare run 1 with the expected list; programs that changed between
	# runs, flaky ones and every mismatch become diagnostics, and each
	# program whose verdict differs also a "MISMATCH prog" line (for its
	# log below, not printed).
	awk -v o="$o" -v name="$name" -v v="$tmp/verdicts" '
	FILENAME == v {
		if ($1 == 1) got[$3] = $4
		else if (got[$3] != $4) changed[$3] = 1
		next
	}
	/^#/ || $1 != o { next }
	{
		want[$2] = $3
		why = $0; sub(/^[^#]*#? */, "", why); note[$2] = why
	}
	END {
		for (p in changed) printf "# %s: %s: verdict changed between runs of this kernel\n", name, p
		for (p in want) {
			if (want[p] == "flaky") {
				printf "# %s: %s: flaky on the baseline (%s), %s here: not counted\n", name, p, note[p], (p in got) ? got[p] : "not verified"
			} else if (!(p in got)) {
				printf "# %s: %s: expected %s, not verified (missing from veristat output)\n", name, p, want[p]
				bad++
			} else if (got[p] != want[p]) {
				printf "# %s: %s: expected %s, got %s\n", name, p, want[p], got[p]
				print "MISMATCH " p
				bad++
			}
		}
		for (p in got) if (!(p in want)) {
			printf "# %s: %s: not in expected.txt (got %s)\n", name, p, got[p]
			bad++
		}
		exit (bad > 0)
	}' "$tmp/verdicts" "$expected" >"$tmp/diag"
	ok=$?
	[ -e "$dir/$o" ] || ok=1
	grep -v '^MISMATCH ' "$tmp/diag"
	# Why a verdict differs: the end of that program's verifier log.
	sed -n 's/^MISMATCH //p' "$tmp/diag" | while read -r p; do
		"$veristat" -v -f "$o/$p" "$dir/$o" 2>&1 | grep -v '^$' | tail -n 15 | sed "s|^|# $name: $p: |"
	done
	echo "# time: $name $(awk -v s="$start" '{ printf "%.2f", $1 - s }' /proc/uptime)"
	if [ "$ok" = 0 ]; then
		echo "ok $i $name"
	else
		echo "not ok $i $name"
		failed=$((failed + 1))
	fi
done
[ "$failed" = 0 ]
