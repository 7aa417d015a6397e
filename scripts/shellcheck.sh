#!/usr/bin/env bash
# The shell lint gate: shellcheck (every severity, style included) over the
# project's shell files, one line per file that has findings, then a total.
# Exits 1 on any finding, and on any "shellcheck disable=" directive that
# does not say why on its own line ("# shellcheck disable=SCxxxx # why"):
# a silence nobody can justify is a finding too.
#
# Which shell: from the shebang: #!/bin/sh is the guest's busybox sh,
# checked as POSIX sh; bash otherwise. A file without a shebang (a sourced
# library) must name its shell with a "# shellcheck shell=" directive.
#
# Usage: scripts/shellcheck.sh [FILE...]
#   no FILE: every tracked shell file (*.sh, or a sh/bash shebang)
# Exit: 0 clean, 1 findings, 2 usage or no shellcheck.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

command -v shellcheck >/dev/null || {
	echo "scripts/shellcheck.sh: shellcheck is not installed (scripts/install-deps.sh installs it)" >&2
	exit 2
}

shebang_re='^#! ?(/bin/sh|/bin/bash|/usr/bin/env (ba)?sh)([[:space:]]|$)'
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	# Relative names in the report: list from the top of the tree.
	cd "$top"
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		case "$f" in
		*.sh) files+=("$f") ;;
		*) [[ $(head -n 1 "$f") =~ $shebang_re ]] && files+=("$f") ;;
		esac
	done < <(git ls-files)
fi

# One shellcheck run per shell (a run per file costs ~0.4 s each), then
# each file's lines picked from the runs' output. -x with these source
# paths follows ". "$here/lib.sh"" and ". "$repo/scripts/lib.sh"", so what
# the sourced libraries define is known.
sh_files=() bash_files=() other_files=()
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "scripts/shellcheck.sh: no such file: $f" >&2 && exit 2; }
	case "$(head -n 1 "$f")" in
	'#!/bin/sh'*) sh_files+=("$f") ;;
	'#!'*) bash_files+=("$f") ;;
	*) other_files+=("$f") ;;
	esac
done
all=$(mktemp)
trap 'rm -f "$all"' EXIT
sc() { # sc [SHELL_OPTS...] -- FILE...: append the findings to $all
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1") && shift; done
	shift
	[ $# -gt 0 ] || return 0
	local rc=0
	shellcheck -x -P SCRIPTDIR -P "$top" -f gcc "${opts[@]}" "$@" >>"$all" || rc=$?
	# 1 is "found something"; anything else means shellcheck itself failed.
	[ "$rc" -le 1 ] || { echo "scripts/shellcheck.sh: shellcheck exited $rc" >&2 && exit 2; }
}
sc -s sh -- "${sh_files[@]}"
sc -s bash -- "${bash_files[@]}"
sc -- "${other_files[@]}"

findings=0 bad_files=0
for f in "${files[@]}"; do
	out=$(awk -v f="$f:" 'substr($0, 1, length(f)) == f' "$all")
	# A directive whose line has no "# reason" after its codes.
	unexplained=$(grep -nE '^[[:space:]]*#[[:space:]]*shellcheck[[:space:]].*disable=' "$f" |
		grep -vE 'disable=[A-Za-z0-9,]+([[:space:]]+[a-z-]+=[^[:space:]]+)*[[:space:]]+#[[:space:]]*[^[:space:]#]' |
		cut -d: -f1 || true)
	n=0 what=
	if [ -n "$out" ]; then
		n=$(printf '%s\n' "$out" | wc -l)
		# "SC2086 at 12,40; SC2016 at 7" from the gcc-format lines.
		what=$(printf '%s\n' "$out" | sed -nE 's/^[^:]*:([0-9]+):[0-9]+: .*\[(SC[0-9]+)\]$/\2 \1/p' |
			awk '{ l[$1] = l[$1] (l[$1] == "" ? "" : ",") $2 } END { for (c in l) print c " at " l[c] }' |
			sort | paste -sd';' | sed 's/;/; /g')
	fi
	for l in $unexplained; do
		n=$((n + 1))
		what="${what:+$what; }disable= without a reason at $f:$l"
	done
	[ "$n" -eq 0 ] && continue
	findings=$((findings + n)) bad_files=$((bad_files + 1))
	echo "$f: $n warning$([ "$n" -eq 1 ] || echo s): $what"
done

echo "# shellcheck: $findings warnings in $bad_files of ${#files[@]} files"
[ "$findings" -eq 0 ] || { echo "# details: shellcheck -x -P SCRIPTDIR -P . FILE (from the top of the tree)" && exit 1; }
