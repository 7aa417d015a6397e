#!/usr/bin/env bash
# make check's per-suite progress lines (scripts/guest-progress.sh,
# suite_line in scripts/progress.sh) count what the report will count: a
# guest "# SKIP" of a test with a predicted splat is judged by the host's
# report (a pass or a failure), so the progress line must not call it a
# skip (it said "1 skipped" for sched:hotplug-scx_qmap while the report had
# it ok). No kernel is built and nothing boots.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
. "$top/scripts/ktap-read.sh"
. "$top/scripts/progress.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/predicted.txt" <<'EOF'
# variants;name;...
baseline,core;^sched:hotplug-scx_qmap$;x;y;z;why
EOF
# a console as the guest writes it (CRs included), the results block after
printf '%s\r\n' '# suite: sched-load' 'ok 1 sched:a' \
	'ok 2 sched:hotplug-scx_qmap # SKIP known splat: a WARN' \
	'ok 3 sched:b # SKIP no such scheduler' 'not ok 4 sched:c' \
	'# time: sched:c 2.6' '# suite: scx' 'ok 1 scx:d' \
	'ok 2 sched:hotplug-scx_qmap # SKIP elsewhere' 'SCX-RESULTS-BEGIN' \
	'# suite: late' 'ok 1 late:e' >"$tmp/console.log"

got=$(PREDICTED_SPLATS=$tmp/predicted.txt "$top/scripts/guest-progress.sh" "$tmp/console.log" | tr '\t' ' ')
# the report applies predictions to sched-load only: elsewhere a skip
want=$(printf '%s\n' 'sched-load 1 1 1 1 3' 'scx 1 0 1 0 ')
check columns "got: $got, want: $want" test "$got" = "$want"
got=$(PREDICTED_SPLATS=/nonexistent "$top/scripts/guest-progress.sh" "$tmp/console.log" | head -1 | tr '\t' ' ')
check no-rules-a-skip-stays-a-skip "got: $got" test "$got" = 'sched-load 1 1 2 0 3'
got=$(suite_line sched-load 1 1 1 1)
check line "got: $got" test "$got" = 'sched-load 1/4 ok, 1 FAILED, 1 skipped, 1 for the host to judge (predicted splat)'
got=$(suite_line scx 2 0 0)
check line-without-judged "got: $got" test "$got" = 'scx 2/2 ok'
done_testing
