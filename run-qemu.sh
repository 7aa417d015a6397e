#!/usr/bin/env bash
# Boot a kernel + initramfs headless in QEMU and turn what happened into an
# exit status: the guest payload's own status, or a distinct code for each
# way a kernel run goes wrong (see usage). The serial console goes to stdout
# and to a log file, which is always kept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/scripts/lib.sh"

usage() {
	cat <<'USAGE'
Usage: run-qemu.sh --kernel BZIMAGE --initrd INITRAMFS [options]

Boots headless (serial console on stdout and in the log), -no-reboot and
panic=-1, so a guest reboot or panic ends QEMU. The guest's /init prints
"SCX-GUEST-EXIT: <status>" when its payload is done.

Options:
  --kernel FILE      bzImage to boot (required)
  --initrd FILE      initramfs to boot (required)
  --append STR       extra kernel command line (after console=ttyS0 panic=-1)
  --log FILE         console log (default: ./qemu-console.log)
  --timeout SECS     give up if no exit marker after SECS (default 600;
                     0 = none; ignored with --interactive)
  --smp N            vCPUs (default 2)
  --memory SIZE      guest RAM (default 2G)
  --accel MODE       auto|kvm|tcg (default auto: probe KVM, else TCG)
  --icount           deterministic guest time: -icount shift=0,sleep=off
                     (TCG only; for benchmarks)
  --interactive      console on this terminal (Ctrl-A x quits QEMU)
  --system-map FILE  symbols for the vCPU snapshot taken on a timeout
                     (default: System.map of the tree the bzImage is in)
  --plugin SPEC      a TCG plugin, as QEMU's -plugin takes it
                     (bench/insn-profile.sh counts instructions with one)
  -h, --help         this text

Exit status:
  0-63  the guest payload's exit status (values above 63 are reported as 63)
  64    usage error (bad option, missing kernel/initrd file)
  65    QEMU failed to start, or --accel kvm requested and KVM does not work
  66    QEMU stopped before the guest printed its exit marker (no splat seen)
  70    kernel panic
  71    kernel Oops
  72    kernel BUG
  73    kernel WARNING
  74    lockdep report
  75    KASAN/KFENCE/UBSAN report
  76    RCU stall
  77    hung task or soft/hard lockup
  78    timeout: no exit marker within --timeout seconds; before QEMU is
        stopped, the QEMU monitor is asked where each vCPU is
        (scripts/qemu-hang-snapshot.sh, kept next to the log)
  79    sched_ext stall: the watchdog ejected a BPF scheduler
A splat wins over the guest status: a run that printed a WARNING and then
exited 0 still exits 73. Splat patterns: scripts/splat-patterns.txt; known,
understood splats listed in scripts/known-splats.txt, and those a test
provokes on purpose (scripts/expected-splats.txt), are only noted.
USAGE
}

kernel="" initrd="" append="" why="" logf="./qemu-console.log" timeout=600
smp=2 memory=2G accel=auto icount=0 interactive=0 sysmap="" plugin=""
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:-} && shift ;;
	--initrd) initrd=${2:-} && shift ;;
	--append) append=${2:-} && shift ;;
	--log) logf=${2:-} && shift ;;
	--timeout) timeout=${2:-} && shift ;;
	--smp) smp=${2:-} && shift ;;
	--memory) memory=${2:-} && shift ;;
	--accel) accel=${2:-} && shift ;;
	--icount) icount=1 ;;
	--interactive) interactive=1 ;;
	--system-map) sysmap=${2:-} && shift ;;
	--plugin) plugin=${2:-} && shift ;;
	-h | --help) usage && exit 0 ;;
	*) echo "run-qemu.sh: unknown option '$1' (see --help)" >&2 && exit 64 ;;
	esac
	shift
done

usage_error() {
	echo "run-qemu.sh: $* (see --help)" >&2
	exit 64
}
{ [ -n "$kernel" ] && [ -f "$kernel" ]; } || usage_error "--kernel: no such file '${kernel}'"
{ [ -n "$initrd" ] && [ -f "$initrd" ]; } || usage_error "--initrd: no such file '${initrd}'"
[[ $timeout =~ ^[0-9]+$ ]] || usage_error "--timeout wants seconds, got '$timeout'"
[[ $smp =~ ^[1-9][0-9]*$ ]] || usage_error "--smp wants a count, got '$smp'"
case "$accel" in auto | kvm | tcg) ;; *) usage_error "--accel wants auto|kvm|tcg, got '$accel'" ;; esac
[ "$icount" = 0 ] || [ "$accel" != kvm ] || usage_error "--icount needs TCG, not --accel kvm"
mkdir -p "$(dirname "$logf")"
# More vCPUs than the kernel supports would boot silently with fewer.
kconfig=$(dirname "$kernel")/../../../.config
nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$kconfig" 2>/dev/null || true)
[ -z "$nr_cpus" ] || [ "$smp" -le "$nr_cpus" ] ||
	usage_error "--smp $smp: this kernel supports at most $nr_cpus CPUs (CONFIG_NR_CPUS in $kconfig)"
