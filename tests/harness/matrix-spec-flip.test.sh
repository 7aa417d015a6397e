#!/usr/bin/env bash
# The matrix spec is checked against 6.12's source (selftests/matrix/gen.py
# --ref, the host-side part of the matrix that can fail without a guest; the
# guest's scxk matrix compares the loads with the spec): the real lists pass,
# and each flip below, made in a copy, must fail naming its cell(s) and only
# them. No kernel build, no QEMU: 6.12's kernel/sched/ext.c comes from
# selftests/matrix/ref-ext.sh (the pristine tree in CACHE_DIR, or
# SCXK_REF_EXT); without one, every check is a skip.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

names=(pristine-passes cell-flip setter-unmarked task-cgroup-plain-a class-flip
	departure-where-612-agrees reason-dropped)
if ! "$top/selftests/matrix/ref-ext.sh" >"$tmp/ext.c" 2>"$tmp/why"; then
	for t in "${names[@]}"; do skip "$t" "$(cat "$tmp/why")"; done
	exit 0
fi

# gen: run gen.py from a fresh copy after the sed edit "$2" of file "$1"
gen() {
	rm -rf "$tmp/m" && mkdir "$tmp/m" && cp -r "$top/selftests/matrix" "$tmp/m/matrix"
	[ $# -eq 0 ] || sed -i "$2" "$tmp/m/matrix/$1"
	cmp -s "$tmp/m/matrix/${1:-spec}" "$top/selftests/matrix/${1:-spec}" && [ $# -gt 0 ] &&
		{ echo "# the edit '$2' changed nothing in $1" && return 2; }
	rc=0
	python3 "$tmp/m/matrix/gen.py" --ref "$tmp/ext.c" \
		--cases "$top/selftests/cases/cases.list" >"$tmp/out" 2>&1 || rc=$?
	sed 's/^/#   /' "$tmp/out"
}
# flipped NAME N REGEX: gen.py failed, with exactly N problem lines, all
# matching REGEX (the flipped cells and nothing else)
flipped() {
	local name=$1 want=$2 re=$3 lines
	lines=$(grep '^gen.py: ' "$tmp/out" | grep -cv ' problem(s)$' || true)
	if [ "$rc" != 0 ] && [ "$lines" = "$want" ] &&
		[ "$(grep '^gen.py: ' "$tmp/out" | grep -v 'problem(s)$' | grep -cvE "$re" || true)" = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "want gen.py to fail with $want lines matching '$re', got exit $rc and $lines lines"
	fi
}

gen
check pristine-passes "gen.py fails on the real lists (exit $rc)" test "$rc" = 0

# enqueue may not call scx_bpf_consume() & co: R -> A on the enqueue row,
# dispatch column (3 kfuncs in the class; and the 2 cases.list lines whose
# negative op is that cell)
gen spec '/^enqueue /{s/^\(enqueue \+R \+A \+\)R /\1A /}'
flipped cell-flip 5 'spec: enqueue x dispatch \(scx_bpf_(dispatch_nr_slots|dispatch_cancel|consume)\): says A, 6.12.s rule gives R|cases.list:[0-9]+: [a-z-]+: the spec says A for scx_bpf_consume in enqueue, not R'

# the setters as 6.12 checking them: the '*' dropped on enqueue's R*
gen spec '/^enqueue /s/R\* /R  /'
flipped setter-unmarked 2 'spec: enqueue x dsq_move_setter \(scx_bpf_dispatch_from_dsq_set_(slice|vtime)\): says R, 6.12.s rule gives A'

# scx_bpf_task_cgroup() as plain A in an unlocked op (the old spec)
gen spec '/^init /s/ Ar$/ A/'
flipped task-cgroup-plain-a 1 'spec: init x task_arg \(scx_bpf_task_cgroup\): says A, 6.12.s rule gives Ar'

# scx_bpf_task_cgroup() in the any class (no run-time check)
gen kfuncs.list 's/^\(scx_bpf_task_cgroup *| \)task_arg/\1any     /'
flipped class-flip 1 "kfuncs.list: scx_bpf_task_cgroup is 'any' \(-\) but 6.12's body checks on_arg_tasks\(__RQ_LOCKED\)"

# a departure where 6.12 agrees: dispatch x dispatch A*
gen spec '/^dispatch /s/^\(dispatch \+R \+A \+\)A /\1A*/'
flipped departure-where-612-agrees 3 'spec: dispatch x dispatch \(scx_bpf_\w+\): marked as a departure'

# cgroup_move's departures without their reason (its dsq_move_setter cells
# keep the column's)
gen spec '/^cgroup_move /s/ *|.*//'
flipped reason-dropped 4 'spec: cgroup_move x (dsq_move|unlocked|task_arg) \(\w+\): departure \w+\* without a reason'
done_testing
