#!/usr/bin/env bash
# run-qemu.sh and ktap-report.sh on broken input: each case must end with a
# clear message, a non-zero exit and the console log kept. Boots the real
# patched bzImage (HARNESS_KERNEL) with small initramfs images built by
# initramfs/build-initramfs.sh, one vCPU under TCG: a few seconds each.
#
#   panic:    /init exits at once -> "Kernel panic - not syncing: Attempted
#             to kill init", run-qemu exit 70
#   hang:     /init sleeps forever, a short --timeout -> exit 78, and the
#             QEMU monitor's snapshot of where the vCPUs were (idle, and
#             /init spinning in a loop)
#   no payload: the initramfs without build-payload.sh's output -> the
#             suites say the runner is missing, non-zero exit
#   unknown payload: scx.payload=nosuch -> init's message, exit 127->63
#   fake kernel: a file that is not a kernel -> QEMU cannot start, exit 65
#   no initrd: a missing --initrd -> usage error, exit 64
#
# First, without QEMU or a build, what `make kernel` checks before building
# (one line each, non-zero exit): a KERNEL_TARBALL of another kernel
# version, not a kernel or missing (scripts/check-tarball.sh, on small fake
# tarballs); a CACHE_DIR that cannot be created, is a file, read-only or
# full (scripts/check-cache-dir.sh; as root, so: /proc paths, and a
# read-only bind and a 64 KiB tmpfs in a private mount namespace).
#
# Env: HARNESS_KERNEL (default: the cached patched bzImage),
# HARNESS_QEMU_ARGS (default: --accel tcg --smp 1 --memory 512M),
# HARNESS_APPEND (kernel command line for every boot, e.g. no5lvl),
# HARNESS_NO_QEMU=1 (only the cases that start no QEMU).
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
: "${CACHE_DIR:=$HOME/.cache/scx-kfilter}"
kernel=${HARNESS_KERNEL:-$CACHE_DIR/build/core/arch/x86/boot/bzImage}
read -r -a qargs <<<"${HARNESS_QEMU_ARGS:---accel tcg --smp 1 --memory 512M}"
tmp=$(mktemp -d)
took=0 # seconds the last run_case took
# A failed case keeps its logs (a real splat in them must not be lost).
trap 'if [ "$_failed" = 0 ]; then rm -rf "$tmp"; else echo "# logs of this run kept in $tmp"; fi' EXIT

# run_case NAME WANT_RC WANT_MSG_REGEX QEMU_OPTS...: run-qemu.sh's exit
# status, its last line (the verdict) and the kept log.
run_case() {
	local name=$1 want_rc=$2 want_msg=$3
	shift 3
	local log="$tmp/$name.log" rc=0 t0=$SECONDS
	"$top/run-qemu.sh" --log "$log" "${qargs[@]}" --append "${HARNESS_APPEND:-}" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	took=$((SECONDS - t0))
	echo "# $name: run-qemu exit $rc after $took s: $(grep -E '^run-qemu: ' "$tmp/$name.out" | tail -1)"
	check "$name:exit-$want_rc" "run-qemu exited $rc, want $want_rc; its output: $(tail -3 "$tmp/$name.out")" \
		test "$rc" = "$want_rc"
	check "$name:clear-message" "no line matching '$want_msg' in run-qemu's output: $(tail -3 "$tmp/$name.out")" \
		grep -qE "$want_msg" "$tmp/$name.out"
}

# one_line_failure NAME WANT_REGEX CMD...: CMD exits non-zero and says so
# in exactly one line matching WANT_REGEX
one_line_failure() {
	local name=$1 want=$2 rc=0 out
	shift 2
	out=$("$@" 2>&1) || rc=$?
	echo "# $name: exit $rc: $out"
	check "$name" "want a non-zero exit and one line matching '$want', got exit $rc and: $out" \
		bash -c '[ "$1" != 0 ] && [ "$(wc -l <<<"$2")" = 1 ] && grep -qE -- "$3" <<<"$2"' _ "$rc" "$out" "$want"
}

