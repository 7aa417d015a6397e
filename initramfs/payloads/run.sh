#!/bin/sh
# The "run" payload (make run CMD='...'): one shell command, given
# base64-encoded as scx.cmd= on the kernel command line, run in the guest
# with the tools of the shell payload at hand; its exit status becomes the
# guest's (SCX-GUEST-EXIT), which make run exits with.
cmd=
# shellcheck disable=SC2013 # /proc/cmdline is one line of blank-separated words
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	scx.cmd=*) cmd=$(echo "${arg#scx.cmd=}" | base64 -d) ;;
	esac
done
if [ -z "$cmd" ]; then
	echo "run: no scx.cmd= on the kernel command line (make run CMD='...')"
	exit 2
fi
cd /root 2>/dev/null || cd /
echo "run: $cmd"
sh -c "$cmd"
