#!/usr/bin/env bash
# The scx suite's checker (selftests/scx/run-guest.sh, run here under
# busybox sh as in the guest, with a fake veristat printing canned
# verdicts) and its expected list: the comparison passes when every
# verdict is the baseline's, and it can fail: a program the baseline
# verified that is refused, one the baseline refused that now loads, a
# program missing from the output, one not in the expected list, an
# object that did not build. A program flaky on the baseline is reported,
# not counted. gen-expected.sh turns two baseline runs that disagree into
# "flaky" and refuses a single run. The committed expected.txt is well
# formed and names every object the build makes.
# shellcheck disable=SC2016 # file-wide: the single-quoted $ are the inner sh's
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s=$top/selftests/scx

if ! command -v busybox >/dev/null; then
	skip checker "busybox not installed (make deps)"
	done_testing
	exit
fi

# A payload dir as build.sh makes it, with a fake loader: object
# NAME.bpf.o's verdicts are $FAKE/NAME.csv ("prog,verdict" lines); each
# failure gets a libbpf-style verifier log on stderr, as bpf-loadall
# passes it on. "SLEEP" as the first line: a load that never ends; "OBJ"
# the first line: a load that fails outside any program.
p=$tmp/payload
mkdir -p "$p/bin" "$p/lib"
cp "$s/run-guest.sh" "$p/"
cp "$top/initramfs/ktap.sh" "$top/initramfs/t-glob.sh" "$p/lib/"
cat >"$p/bin/bpf-loadall" <<'EOF'
#!/bin/sh
n=$(basename "$1" .bpf.o)
case $(head -n 1 "$FAKE/$n.csv") in
SLEEP) exec sleep 30 ;;
OBJ) echo "libbpf: map 'x': failed to create: -22" >&2 && exit 1 ;;
esac
grep ',failure$' "$FAKE/$n.csv" | while IFS=, read -r prog _; do
	printf "libbpf: prog '%s': -- BEGIN PROG LOAD LOG --\n0: R1=ctx()\nfake verifier log for %s: R1 invalid mem access 'scalar'\n-- END PROG LOAD LOG --\n" "$prog" "$prog" >&2
	echo "bpf-loadall: $n.bpf.o: '$prog' refused (-13); loading the rest again" >&2
done
sed "s/^/$n.bpf.o,/; s/\$/,42/" "$FAKE/$n.csv"
EOF
chmod +x "$p/bin/bpf-loadall"
cat >"$p/expected.txt" <<'EOF'
# OBJECT PROGRAM success|failure|flaky [# why]
scx_a.bpf.o a_init success
scx_a.bpf.o a_enqueue success
scx_a.bpf.o a_fentry failure
scx_b.bpf.o b_init success
scx_b.bpf.o b_tick flaky # success 1, failure 1, missing 0 of 2 runs
EOF
: >"$p/not-built.txt"
: >"$p/scx_a.bpf.o"
: >"$p/scx_b.bpf.o"

# run CASE: the checker on $tmp/CASE/*.csv; its stdout in $tmp/CASE.out,
# its exit status in $tmp/CASE.rc.
run() {
	local rc=0
	FAKE=$tmp/$1 SCX_OBJ_TIMEOUT=${SCX_OBJ_TIMEOUT:-300} busybox sh "$p/run-guest.sh" >"$tmp/$1.out" 2>"$tmp/$1.err" || rc=$?
	echo "$rc" >"$tmp/$1.rc"
	sed 's/^/# '"$1"': /' "$tmp/$1.out"
}
# fake CASE OBJECT PROG,VERDICT...: the canned output of one object.
fake() {
	mkdir -p "$tmp/$1"
	local c=$1 o=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/$c/$o.csv"
}
rc_of() { cat "$tmp/$1.rc"; }

# 1. Every verdict as on the baseline (the flaky one either way): passes.
fake same scx_a a_init,success a_enqueue,success a_fentry,failure
fake same scx_b b_init,success b_tick,failure
run same
check same-passes "exit $(rc_of same), want 0" test "$(rc_of same)" = 0
check same-ok-lines "want 'ok 1 scx:scx_a' and 'ok 2 scx:scx_b'" \
	bash -c 'grep -qx "1..2" "$1" && grep -qx "ok 1 scx:scx_a" "$1" && grep -qx "ok 2 scx:scx_b" "$1"' _ "$tmp/same.out"
check flaky-reported-not-counted "no '# scx:scx_b: b_tick: flaky on the baseline' line" \
	grep -q '^# scx:scx_b: b_tick: flaky on the baseline .*failure here: not counted$' "$tmp/same.out"
