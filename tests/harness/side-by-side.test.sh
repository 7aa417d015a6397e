#!/usr/bin/env bash
# scripts/side-by-side.sh on two synthetic console logs: the case's line
# shows the patched kernel's verifier line and the baseline's ejection
# message, a failed test says so, and a case one kernel did not run says
# "(not run)".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%s\n' "# patched: caught at load time: calling kernel function scx_bpf_consume is not allowed from sched_ext_ops.enqueue" \
	"[   1.000000] sched_ext: noise" "ok 1 neg:c1" "# something else" "not ok 2 async:c2" \
	"ok 3 neg:only-patched" "SCX-RESULTS-BEGIN" "ok 1 neg:c1" >"$tmp/p.log"
printf '%s\n' "# kernel log: sched_ext: neg_c1: kfunc with mask 0x2 called from an operation only allowing 0x4" \
	"# kernel log: sched_ext: BPF scheduler \"neg_c1\" disabled (runtime error)" "ok 1 baseline-diff:c1" \
	"# async_c2 made the call 3 times" "ok 2 async:c2" >"$tmp/b.log"
"$top/scripts/side-by-side.sh" "$tmp/p.log" "$tmp/b.log" >"$tmp/out"
sed 's/^/# /' "$tmp/out"
check c1-patched "no refusal line for c1" \
	grep -qE '^c1 +\| refused at load: calling kernel function scx_bpf_consume is not allowed from sched_ext_ops.enqueue$' "$tmp/out"
check c1-baseline "no ejection message for c1" \
	grep -qE '^ +\| loaded, ejected when the call ran: kfunc with mask 0x2 called from an operation only allowing 0x4$' "$tmp/out"
check c2-failed "the failed patched test is not marked" grep -qE '^c2 +\| TEST FAILED' "$tmp/out"
check not-run-text "no '(not run)' for the baseline side of only-patched" \
	bash -c "grep -A1 '^only-patched ' '$tmp/out' | grep -q '(not run)'"
"$top/scripts/side-by-side.sh" --save "$tmp/p.log" "$tmp/b.log" >"$tmp/saved-out"
check save-writes-file "--save did not write side-by-side.txt next to the patched log, or not the same table" \
	cmp -s "$tmp/out" "$tmp/side-by-side.txt"
check save-header "--save printed no header naming the file" \
	grep -qF "# the same schedulers on both kernels ($tmp/side-by-side.txt):" "$tmp/saved-out"
done_testing