# A kernel tarball of another version, not a kernel, or missing: small fake
# tarballs with a top-level Makefile like the kernel's.
faketar() { # NAME VERSION PATCHLEVEL SUBLEVEL
	mkdir -p "$tmp/tar/$1"
	printf '%s\n' "# SPDX-License-Identifier: GPL-2.0" "VERSION = $2" "PATCHLEVEL = $3" \
		"SUBLEVEL = $4" "EXTRAVERSION =" >"$tmp/tar/$1/Makefile"
	tar -cJf "$tmp/$1.tar.xz" -C "$tmp/tar" "$1"
}
faketar linux-6.13.2 6 13 2
faketar linux-6.12.9 6 12 9
mkdir -p "$tmp/tar/not-a-kernel" && echo hello >"$tmp/tar/not-a-kernel/README"
tar -cJf "$tmp/not-a-kernel.tar.xz" -C "$tmp/tar" not-a-kernel
tarball() { KERNEL_TARBALL=$1 "$top/scripts/check-tarball.sh"; }
one_line_failure tarball:other-version "KERNEL_TARBALL=.*linux-6\.13\.2\.tar\.xz is Linux 6\.13\.2 .*want Linux 6\.12.*apt-get install linux-source-6\.12" \
	tarball "$tmp/linux-6.13.2.tar.xz"
one_line_failure tarball:not-a-kernel "KERNEL_TARBALL=.*: found no kernel top-level Makefile.*want a Linux 6\.12" \
	tarball "$tmp/not-a-kernel.tar.xz"
one_line_failure tarball:missing "KERNEL_TARBALL=.*/no-such\.tar\.xz: no such file" tarball "$tmp/no-such.tar.xz"
rc=0 && out=$(tarball "$tmp/linux-6.12.9.tar.xz" 2>&1) || rc=$?
check tarball:right-version-passes "a 6.12.9 tarball: exit $rc: $out" test "$rc" = 0 -a -z "$out"
# make kernel runs both checks before build-kernel.sh (make -n: nothing
# runs); the tarball's goes through kernel-source.sh (check-tarball.sh, or
# KSRC's check with KSRC=), whose output build-kernel.sh gets
order=$(make -C "$top" -n kernel 2>/dev/null | grep -oE 'scripts/(check-cache-dir|kernel-source|build-kernel)\.sh' | paste -sd' ' -)
check make-kernel-checks-first "make -n kernel runs: '$order'" \
	test "$order" = "scripts/check-cache-dir.sh scripts/kernel-source.sh scripts/build-kernel.sh"
one_line_failure kernel-source:other-version "KERNEL_TARBALL=.*linux-6\.13\.2\.tar\.xz is Linux 6\.13\.2 " \
	env -u KSRC KERNEL_TARBALL="$tmp/linux-6.13.2.tar.xz" "$top/scripts/kernel-source.sh"
# make check-one (what make check runs per kernel) checks CACHE_DIR before
# its own mkdir, so a bad one gets the same line, not mkdir's. Read from the
# Makefile: make -n would still run check-one's $(MAKE) lines.
first=$(awk '/^check-one:/ { getline; sub(/^\t@?/, ""); print; exit }' "$top/Makefile")
check make-check-one-checks-cache-first "make -n check-one starts with: '$first'" \
	test "$first" = "scripts/check-cache-dir.sh"

# A CACHE_DIR that cannot hold the cache. As root, chmod does not stop a
# write: use paths the kernel refuses, and real read-only/full mounts.
cachedir() { CACHE_DIR=$1 "$top/scripts/check-cache-dir.sh"; }
one_line_failure cache-dir:cannot-create "CACHE_DIR=/proc/scx-no-such/cache cannot be created" cachedir /proc/scx-no-such/cache
echo "a file" >"$tmp/a-file"
one_line_failure cache-dir:a-file "CACHE_DIR=$tmp/a-file is not a directory" cachedir "$tmp/a-file"
one_line_failure cache-dir:not-writable "CACHE_DIR=/proc/self is not writable" cachedir /proc/self
mkdir -p "$tmp/mnt"
if unshare -m true 2>/dev/null; then
	one_line_failure cache-dir:read-only "CACHE_DIR=$tmp/mnt/cache is not writable \(Read-only file system\)" \
		unshare -m bash -c 'mkdir -p "$2/mnt/cache" && mount --bind "$2/mnt" "$2/mnt" &&
			mount -o remount,bind,ro "$2/mnt" && CACHE_DIR=$2/mnt/cache "$1/scripts/check-cache-dir.sh"' _ "$top" "$tmp"
	one_line_failure cache-dir:full "CACHE_DIR=$tmp/mnt/cache is full \(No space left on device" \
		unshare -m bash -c 'mount -t tmpfs -o size=64k scx-full "$2/mnt" &&
			CACHE_DIR=$2/mnt/cache "$1/scripts/check-cache-dir.sh"' _ "$top" "$tmp"
