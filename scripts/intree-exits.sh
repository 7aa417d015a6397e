#!/usr/bin/env bash
# How did each in-tree sched_ext selftest's schedulers end? A test can pass
# for the wrong reason (its scheduler ejected by an error or a stall where
# the test meant to unload it, ejected with another message, or left
# enabled), and the runner's "ok" does not say. The kernel does: read its
# 'sched_ext: BPF scheduler "NAME" disabled (KIND)' lines (and an error's
# 'sched_ext: NAME: MESSAGE') between the runner's "TEST: T" and its
# "=====  END  =====", and compare them with scripts/intree-exits.txt for
# the kernel variant.
#
# Usage: intree-exits.sh CONSOLE_LOG
#   one result line per in-tree test the log ran, "ok scx-selftest-exit:T"
#   or "not ok scx-selftest-exit:T # why"; nothing if it ran none; exit 1
#   if any failed.
# Env: SCX_VARIANT (else the log's "# variant:" line), INTREE_EXITS (the
# data file).
set -euo pipefail
here=$(dirname "$0")
data=${INTREE_EXITS:-$here/intree-exits.txt}
log=${1:?usage: intree-exits.sh CONSOLE_LOG}
[ -r "$log" ] || {
	echo "intree-exits.sh: cannot read '$log'" >&2
	exit 2
}
variant=${SCX_VARIANT:-$(sed -n 's/^# variant: \([A-Za-z0-9_-]*\).*/\1/p; T; q' "$log")}

# The first file: the rules for this variant; the second: the log.
awk -v variant="$variant" '
function bad_end(why) {
	printf "not ok scx-selftest-exit:%s # %s\n", test, why
	failed = 1
}
# judge(): the test that just ended against its rules
function judge(    k, n, i, j, t, arr, got, leak, r) {
	n = 0
	for (k in ends)
		arr[++n] = k
	for (i = 2; i <= n; i++) {
		t = arr[i]
		for (j = i - 1; j >= 1 && arr[j] > t; j--)
			arr[j + 1] = arr[j]
		arr[j + 1] = t
	}
	got = ""
	for (i = 1; i <= n; i++)
		got = got (i > 1 ? " | " : "") arr[i]
	if (got == "")
		got = "none"
	leak = ""
	for (k in state)
		if (state[k] == "enabled")
			leak = leak " " k
	if (leak != "")
		bad_end("scheduler(s) still enabled at the end of the test:" leak " (ended: " got ")")
	else if (!(test in want))
		bad_end("no expected exit for " (variant == "" ? "an unknown variant (no # variant: line)" : variant) " in scripts/intree-exits.txt; ended: " got)
	else {
		r = want[test]
		if (index(r, SUBSEP got SUBSEP))
			printf "ok scx-selftest-exit:%s\n", test
		else {
			gsub(SUBSEP, "\" or \"", r)
			sub(/^" or /, "", r)
			sub(/ or "$/, "", r)
			bad_end("ended " got ", want " r)
		}
	}
	for (k in ends)
		delete ends[k]
	for (k in state)
		delete state[k]
	test = pend = ""
}
function sched_of(s) {
	sub(/.*sched_ext: BPF scheduler "/, "", s)
	sub(/".*/, "", s)
	return s
}
FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || split($0, f, ";") < 4 || index("," f[1] ",", "," variant ",") == 0 || variant == "")
		next
	if (!(f[2] in want))
		want[f[2]] = SUBSEP
	want[f[2]] = want[f[2]] f[3] SUBSEP
	next
}
{ sub(/\r$/, "") }
/^# suite: / && test != "" { bad_end("the runner stopped inside the test (no END line)"); test = "" }
/^  runner\| TEST: / {
	if (test != "")
		bad_end("the runner started another test before this one ended")
	test = $0
	sub(/^  runner\| TEST: /, "", test)
	sub(/ +$/, "", test)
	next
}
test == "" { next }
/sched_ext: BPF scheduler ".*" enabled/ { state[sched_of($0)] = "enabled"; next }
/sched_ext: BPF scheduler ".*" disabled \(/ {
	s = sched_of($0)
	k = $0
	sub(/.*" disabled \(/, "", k)
	sub(/\)[^)]*$/, "", k)
	state[s] = "disabled"
	pend = s
	pkind = k
	ends[s "=" k] = 1
	next
}
# an error exit: its message, the next line naming the scheduler
pend != "" && index($0, "sched_ext: " pend ": ") {
	m = $0
	sub(/.*sched_ext: [^ ]+: /, "", m)
	# which task trips the error is up to the scheduler (runner, a
	# kthread): "comm[123]" reads as "TASK[PID]"
	gsub(/[^ \[\]]+\[[0-9]+\]/, "TASK[PID]", m)
	delete ends[pend "=" pkind]
	ends[pend "=" pkind ": " m] = 1
	pend = ""
	next
}
/^  runner\| =+ +END +=+/ { judge() }
END {
	if (test != "")
		bad_end("the log ends inside the test (no END line)")
	exit failed
}
' "$data" "$log"
