#!/usr/bin/env bash
# Stage 8: console log -> one KTAP document and a pass/fail count.
#
# The guest's check payload names the suites it will run ("# suites: A B"),
# then each suite ("# suite: A") prints its plan ("1..N") before its
# tests' "ok N name" / "not ok N name" [# SKIP reason] lines; the guest
# repeats all of it between SCX-RESULTS-BEGIN/END at the end (safe from
# interleaved kernel messages). Those are collected (falling back to the
# live lines if the guest never got that far) into one nested KTAP
# document: the kernel's run -> one subtest per suite -> its tests. A
# planned test that never reported, a suite that printed no plan and a
# planned suite that never started are failures of their own. Host-side
# verdicts form the last suite, "host": results were reported,
# the guest reached its exit marker with status 0, and the console is free
# of kernel splats (scripts/splat-patterns.txt; known ones listed in
# scripts/known-splats.txt are reported as a SKIP instead, and splats a
# test provokes on purpose, scripts/expected-splats.txt, as a note). The
# first splat's console block and the test that was running follow the
# results as "# " lines.
#
# The last line is "N passed, N failed" (", N skipped" if any). An "ok ... #
# SKIP" is counted as skipped, never as passed; a "not ok ... # SKIP" as
# failed. A guest skip must be declared in scripts/declared-skips.txt (its
# name and reason); an undeclared one becomes "not ok N name # undeclared
# skip: reason". Exit 0 only if nothing failed.
#
# With --filter PATTERN (make check T=PATTERN) a run with no guest result
# fails naming the pattern, and lists the test names of --names-from FILE
# (an earlier unfiltered report), so the next try can pick one.
#
# Usage: ktap-report.sh [--qemu-rc N] [--filter PATTERN [--names-from FILE]] CONSOLE_LOG
#        ktap-report.sh --stage-failed "WHAT"     (no guest run happened)
# On a debug kernel, host:lockdep-on fails if lockdep turned itself off in
# a test that scripts/lockdep-off.txt does not declare; on a kernel without
# lockdep it is a SKIP saying so.
#
# A sched-load run predicted to hit a known kernel bug
# (scripts/predicted-splats.txt, scripts/predicted-splat.sh) passes only if
# its console block shows that splat and no other.
#
# The in-tree selftests' schedulers must end as scripts/intree-exits.txt
# says for the variant (a suite of their own, scx-selftest-exits).
#
# Env: DECLARED_SKIPS, LOCKDEP_OFF override the data files; SCX_VARIANT the
# log's "# variant:" line; SCX_EXIT_KINDS=off leaves the exit kinds out.
set -euo pipefail
here=$(dirname "$0")
. "$here/ktap-read.sh"
. "$here/ktap-write.sh"
declared=${DECLARED_SKIPS:-$here/declared-skips.txt}
lockdep_off=${LOCKDEP_OFF:-$here/lockdep-off.txt}

qemu_rc="" stage_failed="" log="" filter="" names_from=""
while [ $# -gt 0 ]; do
	case "$1" in
	--qemu-rc) qemu_rc=$2 && shift ;;
	--stage-failed) stage_failed=$2 && shift ;;
	--filter) filter=$2 && shift ;;
	--names-from) names_from=$2 && shift ;;
	-h | --help) sed -n '2,45p' "$0" | sed 's/^# \{0,1\}//' && exit 0 ;;
	*) log=$1 ;;
	esac
	shift
done

# Suites in order; each result is "SUITE<TAB>ok|not ok<TAB>name and
# directive"; plan[SUITE] is its "1..N" (unset: none printed).
suites=() results=()
declare -A plan=()
notes=() # diagnostic lines printed after the results (the first splat)
suite=host
# has_suite NAME: a loop, not printf | grep -q, which under pipefail fails
# when grep exits before printf has written everything (SIGPIPE): under
# load that made a suite that ran look never started (1 in 60 runs).
has_suite() {
	local st
	for st in "${suites[@]}"; do [ "$st" = "$1" ] && return 0; done
	return 1
}
new_suite() {
	suite=$1
	has_suite "$1" || suites+=("$1")
}
# of_suite SUITE: its results, "ok|not ok<TAB>rest" a line
of_suite() { printf '%s\n' "${results[@]}" | awk -F'\t' -v st="$1" '$1 == st { sub(/^[^\t]*\t/, ""); print }'; }
add() { results+=("$suite"$'\t'"$1"$'\t'"$2"); }

