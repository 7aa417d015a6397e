#!/usr/bin/env bash
# Where are the vCPUs of a guest that stopped talking? Asked through the
# QEMU human monitor that run-qemu.sh attaches to a pipe chardev, before it
# kills a guest that timed out: a hung guest often cannot print anything
# itself (both CPUs spinning with interrupts off, or the console stuck).
#
#   qemu-hang-snapshot.sh MONDIR [SYSTEM_MAP]
#
# MONDIR holds the monitor's FIFOs (mon.in, mon.out) and monitor.log, which
# a reader in run-qemu.sh fills from mon.out. Prints, per vCPU:
#   cpuN: rip SYM+0xOFF [halted] | ...   three samples, 1 s apart: the same
#                                        spot every time means spinning or
#                                        stuck, "halted" means idle
#   cpuN: stack SYM+0xOFF ...            words on the kernel stack that point
#                                        into kernel text, nearest first: a
#                                        guess at the call chain, like the
#                                        "?" lines of a kernel backtrace
# Without SYSTEM_MAP (or for addresses outside the kernel's text) the raw
# address is printed. Exit 1 if the monitor did not answer.
set -euo pipefail
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || {
	echo "usage: $0 MONDIR [SYSTEM_MAP]" >&2
	exit 2
}
mondir=$1 map=${2:-}
[ -n "$map" ] && [ ! -r "$map" ] && map=""

# mon CMD...: send monitor commands, return their output (the log grown
# since) once the monitor has printed a new "(qemu)" prompt after each of
# them (at most 15 s: a busy single-threaded TCG guest answers slowly).
mon() {
	local start i
	start=$(wc -c <"$mondir/monitor.log")
	# QEMU holds the FIFO open read-write, so this open does not block
	# while QEMU lives; the timeout covers a QEMU that just died.
	# shellcheck disable=SC2016 # $1 and $@ are the inner bash's
	timeout 5 bash -c 'printf "%s\n" "${@:2}" >"$1"' _ "$mondir/mon.in" "$@" || return 1
	for i in $(seq 60); do
		sleep 0.25
		[ "$(tail -c +"$((start + 1))" "$mondir/monitor.log" | grep -c '(qemu)')" -ge $# ] && break
	done
	# readline echoes the typed command with escape codes: drop them.
	tail -c +"$((start + 1))" "$mondir/monitor.log" | tr -d '\r' | sed 's/\x1b\[[0-9;]*[A-Za-z]//g'
}

# symbolize: hex addresses (one a line) -> SYM+0xOFF, or the address for
# anything outside the kernel's text ([_stext, _etext) and its init text,
# a guest still booting). Addresses compare as fixed-width hex
# strings (awk's numbers are doubles), offsets from the low 32 bits.
symbolize() {
	if [ -z "$map" ]; then
		sed 's/^/0x/'
		return
	fi
	awk '
		function hex32(s,   i, v) { s = substr(s, length(s) - 7); v = 0
			for (i = 1; i <= 8; i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		FILENAME == ARGV[1] {
			if ($3 == "_stext") lo = $1
			if ($3 == "_etext") hi = $1
			if ($3 == "_sinittext") ilo = $1
			if ($3 == "_einittext") ihi = $1
			if ($2 ~ /^[TtWw]$/) { n++; a[n] = $1; s[n] = $3 }
			next }
		{ x = tolower($1); sub(/^0x/, "", x)
		  while (length(x) < 16) x = "0" x
		  if (!(lo != "" && x >= lo && x < hi) && !(ilo != "" && x >= ilo && x < ihi)) { print "0x" x; next }
		  l = 1; h = n
		  while (l < h) { m = int((l + h + 1) / 2); if (a[m] <= x) l = m; else h = m - 1 }
		  printf "%s+0x%x\n", s[l], hex32(x) - hex32(a[l]) }
	' "$map" -
}

regs=()
for i in 1 2 3; do
	[ "$i" = 1 ] || sleep 1
	out=$(mon "info registers -a") || {
		echo "hang snapshot: the QEMU monitor did not take a command"
		exit 1
	}
	regs+=("$out")
done
# CPU#N blocks: "N RIP RSP HLT" per vCPU and sample.
parse() {
	awk '/^CPU#[0-9]+/ { c = substr($1, 5) }
	     /RSP=/ { sub(/.*RSP=/, ""); rsp[c] = $1 }
	     /^RIP=/ { r = substr($1, 5); h = ($0 ~ /HLT=1/); print c, r, rsp[c], h }'
}
ncpu=$(parse <<<"${regs[0]}" | wc -l)
if [ "$ncpu" = 0 ]; then
	echo "hang snapshot: no registers in the monitor's answer: $(head -c 300 <<<"${regs[0]}")"
	exit 1
fi
echo "hang snapshot: QEMU monitor, $ncpu vCPU(s), 3 samples 1 s apart${map:+, symbols from $map}"
for c in $(parse <<<"${regs[0]}" | cut -d' ' -f1); do
	line="cpu$c: rip"
	for i in "${!regs[@]}"; do
		rip="" hlt=""
		read -r _ rip _ hlt < <(parse <<<"${regs[i]}" | awk -v c="$c" '$1 == c') || true
		if [ -z "$rip" ]; then
			line="$line $([ "$i" = 0 ] || echo "|") (no answer)"
			continue
		fi
		[ "$i" = 0 ] || line="$line |"
		line="$line $(symbolize <<<"$rip")"
		[ "$hlt" != 1 ] || line="$line (halted)"
	done
	echo "$line"
	# the stack of the latest sample that answered
	rsp=""
	for i in 2 1 0; do
		read -r _ _ rsp _ < <(parse <<<"${regs[i]}" | awk -v c="$c" '$1 == c') || true
		[ -z "$rsp" ] || break
	done
	# 64 words of stack, the kernel-text ones in order, consecutive
	# duplicates folded: a user-mode RSP gives an empty list.
	stack=$(mon "cpu $c" "x/64gx 0x$rsp" |
		awk '/^[0-9a-f]+: / { for (i = 2; i <= NF; i++) print $i }' |
		{ grep -i '^0xffffffff8' || true; } | symbolize | grep -v '^0x' | uniq | head -n 20 | paste -sd' ' -) || true
	echo "cpu$c: stack ${stack:-(no kernel text addresses in 64 words at rsp 0x$rsp)}"
done
