#!/usr/bin/env bash
# Verification cost as BPF maintainers read it: veristat, built from each
# kernel tree's tools/testing/selftests/bpf/veristat.c against that tree's
# libbpf (static, for the busybox guest), run inside each kernel's guest on
# the tree's scx_simple, scx_qmap, scx_central and scx_flatcg BPF objects.
# Per program: verdict, verified instructions, states, peak states and
# verification time, baseline and patched side by side. VERISTAT_BPF_PROGS
# adds objects of the tree's own BPF selftests (tools/testing/selftests/bpf).
#
# Each kernel gets the objects built from its own tree (tools/sched_ext's
# Makefile, O= a build dir of ours, LLVM=-19, vmlinux.h from that tree's
# vmlinux): the final linked object its skeleton embeds
# (scx_X.bpf.linked3.o, what the scheduler binary loads), named
# scx_X.bpf.o in the guest. Nothing is loaded into the host kernel.
#
# Usage: bench/veristat.sh [BASELINE_TREE PATCHED_TREE]
#   default trees: $CACHE_DIR/build/baseline and $CACHE_DIR/build/patched
#   (resolved once at start; both kernels must be built: make kernel
#   [BASELINE=1]).
# Environment:
#   VERISTAT_BUILD_DIR  intermediates (libbpf, sched_ext objects, veristat,
#                       overlays, initramfs, console logs); default
#                       $CACHE_DIR/veristat-build
#   RESULTS_DIR         where veristat-{baseline,patched}.csv, table.md and
#                       meta.txt go; default bench/results/<date>-veristat
#   VERISTAT_TIMEOUT    seconds per guest (default 1800)
#   VERISTAT_REPS       veristat runs per guest (default 5): the counts must
#                       be the same in each, the table shows the median
#                       duration (durations-<kernel>.csv has every run's)
#   VERISTAT_LOG=N      also take each program's verifier log at level N
#                       (veristat -v -l N), normalized (timings, kfunc and BTF
#                       type ids, map ids, addresses) and hashed in the guest:
#                       loghash-<kernel>.txt, compared in table.md (the
#                       same hash: the verifier walked the same path)
#   VERISTAT_LOG_SHOW=FILE/PROG  with VERISTAT_LOG, keep that program's
#                       normalized log as <build dir>/<kernel>/logshow.txt
#   VERISTAT_BPF_PROGS  also these programs of the BPF selftests: NAMEs of
#                       tools/testing/selftests/bpf/progs/NAME.c, blank-
#                       separated (e.g. "timer async_stack_depth pyperf180"),
#                       compiled per tree as that tree's selftests Makefile
#                       compiles them (clang-19 --target=bpf -mcpu=v3 -O2,
#                       BPF_CFLAGS, the tree's vmlinux.h and libbpf headers),
#                       named NAME.bpf.o in the guest. Selftests include
#                       programs meant to fail verification: a selftests
#                       program that fails on both kernels is reported, not
#                       an error; one whose verdict differs is an error.
#   VERISTAT_DURATIONS=0  publish counts only: no durations-*.csv, no
#                       duration column in table.md or in veristat-*.csv
#                       (the guests' CSVs stay in the build dir)
#   QEMU_ARGS           extra run-qemu.sh options
# Exit status: 0 when both guests ran veristat on every object, every
# scheduler program verified and every selftests program got the same
# verdict on both kernels; non-zero otherwise (the reason on stderr).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -eq 0 ] || [ $# -eq 2 ] || die "usage: $0 [BASELINE_TREE PATCHED_TREE]"
two_trees "${1:-$CACHE_DIR/build/baseline}" "${2:-$CACHE_DIR/build/patched}"
kernels=(baseline patched)
scheds=(scx_simple scx_qmap scx_central scx_flatcg)
read -r -a bpf_progs <<<"${VERISTAT_BPF_PROGS:-}"