[ -n "$sysmap" ] || sysmap=$(dirname "$kernel")/../../../System.map
[ -r "$sysmap" ] || sysmap=""
snapf=${logf%.log}.hang-snapshot.txt

# KVM: /dev/kvm existing is not enough (on these machines -cpu host aborts
# and other models hang in firmware), so boot the real kernel with a
# command line that panics right after the banner and see if it gets there
# quickly. The answer is cached per host boot and QEMU version.
KVM_CPU="host"
kvm_works() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	# shellcheck disable=SC2155 # the cache's name is best effort: a failed part must not fail the probe
	local cache="$CACHE_DIR/kvm-probe.$(cat /proc/sys/kernel/random/boot_id 2>/dev/null).$(qemu-system-x86_64 --version | head -1 | tr -cd '0-9.')"
	if [ -f "$cache" ]; then
		[ "$(cat "$cache")" = yes ]
		return
	fi
	local plog ok=no
	plog=$(mktemp)
	# The group's redirection also catches bash's "Aborted" report of a
	# QEMU that dies on SIGABRT (the MSR assertion).
	{ timeout -k 2 15 qemu-system-x86_64 -accel kvm -cpu "$KVM_CPU" -m 256M -smp 1 \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$plog" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 root=/dev/scx-kvm-probe" \
		</dev/null >/dev/null 2>&1 || true; } 2>/dev/null
	grep -q "Linux version" "$plog" && ok=yes
	rm -f "$plog"
	mkdir -p "$CACHE_DIR" && echo "$ok" >"$cache"
	[ "$ok" = yes ]
}

case "$accel" in
kvm)
	kvm_works || {
		echo "run-qemu: FAIL (exit 65): --accel kvm requested but KVM does not boot a kernel here; use --accel tcg or auto" >&2
		exit 65
	}
	;;
auto)
	if [ "$icount" = 1 ]; then
		why="--icount needs TCG"
		accel=tcg
	elif kvm_works; then
		accel=kvm
	else
		why="KVM probe failed: no usable /dev/kvm, or QEMU could not boot the kernel with it"
		accel=tcg
	fi
	;;
tcg) why="--accel tcg" ;;
esac

if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu "$KVM_CPU")
	log "qemu: using KVM"
elif [ "$icount" = 1 ]; then
	# icount needs the single-threaded TCG.
	# shellcheck disable=SC2054 # the commas are inside QEMU option values
	accel_args=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off)
	log "qemu: using TCG with -icount shift=0,sleep=off (${why:-})"
else
	# shellcheck disable=SC2054 # the commas are inside QEMU option values
	accel_args=(-accel tcg,thread=multi -cpu max)
	log "qemu: using TCG (${why:-})"
fi

cmdline="console=ttyS0,115200 panic=-1 $append"
# The console is a chardev on stdio that also writes the log file. In
# interactive mode it is multiplexed with the monitor (Ctrl-A x quits) and
# Ctrl-C goes to the guest.
if [ "$interactive" = 1 ]; then
	serial_args=(-chardev "stdio,id=con,mux=on,signal=off,logfile=$logf" -serial chardev:con -mon chardev=con)
else
	# The monitor on a FIFO pair, read into monitor.log, for the vCPU
	# snapshot of a guest that times out.
	mondir=$(mktemp -d)
	mkfifo "$mondir/mon.in" "$mondir/mon.out"
	: >"$mondir/monitor.log"
	# shellcheck disable=SC2054 # the commas are inside QEMU option values
	serial_args=(-chardev "stdio,id=con,logfile=$logf" -serial chardev:con
		-chardev "pipe,id=mon,path=$mondir/mon" -mon chardev=mon,mode=readline)
