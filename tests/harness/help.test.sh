#!/usr/bin/env bash
# `make help` and the README's targets and variables tables name the same
# things: every target and variable one lists, the other lists too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"

help=$(make -s -C "$top" --no-print-directory help)
readme=$top/README.md

# targets: "make <name>" in help; "| `make <name>" rows in the README
help_targets=$(grep -oE 'make [a-z][a-z-]*' <<<"$help" | awk '{ print $2 }' | sort -u)
# shellcheck disable=SC2016 # the backquotes are the README's Markdown
readme_targets=$(grep -oE '^\| `make [a-z][a-z-]*`?( / `make [a-z][a-z-]*)?' "$readme" |
	grep -oE 'make [a-z][a-z-]*' | awk '{ print $2 }' | sort -u)
# variables: upper-case words in help's Variables block; the README's
# variable table rows (first column, possibly several names)
help_vars=$(sed -n '/^# Variables/,/^# See/p' <<<"$help" | grep -v '^# See' | grep -oE '\b[A-Z][A-Z_]*\b' | sort -u)
readme_vars=$(grep -E '^\| `[A-Z]' "$readme" | cut -d'|' -f2 | grep -oE '\b[A-Z][A-Z_]*\b' | sort -u)

# same NAME WHAT A B: the two lists agree, else the names missing on each side
same() {
	local only_a only_b
	only_a=$(comm -23 <(echo "$3") <(echo "$4") | paste -sd' ' -)
	only_b=$(comm -13 <(echo "$3") <(echo "$4") | paste -sd' ' -)
	if [ -z "$only_a$only_b" ]; then
		ok "$1"
	else
		not_ok "$1" "$2: only in make help: ${only_a:-none}; only in README.md: ${only_b:-none}"
	fi
}
check help-has-targets "make help lists no target" test -n "$help_targets"
check readme-has-targets "README.md lists no target" test -n "$readme_targets"
same targets-agree "targets" "$help_targets" "$readme_targets"
same variables-agree "variables" "$help_vars" "$readme_vars"
done_testing
