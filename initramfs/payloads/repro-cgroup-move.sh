#!/bin/sh
# The "repro-cgroup-move" payload (scripts/repro-cgroup-move.sh): a scheduler
# whose ops.cgroup_move() calls scx_bpf_dispatch_from_dsq(), attached while a
# task is moved between cgroups. The patched kernel refuses the program at
# load. 6.12.118 loads it, and the CPU doing the first move spins forever on
# the rq lock sched_move_task() already holds: nothing more is printed, and
# the host finds the vCPUs in the spinlock slow path.
obj=/selftests/cases/dispatch-from-dsq-from-cgroup-move.bpf.o
# what the variant's refusals name (scxk's ctx_want(), as run-guest.sh)
if [ -s /scx/refusal ]; then
	SCXK_REFUSAL=$(cat /scx/refusal)
	export SCXK_REFUSAL
fi
scxk=/selftests/bin/scxk
{ [ -x "$scxk" ] && [ -f "$obj" ]; } || {
	echo "REPRO: error: $scxk or $obj missing from the initramfs"
	exit 2
}
if "$scxk" neg "$obj" cgroup_move scx_bpf_dispatch_from_dsq; then
	echo "REPRO: refused at load"
	exit 0
fi
echo "REPRO: loaded; attaching it and moving a task between cgroups"
"$scxk" runtime "$obj" 5
echo "REPRO: no hang (scxk runtime exited $?)"
exit 1
