#!/usr/bin/env bash
# The contrast the series exists for, one line per case: what the patched
# kernel and the unpatched (baseline) one did with the same scheduler,
# read from the two console logs of one `make check` (the project's
# neg:/baseline-diff:, async: and freplace: tests, whose guest lines say
# what the kernel said).
#
# Usage: side-by-side.sh [--save] PATCHED_CONSOLE_LOG BASELINE_CONSOLE_LOG
#   --save: also write it to side-by-side.txt next to the patched log, and
#   print a header saying where (what `make` and `make check` show)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
save=
[ "${1:-}" != --save ] || { save=1 && shift; }
[ $# -eq 2 ] || die "usage: $0 [--save] PATCHED_CONSOLE_LOG BASELINE_CONSOLE_LOG"
if [ -n "$save" ]; then
	out=$(dirname "$1")/side-by-side.txt
	echo "# the same schedulers on both kernels ($out):"
	"$0" "$@" >"$out"
	cat "$out"
	exit 0
fi

# verdicts LOG: "case<TAB>what happened" per case, from the "# " lines the
# guest printed before each result line
verdicts() {
	tr -d '\r' <"$1" | awk '
	/^\[ *[0-9]+\.[0-9]+\]/ { next }	# kernel messages interleaved
	/^# / { d[++n] = substr($0, 3); next }
	/^(not )?ok [0-9]+ (neg|baseline-diff|async|freplace):/ {
		failed = ($1 == "not")
		name = failed ? $4 : $3
		sub(/^[a-z-]+:/, "", name); sub(/ .*/, "", name)
		what = ""
		for (i = 1; i <= n && what == ""; i++)
			if ((p = index(d[i], "calling kernel function ")) > 0)
				what = "refused at load: " substr(d[i], p)
		for (i = 1; i <= n && what == ""; i++)
			if (d[i] ~ /^kernel log: sched_ext: [^ ]+: / && d[i] !~ /BPF scheduler/) {
				m = d[i]; sub(/^kernel log: sched_ext: [^ ]+: /, "", m)
				what = "loaded, ejected when the call ran: " m
			}
		for (i = 1; i <= n && what == ""; i++)
			if (index(d[i], "program must be sleepable"))
				what = "refused at load: not sleepable"
		for (i = 1; i <= n && what == ""; i++)
			if (d[i] ~ /made the call|loaded|: loads|not caught/)
				what = "loaded" (d[i] ~ /made the call/ ? ", runs and makes the call" : "")
		# the guest repeats its results at the end, without their
		# diagnostics: keep the verdict that has them
		if (what != "" || !(name in v))
			v[name] = (failed ? "TEST FAILED: " : "") (what == "" ? "?" : what)
		n = 0; next
	}
	/^(not )?ok / { n = 0 }
	END { for (c in v) print c "\t" v[c] }'
}

join -t $'\t' -a1 -a2 -e '(not run)' -o 0,1.2,2.2 \
	<(verdicts "$1" | sort -t $'\t' -k1,1) <(verdicts "$2" | sort -t $'\t' -k1,1) |
	awk -F'\t' 'BEGIN { printf "%-40s | %s\n%-40s | %s\n", "case", "patched kernel", "", "baseline kernel (6.12.118)" }
		{ printf "%-40s | %s\n%-40s | %s\n", $1, $2, "", $3 }'
