#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The "scx" suite in the guest (busybox sh): each production scheduler's
# BPF object next to this script is loaded by bin/bpf-loadall (every
# program verified, a refused one left out and the rest loaded again; see
# bpf-loadall.c), and every program's verdict compared with expected.txt,
# the baseline kernel's. One KTAP line per object, "ok N scx:<scheduler>";
# a "# " diagnostic names each program whose verdict differs (with the end
# of its verifier log), or that was flaky on the baseline (reported, not
# counted). An object whose loads take longer than the cap
# (scx.scx_timeout=SECONDS, default 300) is "not ok ... # timeout".
#
# Every verdict also goes to stderr (the console) as
# "SCX-VERDICT <rep> <object> <program> <verdict> <insns>": gen-expected.sh
# makes expected.txt from these. A load that fails outside any program
# (a map, BTF, kconfig) is the verdict "failure" of the pseudo-program
# "-object-". scx.scx_reps=N on the kernel command line loads each object
# N times (default 1; the results compare the first run, and a verdict
# that changes between runs is reported as a diagnostic).
#
# A C scheduler whose user-space loader build.sh built (bin/<scheduler>)
# is also run briefly under load after its object's verdicts
# (run-sched.sh): its run verdict (enabled, not-enabled, ejected, stuck)
# is the pseudo-program "-run-", compared like the others. no-run.txt
# names the loaders that are not run, with the reason (printed).
dir=$(cd "$(dirname "$0")" && pwd)
expected=$dir/expected.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The guest's KTAP writer (initramfs/ktap.sh), packed in lib/ by build.sh
KTAP_DIR=$dir/lib
# shellcheck source=../../initramfs/ktap.sh
. "$KTAP_DIR/ktap.sh"
# The cap: scx.scx_timeout= on the command line, else SCX_OBJ_TIMEOUT (tests).
reps=1 cap=${SCX_OBJ_TIMEOUT:-300}
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	scx.scx_reps=[1-9]*) reps=${arg#scx.scx_reps=} ;;
	scx.scx_timeout=[1-9]*) cap=${arg#scx.scx_timeout=} ;;
	esac
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
# shellcheck disable=SC2046 # object names: no blanks
ktap_plan $(for o in $objs; do echo "scx:${o%.bpf.o}"; done)

for o in $objs; do
	name=scx:${o%.bpf.o}
	scx_t_wants "$name" || continue
	start=$(cut -d' ' -f1 /proc/uptime)
	: >"$tmp/verdicts"
	: >"$tmp/load1.err"
	timedout=
	if [ ! -e "$dir/$o" ]; then
		why=$(awk -v n="${o%.bpf.o}" '$1 == n { $1 = ""; print }' "$dir/not-built.txt" 2>/dev/null)
		echo "# $name: not in the payload (not built:${why:- no reason recorded})"
	else
		r=1 loads=
		while [ "$r" -le "$reps" ] && [ -z "$timedout" ]; do
			rc=0
			timeout "$cap" "$dir/bin/bpf-loadall" "$dir/$o" >"$tmp/load.csv" 2>"$tmp/load.err" || rc=$?
			case $rc in
			0) ;;
			1)	echo "# $name: no program verdicts (run $r): $(grep -v '^ *$' "$tmp/load.err" | tail -n 3 | tr '\n' ' ')"
				echo "$o,-object-,failure,0" >"$tmp/load.csv" ;;
			124 | 137 | 143) timedout=$cap ;; # coreutils' timeout says 124, busybox's 143
			*)	echo "# $name: bpf-loadall exited $rc (run $r)"
				: >"$tmp/load.csv" ;;
			esac
			loads="$loads $(grep -c "' refused (" "$tmp/load.err")"
			[ "$r" = 1 ] && cp "$tmp/load.err" "$tmp/load1.err"
			awk -F, -v r="$r" 'NF >= 3 { print r, $1, $2, $3, ($4 == "" ? 0 : $4) }' \
				"$tmp/load.csv" >>"$tmp/verdicts"
			# A C scheduler's own loader, run under load: the verdict of
			# the pseudo-program "-run-" (run-sched.sh).
			norun=$(awk -v n="${o%.bpf.o}" '$1 == n { $1 = ""; print }' "$dir/no-run.txt" 2>/dev/null)
			if [ -n "$norun" ]; then
				[ "$r" = 1 ] && echo "# $name: run: not run (no-run.txt):$norun"
			elif [ -x "$dir/bin/${o%.bpf.o}" ] && [ -z "$timedout" ]; then
				v=$(sh "$dir/run-sched.sh" "$dir/bin/${o%.bpf.o}" 2>"$tmp/run.diag")
				[ "$r" = 1 ] && cat "$tmp/run.diag"
				echo "$r $o -run- ${v:-none} 0" >>"$tmp/verdicts"
			fi
			r=$((r + 1))
		done
		sed 's/^/SCX-VERDICT /' "$tmp/verdicts" >&2
		echo "# $name: programs refused per run:$loads; instructions verified: $(awk '$1 == 1 { n += $5 } END { print n + 0 }' "$tmp/verdicts")"
		[ -z "$timedout" ] || echo "# $name: timeout: the load took longer than ${timedout} s (scx.scx_timeout=)"
	fi
	# Compare run 1 with the expected list; programs that changed between
	# runs, flaky ones and every mismatch become diagnostics, and each
	# program whose verdict differs also a "MISMATCH prog" line (for its
	# log below, not printed).
	awk -v o="$o" -v name="$name" -v v="$tmp/verdicts" '
	FILENAME == v {
		if ($1 == 1) got[$3] = $4
		else if (!($3 in got)) changed[$3] = 1
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
				printf "# %s: %s: expected %s, not verified (missing from the loader output)\n", name, p, want[p]
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
	[ -e "$dir/$o" ] && [ -z "$timedout" ] || ok=1
	# A part that did not build (the object, or a C scheduler's loader)
	# fails the object, whatever the verdicts say.
	why=$(awk -v n="${o%.bpf.o}" '$1 == n { $1 = ""; print }' "$dir/not-built.txt" 2>/dev/null)
	if [ -n "$why" ] && [ -e "$dir/$o" ]; then
		echo "# $name: not built:$why"
		ok=1
	fi
	grep -v '^MISMATCH ' "$tmp/diag"
	# Why a verdict differs: the end of that program's verifier log, which
	# libbpf printed when the kernel refused it (none for a program that
	# now loads).
	sed -n 's/^MISMATCH //p' "$tmp/diag" | while read -r p; do
		awk -v b="prog '$p': -- BEGIN PROG LOAD LOG --" '
			index($0, b) { on = 1; next }
			on && /-- END PROG LOAD LOG --/ { exit }
			on && NF' "$tmp/load1.err" | tail -n 15 | sed "s|^|# $name: $p: |"
	done
	echo "# time: $name $(awk -v s="$start" '{ printf "%.2f", $1 - s }' /proc/uptime)"
	if [ "$ok" = 0 ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name" "${timedout:+timeout after $timedout s}"
	fi
done
[ "$(ktap_failures)" = 0 ]
