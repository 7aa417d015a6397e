#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh <patched|baseline> - the sched_ext kfunc-filter tests, in the
# guest (busybox sh).  KTAP on stdout: "ok N name" / "not ok N name",
# diagnostics as "# " lines.  Exit status 0 if every test passed.
#
#   matrix                 every sched_ext_ops member x every sched_ext kfunc
#                          loaded (never attached), compared with the spec
#                          (patched: refusals naming the op) or with 6.12's
#                          loads (baseline: the spec's R cells, exactly,
#                          load there); a loaded cell must have its fd
#   callsite:<site>@<op>   every sched_ext kfunc called from a call site
#                          (direct, static or global function, bpf_loop,
#                          bpf_timer or bpf_wq callback) in an arming op
#                          (tick, dispatch, init), loaded, compared with
#                          matrix/callsite.spec (patched) or 6.12's rules
#                          (baseline: differing from the spec exactly in its
#                          R cells)
#   neg:<case>             (patched) the negative scheduler is refused at load
#                          time, the log naming the kfunc and the op
#   baseline-diff:<case>   (baseline) what 6.12 does with the same scheduler:
#                          ejected at run time (or as cases.list says)
#   pos:<twin>             the same call from an allowed op: loads, attaches,
#                          runs under load, detaches
#   async:<case>           a kfunc called from a bpf_timer or bpf_wq callback
#                          armed in an op, per async/async.list: refused at
#                          load time (patched), ejected when the callback runs
#                          (baseline), or loads and runs on both
#   prog:<name>            sched_ext kfuncs from syscall, fentry and
#                          bpf_dummy_ops programs
#   freplace:<case>        scx_bpf_consume() from an extension, judged as
#                          the member whose function it replaces, or as the
#                          timer callback that function runs in
#   intree-diff:<test>     (baseline) the series' new in-tree tests, from
#                          the patched tree (runner-patched), on 6.12: they
#                          fail or pass as intree-diff/intree-diff.list says
#   ext:tail-task-cgroup   scx_bpf_task_cgroup() from a program ops.enqueue
#                          tail-calls: works on both kernels
#   ext:task-cgroup        scx_bpf_task_cgroup() from an extension attached
#                          while its scheduler runs: works on both kernels,
#                          twice, around a scheduler calling it itself
#   ext:task-cgroup-ops    scx_bpf_task_cgroup() from every task op the
#                          spec marks At, each on its own task, under a load
#                          that reaches every op: works on both kernels
#   prog:syscall-move      a SYSCALL program moves a task its scheduler
#                          parked on a DSQ it never consumes (the task runs
#                          only after the move): both kernels
#   prog:tracing-task-cgroup  scx_bpf_task_cgroup() from a tp_btf program
#                          on the woken task: loads, and the running
#                          scheduler is ejected with the kernel's run-time
#                          message (the series: "called on a task not being
#                          operated on"; 6.12: "kfunc with mask")
#
# SCXK_SECS (default 1): seconds of load for each attached scheduler.
# SCX_T (make check T=PATTERN): only the tests whose name PATTERN selects
# (initramfs/t-glob.sh) run; the others are left out, not reported, and a
# family none of whose names can match (matrix, callsite, cases, async,
# progs, intree) is not even listed.

V=${1:-}
case "$V" in
patched|baseline) ;;
*) echo "usage: $0 patched|baseline" >&2; exit 2 ;;
esac
# want <family>: T= may select one of its tests (by their names' prefixes)
want() {
	case "$1" in
	matrix) scx_t_suite matrix ;;
	callsite) scx_t_suite callsite ;;
	cases) scx_t_suite neg baseline-diff pos ;;
	async) scx_t_suite async ;;
	progs) scx_t_suite prog freplace ext ;;
	intree) scx_t_suite intree-diff ;;
	esac
}
D=$(cd "$(dirname "$0")" && pwd)
X=$D/bin/scxk
# The variant (Makefile's table): what async.list's columns are keyed by.
VN=$(cat /scx/variant-name 2>/dev/null || true)
[ -n "$VN" ] || { [ "$V" = baseline ] && VN=baseline || VN=core; }
# What the kernel's refusals name after "is not allowed" (scxk's ctx_want()):
# the variant table's refusal column, baked into the payload.
if [ -s /scx/refusal ]; then
	SCXK_REFUSAL=$(cat /scx/refusal)
	export SCXK_REFUSAL
fi
SECS=${SCXK_SECS:-1}
T0=$(cut -d' ' -f1 /proc/uptime)

