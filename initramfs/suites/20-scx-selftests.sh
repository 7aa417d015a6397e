#!/bin/sh
# The kernel's own sched_ext selftests (tools/testing/selftests/sched_ext).
#
# The runner always exits 0, and a test that hits SCX_BUG aborts the whole
# run, so its output is the truth: each "ok N name #" / "not ok N name #"
# line becomes "scx-selftest:<name>", and a missing RESULTS block (aborted
# or crashed runner) is a failure of its own.
# shellcheck source=../ktap.sh # the build installs initramfs/ktap.sh there
. /scx/ktap.sh
# shellcheck disable=SC2119 # ktap_plan with no names on purpose: the plan is 1..0
scx_t_suite scx-selftest scx-selftest-exit || { ktap_plan; exit 0; }

if ! command -v runner >/dev/null; then
	SCX_T=
	ktap_plan scx-selftest:runner-present
	ktap_not_ok scx-selftest:runner-present "runner not in the initramfs"
	ktap_done
	exit
fi

# The plan: the runner lists every test as skipped with -s and a filter no
# name contains ("/"); those T= selects, and whether the runner completed.
planned=
for n in $(runner -s -t / 2>/dev/null | sed -n 's/^ok [0-9]* \([^ ]*\) # SKIP.*/\1/p'); do
	planned="$planned scx-selftest:$n"
done
if [ -z "$planned" ]; then
	SCX_T=
	ktap_plan scx-selftest:runner-lists-tests
	ktap_not_ok scx-selftest:runner-lists-tests "runner -s -t / listed no test"
	ktap_done
	exit
fi
# The tests to run: those whose scx-selftest:<name> T= selects, or whose
# scx-selftest-exit:<name> (how its schedulers ended, judged on the host);
# reported are the first only, and scx-selftest:runner-completed always.
run="" all=1 n=0
for t in $planned; do
	if scx_t_wants "$t" || scx_t_wants "scx-selftest-exit:${t#scx-selftest:}"; then
		run="$run ${t#scx-selftest:}"
		scx_t_wants "$t" && n=$((n + 1))
	else
		all=
	fi
done
# scx-selftest:runner-completed alone: whether a whole run completes.
[ -z "$run" ] && scx_t_wants scx-selftest:runner-completed && run=$planned all=1
if [ -z "$run" ]; then
	# shellcheck disable=SC2119 # no names on purpose: the plan is 1..0
	ktap_plan
	exit 0
fi
ktap_plan_count $((n + 1))
# The runner's -t is a substring of a test's name: one runner for every
# test, or one per selected test (which also runs the tests whose names
# contain its name: left out below unless selected), skipping a test an
# earlier one ran.
sels=
if [ -z "$all" ]; then
	done_=
	for t in $run; do
		case " $done_ " in *" $t "*) continue ;; esac
		sels="$sels $t"
		for u in $planned; do
			case "${u#scx-selftest:}" in *"$t"*) done_="$done_ ${u#scx-selftest:}" ;; esac
		done
	done
fi

raw=/tmp/scx-selftests.out
# Line-buffered: tests fork, and a block-buffered stdout would be flushed
# again by every child (duplicated result lines).
linebuf=""
command -v stdbuf >/dev/null && linebuf="stdbuf -oL -eL"
# Raw output to the console via stderr (not collected as results), live:
# a kernel splat then sits next to the test that caused it, and the host
# can name that test (scripts/detect-splat.sh).
# The results below are reported once the runner is done, so each test's
# time is taken here, as its line goes by: "NAME SECONDS" in $raw.times,
# the seconds since the runner's previous result (or its start). Each
# runner starts with a "# runner [-t NAME]" line, and its exit status is a
# line of $raw.rc.
: >"$raw.rc"
{
	for t in ${sels:--}; do
		[ "$t" = - ] && t=
		echo "# runner${t:+ -t $t}"
		$linebuf runner ${t:+-t "$t"} 2>&1
		echo $? >>"$raw.rc"
	done
} | awk -v raw="$raw" 'function now(  t, f) {
		getline t <"/proc/uptime"; close("/proc/uptime"); split(t, f, " "); return f[1]
	}
	BEGIN { last = now(); printf "" >(raw ".times") }
	{ print >raw; fflush(raw); print "  runner| " $0; fflush() }
	/^(not )?ok [0-9]+ / {
		n = $0; sub(/^(not )?ok [0-9]+ /, "", n); sub(/ .*$/, "", n)
		if (n in seen) next
		seen[n] = 1; t = now()
		printf "%s %.2f\n", n, t - last >(raw ".times"); fflush(raw ".times")
		last = t
	}' >&2
runner_rc=$(tr '\n' ' ' <"$raw.rc")
runner_rc=${runner_rc% }

# "ok 3 name # " or "ok 3 name # SKIP " or "not ok 3 name # "
seen=""
while read -r line; do
	case "$line" in
	"ok "* | "not ok "*) ;;
	*) continue ;;
	esac
	verdict=${line%% [0-9]*}
	rest=${line#"$verdict" }
	rest=${rest#* } # drop the runner's number
	name=${rest%% #*}
	directive=${rest#"$name"}
	# Count each runner test once, whatever its output looks like.
	case " $seen " in *" $name "*) continue ;; esac
	seen="$seen $name"
	took=$(sed -n "s/^$name //p" "$raw.times")
	[ -z "$took" ] || echo "# time: scx-selftest:$name $took"
	case "$directive" in
	*"# SKIP"*) ktap_skip "scx-selftest:$name" "skipped by the test" ;;
	*) if [ "$verdict" = ok ]; then ktap_ok "scx-selftest:$name"; else ktap_not_ok "scx-selftest:$name"; fi ;;
	esac
done <"$raw"

# Whether the runner completed is reported whatever the pattern: a run of
# the selected tests that aborted must fail.
# Every runner must have printed its RESULTS.
SCX_T=
aborted=$(awk '/^# runner/ { if (open) printf "%s; ", r; open = 1; r = substr($0, 3); next }
	/^RESULTS:/ { open = 0 } END { if (open) printf "%s; ", r }' "$raw")
if [ -z "$aborted" ]; then
	ktap_diag "runner: $(grep -E '^(PASSED|SKIPPED|FAILED):' "$raw" | tr -s ' \n' ' ')(exit $runner_rc)"
	ktap_ok scx-selftest:runner-completed
else
	ktap_not_ok scx-selftest:runner-completed "no RESULTS line from ${aborted%; }: the runner aborted (SCX_BUG?) or crashed, exit $runner_rc; see the runner| lines above"
fi
ktap_done