BUILD=${VERISTAT_BUILD_DIR:-$CACHE_DIR/veristat-build}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date -u +%Y-%m-%d)-veristat}
VERISTAT_TIMEOUT=${VERISTAT_TIMEOUT:-1800}
VERISTAT_REPS=${VERISTAT_REPS:-5}
case "$VERISTAT_REPS" in [1-9] | [1-9][0-9]) ;; *) die "VERISTAT_REPS='$VERISTAT_REPS': want 1-99" ;; esac
VERISTAT_LOG=${VERISTAT_LOG:-}
case "$VERISTAT_LOG" in "" | [0-9]) ;; *) die "VERISTAT_LOG='$VERISTAT_LOG': want a verifier log level 0-9" ;; esac
VERISTAT_DURATIONS=${VERISTAT_DURATIONS:-1}
case "$VERISTAT_DURATIONS" in 0 | 1) ;; *) die "VERISTAT_DURATIONS='$VERISTAT_DURATIONS': want 0 or 1" ;; esac
read -r -a qemu_extra <<<"${QEMU_ARGS:-}"

for k in "${kernels[@]}"; do
	t=${ktree[$k]}
	for f in arch/x86/boot/bzImage vmlinux tools/testing/selftests/bpf/veristat.c \
		tools/lib/bpf/Makefile tools/sched_ext/Makefile; do
		[ -e "$t/$f" ] || die "$k: $t/$f missing (build the kernel first: make kernel$([ "$k" = baseline ] && echo ' BASELINE=1'))"
	done
	for p in ${bpf_progs[@]+"${bpf_progs[@]}"}; do
		case "$p" in */* | *.* | "") die "VERISTAT_BPF_PROGS: '$p': want a NAME of tools/testing/selftests/bpf/progs/NAME.c" ;; esac
		[ -f "$t/tools/testing/selftests/bpf/progs/$p.c" ] || die "$k: $t/tools/testing/selftests/bpf/progs/$p.c missing (VERISTAT_BPF_PROGS)"
		for s in "${scheds[@]}"; do [ "$p" != "$s" ] || die "VERISTAT_BPF_PROGS: $p is also a scheduler's name"; done
	done
done
for c in clang-19 llvm-strip-19 gcc sha256sum; do
	command -v "$c" >/dev/null || die "$c not found: make deps"
done
mkdir -p "$BUILD" "$RESULTS_DIR"
# One run per build dir: two would rebuild and boot the same files.
exec 9>"$BUILD/.lock"
flock -n 9 || die "another bench/veristat.sh is running on $BUILD (VERISTAT_BUILD_DIR)"
start=$(date +%s)

# Build as if run by hand, not as a sub-make (see scripts/build-payload.sh).
unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES
jobs=$(nproc)

# 1. Per kernel: libbpf (static), veristat (static), the schedulers' BPF
#    objects, and the guest overlay: /veristat (the tool and objects) and
#    the "veristat" payload.
build() {
	local k=$1 t=${ktree[$1]} b="$BUILD/$1"
	mkdir -p "$b/sched_ext"
	# libbpf and the static veristat (with its CGRP_STORAGE fix): the same
	# script builds the scx suite's veristat (selftests/scx).
	"$repo/scripts/build-veristat.sh" "$t" "$b" || die "$k: building veristat failed"

	log "veristat $k: ${scheds[*]} BPF objects (tools/sched_ext, LLVM=-19)"
	local targets=()
	for s in "${scheds[@]}"; do targets+=("$b/sched_ext/build/include/$s.bpf.skel.h"); done
	run_logged "$b/sched_ext.log" nice -n 10 make -j"$jobs" -C "$t/tools/sched_ext" \
		O="$b/sched_ext" LLVM=-19 CLANG=clang-19 LLVM_STRIP=llvm-strip-19 \
		VMLINUX_BTF="$t/vmlinux" "${targets[@]}" ||
		die "$k: building the sched_ext BPF objects failed; log: $b/sched_ext.log"

	# The BPF selftests' objects, as the tree's selftests Makefile builds
	# them (CLANG_BPF_BUILD_RULE with BPF_CFLAGS and CLANG_SYS_INCLUDES):
	# its include dir is vmlinux.h (here the one tools/sched_ext made from
	# this tree's vmlinux) and libbpf's headers; its ../usr/include
	# (headers_install) is not made, the host's come after it.
	if [ ${#bpf_progs[@]} -gt 0 ]; then
		local st="$t/tools/testing/selftests/bpf" sb="$b/selftests-bpf" p sys_inc
		log "veristat $k: ${bpf_progs[*]} BPF objects (tools/testing/selftests/bpf/progs, clang-19)"
		rm -rf "$sb"
		mkdir -p "$sb/include"
		cp "$b/sched_ext/build/include/vmlinux.h" "$sb/include/vmlinux.h"
		cp -r "$b/libbpf-install/include/bpf" "$sb/include/bpf"
		read -r -a sys_inc <<<"$(clang-19 -v -E - </dev/null 2>&1 |
			sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }' | tr '\n' ' ')"
		for p in "${bpf_progs[@]}"; do
			run_logged "$sb/$p.log" nice -n 10 clang-19 -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian \
				-I"$sb/include" -I"$st" -I"$t/tools/include/uapi" -Wno-compare-distinct-pointer-types \
				"${sys_inc[@]}" -O2 --target=bpf -c "$st/progs/$p.c" -mcpu=v3 -o "$sb/$p.bpf.o" ||
				die "$k: compiling selftests/bpf progs/$p.c failed; log: $sb/$p.log"
		done
	fi

	local ov="$b/overlay"
	rm -rf "$ov"
	mkdir -p "$ov/veristat" "$ov/scx/payloads"
	install -m 0755 "$b/bin/veristat" "$ov/veristat/veristat"
	strip "$ov/veristat/veristat"
	for s in "${scheds[@]}"; do
		install -m 0644 "$b/sched_ext/build/obj/sched_ext/$s.bpf.linked3.o" "$ov/veristat/$s.bpf.o"
	done
	for p in ${bpf_progs[@]+"${bpf_progs[@]}"}; do
		install -m 0644 "$b/selftests-bpf/$p.bpf.o" "$ov/veristat/$p.bpf.o"
	done
	install -m 0755 "$here/guest/veristat.sh" "$ov/scx/payloads/veristat.sh"
	log "veristat $k: initramfs"
	"$repo/initramfs/build-initramfs.sh" "$t" "$b/initramfs.cpio" "$ov"
}

for k in "${kernels[@]}"; do build "$k"; done

# 2. Boot each kernel once (one after the other: veristat is one thread,
#    and the cores are shared) and take the CSV out of the console log.
#    Two vCPUs, like the project's other guests: the counts depend on it
#    (the verifier bounds bpf_get_smp_processor_id() to [0, nr_cpu_ids - 1],
#    so one vCPU makes it the constant 0 and prunes branches).
#    tsc=reliable: under TCG the kernel otherwise finds the TSCs
#    unsynchronized and falls back to the jiffies clocksource, and the
#    verifier's "verification time" comes in 4 ms steps (HZ=250).
#    The guest's PIT calibration of the TSC fails when the host is busy
#    ("could not calculate TSC khz", jiffies again): under TCG the guest's
#    TSC is the host's, so its frequency, from the host's kernel log, is
#    given as tsc_early_khz when the host has it.
clock="tsc=reliable"
khz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9][0-9]*\)\.\([0-9][0-9][0-9]\) MHz processor.*/\1\2/p' | head -n 1 || true)
[ -z "$khz" ] || clock="$clock tsc_early_khz=$khz"
failed=0
for k in "${kernels[@]}"; do
	t=${ktree[$k]} b="$BUILD/$k"
	log "veristat $k: booting $(basename "$t") (TCG if KVM does not work; takes minutes)"
	rc=0
	nice -n 10 "$repo/run-qemu.sh" --kernel "$t/arch/x86/boot/bzImage" \
		--initrd "$b/initramfs.cpio" --log "$b/console.log" --timeout "$VERISTAT_TIMEOUT" \
		--smp 2 --append "scx.payload=veristat veristat.reps=$VERISTAT_REPS $clock${VERISTAT_LOG:+ veristat.log=$VERISTAT_LOG}${VERISTAT_LOG_SHOW:+ veristat.logshow=$VERISTAT_LOG_SHOW}" \
		"${qemu_extra[@]}" >/dev/null 2>"$b/run-qemu.err" || rc=$?
	grep -o 'qemu: using [A-Z]*' "$b/run-qemu.err" | sed 's/^qemu: using //' >"$b/accel" || true
	tr -d '\r' <"$b/console.log" >"$b/console.txt"
	# Every rep's CSV, each line prefixed with its rep number.
	awk '/^VERISTAT-CSV-BEGIN rep [0-9]+$/ { rep = $3; next }
		/^VERISTAT-CSV-END rep [0-9]+$/ { rep = ""; next }
		rep != "" { print rep "," $0 }' "$b/console.txt" >"$b/reps.csv"
	sed -n 's/^1,//p' "$b/reps.csv" >"$b/veristat.csv"
	if [ "$VERISTAT_DURATIONS" = 1 ]; then
		cp "$b/veristat.csv" "$RESULTS_DIR/veristat-$k.csv"
	else
		cut -d, -f1-3,5- "$b/veristat.csv" >"$RESULTS_DIR/veristat-$k.csv"
	fi
	if [ -n "$VERISTAT_LOG" ]; then
		sed -n 's/^VERISTAT-LOGHASH //p' "$b/console.txt" >"$RESULTS_DIR/loghash-$k.txt" || true
		sed -n 's/^VERISTAT-LOGSHOW: //p' "$b/console.txt" >"$b/logshow.txt" || true
	fi
	grep '^VERISTAT-STDERR: ' "$b/console.txt" | sed "s/^VERISTAT-STDERR: /  [$k veristat stderr] /" >&2 || true
	grep '^VERISTAT-DIAG: ' "$b/console.txt" | sed "s/^VERISTAT-DIAG: /  [$k failing program] /" >&2 || true
	if [ "$rc" != 0 ]; then
		warn "veristat $k: guest failed (run-qemu.sh exit $rc); console log: $b/console.log"
		failed=1
	fi
	if [ "$(wc -l <"$b/veristat.csv")" -lt 2 ]; then
		warn "veristat $k: no veristat CSV in $b/console.log"
		failed=1
		continue
	fi
	n=$(cut -d, -f1 "$b/reps.csv" | sort -u | wc -l)
	if [ "$n" != "$VERISTAT_REPS" ]; then
		warn "veristat $k: $n of $VERISTAT_REPS veristat runs in $b/console.log"
		failed=1
	fi
	# The counts (all but the duration) must repeat exactly from run to run.
	if [ "$(cut -d, -f2-4,6- "$b/reps.csv" | sort | uniq -c | awk -v n="$n" '$1 != n' | wc -l)" != 0 ]; then
		warn "veristat $k: the instruction or state counts changed between runs of the same kernel ($b/reps.csv)"
		failed=1
	fi
	# Durations of every run per program, and their median.
	awk -F, -v n="$n" '
	$2 == "file_name" { next }
	{ key = $2 "," $3; if (!(key in d)) order[++m] = key; d[key] = d[key] "," $5; v[key, $1] = $5 }
	END {
		printf "file_name,prog_name"; for (i = 1; i <= n; i++) printf ",duration_rep%d", i; print ",duration_median"
		for (j = 1; j <= m; j++) {
			key = order[j]; c = 0
			for (i = 1; i <= n; i++) x[++c] = v[key, i] + 0
			for (a = 2; a <= c; a++) for (z = a; z > 1 && x[z - 1] > x[z]; z--) { t = x[z]; x[z] = x[z - 1]; x[z - 1] = t }
			med = (c % 2) ? x[(c + 1) / 2] : int((x[c / 2] + x[c / 2 + 1]) / 2)
			print key d[key] "," med
		}
	}' "$b/reps.csv" >"$b/durations.csv"
	[ "$VERISTAT_DURATIONS" = 0 ] || cp "$b/durations.csv" "$RESULTS_DIR/durations-$k.csv"