else
	skip cache-dir:read-only "unshare -m does not work here (no private mount namespace for a read-only bind)"
	skip cache-dir:full "unshare -m does not work here (no private mount namespace for a small tmpfs)"
fi
rc=0 && out=$(cachedir "$tmp/cache" 2>&1) || rc=$?
check cache-dir:writable-passes "exit $rc: $out; left: $(ls -A "$tmp/cache" 2>&1)" \
	test "$rc" = 0 -a -z "$out" -a -z "$(ls -A "$tmp/cache")"

if [ -n "${HARNESS_NO_QEMU:-}" ]; then
	skip qemu-cases "HARNESS_NO_QEMU=1: the cases that start QEMU did not run"
	done_testing
	exit
fi

# A missing --initrd and a fake kernel need no real kernel.
echo "not a kernel" >"$tmp/fake-bzImage"
: >"$tmp/empty.cpio"
run_case no-initrd 64 'run-qemu.sh: --initrd: no such file' \
	--kernel "$tmp/fake-bzImage" --initrd "$tmp/no-such.cpio"
run_case fake-kernel 65 'FAIL \(exit 65\): QEMU failed to start' \
	--kernel "$tmp/fake-bzImage" --initrd "$tmp/empty.cpio" --timeout 30

no_boot kernel-boots "five boots of the patched kernel: panic, hang, spin, no payload, unknown payload (about 85 s)" && { done_testing; exit; }
if [ ! -f "$kernel" ]; then
	for c in panic hang spin no-payload unknown-payload; do
		skip "$c" "no kernel at $kernel (make kernel, or set HARNESS_KERNEL)"
	done
	done_testing
	exit
fi
tree=$(cd "$(dirname "$kernel")/../../.." && pwd)

# initramfs NAME [INIT_SCRIPT]: the project's initramfs, without a payload,
# with /init replaced by INIT_SCRIPT if given.
initramfs() {
	local over=()
	if [ -n "${2:-}" ]; then
		mkdir -p "$tmp/$1.root"
		printf '%s\n' "#!/bin/sh" "$2" >"$tmp/$1.root/init"
		chmod 755 "$tmp/$1.root/init"
		over=("$tmp/$1.root")
	fi
	"$top/initramfs/build-initramfs.sh" "$tree" "$tmp/$1.cpio" "${over[@]}" 2>"$tmp/$1.build" ||
		{ cat "$tmp/$1.build" >&2 && return 1; }
}

initramfs panic 'echo "harness: /init exits now"; exit 0'
run_case panic 70 'FAIL \(exit 70\): kernel panic at .*Attempted to kill init' \
	--kernel "$kernel" --initrd "$tmp/panic.cpio" --timeout 120
check "panic:log-kept" "the console log lacks the panic" \
	grep -q 'Kernel panic - not syncing: Attempted to kill init' "$tmp/panic.log"
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 70 "$tmp/panic.log" >"$tmp/panic.ktap" || rc=$?
check "panic:report-fails" "ktap-report exit $rc; $(tail -2 "$tmp/panic.ktap")" \
	bash -c '[ "$1" != 0 ] && grep -q "^ *not ok .*host:console-free-of-splats # kernel panic" "$2" && tail -1 "$2" | grep -qE "^[0-9]+ passed, [1-9][0-9]* failed"' _ "$rc" "$tmp/panic.ktap"

