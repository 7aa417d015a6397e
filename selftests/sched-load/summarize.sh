#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# summarize.sh CONSOLE-LOG...
#
# Host side: the sched-load runs found in console logs (or saved
# run-guest.sh output) as a table: per run its result, enabled (yes/no;
# cycles for reload-loop, n/a without a scheduler), seconds of load,
# loadgen's total work units and the fewest of any task, and the number of
# failed checks (errors).
#
# One log: one row per run, plus a note (eject_s, kill_s, enable_avg_s).
# Several logs (e.g. make check's patched and baseline console logs): one
# row per run name, the logs side by side in the order given, each column
# group headed by the log's variant and mode.  A run missing from a log
# shows "-".  A log without sched-load output is an error (exit 1).
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 CONSOLE-LOG..." >&2; exit 2; }
for log in "$@"; do
	[ -r "$log" ] || { echo "$0: cannot read $log" >&2; exit 2; }
done

# Every log as "<index> <line>" on one stream, so one awk sees them all.
i=0
for log in "$@"; do
	i=$((i + 1))
	tr -d '\r' < "$log" | sed "s/^/$i /"
done | awk -v nlogs=$# -v names="$*" '
function val(k,   i) {
	for (i = 2; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return "-"
}
{ f = $1 }
/^[0-9]+ # sched-load: variant=.* secs=[0-9]+ reloads=/ {
	hdr[f] = val("variant") "/" val("mode")
}
/^[0-9]+ # loadgen: secs=/ { lgs[f] = val("elapsed_ms") }
# control:NAME, a run that starts no scheduler: the same row, named so
/^[0-9]+ # (sched|control):[^ ]+ / {
	name = $3; sub(/^sched:/, "", name); k = f SUBSEP name
	en[k] = val("enabled")
	secs[k] = val("secs")
	# older logs: hotplug, reload and error runs had no secs=
	if (secs[k] == "-" && lgs[f] != "")
		secs[k] = sprintf("%.1f", lgs[f] / 1000)
	if (val("cycles") != "-")
		en[k] = val("cycles")
	note[k] = ""
	if (val("eject_s") != "-") note[k] = "eject_s=" val("eject_s")
	if (val("kill_s") != "-") note[k] = "kill_s=" val("kill_s")
	if (val("enable_avg_s") != "-") note[k] = "enable_avg_s=" val("enable_avg_s")
	tot[k] = val("total"); mn[k] = val("min"); er[k] = val("errors")
}
/^[0-9]+ (not )?ok [0-9]+ (sched|control):/ {
	lgs[f] = ""
	neg = ($2 == "not")
	name = neg ? $5 : $4
	sub(/^sched:/, "", name)
	k = f SUBSEP name
	# the guest repeats its result lines at the end: count each run once
	if (k in res)
		next
	res[k] = neg ? "FAIL" : ($0 ~ /# SKIP/ ? "skip" : "ok")
	if (!(name in seen)) { seen[name] = 1; row[++n] = name }
	cnt[f, res[k]]++
}
function cell(k, x) { return (k in x) ? x[k] : "-" }
END {
	split(names, logn, " ")
	for (f = 1; f <= nlogs; f++)
		if (!(f in hdr) && !((f, "ok") in cnt) && !((f, "FAIL") in cnt) && !((f, "skip") in cnt)) {
			printf "summarize.sh: no sched-load output in %s\n", logn[f] > "/dev/stderr"
			bad = 1
		}
	if (nlogs == 1) {
		printf "%-22s %-6s %-7s %6s %10s %8s %6s  %s\n",
		       "run", "result", "enabled", "secs", "work", "min", "errors", "note"
		for (i = 1; i <= n; i++) {
			k = 1 SUBSEP row[i]
			printf "%-22s %-6s %-7s %6s %10s %8s %6s  %s\n", row[i],
			       cell(k, res), cell(k, en), cell(k, secs), cell(k, tot),
			       cell(k, mn), cell(k, er), cell(k, note)
		}
	} else {
		line = sprintf("%-22s", "")
		for (f = 1; f <= nlogs; f++)
			line = line sprintf(" | %-45s", (f in hdr) ? hdr[f] : logn[f])
		print line
		line = sprintf("%-22s", "run")
		for (f = 1; f <= nlogs; f++)
			line = line sprintf(" | %-4s %-7s %5s %10s %8s %4s",
					    "res", "enabled", "secs", "work", "min", "errs")
		print line
		for (i = 1; i <= n; i++) {
			line = sprintf("%-22s", row[i])
			for (f = 1; f <= nlogs; f++) {
				k = f SUBSEP row[i]
				line = line sprintf(" | %-4s %-7s %5s %10s %8s %4s",
					cell(k, res), cell(k, en), cell(k, secs),
					cell(k, tot), cell(k, mn), cell(k, er))
			}
			print line
		}
	}
	for (f = 1; f <= nlogs; f++)
		printf "# %s: %d ok, %d failed, %d skipped (%s)\n",
		       (f in hdr) ? hdr[f] : "?", cnt[f, "ok"], cnt[f, "FAIL"],
		       cnt[f, "skip"], logn[f]
	exit bad
}'
