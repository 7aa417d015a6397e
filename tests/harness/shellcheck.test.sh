#!/usr/bin/env bash
# scripts/shellcheck.sh, the shell lint gate: the tree passes it, and it
# can fail: an unquoted variable and a "disable=" that gives no reason are
# each reported, by file and line, with a non-zero exit; a disable= that
# says why is accepted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gate=$top/scripts/shellcheck.sh

if ! command -v shellcheck >/dev/null; then
	# Not a pass: the gate cannot run (scripts/install-deps.sh installs it).
	not_ok tree-passes "shellcheck is not installed"
	done_testing
	exit
fi

rc=0
"$gate" >"$tmp/tree.out" 2>&1 || rc=$?
check tree-passes "scripts/shellcheck.sh exited $rc: $(grep -v '^#' "$tmp/tree.out" | head -5)" \
	test "$rc" -eq 0

# The deliberate mistakes, one per file, at known lines.
cat >"$tmp/unquoted.sh" <<'EOF'
#!/usr/bin/env bash
f=$1
ls $f
EOF
# The directives are put in by sed: written out in a here-document, they
# would be lines of this file, and the gate would read the reasonless one.
cat >"$tmp/no-reason.sh" <<'EOF'
#!/bin/sh
f=$1
# DIRECTIVE
ls $f
EOF
sed 's/^# DIRECTIVE$/# shellcheck disable=SC2086 # f is a list of names: split on purpose/' \
	"$tmp/no-reason.sh" >"$tmp/with-reason.sh"
sed -i 's/^# DIRECTIVE$/# shellcheck disable=SC2086/' "$tmp/no-reason.sh"
rc=0
(cd "$tmp" && "$gate" unquoted.sh no-reason.sh with-reason.sh) >"$tmp/bad.out" 2>&1 || rc=$?
sed 's/^/# /' "$tmp/bad.out"
check gate-fails "scripts/shellcheck.sh exited $rc on the deliberate mistakes" test "$rc" -eq 1
check names-unquoted "no 'unquoted.sh: ... SC2086 at 3' line" \
	grep -qE '^unquoted\.sh: 1 warning: SC2086 at 3$' "$tmp/bad.out"
check names-no-reason "no 'disable= without a reason at no-reason.sh:3' line" \
	grep -qE '^no-reason\.sh: 1 warning: disable= without a reason at no-reason\.sh:3$' "$tmp/bad.out"
check reason-accepted "with-reason.sh was reported" \
	test -z "$(grep '^with-reason\.sh:' "$tmp/bad.out" || true)"
done_testing