check verdicts-on-stderr "no SCX-VERDICT lines for gen-expected.sh" \
	grep -qx 'SCX-VERDICT 1 scx_a.bpf.o a_init success 42' "$tmp/same.err"

# 2. The series refuses what the baseline verified: that object fails,
#    names the program and shows its verifier log; the other stays ok.
fake refused scx_a a_init,success a_enqueue,failure a_fentry,failure
fake refused scx_b b_init,success b_tick,success
run refused
check refused-fails "exit $(rc_of refused), want non-zero" test "$(rc_of refused)" != 0
check refused-not-ok "want 'not ok 1 scx:scx_a', 'ok 2 scx:scx_b'" \
	bash -c 'grep -qx "not ok 1 scx:scx_a" "$1" && grep -qx "ok 2 scx:scx_b" "$1"' _ "$tmp/refused.out"
check refused-names-program "no 'a_enqueue: expected success, got failure'" \
	grep -q '^# scx:scx_a: a_enqueue: expected success, got failure$' "$tmp/refused.out"
check refusals-counted "want 2 refusals in scx_a, none in scx_b" \
	bash -c 'grep -q "^# scx:scx_a: programs refused per run: 2;" "$1" && grep -q "^# scx:scx_b: programs refused per run: 0;" "$1"' _ "$tmp/refused.out"
check refused-shows-log "no verifier log line for a_enqueue (only for it)" \
	bash -c 'grep -q "^# scx:scx_a: a_enqueue: fake verifier log for a_enqueue" "$1" && ! grep -q "a_fentry: fake" "$1"' _ "$tmp/refused.out"

# 3. Loads where the baseline refused: a difference too (same, not green).
fake newly scx_a a_init,success a_enqueue,success a_fentry,success
fake newly scx_b b_init,success b_tick,success
run newly
check newly-loading-fails "want 'not ok 1 scx:scx_a' and a_fentry named" \
	bash -c 'grep -qx "not ok 1 scx:scx_a" "$1" && grep -q "a_fentry: expected failure, got success" "$1"' _ "$tmp/newly.out"

# 4. A program missing from the loader's output, one not in the list.
fake shape scx_a a_init,success a_fentry,failure
fake shape scx_b b_init,success b_tick,success b_new,success
run shape
check missing-program-fails "want a_enqueue reported missing and scx_a not ok" \
	bash -c 'grep -qx "not ok 1 scx:scx_a" "$1" && grep -q "a_enqueue: expected success, not verified" "$1"' _ "$tmp/shape.out"
check unexpected-program-fails "want b_new reported and scx_b not ok" \
	bash -c 'grep -qx "not ok 2 scx:scx_b" "$1" && grep -q "b_new: not in expected.txt (got success)" "$1"' _ "$tmp/shape.out"

# 5. An object that did not build fails with the build's reason (it is in
#    not-built.txt, not in the payload), even if the list never had it.
fake unbuilt scx_a a_init,success a_enqueue,success a_fentry,failure
fake unbuilt scx_b b_init,success b_tick,success
rm "$p/scx_b.bpf.o"
echo "scx_b clang failed on src/bpf/main.bpf.c" >"$p/not-built.txt"
echo "scx_c linking main.bpf.c+util.bpf.c failed" >>"$p/not-built.txt"
run unbuilt
check unbuilt-fails "exit $(rc_of unbuilt); want 1..3, not ok scx:scx_b and scx:scx_c with the reason" \
	bash -c 'grep -qx "1..3" "$1" && grep -qx "not ok 2 scx:scx_b" "$1" && grep -qx "not ok 3 scx:scx_c" "$1" &&
		grep -q "scx:scx_b: not in the payload (not built: clang failed on src/bpf/main.bpf.c)" "$1" && [ "$2" != 0 ]' \
	_ "$tmp/unbuilt.out" "$(rc_of unbuilt)"

# 6. A load that never ends is cut at the cap and fails as a timeout; a
#    load that fails outside any program is the pseudo-program -object-.
fake slow scx_a SLEEP
fake slow scx_b OBJ
: >"$p/scx_b.bpf.o"
: >"$p/not-built.txt"
SCX_OBJ_TIMEOUT=1 run slow
check timeout-not-ok "want 'not ok 1 scx:scx_a # timeout after 1 s'" \
	grep -qx "not ok 1 scx:scx_a # timeout after 1 s" "$tmp/slow.out"
check object-failure-is-a-verdict "want -object- failure in the SCX-VERDICT lines and scx_b not ok" \
	bash -c 'grep -qx "SCX-VERDICT 1 scx_b.bpf.o -object- failure 0" "$1" && grep -qx "not ok 2 scx:scx_b" "$2"' _ "$tmp/slow.err" "$tmp/slow.out"

