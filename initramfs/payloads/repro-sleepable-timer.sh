#!/bin/sh
# The "repro-sleepable-timer" payload (scripts/repro-sleepable-timer.sh): a
# scheduler whose sleepable ops.init() arms a bpf_timer whose callback calls
# scx_bpf_create_dsq() (KF_SLEEPABLE: a GFP_KERNEL allocation). The series
# (its backport of upstream 469d638d1520) refuses the program at load: the
# callback runs in the timer softirq and is not sleepable. 6.12.118 verifies
# the callback as sleepable, loads and attaches the scheduler, and the
# callback allocates in softirq: on the debug kernel lockdep reports
# fs_reclaim taken in softirq and __might_sleep() "sleeping function called
# from invalid context", and the scheduler stays enabled.
obj=/selftests/async/create-dsq-from-init-timer.bpf.o
kfunc=scx_bpf_create_dsq
scxk=/selftests/bin/scxk
{ [ -x "$scxk" ] && [ -f "$obj" ]; } || {
	echo "REPRO: error: $scxk or $obj missing from the initramfs"
	exit 2
}
if "$scxk" sleep "$obj" "$kfunc" async_ops; then
	echo "REPRO: refused at load"
	exit 0
fi
echo "REPRO: loaded; attaching it: ops.init() arms a bpf_timer whose callback calls $kfunc()"
# scxk async-run: attach, 5 s under load (it reports a state that leaves
# "enabled"), the callback's counts, detach. Its own status is 1 on the
# baseline debug kernel (it finds the splats in the kernel log), so the
# verdict here is read from what it printed.
out=/tmp/repro-async-run.out
{
	"$scxk" async-run "$obj" 5 ok
	echo "$?" >"$out.rc"
} | tee "$out"
rc=$(cat "$out.rc")
if grep -qE '^# (state left "enabled"|state is ")' "$out"; then
	echo "REPRO: the scheduler did not stay enabled (scxk async-run exited $rc)"
	exit 1
fi
n=$(sed -n 's/.*the callback made the call [0-9]* times, \([0-9]*\) succeeded.*/\1/p' "$out" | tail -n 1)
if [ "${n:-0}" -le 0 ]; then
	echo "REPRO: the callback's $kfunc() never succeeded (scxk async-run exited $rc)"
	exit 1
fi
echo "REPRO: stayed enabled; $kfunc() from the bpf_timer callback succeeded $n time(s) (scxk async-run exited $rc)"
exit 0
