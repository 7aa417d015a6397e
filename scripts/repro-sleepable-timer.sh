#!/usr/bin/env bash
# The 6.12 verifier hole the core series' backport of upstream 469d638d1520
# ("bpf: Fix sleepable context for async callbacks") closes, reproduced: a
# bpf_timer callback armed by a sleepable program (sched_ext's ops.init(),
# struct_ops.s) is verified as sleepable, so scx_bpf_create_dsq()
# (KF_SLEEPABLE, a GFP_KERNEL allocation) loads in a callback that runs in
# the timer softirq (initramfs/payloads/repro-sleepable-timer.sh,
# selftests/async/create-dsq-from-init-timer.bpf.c). A boot of its own:
# lockdep turns itself off after its first report.
#
#   --expect report  the unpatched debug kernel: it loads and attaches, and
#                    the console holds, in this order (as 6.12.118's debug
#                    kernel prints it, docs/debug-kernel.md): the guest's
#                    "REPRO: loaded"; lockdep's "inconsistent {SOFTIRQ-ON-W}
#                    -> {IN-SOFTIRQ-W} usage.", the "[HC0[0]:SC1[1]:...]
#                    takes:" line (in a softirq) and fs_reclaim as the
#                    lock, and in its stack backtrace the reliable frames
#                    scx_bpf_create_dsq, bpf_prog_<tag>_async_fire (the
#                    callback), bpf_timer_cb, hrtimer_run_softirq; "BUG:
#                    sleeping function called from invalid context" with
#                    the same four frames in its own trace; the guest's
#                    "REPRO: stayed enabled" (the scheduler was not ejected
#                    and the callback's call succeeded); run-qemu.sh's
#                    verdict is the lockdep report (exit 74)
#   --expect refuse  the series kernels: refused at load, "program must be
#                    sleepable to call sleepable kfunc scx_bpf_create_dsq"
#
# Prints one KTAP result line, the matched console lines after its "#"
# (joined by " | "); exit 0 when the kernel did what was expected.
# Usage: repro-sleepable-timer.sh --expect report|refuse --kernel BZIMAGE
#        --initrd INITRAMFS --log LOG [--timeout SECS] [--append STR]
#    or: repro-sleepable-timer.sh --check-log CONSOLE_LOG
#        only the "report" match on a console log already taken (no boot):
#        the matched lines, one a line, exit 0; or why not, exit 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/ktap-write.sh"

kfunc=scx_bpf_create_dsq
# the reliable frames both traces of the report show, innermost first: the
# kfunc, the callback's BPF program, the timer's softirq
chain="$kfunc bpf_prog_[0-9a-f]+_async_fire bpf_timer_cb hrtimer_run_softirq"