done
[ "$failed" = 0 ] || die "veristat: a guest did not produce its results (see above)"

# 3. Provenance and the side-by-side table.
# Every object as NAME.bpf.o and its source in the tree.
objects=()
for s in "${scheds[@]}"; do objects+=("$s tools/sched_ext/$s.bpf.c"); done
for p in ${bpf_progs[@]+"${bpf_progs[@]}"}; do objects+=("$p tools/testing/selftests/bpf/progs/$p.c"); done
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "checkout $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- 2>/dev/null || echo ' (dirty)')"
	for k in "${kernels[@]}"; do
		echo "kernel $k $(basename "${ktree[$k]}"), guest: $(sed -n 's/^init: .*, \([0-9]*\) CPUs,.*/\1 vCPUs/p' "$BUILD/$k/console.txt"), $(grep -o 'Switched to clocksource [a-z_-]*' "$BUILD/$k/console.txt" | tail -1 | sed 's/Switched to //'), $(cat "$BUILD/$k/accel")"
	done
	echo "veristat.c $(sha256sum <"${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" | cut -c1-12) $(cmp -s "${ktree[baseline]}/tools/testing/selftests/bpf/veristat.c" "${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" && echo 'same in both trees' || echo 'DIFFERS between the trees'); built with one line added: $(diff "${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" "$BUILD/patched/src/veristat.c" | sed -n 's/^>[[:space:]]*//p')"
	for o in "${objects[@]}"; do
		s=${o%% *} f=${o#* }
		a="$BUILD/baseline/overlay/veristat/$s.bpf.o" p="$BUILD/patched/overlay/veristat/$s.bpf.o"
		src=$(cmp -s "${ktree[baseline]}/$f" "${ktree[patched]}/$f" && echo 'source same' || echo 'source DIFFERS')
		if cmp -s "$a" "$p"; then obj="objects byte-identical"
		else
			# Same instructions? (vmlinux.h comes from each kernel, so the
			# CO-RE relocations name fields by each kernel's member index.)
			dis() { llvm-objdump-19 -d "$@" | tail -n +3; }
			if ! diff -q <(dis "$a") <(dis "$p") >/dev/null; then
				obj="objects differ, INSTRUCTIONS DIFFER"
			elif diff -q <(dis -r "$a") <(dis -r "$p") >/dev/null; then
				obj="objects differ, instructions and relocations identical"
			else
				d=$(diff <(dis -r "$a") <(dis -r "$p") || true)
				n=$(grep -c '^<' <<<"$d" || true)
				ex=$(sed -n 's/^[<>].*CO-RE <[a-z_]*> \[[0-9]*\] \(.*\)$/\1/p' <<<"$d" | sort -u | head -4 | paste -sd';' | sed 's/;/; /g' || true)
				obj="objects differ, instructions identical, $n CO-RE relocation lines differ (e.g. $ex)"
			fi
		fi
		echo "object $s.bpf.o $src; $obj; baseline $(sha256sum <"$a" | cut -c1-12) patched $(sha256sum <"$p" | cut -c1-12)"
	done
} >"$RESULTS_DIR/meta.txt"

# veristat CSV columns: file_name,prog_name,verdict,duration,total_insns,
# total_states,peak_states,max_states_per_insn,mark_read_max_len; the
# duration shown is the median of the runs (durations.csv). Each count is
# "baseline / patched (patched - baseline)". A scheduler's program must
# verify on both kernels; a selftests program must get the same verdict on
# both (some are meant to fail).
awk -F, -v reps="$VERISTAT_REPS" -v durations="$VERISTAT_DURATIONS" -v scheds="${scheds[*]}" '
function ratio(a, b) { return a > 0 ? sprintf("%.3f", b / a) : "-" }
function delta(a, b) { return sprintf("%+d", b - a) }
BEGIN { ns = split(scheds, sl, " "); for (i = 1; i <= ns; i++) issched[sl[i] ".bpf.o"] = 1 }
FNR == 1 { fi++; next }
fi == 1 { dbase[$1 SUBSEP $2] = $NF; next }
fi == 2 { dpat[$1 SUBSEP $2] = $NF; next }
{ key = $1 SUBSEP $2; if (!(key in seen)) { order[++n] = key; seen[key] = 1 } }
fi == 3 { base[key] = $0; next }
{ pat[key] = $0 }
END {
	printf "| object | program | verdict b / p | insns b / p (delta) | states b / p (delta) | peak states b / p (delta) |"
	if (durations) printf " duration us, median of %d, b / p (p/b) |", reps
	printf "\n|---|---|---|---:|---:|---:|%s\n", durations ? "---:|" : ""
	for (i = 1; i <= n; i++) {
		key = order[i]
		delete b; delete p
		split(base[key], b, ","); split(pat[key], p, ",")
		b[4] = dbase[key]; p[4] = dpat[key]
		o = b[1] != "" ? b[1] : p[1]; g = (o in issched) ? "sched_ext" : "selftests"
		s = o; sub(/\.bpf\.o$/, "", s)
		pr = b[2] != "" ? b[2] : p[2]
		d = (b[5] == p[5] && b[6] == p[6] && b[7] == p[7]) ? 0 : 1
		printf "| %s | %s | %s / %s | %s / %s (%s)%s | %s / %s (%s) | %s / %s (%s) |", s, pr, b[3], p[3], b[5], p[5], delta(b[5], p[5]), d ? " **differs**" : "", b[6], p[6], delta(b[6], p[6]), b[7], p[7], delta(b[7], p[7])
		if (durations) printf " %s / %s (%s) |", b[4], p[4], ratio(b[4], p[4])
		printf "\n"
		cnt[g]++
		if (b[3] != p[3] || (g == "sched_ext" && b[3] != "success")) { bad++; badl = badl " " s "/" pr }
		else if (b[3] != "success") fboth[g]++
		for (j = 4; j <= 7; j++) { tb[g, j] += b[j]; tp[g, j] += p[j] }
		if (d) { diff[g]++; diffl = diffl " " s "/" pr }
	}
	for (gi = 1; gi <= 2; gi++) {
		g = gi == 1 ? "sched_ext" : "selftests"
		if (!cnt[g]) continue
		printf "| **total, %s** | %d programs | | %d / %d (%s) | %d / %d (%s) | %d / %d (%s) |", g == "sched_ext" ? "schedulers" : "selftests/bpf", cnt[g], tb[g, 5], tp[g, 5], delta(tb[g, 5], tp[g, 5]), tb[g, 6], tp[g, 6], delta(tb[g, 6], tp[g, 6]), tb[g, 7], tp[g, 7], delta(tb[g, 7], tp[g, 7])
		if (durations) printf " %d / %d (%s) |", tb[g, 4], tp[g, 4], ratio(tb[g, 4], tp[g, 4])
		printf "\n"
	}
	printf "\nprograms whose insns, states or peak states differ: %d (schedulers %d, selftests/bpf %d)%s\n", diff["sched_ext"] + diff["selftests"], diff["sched_ext"] + 0, diff["selftests"] + 0, diffl ? ":" diffl : ""
	if (cnt["selftests"]) printf "selftests/bpf programs that fail verification on both kernels (same verdict): %d\n", fboth["selftests"] + 0
	printf "programs with a verdict that differs between the kernels, or a scheduler program not verified: %d%s\n", bad + 0, badl ? ":" badl : ""
	exit (bad > 0)
}' "$BUILD/baseline/durations.csv" "$BUILD/patched/durations.csv" \
	"$BUILD/baseline/veristat.csv" "$BUILD/patched/veristat.csv" >"$RESULTS_DIR/table.md" || failed=1

# Run-to-run noise of the durations: the sum over all programs, per run.
if [ "$VERISTAT_DURATIONS" = 1 ]; then
	for k in "${kernels[@]}"; do
		awk -F, -v k="$k" 'NR == 1 { n = NF - 3; next } { for (i = 1; i <= n; i++) t[i] += $(i + 2) }
			END { printf "total verification time per run, %s (us):", k; for (i = 1; i <= n; i++) printf " %d", t[i]; print "" }' \
			"$BUILD/$k/durations.csv"
	done >>"$RESULTS_DIR/table.md"
fi
if [ -n "$VERISTAT_LOG" ]; then
	awk -v lvl="$VERISTAT_LOG" 'FNR == NR { h[$1 " " $2] = $3 " " $4; next }
		{ n++; if (h[$1 " " $2] == $3 " " $4) same++; else diff = diff " " $1 "/" $2 }
		END { printf "verifier logs at level %d, normalized: %d of %d programs identical (line count and sha256)%s\n", lvl, same, n, diff ? "; differ:" diff : "" }' \
		"$RESULTS_DIR/loghash-baseline.txt" "$RESULTS_DIR/loghash-patched.txt" >>"$RESULTS_DIR/table.md"
fi

cat "$RESULTS_DIR/table.md"
echo
cat "$RESULTS_DIR/meta.txt"
log "veristat: results in $RESULTS_DIR ($(($(date +%s) - start)) s)"
[ "$failed" = 0 ] || die "veristat: a scheduler's program failed verification, or a verdict differs between the kernels (see table.md)"