# The timeout should outlast the boot (a KASAN kernel, or a loaded host,
# boots slower): three times what the panic case took, plus 10 s.
hang_to=$((took * 3 + 10))
initramfs hang 'echo "harness: /init hangs now"; while :; do sleep 60; done'
run_case hang 78 "FAIL \\(exit 78\\): no exit marker after ${hang_to}s" \
	--kernel "$kernel" --initrd "$tmp/hang.cpio" --timeout "$hang_to"
check "hang:log-kept" "the console log lacks the boot" grep -q 'Linux version' "$tmp/hang.log"
# Where the vCPUs were, from the QEMU monitor, symbolized with the tree's
# System.map: the hung /init sleeps, so some vCPU sample is in kernel text.
check "hang:vcpu-snapshot" "no symbolized 'cpu0: rip' line in $tmp/hang.hang-snapshot.txt: $(head -c 400 "$tmp/hang.hang-snapshot.txt" 2>&1)" \
	grep -qE '^cpu0: rip [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+' "$tmp/hang.hang-snapshot.txt"
check "hang:snapshot-printed" "run-qemu did not print the snapshot" grep -q '^run-qemu: cpu0: stack ' "$tmp/hang.out"
# A guest that spins (not halted: the snapshot once died on that path
# under set -e and printed only its header) still gets both lines.
initramfs spin 'echo "harness: /init spins now"; while :; do :; done'
run_case spin 78 "FAIL \\(exit 78\\): no exit marker after ${hang_to}s" \
	--kernel "$kernel" --initrd "$tmp/spin.cpio" --timeout "$hang_to"
check "spin:vcpu-snapshot" "no cpu0 rip and stack lines in $tmp/spin.hang-snapshot.txt: $(head -c 400 "$tmp/spin.hang-snapshot.txt" 2>&1)" \
	bash -c 'grep -q "^cpu0: rip " "$1" && grep -q "^cpu0: stack " "$1"' _ "$tmp/spin.hang-snapshot.txt"
# Informational: a slow boot may time out before /init (still a hang to
# the harness).
grep -q 'harness: /init hangs now' "$tmp/hang.log" || echo "# hang: timed out before /init ran (slow boot)"
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 78 "$tmp/hang.log" >"$tmp/hang.ktap" || rc=$?
check "hang:report-fails" "ktap-report exit $rc; $(tail -2 "$tmp/hang.ktap")" \
	bash -c '[ "$1" != 0 ] && grep -q "^ *not ok .*host:guest-exit-marker # no SCX-GUEST-EXIT line: timeout" "$2"' _ "$rc" "$tmp/hang.ktap"

initramfs no-payload
run_case no-payload 1 'guest payload exited 1' \
	--kernel "$kernel" --initrd "$tmp/no-payload.cpio" --timeout 300 --append "${HARNESS_APPEND:-} scx.payload=check"
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 1 "$tmp/no-payload.log" >"$tmp/no-payload.ktap" || rc=$?
check "no-payload:report-names-it" "ktap-report exit $rc; $(grep '^ *not ok' "$tmp/no-payload.ktap")" \
	bash -c '[ "$1" != 0 ] && grep -q "^ *not ok .*scx-selftest:runner-present" "$2"' _ "$rc" "$tmp/no-payload.ktap"
check "no-payload:log-kept" "the console log lacks the reason" grep -q 'runner not in the initramfs' "$tmp/no-payload.log"
# The project's suites are wanted by the check payload: missing ones fail.
for suite in selftests sched-load; do
	check "no-payload:$suite-missing-fails" "$(grep "$suite" "$tmp/no-payload.ktap" | head -3)" \
		grep -q "^ *not ok .*$suite # /$suite/run-guest.sh is not in the initramfs" "$tmp/no-payload.ktap"
done

run_case unknown-payload 63 'guest payload exited 127' \
	--kernel "$kernel" --initrd "$tmp/no-payload.cpio" --timeout 120 --append "${HARNESS_APPEND:-} scx.payload=nosuch"
check "unknown-payload:log-kept" "the console log lacks init's message" \
	grep -q "init: unknown payload 'nosuch'" "$tmp/unknown-payload.log"

done_testing