# the '|'-separated lists as space-separated fields, comments dropped
fields() {
	grep -v '^#' "$1" | awk -F'|' 'NF > 1 {
		for (i = 1; i <= NF; i++) { gsub(/^[ \t]+|[ \t]+$/, "", $i); printf "%s ", $i }
		print "" }'
}

# a hung test (a deadlock is a possible failure) must not hang the run:
# LIMIT seconds per test (the matrix gets MATRIX_LIMIT)
TO=
timeout 5 true 2>/dev/null && TO=timeout
LIMIT=120
MATRIX_LIMIT=900

# The guest's KTAP writer: scx_t_wants NAME (SCX_T selects it), ktap_plan,
# ktap_ok, ktap_not_ok, ktap_fail, each result numbered and counted there.
# shellcheck source=../initramfs/ktap.sh # the build installs it there
. /scx/ktap.sh
# t NAME CMD...: run one test, if selected (rc=skip when not)
t() {
	tn=$1
	shift
	if ! scx_t_wants "$tn"; then
		rc=skip
		return 0
	fi
	${TO:+$TO $LIMIT} "$@" </dev/null
	rc=$?
	if [ $rc -eq 0 ]; then
		ktap_ok "$tn"
	else
		ktap_not_ok "$tn" "$([ $rc -ne 124 ] || echo timed out)"
	fi
}

TMP=${TMPDIR:-/tmp}/scxk.$$
mkdir -p "$TMP"
: > "$TMP/cases"
: > "$TMP/progs"
: > "$TMP/async"
: > "$TMP/groups"
want cases && fields "$D/cases/cases.list" > "$TMP/cases"
want progs && fields "$D/progs/progs.list" > "$TMP/progs"
# freplace:<case>: scx_bpf_consume() from an extension of a sched_ext
# program's global function, the one ops.dispatch or ops.enqueue calls, or
# one only a timer callback armed in ops.dispatch calls: the series holds
# extensions to the any group, as tracing programs, and the refusal names
# no member ("-"); 6.12 loads them all
# (name function where patched baseline)
: > "$TMP/freplace"
want progs && cat > "$TMP/freplace" <<'LIST'
dispatch-global tgt_dsp - refuse load
enqueue-global tgt_enq - refuse load
dispatch-timer-global tgt_tmr - refuse load
LIST
# ext:tail-task-cgroup: scx_bpf_task_cgroup() from a program ops.enqueue
# tail-calls (6.12 runs it), and ext:task-cgroup: from an extension
# attached while its scheduler runs, also after a scheduler that calls it
# from its own ops.enqueue was enabled and disabled: the series keeps
# 6.12's kf_tasks, and neither may break (a kernel that recorded kf_tasks
# only around the ops whose own program calls the kfunc would)
next=0
want progs && next=1
want async && grep -v '^#' "$D/async/async.list" | grep '|' > "$TMP/async"
if want callsite; then
	while read -r g; do
		scx_t_wants "callsite:$g" && echo "$g"
	done < "$D/callsite/groups" > "$TMP/groups"
fi
nmatrix=0
want matrix && nmatrix=1
# intree-diff:<test>: the list's lines T= selects, for intree-diff.sh
: > "$TMP/intree"
: > "$TMP/intree-list"
if [ "$V" = baseline ] && want intree; then
	grep -v '^#' "$D/intree-diff/intree-diff.list" | grep '|' |
		while IFS='|' read -r name rest; do
			name=$(echo "$name" | tr -d ' \t')
			scx_t_wants "intree-diff:$name" && echo "$name |$rest"
		done > "$TMP/intree-list"
	cut -d'|' -f1 "$TMP/intree-list" | tr -d ' \t' > "$TMP/intree"
fi

