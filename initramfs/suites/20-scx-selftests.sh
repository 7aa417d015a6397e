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
scx_t_suite scx-selftest || { ktap_plan; exit 0; }

# The runner's -t is a substring of the test's own name: a pattern that
# reaches into "scx-selftest:" is cut down to the name's part (which
# selects a superset; the results are filtered by the whole name below).
sel=
# shellcheck disable=SC2194 # "case scx-selftest:" on purpose: is T= a part of the prefix?
case "${SCX_T:-}" in
"" | *:) ;;
*:*) sel=${SCX_T#*:} ;;
*) case scx-selftest: in *"$SCX_T"*) ;; *) sel=$SCX_T ;; esac ;;
esac

if ! command -v runner >/dev/null; then
	echo "1..1"
	SCX_T=
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
	echo "1..1"
	SCX_T=
	ktap_not_ok scx-selftest:runner-lists-tests "runner -s -t / listed no test"
	ktap_done
	exit
fi
# shellcheck disable=SC2046 # one word per test name (runner names have no blanks)
set -- $(for n in $planned; do scx_t_wants "$n" && echo "$n"; done)
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2119 # no names on purpose: the plan is 1..0
	ktap_plan
	exit 0
fi
echo "1..$(($# + 1))"

raw=/tmp/scx-selftests.out
# Line-buffered: tests fork, and a block-buffered stdout would be flushed
# again by every child (duplicated result lines).
linebuf=""
command -v stdbuf >/dev/null && linebuf="stdbuf -oL -eL"
# Raw output to the console via stderr (not collected as results), live:
# a kernel splat then sits next to the test that caused it, and the host
# can name that test (scripts/detect-splat.sh).
# The results below are reported once the runner is done, so each test's
# time is taken here, as its line goes by: "NUM SECONDS" in $raw.times, the
# seconds since the runner's previous result (or its start).
{
	$linebuf runner ${sel:+-t "$sel"} 2>&1
	echo $? >"$raw.rc"
} | awk -v raw="$raw" 'function now(  t, f) {
		getline t <"/proc/uptime"; close("/proc/uptime"); split(t, f, " "); return f[1]
	}
	BEGIN { last = now(); printf "" >(raw ".times") }
	{ print >raw; fflush(raw); print "  runner| " $0; fflush() }
	/^(not )?ok [0-9]+ / {
		n = $0; sub(/^(not )?ok /, "", n); sub(/ .*$/, "", n)
		if (n in seen) next
		seen[n] = 1; t = now()
		printf "%s %.2f\n", n, t - last >(raw ".times"); fflush(raw ".times")
		last = t
	}' >&2
runner_rc=$(cat "$raw.rc")

# "ok 3 name # " or "ok 3 name # SKIP " or "not ok 3 name # "
seen=""
while read -r line; do
	case "$line" in
	"ok "* | "not ok "*) ;;
	*) continue ;;
	esac
	verdict=${line%% [0-9]*}
	rest=${line#"$verdict" }
	num=${rest%% *}
	rest=${rest#* } # drop the runner's number
	# Count each runner test once, whatever its output looks like.
	case " $seen " in *" $num "*) continue ;; esac
	seen="$seen $num"
	name=${rest%% #*}
	directive=${rest#"$name"}
	took=$(sed -n "s/^$num //p" "$raw.times")
	[ -z "$took" ] || echo "# time: scx-selftest:$name $took"
	case "$directive" in
	*"# SKIP"*) ktap_skip "scx-selftest:$name" "skipped by the test" ;;
	*) if [ "$verdict" = ok ]; then ktap_ok "scx-selftest:$name"; else ktap_not_ok "scx-selftest:$name"; fi ;;
	esac
done <"$raw"

# Whether the runner completed is reported whatever the pattern: a run of
# the selected tests that aborted must fail.
SCX_T=
if grep -q '^RESULTS:' "$raw"; then
	ktap_diag "runner: $(grep -E '^(PASSED|SKIPPED|FAILED):' "$raw" | tr -s ' \n' ' ')(exit $runner_rc)"
	ktap_ok scx-selftest:runner-completed
else
	ktap_not_ok scx-selftest:runner-completed "no RESULTS line: the runner aborted (SCX_BUG?) or crashed, exit $runner_rc; see the runner| lines above"
fi
ktap_done