# The declared skips: NAME_REGEX;REASON_REGEX;WHY a line. No file, no
# declared skip: every skip fails.
skip_names=() skip_reasons=()
if [ -f "$declared" ]; then
	while IFS=';' read -r name_re reason_re _; do
		case "$name_re" in '' | '#'*) continue ;; esac
		skip_names+=("$name_re") skip_reasons+=("$reason_re")
	done <"$declared"
fi
# is_declared NAME REASON: some line matches both
is_declared() {
	local i
	for i in "${!skip_names[@]}"; do
		[[ $1 =~ ${skip_names[i]} && $2 =~ ${skip_reasons[i]} ]] && return 0
	done
	return 1
}

# lockdep_verdict: host:lockdep-on from the guest's "# lockdep:" lines
# (initramfs/payloads/check.sh, after each suite) and lockdep's own
# console lines; the declared tests: lockdep-off.txt (VARIANTS;TEST;WHY).
lockdep_verdict() {
	local states off trigger line test text v vs tre why
	states=$(grep '^# lockdep: ' <<<"$clean" || true)
	if [ -z "$states" ]; then
		add "not ok" "host:lockdep-on # the guest never said whether lockdep is on (no '# lockdep:' line): see $log"
		return
	fi
	if grep -q '^# lockdep: none' <<<"$states"; then
		add "ok" "host:lockdep-on # SKIP no lockdep in this kernel (not a debug kernel): lock bugs go unchecked"
		return
	fi
	off=$(grep -m1 -E '^# lockdep: debug_locks=([^1]|$)' <<<"$states" || true)
	if trigger=$("$here/detect-splat.sh" --lockdep "$log"); then
		IFS=$'\t' read -r line test text <<<"$trigger"
	elif [ -n "$off" ]; then
		line="" test="" text=$off
	else
		add "ok" "host:lockdep-on"
		return
	fi
	test=${test:-unknown (no lockdep report on the console; the guest: ${off#"# lockdep: "})}
	v=${SCX_VARIANT:-$(sed -n 's/^# variant: \([A-Za-z0-9_-]*\).*/\1/p; T; q' <<<"$clean")}
	if [ -f "$lockdep_off" ] && [ -n "$v" ]; then
		while IFS=';' read -r vs tre why; do
			case "$vs" in '' | '#'*) continue ;; esac
			[[ ",$vs," == *",$v,"* && $test =~ $tre ]] || continue
			add "ok" "host:lockdep-on # SKIP lockdep turned off in $test (declared: $why); the tests after it ran unchecked"
			return
		done <"$lockdep_off"
	fi
	add "not ok" "host:lockdep-on # lockdep turned off${line:+ at $log:$line} while running $test, not declared for ${v:-an unknown variant} (scripts/lockdep-off.txt): ${text#*] }"
}

if [ -n "$stage_failed" ]; then
	new_suite host
	add "not ok" "build # $stage_failed failed before the guest ran; see the errors above"
elif [ -z "$log" ] || [ ! -f "$log" ]; then
	new_suite host
	add "not ok" "console-log # no console log at '${log}'"
else
	clean=$(tr -d '\r' <"$log")
	if grep -q '^SCX-RESULTS-BEGIN' <<<"$clean"; then
		guest=$(awk '/^SCX-RESULTS-BEGIN/ { n++; buf = ""; on = 1; next }
			/^SCX-RESULTS-END/ { on = 0; last = buf; next }
			on { buf = buf $0 "\n" }
			END { printf "%s", last }' <<<"$clean")
	else
		guest=$(grep -E '^(# suites?: |1\.\.[0-9]+$|(not )?ok [0-9]+ )' <<<"$clean" || true)
	fi
	nguest=0 expected="" predicted_lines=""
	suite=""
	while IFS= read -r l; do
		case "$l" in
		"# suites:"*) expected=${l#"# suites:"} && continue ;;
		"# suite: "*) new_suite "${l#"# suite: "}" && continue ;;
		esac
		if [[ $l =~ ^1\.\.([0-9]+)$ ]]; then
			# a suite's first plan line is its plan
			[ -n "$suite" ] && [ -z "${plan[$suite]+set}" ] && plan[$suite]=${BASH_REMATCH[1]}
			continue
		fi
		[[ $l =~ ^(not\ ok|ok)\ ([0-9]+)\ (.*)$ ]] || continue
		# a result before any suite marker: a guest that prints no suites
		[ -n "$suite" ] || new_suite guest
		verdict=${BASH_REMATCH[1]} num=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]}
		# a sched-load run predicted to hit a known kernel bug
		# (scripts/predicted-splats.txt) passes only if its block shows it
		if [ "$suite" = sched-load ] && [[ $rest =~ ^([^#[:space:]]+) ]] &&
			pred=$("$here/predicted-splat.sh" "$log" "${BASH_REMATCH[1]}" "$num"); then
			IFS=$'\t' read -r pv plines ptext <<<"$pred"
			name=${BASH_REMATCH[1]}
			if [ "$verdict" != ok ]; then
				rest="$rest # (predicted splat: $ptext)"
			elif [ "$pv" = ok ]; then
				rest="$name # $ptext" predicted_lines="$predicted_lines,$plines,"
			elif [ "$pv" = skip ]; then
				rest="$name # SKIP $ptext"
			else
				verdict="not ok" rest="$name # $ptext"
			fi
		fi
		# the same skip test as the count below
		if [ "$verdict" = ok ] && [[ $rest =~ ^([^#]*[^#[:space:]])[[:space:]]*\#\ *[Ss][Kk][Ii][Pp]([[:space:]]+(.*))?$ ]]; then
			name=${BASH_REMATCH[1]} reason=${BASH_REMATCH[3]}
			if ! is_declared "$name" "$reason"; then
				verdict="not ok" rest="$name # undeclared skip: ${reason:-no reason given} (declare it in scripts/declared-skips.txt or fix the test)"
			fi
		fi
		add "$verdict" "$rest"
		nguest=$((nguest + 1))
	done <<<"$guest"

	# Each suite against its plan; then the planned suites that never ran.
	for st in "${suites[@]}"; do
		got=$(of_suite "$st" | grep -c . || true)
		suite=$st
		if [ -z "${plan[$st]+set}" ]; then
			add "not ok" "$st:plan # the suite printed no plan (1..N) before its tests"
		elif [ "$got" -lt "${plan[$st]}" ]; then
			for ((k = got + 1; k <= plan[$st]; k++)); do
				add "not ok" "$st:unreported-$k # planned ${plan[$st]} tests, $got reported: the suite stopped early or lost a result"
			done
		elif [ "$got" -gt "${plan[$st]}" ]; then
			add "not ok" "$st:plan # planned ${plan[$st]} tests, $got reported"
		fi
	done
	for st in $expected; do
		has_suite "$st" && continue
		new_suite "$st"
		add "not ok" "$st:started # planned, but the guest never started it (crash, hang or early exit: see $log)"
	done
	# How each in-tree selftest's schedulers ended, read from the kernel's
	# own lines (scripts/intree-exits.sh, scripts/intree-exits.txt): a
	# test that passed with its scheduler ejected by an error where it
	# meant to unload it, with another message, or left enabled, fails.
	if [ "${SCX_EXIT_KINDS:-on}" != off ] && grep -q '^  runner| TEST: ' <<<"$clean"; then
		new_suite scx-selftest-exits
		while IFS= read -r l; do
			[[ $l =~ ^(not\ ok|ok)\ (.*)$ ]] && add "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
		done < <("$here/intree-exits.sh" "$log" || true)
		[ -n "$(of_suite scx-selftest-exits)" ] ||
			add "not ok" "scx-selftest-exit:read # the in-tree tests ran, but scripts/intree-exits.sh judged none"
	fi
	new_suite host

	if [ "$nguest" -gt 0 ]; then
		add "ok" "host:guest-reported-results"
	elif [ -n "$filter" ]; then
		add "not ok" "host:guest-reported-results # T=$filter matched no test (globs over suite:test names, initramfs/t-glob.sh)"
		if [ -n "$names_from" ] && [ -f "$names_from" ]; then
			notes+=("the tests of the last full run ($names_from):")
			# the tests of a nested report are its indented lines
			lead='^'
			grep -q '^    # Subtest: ' "$names_from" && lead='^    '
			while IFS= read -r n; do notes+=("  $n"); done < <(sed -nE "s/$lead(not )?ok [0-9]+ ([^#]*[^#[:space:]]).*/\\2/p" "$names_from" | grep -v '^host:')
		else
			notes+=("no full run of this kernel is stored yet to list the tests: run make check-one once without T=")
		fi
	else
		add "not ok" "host:guest-reported-results # no result lines in $log"
	fi

	marker=$(sed -n 's/.*SCX-GUEST-EXIT: \([0-9][0-9]*\).*/\1/p' <<<"$clean" | tail -1)
	if [ -n "$marker" ]; then
		add "ok" "host:guest-exit-marker"
		if [ "$marker" = 0 ]; then
			add "ok" "host:guest-exit-status"
		else
			add "not ok" "host:guest-exit-status # guest payload exited $marker"
		fi
	else
		case "$qemu_rc" in
		78) why="timeout: the guest hung or is too slow" ;;
		65) why="QEMU failed to start" ;;
		"") why="the guest hung, crashed or rebooted early" ;;
		*) why="run-qemu.sh exited $qemu_rc" ;;
		esac
		add "not ok" "host:guest-exit-marker # no SCX-GUEST-EXIT line: $why (see $log)"
	fi

	# Lockdep (debug kernels) turns itself off after its first report, and
	# every later test runs unchecked: the test that turned it off must
	# declare it (scripts/lockdep-off.txt), and a kernel without lockdep
	# says so. Judged when the check payload ran (its "# suites:" line).
	if grep -q '^# suites:' <<<"$clean"; then
		lockdep_verdict
	fi

	# Known splats (scripts/known-splats.txt) stay visible as a skip.
	known=$("$here/detect-splat.sh" --known "$log")
	# a splat a test predicted and saw is that test's result, not a skip
	if [ -n "$predicted_lines" ] && [ -n "$known" ]; then
		known=$(awk -F'\t' -v p="$predicted_lines" '!index(p, "," $1 ",")' <<<"$known")
	fi
	if [ -n "$known" ]; then
		whys=$(cut -f2 <<<"$known" | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1x /' | paste -sd';' -)
		add "ok" "host:known-splats # SKIP $(wc -l <<<"$known") known splat(s) ignored: $whys"
	fi
	expected=$("$here/detect-splat.sh" --expected "$log")
	if [ -n "$expected" ]; then
		notes+=("$(wc -l <<<"$expected") splat line(s) provoked on purpose (scripts/expected-splats.txt): $(cut -f2 <<<"$expected" | sort -u | paste -sd';' -)")
	fi
	if splat=$("$here/detect-splat.sh" "$log"); then
		IFS=$'\t' read -r line _code kind _advice test text <<<"$splat"
		add "not ok" "host:console-free-of-splats # $kind at $log:$line while running $test: ${text#*] }"
		mapfile -t report < <("$here/detect-splat.sh" --report "$log" || true)
		notes+=("${report[@]}")
	else
		add "ok" "host:console-free-of-splats"
	fi
fi

# sched-load's runs: those that start a scheduler (sched:NAME) and the
# controls that start none (control:NAME, the reference), counted apart.
if has_suite sched-load; then
	sl=$(of_suite sched-load)
	nsched=$(grep -c $'\tsched:' <<<"$sl" || true)
	nctl=$(grep -c $'\tcontrol:' <<<"$sl" || true)
	[ $((nsched + nctl)) -eq 0 ] || notes+=("sched-load: $nsched scheduler runs + $nctl controls")
fi

# A suite that T= emptied (plan 0, nothing reported) is left out.
shown=()
for st in "${suites[@]}"; do
	if [ "${plan[$st]:-}" = 0 ] && [ -z "$(of_suite "$st")" ]; then
		continue
	fi
	shown+=("$st")
done

passed=0 failed=0 skipped=0 s=0
echo "KTAP version 1"
echo "1..${#shown[@]}"
for st in "${shown[@]}"; do
	s=$((s + 1))
	mapfile -t mine < <(of_suite "$st")
	echo "    KTAP version 1"
	echo "    # Subtest: $st"
	echo "    1..${#mine[@]}"
	n=0 sfail=0
	for r in "${mine[@]}"; do
		n=$((n + 1))
		verdict=${r%%$'\t'*} rest=${r#*$'\t'}
		echo "    $verdict $n $rest"
		# "not ok ... # SKIP" is a failure, as tests/harness/run.sh counts
		# it: a skip is only ever an "ok" line with the directive
		if [ "$verdict" = ok ] && [[ $rest =~ $KT_SKIP_ERE ]]; then
			skipped=$((skipped + 1))
		elif [ "$verdict" = ok ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1)) sfail=1
		fi
	done
	if [ "$sfail" = 0 ]; then echo "ok $s $st"; else echo "not ok $s $st"; fi
done
for l in "${notes[@]}"; do
	printf '# %s\n' "$l"
done
kt_summary "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
