#!/bin/sh
# The "shell" payload: an interactive shell on the console with job control
# (cttyhack gives it a controlling tty). Leaving it powers the VM off.
cat <<'MSG'

scx-kfilter guest shell. At hand:
  runner                 sched_ext selftests (runner -h)
  scx_simple scx_qmap scx_central scx_flatcg   example schedulers
  bpftool                state: cat /sys/kernel/sched_ext/state
  /selftests             the project's guest tests (if built)
Type 'exit' (or Ctrl-D) to power off; Ctrl-A x kills QEMU.

MSG
cd /root 2>/dev/null || cd /
setsid cttyhack sh -l
exit 0