# report_lines LOG: the predicted lines of the baseline's report, in order,
# one a line (timestamps dropped); or "MISSING: what" and exit 1.
report_lines() {
	tr -d '\r' <"$1" | awk -v chain="$chain" '
		{ l[NR] = $0 }
		# find(from, to, ere[, not]): the first line in [from, to] matching
		# ere (and not the ere not), 0 if none
		function find(from, to, ere, not,   i) {
			for (i = from; i <= to && i <= NR; i++)
				if (l[i] ~ ere && (not == "" || l[i] !~ not)) return i
			return 0 }
		function strip(s) { sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s); sub(/^ +/, "", s); return s }
		# the end of the report or trace starting at line from: the line before
		# the next guest line, report header or end of trace (at most 150
		# lines; not "INFO: ", which a report prints inside itself, e.g.
		# "INFO: lockdep is turned off.")
		function block_end(from,   i) {
			for (i = from + 1; i <= NR && i < from + 150; i++)
				if (l[i] ~ /REPRO:|^# |---\[ end trace|(BUG|WARNING): /) return i - 1
			return i - 1 }
		function miss(what) { print "MISSING: " what; bad = 1; exit 1 }
		function keep(i) { out[++n] = strip(l[i]) }
		# frames(from, to, list): each " name+0x" of the space-separated
		# list (EREs), in order in [from, to], a reliable frame (not the
		# unwinder'\''s "? name+0x" guesses); the first one missing, or ""
		function frames(from, to, list,   i, k, names) {
			k = split(list, names, " ")
			for (i = 1; i <= k; i++) {
				from = find(from, to, " " names[i] "\\+0x", "\\? " names[i] "\\+0x")
				if (!from) return names[i]
				keep(from)
				from++
			}
			return "" }
		END {
			if (bad) exit 1
			a = find(1, NR, "REPRO: loaded")
			if (!a) miss("the guest line \"REPRO: loaded\" (the program did not load?)")
			keep(a)
			b = find(a + 1, NR, "inconsistent \\{SOFTIRQ-ON-W\\} -> \\{IN-SOFTIRQ-W\\} usage")
			if (!b) miss("lockdep: inconsistent {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W} usage, after REPRO: loaded")
			keep(b)
			c = find(b + 1, NR, "BUG: sleeping function called from invalid context")
			if (!c) miss("BUG: sleeping function called from invalid context, after the lockdep report")
			# who took the lock, in which context (SC1: in a softirq, HC0:
			# not in a hard interrupt), and the lock: fs_reclaim
			t = find(b + 1, c, "\\[HC0\\[0\\]:SC1\\[1\\]:[A-Z0-9:]*\\] takes:")
			if (!t) miss("the lockdep report'\''s \"[HC0[0]:SC1[1]:...] takes:\" (the lock taken in a softirq)")
			keep(t)
			f = find(t + 1, c, " \\(fs_reclaim\\)\\{")
			if (!f) miss("fs_reclaim as the lock the lockdep report names after \"takes:\"")
			keep(f)
			s = find(f + 1, c, "stack backtrace:")
			if (!s) miss("the lockdep report'\''s stack backtrace")
			m = frames(s + 1, c - 1, chain)
			if (m != "") miss(m " in the lockdep report'\''s backtrace")
			keep(c)
			m = frames(c + 1, block_end(c), chain)
			if (m != "") miss(m " in the trace of BUG: sleeping function called from invalid context")
			e = find(c + 1, NR, "REPRO: stayed enabled")
			if (!e) miss("the guest line \"REPRO: stayed enabled\" after the BUG")
			keep(e)
			for (i = 1; i <= n; i++) print out[i]
		}'
}

if [ "${1:-}" = --check-log ]; then
	{ [ $# -eq 2 ] && [ -r "$2" ]; } || die "usage: $0 --check-log CONSOLE_LOG"
	report_lines "$2"
	exit
fi

expect="" kernel="" initrd="" logf="" timeout=600 append=""
while [ $# -gt 0 ]; do
	case "$1" in
	--expect) expect=${2:-} && shift ;;
	--kernel) kernel=${2:-} && shift ;;
	--initrd) initrd=${2:-} && shift ;;
	--log) logf=${2:-} && shift ;;
	--timeout) timeout=${2:-} && shift ;;
	--append) append=${2:-} && shift ;;
	*) die "unknown option '$1' (see the header of $0)" ;;
	esac
	shift
done
case "$expect" in report | refuse) ;; *) die "--expect wants report|refuse, got '$expect'" ;; esac
[ -n "$logf" ] || die "--log is required"

name="repro-sleepable-timer:$expect"
rc=0
"$here/../run-qemu.sh" --kernel "$kernel" --initrd "$initrd" --log "$logf" \
	--timeout "$timeout" --append "scx.payload=repro-sleepable-timer $append" \
	>/dev/null 2>&1 || rc=$?
log=$(tr -d '\r' <"$logf")

# not_ok REASON: the evidence, then the verdict
not_ok() {
	kt_diag "$(grep -E 'REPRO:|run-qemu:|sleepable|BUG:|WARNING:|inconsistent|sched_ext:|^# ' <<<"$log" | tail -n 30)"
	kt_not_ok "$name" "$1"
	exit 1
}

kt_header
kt_plan 1
if [ "$expect" = refuse ]; then
	want="program must be sleepable to call sleepable kfunc $kfunc"
	[ "$rc" = 0 ] || not_ok "guest status $rc, expected 0 (refused at load)"
	grep -qF "REPRO: refused at load" <<<"$log" || not_ok "no 'REPRO: refused at load'"
	grep -qF "$want" <<<"$log" || not_ok "verifier line missing: $want"
	kt_ok "$name" "$want"
	exit 0
fi

! grep -qF "REPRO: refused at load" <<<"$log" || not_ok "refused at load: nothing to reproduce (a kernel with the series?)"
# run-qemu.sh's verdict: the earliest splat is lockdep's (74)
[ "$rc" = 74 ] || not_ok "guest status $rc, expected 74 (run-qemu.sh: lockdep report)"
lines=$(report_lines "$logf") || not_ok "${lines:-the report does not match}"
kt_ok "$name" "$(awk 'NR > 1 { printf " | " } { printf "%s", $0 }' <<<"$lines")"
