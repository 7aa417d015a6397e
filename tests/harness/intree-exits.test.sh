#!/usr/bin/env bash
# scripts/intree-exits.sh (and ktap-report.sh's scx-selftest-exits suite):
# each in-tree selftest's schedulers must end as scripts/intree-exits.txt
# says for the variant, read from the kernel's "disabled (KIND)" lines
# between the runner's TEST: and END. The runner's own "ok" is not enough:
# 6.12's select_cpu_dispatch ejected by a stall, a 6.12 ejection with
# another message than 6.12 prints, a scheduler left enabled (leaked
# kernel state) and a test with no expectation each fail. Synthetic logs.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner bash -c's, given the values as $1..
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# intree VARIANT TEST LINE...: a check payload's in-tree suite running TEST
# (the runner says ok whatever the kernel printed)
intree() {
	local v=$1 t=$2
	shift 2
	printf '%s\n' "init: 6.12.118+, 2 CPUs, payload 'check'" "# variant: $v" "# suites: 20-scx-selftests" \
		"# lockdep: none (no CONFIG_PROVE_LOCKING in this kernel) at start" "# suite: 20-scx-selftests" "1..2" \
		"  runner| ===== START =====" "  runner| TEST: $t"
	printf '%s\n' "$@"
	printf '%s\n' "  runner| ok 1 $t # " "  runner| =====  END  =====" "ok 1 scx-selftest:$t" \
		"ok 2 scx-selftest:runner-completed" "SCX-GUEST-EXIT: 0"
}
en() { echo "[    5.0] sched_ext: BPF scheduler \"$1\" enabled"; }
dis() { echo "[    6.0] sched_ext: BPF scheduler \"$1\" disabled ($2)"; }
# verdict NAME WANT(ok|not) LOG: intree-exits.sh's line for it
verdict() {
	local got
	got=$("$top/scripts/intree-exits.sh" "$3" || true)
	case "$2" in
	ok) check "$1" "want ok, got: $got" grep -q '^ok scx-selftest-exit:' <<<"$got" ;;
	not) check "$1" "want not ok, got: $got" grep -q '^not ok scx-selftest-exit:' <<<"$got" ;;
	esac
}

intree baseline select_cpu_dispatch "$(en select_cpu_dispatch)" "$(dis select_cpu_dispatch 'unregistered from user space')" >"$tmp/scd.log"
verdict select-cpu-dispatch-unloaded ok "$tmp/scd.log"
# ejected by the watchdog, as once on a loaded host: the runner still said ok
intree baseline select_cpu_dispatch "$(en select_cpu_dispatch)" "$(dis select_cpu_dispatch 'runnable task stall')" \
	"[    6.0] sched_ext: select_cpu_dispatch: watchdog failed to check in for 1.004s" >"$tmp/scd-stall.log"
verdict select-cpu-dispatch-ejected-fails not "$tmp/scd-stall.log"
rc=0 && "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/scd-stall.log" >"$tmp/scd-stall.ktap" || rc=$?
check report-fails-though-runner-ok "exit $rc: $(grep -E 'scx-selftest:select|exit:select' "$tmp/scd-stall.ktap")" \
	bash -c '[ "$1" != 0 ] && grep -q "^    ok 1 scx-selftest:select_cpu_dispatch" "$2" && grep -q "^    not ok 1 scx-selftest-exit:select_cpu_dispatch # ended select_cpu_dispatch=runnable task stall" "$2"' _ "$rc" "$tmp/scd-stall.ktap"

# A 6.12 failure with the message 6.12 prints passes; another message fails.
esel=("$(en enq_select_cpu_fails)" "$(dis enq_select_cpu_fails 'runtime error')")
intree baseline enq_select_cpu_fails "${esel[@]}" \
	"[    6.0] sched_ext: enq_select_cpu_fails: kfunc with mask 0x8 called from an operation only allowing 0x4" >"$tmp/esel.log"
verdict baseline-predicted-message ok "$tmp/esel.log"
intree baseline enq_select_cpu_fails "${esel[@]}" \
	"[    6.0] sched_ext: enq_select_cpu_fails: kfunc called from outside ops.select_cpu()" >"$tmp/esel-wrong.log"
verdict baseline-wrong-message-fails not "$tmp/esel-wrong.log"
# On the core the same test's scheduler is refused at load: an ejection fails.
intree core enq_select_cpu_fails >"$tmp/esel-core.log"
verdict core-refused-none ok "$tmp/esel-core.log"
sed 's/^# variant: baseline/# variant: core/' "$tmp/esel.log" >"$tmp/esel-core-ejected.log"
verdict core-ejected-fails not "$tmp/esel-core-ejected.log"
# A pid in the message is any pid.
intree core ddsp_bogus_dsq_fail "$(en ddsp_bogus_dsq_fail)" "$(dis ddsp_bogus_dsq_fail 'runtime error')" \
	"[    6.0] sched_ext: ddsp_bogus_dsq_fail: non-existent DSQ 0xcafef00d for runner[4321]" >"$tmp/pid.log"
verdict message-pid-any ok "$tmp/pid.log"

# Leaked kernel state: the scheduler still enabled when the test ended.
intree core minimal "$(en minimal)" >"$tmp/leak.log"
verdict leaked-scheduler-fails not "$tmp/leak.log"
check leaked-scheduler-named "$("$top/scripts/intree-exits.sh" "$tmp/leak.log" || true)" \
	bash -c '"$1" "$2" | grep -q "still enabled at the end of the test: minimal"' _ "$top/scripts/intree-exits.sh" "$tmp/leak.log"
# A test with no expectation, or a variant with none: fails.
intree core no_such_test "$(en no_such_test)" "$(dis no_such_test 'unregistered from user space')" >"$tmp/unknown.log"
verdict unlisted-test-fails not "$tmp/unknown.log"
sed 's/^# variant: baseline/# variant: limit/' "$tmp/scd.log" >"$tmp/limit.log"
verdict unlisted-variant-fails not "$tmp/limit.log"

# The real file: a line per variant the harness boots for each test it lists.
bad=$(awk -F';' '!/^#/ && NF { if (NF < 4 || $4 == "") print "no why: " $2; n = split($1, v, ","); for (i = 1; i <= n; i++) if (v[i] !~ /^(baseline|core|full)(-debug)?$/) print "bad variant " v[i] ": " $2 }' "$top/scripts/intree-exits.txt")
check real-file-well-formed "$bad" test -z "$bad"
done_testing
