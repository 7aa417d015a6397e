#!/usr/bin/env bash
# scripts/ktap-report.sh passes a guest skip only if it is declared
# (scripts/declared-skips.txt: name and reason): an undeclared one, or a
# declared name skipped for another reason, is "not ok ... # undeclared
# skip" and fails the run; the host's known-splat skip is not a guest
# skip. And the real file declares the skips a passing check prints today.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' "# a comment;with;semicolons" "^sched:declared$;^known splat: why;synthetic" >"$tmp/declared"
printf '%s\n' "init: fake guest" "# suite: guest" "1..4" "ok 1 plain" "ok 2 sched:declared # SKIP known splat: why it was" \
	"ok 3 sched:undeclared # SKIP no CPU to take offline" \
	"ok 4 sched:declared # SKIP some other reason" "SCX-GUEST-EXIT: 0" >"$tmp/console.log"
rc=0
DECLARED_SKIPS=$tmp/declared "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/console.log" >"$tmp/out" || rc=$?
last=$(tail -n 1 "$tmp/out")
echo "# last line: $last (exit $rc)"
# 1 plain + 4 host verdicts pass; the declared skip skips; the undeclared
# one and the declared name with an undeclared reason fail
check counts "want '5 passed, 2 failed, 1 skipped', got '$last'" \
	test "$last" = "5 passed, 2 failed, 1 skipped"
check exit-non-zero "ktap-report.sh exited 0 with an undeclared skip" test "$rc" != 0
check declared-stays-skip "the declared skip is not an 'ok ... # SKIP' line: $(grep 'sched:declared' "$tmp/out")" \
	grep -qx '    ok 2 sched:declared # SKIP known splat: why it was' "$tmp/out"
check undeclared-says-why "no 'not ok ... # undeclared skip: <reason>' line: $(grep 'sched:undeclared' "$tmp/out")" \
	grep -qE '^    not ok 3 sched:undeclared # undeclared skip: no CPU to take offline' "$tmp/out"
check reason-must-match "a declared name skipped for another reason passed: $(grep '^ *[a-z ]* 4 ' "$tmp/out")" \
	grep -qE '^    not ok 4 sched:declared # undeclared skip: some other reason' "$tmp/out"

# Only declared skips: exit 0.
printf '%s\n' "# suite: guest" "1..2" "ok 1 plain" "ok 2 sched:declared # SKIP known splat: why" "SCX-GUEST-EXIT: 0" >"$tmp/ok.log"
rc=0
DECLARED_SKIPS=$tmp/declared "$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/ok.log" >"$tmp/ok.out" || rc=$?
check declared-only-passes "want '5 passed, 0 failed, 1 skipped' and exit 0, got '$(tail -n 1 "$tmp/ok.out")' (exit $rc)" \
	test "$(tail -n 1 "$tmp/ok.out")" = "5 passed, 0 failed, 1 skipped" -a "$rc" = 0

# The real file: the skip lines of today's passing checks (the first two
# copied from their console logs, the third what SCHED_LOAD=off prints)
# stay skips (with the 4 host verdicts that pass);
# the in-tree runner's skip, not seen in a passing run, fails.
printf '%s\n' "# suite: guest" "1..4" "ok 1 sched:hotplug-scx_qmap # SKIP known splat: 6.12.118 dl_server WARN (running_bw underflow) around CPU offline under a sched_ext scheduler, also on the unpatched kernel" \
	"ok 2 sched:scx_flatcg-f # SKIP known splat: 6.12.118 BPF core: bpf_rb_root_free() frees map rbtree nodes via bpf_mem_free_rcu() from a preemptible kworker (debug kernel, also on the unpatched kernel)" \
	"ok 3 sched-load # SKIP scx.sched_load=off" \
	"ok 4 scx-selftest:hotplug # SKIP skipped by the test" "SCX-GUEST-EXIT: 0" >"$tmp/real.log"
rc=0
"$top/scripts/ktap-report.sh" --qemu-rc 0 "$tmp/real.log" >"$tmp/real.out" || rc=$?
echo "# real file: $(tail -n 1 "$tmp/real.out") (exit $rc)"
check real-file-declares-today "want '4 passed, 1 failed, 3 skipped', got '$(tail -n 1 "$tmp/real.out")'; $(grep undeclared "$tmp/real.out")" \
	test "$(tail -n 1 "$tmp/real.out")" = "4 passed, 1 failed, 3 skipped"
check real-file-in-tree-skip-fails "the in-tree runner's skip is not 'undeclared'" \
	grep -q '^    not ok 4 scx-selftest:hotplug # undeclared skip' "$tmp/real.out"
done_testing