fi
: >"$logf"
rm -f "$snapf"
# One socket per vCPU: the lean kernel has no ACPI, so it finds CPUs in
# SeaBIOS's MP table, which lists only the first CPU of each socket.
qemu=(qemu-system-x86_64 "${accel_args[@]}" -smp "$smp,sockets=$smp,cores=1,threads=1" -m "$memory"
	-nodefaults -no-user-config -display none -no-reboot
	"${serial_args[@]}" -kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	${plugin:+-plugin "$plugin"})
log "qemu: console log $logf"

start=$(date +%s)
qemu_rc=0 timed_out=0
if [ "$interactive" = 1 ]; then
	"${qemu[@]}" || qemu_rc=$?
else
	"${qemu[@]}" </dev/null &
	qpid=$!
	cat "$mondir/mon.out" >>"$mondir/monitor.log" &
	mpid=$!
	# If we are interrupted or killed, do not leave QEMU running.
	trap 'kill "$qpid" "$mpid" 2>/dev/null || true; rm -rf "$mondir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	# Poll instead of `timeout`: stop early once the guest is done or
	# dead, and give a guest that printed its marker a moment to reboot.
	marker_at=0
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		if [ "$marker_at" = 0 ] && grep -q 'SCX-GUEST-EXIT: ' "$logf"; then
			marker_at=$now
		fi
		if [ "$marker_at" != 0 ] && [ $((now - marker_at)) -gt 20 ]; then
			warn "guest printed its exit marker but did not power off; stopping QEMU"
			kill "$qpid" 2>/dev/null || true
			break
		fi
		if [ "$timeout" != 0 ] && [ "$marker_at" = 0 ] && [ $((now - start)) -ge "$timeout" ]; then
			timed_out=1
			"$here/scripts/qemu-hang-snapshot.sh" "$mondir" "$sysmap" >"$snapf" 2>&1 || true
			sed 's/^/run-qemu: /' "$snapf"
			kill "$qpid" 2>/dev/null || true
			break
		fi
	done
	wait "$qpid" 2>/dev/null || qemu_rc=$?
fi
elapsed=$(($(date +%s) - start))

# Verdict. Order: splat (the most specific cause), then the guest's marker,
# then timeout / early stop / QEMU failure.
status_line() { printf '\nrun-qemu: %s\n' "$*"; }
known=$("$here/scripts/detect-splat.sh" --known "$logf")
if [ -n "$known" ]; then
	printf '\nrun-qemu: note: %s known splat(s) ignored (scripts/known-splats.txt): %s\n' \
		"$(wc -l <<<"$known")" "$(cut -f2 <<<"$known" | sort -u | paste -sd';' -)"
fi
expected=$("$here/scripts/detect-splat.sh" --expected "$logf")
if [ -n "$expected" ]; then
	printf '\nrun-qemu: note: %s splat line(s) provoked on purpose by a test (scripts/expected-splats.txt): %s\n' \
		"$(wc -l <<<"$expected")" "$(cut -f2 <<<"$expected" | sort -u | paste -sd';' -)"
fi
if splat=$("$here/scripts/detect-splat.sh" "$logf"); then
	IFS=$'\t' read -r line code kind advice test text <<<"$splat"
	status_line "FAIL (exit $code): $kind at $logf:$line while running $test: ${text#*] } -- $advice"
	exit "$code"
fi
marker=$(tr -d '\r' <"$logf" | sed -n 's/.*SCX-GUEST-EXIT: \([0-9][0-9]*\).*/\1/p' | tail -1)
if [ -n "$marker" ]; then
	rc=$marker
	[ "$rc" -le 63 ] || rc=63
	if [ "$rc" = 0 ]; then
		status_line "guest payload exited 0 after ${elapsed}s ($accel; log: $logf)"
	else
		status_line "guest payload exited $marker after ${elapsed}s: look at its output in $logf ($accel)"
	fi
	exit "$rc"
fi
if [ "$timed_out" = 1 ]; then
	status_line "FAIL (exit 78): no exit marker after ${timeout}s: guest hung or is too slow; see the end of $logf and where the vCPUs were in $snapf; rerun with a larger --timeout or debug with --interactive"
	exit 78
fi
if [ ! -s "$logf" ] && [ "$qemu_rc" != 0 ]; then
	status_line "FAIL (exit 65): QEMU failed to start (status $qemu_rc); run the command by hand to see why: ${qemu[*]}"
	exit 65
fi
status_line "FAIL (exit 66): QEMU stopped (status $qemu_rc) after ${elapsed}s before the guest printed SCX-GUEST-EXIT; see the end of $logf (did /init crash or reboot early?)"
exit 66
