#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# summarize.sh CONSOLE-LOG...
#
# Host side: one table row per sched-load run found in each console log (or
# saved run-guest.sh output): result, enabled, seconds of load, loadgen's
# total and smallest work count, errors.  Given a baseline and a patched
# log, the rows line up by run name for comparison.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 CONSOLE-LOG..." >&2; exit 2; }

for log in "$@"; do
	tr -d '\r' < "$log" | awk -v logf="$log" '
	/^# sched-load: variant=.* secs=[0-9]+ reloads=/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^(variant|mode)=/) hdr = hdr " " $i
	}
	function val(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return "-"
	}
	/^# loadgen: secs=/ { lgs = val("elapsed_ms") }
	/^(not )?ok [0-9]+ sched:/ { lgs = "" }
	/^# sched:[^ ]+ / {
		name = substr($2, 7)
		en[name] = val("enabled")
		secs[name] = val("secs")
		# older logs: hotplug, reload and error runs had no secs=
		if (secs[name] == "-" && lgs != "-" && lgs != "")
			secs[name] = sprintf("%.1f", lgs / 1000)
		lgs = ""
		if (val("cycles") != "-")
			en[name] = val("cycles")
		note[name] = (val("eject_s") != "-") ? "eject_s=" val("eject_s") : ""
		if (val("enable_avg_s") != "-")
			note[name] = "enable_avg_s=" val("enable_avg_s")
		tot[name] = val("total")
		mn[name] = val("min")
		er[name] = val("errors")
	}
	/^(not )?ok [0-9]+ sched:/ {
		res = ($1 == "not") ? "not-ok" : "ok"
		name = ($1 == "not") ? $4 : $3
		sub(/^sched:/, "", name)
		if ($0 ~ /# SKIP/)
			res = "skip"
		row[++n] = name
		r[name] = res
	}
	/^# sched-load: variant=.* pass=/ { tail = $0 }
	END {
		printf "== %s:%s\n", logf, hdr
		printf "%-22s %-7s %-7s %-7s %10s %8s %6s  %s\n",
		       "run", "result", "enabled", "secs", "total", "min", "errors", "note"
		for (i = 1; i <= n; i++) {
			k = row[i]
			printf "%-22s %-7s %-7s %-7s %10s %8s %6s  %s\n", k, r[k],
			       (k in en) ? en[k] : "-", (k in secs) ? secs[k] : "-",
			       (k in tot) ? tot[k] : "-", (k in mn) ? mn[k] : "-",
			       (k in er) ? er[k] : "-", (k in note) ? note[k] : ""
		}
		if (tail != "")
			print tail
	}'
done
