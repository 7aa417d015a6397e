#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ref-ext.sh [<kernel tree>] > ext.c - print 6.12's unpatched
# kernel/sched/ext.c, the source gen.py checks the matrix spec against
# (--ref), whichever kernel is being built.  The first of:
#   $SCXK_REF_EXT                 a file
#   <kernel tree>'s root commit   the pipeline's build trees are git
#                                 worktrees of the pristine tree, whose one
#                                 commit is "pristine <source>"
#   $CACHE_DIR/pristine/*/        that pristine tree itself (HEAD)
# Exits 1 with one line on stderr if none is there.
set -euo pipefail
if [ -n "${SCXK_REF_EXT:-}" ]; then
	exec cat "$SCXK_REF_EXT"
fi
if [ $# -ge 1 ] && git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
	root=$(git -C "$1" rev-list --max-parents=0 HEAD | head -n 1)
	if [[ $(git -C "$1" log -1 --format=%s "$root") == "pristine "* ]]; then
		exec git -C "$1" show "$root:kernel/sched/ext.c"
	fi
fi
for p in "${CACHE_DIR:-$HOME/.cache/scx-kfilter}"/pristine/*/; do
	if [ -e "$p/.git" ] && [[ $(git -C "$p" log -1 --format=%s) == "pristine "* ]]; then
		exec git -C "$p" show HEAD:kernel/sched/ext.c
	fi
done
echo "ref-ext.sh: no 6.12 kernel/sched/ext.c: set SCXK_REF_EXT, or build a kernel first (make kernel)" >&2
exit 1
