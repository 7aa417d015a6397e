# shellcheck shell=bash
# make check's quiet screen (sourced by scripts/check.sh): one line per
# stage and per suite, "[i/N] what: result, elapsed", lock waits, and a
# line every CHECK_HEARTBEAT_S seconds (default 300) of silence, so that a
# CI job watching for output sees the run alive through a cold kernel
# build. Everything else goes to files.

# fmt_secs SECONDS: 400 -> 6m40s, 42 -> 42s
fmt_secs() {
	if [ "$1" -ge 60 ]; then printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); else printf '%ds' "$1"; fi
}

progress_note() { printf '%s\n' "$*"; }

# progress_line LABEL RESULT SECONDS
progress_line() { printf '%s: %s, %s\n' "$1" "$2" "$(fmt_secs "$3")"; }

# last_totals FILE: its last "N passed, N failed[, N skipped]" line, or
# what stands for one when it has none
last_totals() {
	kt_last_totals "$1" || printf '%s\n' "no report (see $1)"
}

# suite_line NAME PASSED FAILED SKIPPED [TO_JUDGE]: "selftests 59/61 ok,
# 2 FAILED"; TO_JUDGE: results the host's report decides (guest-progress.sh)
suite_line() {
	local n=$(($2 + $3 + $4 + ${5:-0})) s
	s="$1 $2/$n ok"
	[ "$3" = 0 ] || s="$s, $3 FAILED"
	[ "$4" = 0 ] || s="$s, $4 skipped"
	[ "${5:-0}" = 0 ] || s="$s, $5 for the host to judge (predicted splat)"
	printf '%s\n' "$s"
}

# watch_guest PID LABEL OUT CONSOLE_LOG: while PID (a check-one writing
# OUT and booting a guest that writes CONSOLE_LOG) runs, print its lock
# waits, each guest suite as it finishes, and the heartbeat; returns PID's
# exit status.
watch_guest() {
	local pid=$1 label=$2 out=$3 console=$4
	local t0=$SECONDS quiet_since=$SECONDS shown=0 waits=0 booted="" rc=0
	local hb=${CHECK_HEARTBEAT_S:-300} line n suite p f s j secs now
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		now=$SECONDS
		# lock waits: the build scripts say "... waiting" when they queue
		n=$(grep -cE '^==> .*waiting' "$out" 2>/dev/null || true)
		if [ "${n:-0}" -gt "$waits" ]; then
			grep -E '^==> .*waiting' "$out" | tail -n +$((waits + 1)) | while IFS= read -r line; do
				printf '%s: %s\n' "$label" "${line#==> }"
			done
			waits=$n quiet_since=$now
		fi
		if [ -z "$booted" ] && [ -s "$console" ]; then
			booted=1
			progress_line "$label" "kernel, payload and initramfs ready, guest booting" $((now - t0))
			quiet_since=$now
		fi
		n=0
		while IFS=$'\t' read -r suite p f s j secs; do
			n=$((n + 1))
			[ "$n" -gt "$shown" ] || continue
			[ $((p + f + s + j)) -gt 0 ] || continue
			progress_line "$label" "$(suite_line "$suite" "$p" "$f" "$s" "$j")" "${secs:-0}"
			quiet_since=$now
		done < <("$(dirname "${BASH_SOURCE[0]}")/guest-progress.sh" "$console" 2>/dev/null || true)
		[ "$n" -le "$shown" ] || shown=$n
		if [ $((now - quiet_since)) -ge "$hb" ]; then
			line=$(tail -n 1 "$out" 2>/dev/null | tr -d '\r' | cut -c1-80 || true)
			progress_note "$label: still $([ -n "$booted" ] && echo "in the guest" || echo "building"), $(fmt_secs $((now - t0))) so far${line:+ (last: $line)}"
			quiet_since=$now
		fi
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# ktap_failures NAME LOG KTAP: one line per failed test of KTAP (a result
# line that closes no subtest): "  NAME: suite/test: why -- log: LOG"
ktap_failures() {
	awk -v name="$1" -v logf="$2" '
	/^ *# Subtest: / {
		i = match($0, /[^ ]/) - 1; s = $0; sub(/^ *# Subtest: /, "", s)
		sub_[i] = s; open_[i] = 1
		for (j in open_) if (j + 0 > i) delete open_[j]
		next
	}
	/^ *(not )?ok [0-9]+ / {
		i = match($0, /[^ ]/) - 1
		if (open_[i + 4]) { delete open_[i + 4]; next }
		if ($0 !~ /^ *not ok /) next
		t = $0; sub(/^ *not ok [0-9]+ /, "", t)
		why = ""
		if ((k = index(t, " # ")) > 0) { why = substr(t, k + 3); t = substr(t, 1, k - 1) }
		path = ""
		for (j = 4; j <= i; j += 4) if (open_[j]) path = path sub_[j] "/"
		printf "  %s: %s%s%s -- log: %s\n", name, path, t, (why == "" ? "" : ": " substr(why, 1, 100)), logf
	}' "$3"
}