# 7. A C scheduler run under load (its loader in bin/, run-sched.sh): the
#    run verdict is the pseudo-program -run-, compared like the others.
#    A fake run-sched.sh prints $FAKE/NAME.run.
p2=$tmp/payload-run
cp -r "$p" "$p2"
: >"$p2/not-built.txt"
: >"$p2/scx_b.bpf.o"
printf '#!/bin/sh\n' >"$p2/bin/scx_a"
chmod +x "$p2/bin/scx_a"
printf '#!/bin/sh\necho "# fake run of $1" >&2\ncat "$FAKE/$(basename "$1").run"\n' >"$p2/run-sched.sh"
echo "scx_a.bpf.o -run- enabled" >>"$p2/expected.txt"
for c in run-same run-ejected; do
	fake "$c" scx_a a_init,success a_enqueue,success a_fentry,failure
	fake "$c" scx_b b_init,success b_tick,success
done
echo enabled >"$tmp/run-same/scx_a.run"
echo ejected >"$tmp/run-ejected/scx_a.run"
for c in run-same run-ejected; do
	rc=0
	FAKE=$tmp/$c busybox sh "$p2/run-guest.sh" >"$tmp/$c.out" 2>"$tmp/$c.err" || rc=$?
	echo "$rc" >"$tmp/$c.rc"
	sed "s/^/# $c: /" "$tmp/$c.out"
done
check run-as-on-baseline-passes "exit $(rc_of run-same), want 0 and the run in the verdicts" \
	bash -c '[ "$1" = 0 ] && grep -qx "SCX-VERDICT 1 scx_a.bpf.o -run- enabled 0" "$2"' _ "$(rc_of run-same)" "$tmp/run-same.err"
check run-ejected-fails "want 'not ok 1 scx:scx_a' and '-run-: expected enabled, got ejected'" \
	bash -c 'grep -qx "not ok 1 scx:scx_a" "$1" && grep -q "^# scx:scx_a: -run-: expected enabled, got ejected$" "$1"' _ "$tmp/run-ejected.out"

# 8. gen-expected.sh: two runs that disagree make "flaky"; one run is
#    refused (flakiness could not be seen).
printf '%s\n' "junk" "SCX-VERDICT 1 x.bpf.o p success" "SCX-VERDICT 1 x.bpf.o q failure" \
	"SCX-VERDICT 2 x.bpf.o p success" "SCX-VERDICT 2 x.bpf.o q success" >"$tmp/base.log"
rc=0
"$s/gen-expected.sh" "$tmp/base.log" >"$tmp/gen.txt" 2>"$tmp/gen.err" || rc=$?
check gen-expected-flaky "exit $rc; got: $(grep -v '^#' "$tmp/gen.txt" | paste -sd'|' -)" \
	bash -c '[ "$1" = 0 ] && grep -qx "x.bpf.o p success" "$2" &&
		grep -qx "x.bpf.o q flaky # failure 1, success 1, missing 0 of 2 runs" "$2"' _ "$rc" "$tmp/gen.txt"
grep -v ' 2 ' "$tmp/base.log" >"$tmp/one.log"
rc=0
"$s/gen-expected.sh" "$tmp/one.log" >/dev/null 2>"$tmp/one.err" || rc=$?
check gen-expected-wants-two-runs "exit $rc: $(cat "$tmp/one.err")" \
	bash -c '[ "$1" != 0 ] && grep -q "want at least 2" "$2"' _ "$rc" "$tmp/one.err"

# 9. The committed list: OBJECT PROGRAM VERDICT lines only, and its objects
#    are the schedulers build.sh makes (scheds/c and the Rust src/bpf dirs
#    of the tarball, as its README lists them).
bad=$(grep -v '^#' "$s/expected.txt" | awk 'NF < 3 || $1 !~ /\.bpf\.o$/ || $3 !~ /^(success|failure|skipped|flaky|enabled|not-enabled|ejected|stuck)$/ || (NF > 3 && $4 != "#")')
check expected-well-formed "bad lines: $bad" test -z "$bad"
objs=$(grep -v '^#' "$s/expected.txt" | awk '{ print $1 }' | sort -u | paste -sd' ' -)
want="scx_bpfland.bpf.o scx_central.bpf.o scx_flash.bpf.o scx_flatcg.bpf.o scx_lavd.bpf.o scx_layered.bpf.o scx_mitosis.bpf.o scx_nest.bpf.o scx_pair.bpf.o scx_qmap.bpf.o scx_rusty.bpf.o scx_sdt.bpf.o scx_simple.bpf.o scx_userland.bpf.o"
check expected-names-every-object "objects: $objs" test "$objs" = "$want"
done_testing