# The plan, before any test runs: the names of every test the lists above
# hold, as the loops below name them, counted when T= selects them.
neg=neg
[ "$V" = baseline ] && neg="baseline-diff"
planned=$(
	[ $nmatrix -eq 1 ] && echo matrix
	sed 's/^/callsite:/' "$TMP/groups"
	awk -v neg="$neg" '{ print neg ":" $1; print "pos:" $5 }' "$TMP/cases"
	awk -F'|' '{ gsub(/[ \t]/, "", $1); print "async:" $1 }' "$TMP/async"
	awk '{ print "prog:" $1 }' "$TMP/progs"
	awk '{ print "freplace:" $1 }' "$TMP/freplace"
	[ $next -eq 1 ] && echo ext:tail-task-cgroup
	[ $next -eq 1 ] && echo ext:task-cgroup
	[ $next -eq 1 ] && echo ext:task-cgroup-ops
	[ $next -eq 1 ] && echo prog:syscall-move
	[ $next -eq 1 ] && echo prog:tracing-task-cgroup
	sed 's/^/intree-diff:/' "$TMP/intree"
)
# shellcheck disable=SC2086 # one word per test name (names have no blanks)
plan=$(ktap_plan $planned)
cpus=$(cat /sys/devices/system/cpu/online)
echo "# sched_ext kfunc filters: $V kernel $(uname -r), CPUs $cpus," \
	"${plan#1..} tests${SCX_T:+ (T=$SCX_T)}"
echo "$plan"
[ "$cpus" = 0 ] && echo "# only one CPU: ops.select_cpu never runs (tasks cannot move), pos:select-cpu-* fails"

[ -e /sys/kernel/sched_ext/state ] || echo "# no /sys/kernel/sched_ext: is CONFIG_SCHED_CLASS_EXT set?"
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null ||
	echo "# no cgroup2 at /sys/fs/cgroup: the cgroup ops will not run"

want matrix && LIMIT=$MATRIX_LIMIT t matrix "$X" matrix "$D/matrix" "$V"

# callsite:<site>@<op>: one scxk run loads the whole call-site matrix and
# writes one result per call site and arming op; each is a test here
if want callsite && [ -s "$TMP/groups" ]; then
	sed 's/^/# callsite: known: /' "$D/callsite/known"
	${TO:+$TO $MATRIX_LIMIT} "$X" callsite "$D/callsite" "$VN" "$TMP/callsite" </dev/null
	rc=$?
	[ $rc -eq 124 ] && echo "# callsite: timed out"
	[ -f "$TMP/callsite" ] || : > "$TMP/callsite"
	cfailed=$(ktap_failures)
	while read -r g; do
		r=$(awk -v g="$g" '($1 == "ok" && $2 == g) || ($1 == "not" && $3 == g)' "$TMP/callsite")
		case "$r" in
		"ok $g "*) ktap_ok "callsite:$g" "${r#"ok $g "}" ;;
		"not ok $g "*) ktap_fail "callsite:$g" "${r#"not ok $g "}" ;;
		*) ktap_fail "callsite:$g" "no result: scxk callsite exited $rc" ;;
		esac
	done < "$TMP/groups"
	# scxk failed, yet every group passed: say so rather than lose it (a
	# name T= cannot select: reported whatever it says)
	if [ $rc -ne 0 ] && [ "$(ktap_failures)" -eq "$cfailed" ]; then
		t_=${SCX_T:-}
		SCX_T=
		ktap_fail callsite "scxk callsite exited $rc"
		SCX_T=$t_
	fi
fi

# one line per negative case for the differential, printed after the cases
: > "$TMP/diff"
while read -r name op kfunc twinop twin baseline; do
	obj=$D/cases/$name.bpf.o
	case "$V:$baseline" in
	patched:*) what="caught at load time"
		t "neg:$name" "$X" neg "$obj" "$op" "$kfunc" ;;
	baseline:runtime) what="caught at run time"
		t "baseline-diff:$name" "$X" runtime "$obj" 3 ;;
	baseline:sleep) what="caught at load time (not sleepable)"
		t "baseline-diff:$name" "$X" sleep "$obj" "$kfunc" ;;
	baseline:allowed) what="not caught (the run-time mask allows it: a departure)"
		t "baseline-diff:$name" "$X" load "$obj" ;;
	baseline:unreached) what="loads: the call is behind a flag 6.12 never sees set"
		t "baseline-diff:$name" "$X" load "$obj" ;;
	*) what="unknown: cases.list says '$baseline'"
		t "baseline-diff:$name" false ;;
	esac
	case $rc in
	skip) ;;
	0) echo "# $name: $V: $what" >> "$TMP/diff" ;;
	*) echo "# $name: $V: FAILED to check: $what" >> "$TMP/diff" ;;
	esac
	t "pos:$twin" "$X" pos "$obj" "$SECS" "$twinop"
done < "$TMP/cases"
if want cases && [ -s "$TMP/diff" ]; then
	echo "# ===== negative cases on the $V kernel ====="
	cat "$TMP/diff"
	echo "# ====="
fi

