#!/usr/bin/env bash
# Verification cost as BPF maintainers read it: veristat, built from each
# kernel tree's tools/testing/selftests/bpf/veristat.c against that tree's
# libbpf (static, for the busybox guest), run inside each kernel's guest on
# the tree's scx_simple, scx_qmap, scx_central and scx_flatcg BPF objects.
# Per program: verdict, verified instructions, states, peak states and
# verification time, baseline and patched side by side.
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
#   QEMU_ARGS           extra run-qemu.sh options
# Exit status: 0 when both guests ran veristat on every object and every
# program verified; non-zero otherwise (the reason on stderr).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
. "$repo/scripts/lib.sh"

[ $# -eq 0 ] || [ $# -eq 2 ] || die "usage: $0 [BASELINE_TREE PATCHED_TREE]"
two_trees "${1:-$CACHE_DIR/build/baseline}" "${2:-$CACHE_DIR/build/patched}"
kernels=(baseline patched)
scheds=(scx_simple scx_qmap scx_central scx_flatcg)

BUILD=${VERISTAT_BUILD_DIR:-$CACHE_DIR/veristat-build}
RESULTS_DIR=${RESULTS_DIR:-$here/results/$(date -u +%Y-%m-%d)-veristat}
VERISTAT_TIMEOUT=${VERISTAT_TIMEOUT:-1800}
VERISTAT_REPS=${VERISTAT_REPS:-5}
case "$VERISTAT_REPS" in [1-9] | [1-9][0-9]) ;; *) die "VERISTAT_REPS='$VERISTAT_REPS': want 1-99" ;; esac
VERISTAT_LOG=${VERISTAT_LOG:-}
case "$VERISTAT_LOG" in "" | [0-9]) ;; *) die "VERISTAT_LOG='$VERISTAT_LOG': want a verifier log level 0-9" ;; esac
read -r -a qemu_extra <<<"${QEMU_ARGS:-}"

for k in "${kernels[@]}"; do
	t=${ktree[$k]}
	for f in arch/x86/boot/bzImage vmlinux tools/testing/selftests/bpf/veristat.c \
		tools/lib/bpf/Makefile tools/sched_ext/Makefile; do
		[ -e "$t/$f" ] || die "$k: $t/$f missing (build the kernel first: make kernel$([ "$k" = baseline ] && echo ' BASELINE=1'))"
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
	mkdir -p "$b/libbpf" "$b/sched_ext" "$b/bin"
	log "veristat $k: libbpf from $(basename "$t")/tools/lib/bpf"
	run_logged "$b/libbpf.log" nice -n 10 make -j"$jobs" -C "$t/tools/lib/bpf" \
		OUTPUT="$b/libbpf/" DESTDIR="$b/libbpf-install" prefix= EXTRA_CFLAGS="-O2 -g" \
		"$b/libbpf/libbpf.a" install_headers ||
		die "$k: building libbpf failed; log: $b/libbpf.log"

	# One fix on a copy (the tree stays as built): 6.12's veristat gives
	# every map with max_entries 0 one entry, except the local-storage
	# types, and its list misses BPF_MAP_TYPE_CGRP_STORAGE: scx_flatcg's
	# cgrp_ctx map then fails to create (EINVAL) and none of its programs
	# is verified. The fix adds that type to the list.
	log "veristat $k: veristat (static) from tools/testing/selftests/bpf/veristat.c (+ CGRP_STORAGE fix)"
	mkdir -p "$b/src"
	sed 's/^\(\t*\)case BPF_MAP_TYPE_CGROUP_STORAGE:$/&\n\1case BPF_MAP_TYPE_CGRP_STORAGE:/' \
		"$t/tools/testing/selftests/bpf/veristat.c" >"$b/src/veristat.c"
	[ "$(diff "$t/tools/testing/selftests/bpf/veristat.c" "$b/src/veristat.c" | grep -c '^>')" = 1 ] ||
		die "$k: veristat.c: the BPF_MAP_TYPE_CGRP_STORAGE fix did not apply as one added line (another veristat.c?)"
	run_logged "$b/veristat-build.log" nice -n 10 gcc -O2 -g -Wall -static \
		-I"$b/libbpf-install/include" -I"$t/tools/include" -I"$t/tools/include/uapi" \
		"$b/src/veristat.c" "$b/libbpf/libbpf.a" \
		-lelf -lz -lzstd -lm -o "$b/bin/veristat" ||
		die "$k: building veristat failed; log: $b/veristat-build.log"

	log "veristat $k: ${scheds[*]} BPF objects (tools/sched_ext, LLVM=-19)"
	local targets=()
	for s in "${scheds[@]}"; do targets+=("$b/sched_ext/build/include/$s.bpf.skel.h"); done
	run_logged "$b/sched_ext.log" nice -n 10 make -j"$jobs" -C "$t/tools/sched_ext" \
		O="$b/sched_ext" LLVM=-19 CLANG=clang-19 LLVM_STRIP=llvm-strip-19 \
		VMLINUX_BTF="$t/vmlinux" "${targets[@]}" ||
		die "$k: building the sched_ext BPF objects failed; log: $b/sched_ext.log"

	local ov="$b/overlay"
	rm -rf "$ov"
	mkdir -p "$ov/veristat" "$ov/scx/payloads"
	install -m 0755 "$b/bin/veristat" "$ov/veristat/veristat"
	strip "$ov/veristat/veristat"
	for s in "${scheds[@]}"; do
		install -m 0644 "$b/sched_ext/build/obj/sched_ext/$s.bpf.linked3.o" "$ov/veristat/$s.bpf.o"
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
	sed -n 's/^1,//p' "$b/reps.csv" >"$RESULTS_DIR/veristat-$k.csv"
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
	if [ "$(wc -l <"$RESULTS_DIR/veristat-$k.csv")" -lt 2 ]; then
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
	}' "$b/reps.csv" >"$RESULTS_DIR/durations-$k.csv"
