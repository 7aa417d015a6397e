#!/usr/bin/env bash
# `make help` and the targets and variables tables of docs/harness.md name
# the same things: every target and variable one lists, the other lists
# too. The README's tables keep the few most people need: each name there
# must exist in make help.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"

help=$(make -s -C "$top" --no-print-directory help)
readme=$top/README.md
doc=$top/docs/harness.md

# targets: "make <name>" in help; "| `make <name>" rows in a Markdown table
help_targets=$(grep -oE 'make [a-z][a-z-]*' <<<"$help" | awk '{ print $2 }' | sort -u)
table_targets() {
	# shellcheck disable=SC2016 # the backquotes are Markdown
	grep -oE '^\| `make [a-z][a-z-]*`?( / `make [a-z][a-z-]*)*' "$1" |
		grep -oE 'make [a-z][a-z-]*' | awk '{ print $2 }' | sort -u
}
# variables: upper-case words in help's Variables block; a variable table's
# rows (first column, possibly several names)
help_vars=$(sed -n '/^# Variables/,/^# See/p' <<<"$help" | grep -v '^# See' | grep -oE '\b[A-Z][A-Z_]*\b' | sort -u)
table_vars() {
	grep -E '^\| `[A-Z]' "$1" | cut -d'|' -f2 | grep -oE '\b[A-Z][A-Z_]*\b' | sort -u
}
doc_targets=$(table_targets "$doc")
doc_vars=$(table_vars "$doc")
readme_targets=$(table_targets "$readme")
readme_vars=$(table_vars "$readme")

# same NAME WHAT A B: the two lists agree, else the names missing on each side
same() {
	local only_a only_b
	only_a=$(comm -23 <(echo "$3") <(echo "$4") | paste -sd' ' -)
	only_b=$(comm -13 <(echo "$3") <(echo "$4") | paste -sd' ' -)
	if [ -z "$only_a$only_b" ]; then
		ok "$1"
	else
		not_ok "$1" "$2: only in make help: ${only_a:-none}; only in docs/harness.md: ${only_b:-none}"
	fi
}
# subset NAME WHAT A B: every name of B is in A, else the ones that are not
subset() {
	local extra
	extra=$(comm -13 <(echo "$3") <(echo "$4") | paste -sd' ' -)
	if [ -z "$extra" ]; then
		ok "$1"
	else
		not_ok "$1" "$2 in README.md but not in make help: $extra"
	fi
}
check help-has-targets "make help lists no target" test -n "$help_targets"
check doc-has-targets "docs/harness.md lists no target" test -n "$doc_targets"
check readme-has-targets "README.md lists no target" test -n "$readme_targets"
same targets-agree "targets" "$help_targets" "$doc_targets"
same variables-agree "variables" "$help_vars" "$doc_vars"
subset readme-targets-exist "targets" "$help_targets" "$readme_targets"
subset readme-variables-exist "variables" "$help_vars" "$readme_vars"
done_testing