# async:<case>: the kfunc call is made from a bpf_timer or bpf_wq callback,
# outside the op that armed it; async.list says per kernel what must happen
trim() { echo "$1" | sed 's/^[ \t]*//; s/[ \t]*$//'; }
while IFS='|' read -r name op cb kfunc fn cexp fexp bexp; do
	name=$(trim "$name") op=$(trim "$op") cb=$(trim "$cb") kfunc=$(trim "$kfunc") fn=$(trim "$fn")
	[ -n "$name" ] || continue
	scx_t_wants "async:$name" || continue
	[ "$fn" = - ] && fn=
	case $VN in
	baseline) exp=$(trim "$bexp") ;;
	full) exp=$(trim "$fexp") ;;
	*) exp=$(trim "$cexp") ;;
	esac
	obj=$D/async/$name.bpf.o
	via=${fn:+, in global function $fn}
	echo "# async:$name: $kfunc from a $cb callback armed in ops.$op$via: $exp"
	case "$exp" in
	refuse) t "async:$name" "$X" async-refuse "$obj" "$op" "$cb" "$kfunc" ${fn:+"$fn"} ;;
	sleep) t "async:$name" "$X" sleep "$obj" "$kfunc" async_ops ;;
	runtime:?*) t "async:$name" "$X" async-runtime "$obj" "$SECS" "${exp#runtime:}" ;;
	run:?*) t "async:$name" "$X" async-run "$obj" "$SECS" "${exp#run:}" ;;
	*) echo "# async.list: unknown expectation '$exp'"
		t "async:$name" false ;;
	esac
done < "$TMP/async"

while read -r name prog baseline patched kfunc; do
	if [ "$V" = patched ]; then expect=$patched; else expect=$baseline; fi
	t "prog:$name" "$X" prog "$D/progs/progs.bpf.o" "$prog" "$expect" "$kfunc"
done < "$TMP/progs"

while read -r name func op patched baseline; do
	if [ "$V" = patched ]; then expect=$patched; else expect=$baseline; fi
	t "freplace:$name" "$X" freplace "$D/progs/freplace-target.bpf.o" \
		"$D/progs/freplace-ext.bpf.o" ext_consume "$func" "$expect" scx_bpf_consume "$op"
done < "$TMP/freplace"

[ $next -eq 1 ] && t "ext:tail-task-cgroup" "$X" tail-task-cgroup \
	"$D/progs/task-cgroup-tailcall.bpf.o" "$SECS"
[ $next -eq 1 ] && t "ext:task-cgroup" "$X" ext-task-cgroup "$D/progs/task-cgroup-target.bpf.o" \
	"$D/progs/task-cgroup-ext.bpf.o" "$SECS"
[ $next -eq 1 ] && t "ext:task-cgroup-ops" "$X" task-cgroup-ops "$D/progs/task-cgroup-ops.bpf.o" "$SECS"
[ $next -eq 1 ] && t "prog:syscall-move" "$X" syscall-move "$D/progs/syscall-move.bpf.o"
# the run-time check's message: the series' kf_tasks check, 6.12's mask check
tct_msg="called on a task not being operated on"
[ "$V" = baseline ] && tct_msg="kfunc with mask"
[ $next -eq 1 ] && t "prog:tracing-task-cgroup" "$X" task-cgroup-trace \
	"$D/progs/task-cgroup-trace.bpf.o" "$tct_msg"

# intree-diff:<test>: one intree-diff.sh run checks the selected ones
if [ -s "$TMP/intree" ]; then
	${TO:+$TO $MATRIX_LIMIT} "$D/intree-diff/intree-diff.sh" "$TMP/intree-list" \
		"$D/matrix/cells.tsv" "$TMP/intree-res" </dev/null
	[ -f "$TMP/intree-res" ] || : > "$TMP/intree-res"
	while read -r v rest; do
		[ "$v" = ok ] || rest=${rest#ok }
		# "NAME # NOTE" or "NAME"
		tn=${rest%% *} note=
		case "$rest" in
		*" # "*) note=${rest#*" # "} ;;
		esac
		if [ "$v" = ok ]; then
			ktap_ok "intree-diff:$tn" "$note"
		else
			ktap_fail "intree-diff:$tn" "$note"
		fi
	done < "$TMP/intree-res"
fi

rm -rf "$TMP"
T1=$(cut -d' ' -f1 /proc/uptime)
echo "# $V: $(ktap_count) tests, $(ktap_failures) failed, $(awk "BEGIN { print $T1 - $T0 }") s"
ktap_done