done
[ "$failed" = 0 ] || die "veristat: a guest did not produce its results (see above)"

# 3. Provenance and the side-by-side table.
{
	echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "checkout $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- 2>/dev/null || echo ' (dirty)')"
	for k in "${kernels[@]}"; do
		echo "kernel $k $(basename "${ktree[$k]}"), guest: $(sed -n 's/^init: .*, \([0-9]*\) CPUs,.*/\1 vCPUs/p' "$BUILD/$k/console.txt"), $(grep -o 'Switched to clocksource [a-z_-]*' "$BUILD/$k/console.txt" | tail -1 | sed 's/Switched to //'), $(cat "$BUILD/$k/accel")"
	done
	echo "veristat.c $(sha256sum <"${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" | cut -c1-12) $(cmp -s "${ktree[baseline]}/tools/testing/selftests/bpf/veristat.c" "${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" && echo 'same in both trees' || echo 'DIFFERS between the trees'); built with one line added: $(diff "${ktree[patched]}/tools/testing/selftests/bpf/veristat.c" "$BUILD/patched/src/veristat.c" | sed -n 's/^>[[:space:]]*//p')"
	for s in "${scheds[@]}"; do
		a="$BUILD/baseline/overlay/veristat/$s.bpf.o" p="$BUILD/patched/overlay/veristat/$s.bpf.o"
		src=$(cmp -s "${ktree[baseline]}/tools/sched_ext/$s.bpf.c" "${ktree[patched]}/tools/sched_ext/$s.bpf.c" && echo 'source same' || echo 'source DIFFERS')
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
# duration shown is the median of the runs (durations-<kernel>.csv).
awk -F, -v reps="$VERISTAT_REPS" '
function ratio(a, b) { return a > 0 ? sprintf("%.3f", b / a) : "-" }
FNR == 1 { next }
FILENAME ~ /durations-baseline/ { dbase[$1 SUBSEP $2] = $NF; next }
FILENAME ~ /durations-patched/ { dpat[$1 SUBSEP $2] = $NF; next }
{ key = $1 SUBSEP $2; if (!(key in seen)) { order[++n] = key; seen[key] = 1 } }
FILENAME ~ /veristat-baseline/ { base[key] = $0; next }
{ pat[key] = $0 }
END {
	printf "| scheduler | program | verdict b / p | insns b / p (p/b) | states b / p | peak states b / p | duration us, median of %d, b / p (p/b) |\n", reps
	print "|---|---|---|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		key = order[i]
		split(base[key], b, ","); split(pat[key], p, ",")
		b[4] = dbase[key]; p[4] = dpat[key]
		s = b[1] != "" ? b[1] : p[1]; sub(/\.bpf\.o$/, "", s)
		pr = b[2] != "" ? b[2] : p[2]
		same = (b[5] == p[5] && b[6] == p[6] && b[7] == p[7]) ? "" : " **differs**"
		printf "| %s | %s | %s / %s | %s / %s (%s)%s | %s / %s | %s / %s | %s / %s (%s) |\n", s, pr, b[3], p[3], b[5], p[5], ratio(b[5], p[5]), same, b[6], p[6], b[7], p[7], b[4], p[4], ratio(b[4], p[4])
		if (b[3] != "success" || p[3] != "success") bad++
		for (j = 4; j <= 7; j++) { tb[j] += b[j]; tp[j] += p[j] }
		if (b[5] != p[5] || b[6] != p[6] || b[7] != p[7]) diff++
	}
	printf "| **total** | %d programs | | %d / %d (%s) | %d / %d | %d / %d | %d / %d (%s) |\n", n, tb[5], tp[5], ratio(tb[5], tp[5]), tb[6], tp[6], tb[7], tp[7], tb[4], tp[4], ratio(tb[4], tp[4])
	printf "\nprograms whose insns, states or peak states differ: %d; programs not verified on a kernel: %d\n", diff + 0, bad + 0
	exit (bad > 0)
}' "$RESULTS_DIR/durations-baseline.csv" "$RESULTS_DIR/durations-patched.csv" \
	"$RESULTS_DIR/veristat-baseline.csv" "$RESULTS_DIR/veristat-patched.csv" >"$RESULTS_DIR/table.md" || failed=1

# Run-to-run noise of the durations: the sum over all programs, per run.
for k in "${kernels[@]}"; do
	awk -F, -v k="$k" 'NR == 1 { n = NF - 3; next } { for (i = 1; i <= n; i++) t[i] += $(i + 2) }
		END { printf "total verification time per run, %s (us):", k; for (i = 1; i <= n; i++) printf " %d", t[i]; print "" }' \
		"$RESULTS_DIR/durations-$k.csv"
done >>"$RESULTS_DIR/table.md"
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
[ "$failed" = 0 ] || die "veristat: a program failed verification on a kernel (verdict column above)"
