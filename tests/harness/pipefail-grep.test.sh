#!/usr/bin/env bash
# No "... | grep -q" in a script that sets pipefail: grep -q exits at its
# first match, the writer then dies of SIGPIPE and pipefail turns the match
# into a failure. It made ktap-report.sh report a suite that ran as never
# started, 1 run in 60 under load. The check reads every shell script of
# the project; `bash -c '...'` strings run without pipefail and are left
# alone. It must catch a planted case, or it checks nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# offenders FILE...: "file:line: text" for each piped grep -q in a file
# that sets pipefail
offenders() {
	local f
	for f in "$@"; do
		grep -qE '^[[:space:]]*set -[a-z]*o pipefail|^[[:space:]]*set -o pipefail' "$f" || continue
		# a single "|" (not "||"), not in a comment
		grep -nE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[A-Za-z]*q|--quiet)' "$f" |
			grep -vE '^[0-9]+:[[:space:]]*#|bash -c' |
			sed "s|^|${f#"$top/"}:|" || true
	done
}

# (the pipe is spelt through a variable: this file must not match itself)
bar='|'
printf '%s\n' '#!/usr/bin/env bash' 'set -euo pipefail' "printf 'a\\nb\\n' $bar grep -qx a && echo yes" >"$tmp/planted.sh"
check catches-planted "the planted piped grep -q was not reported: $(tail -1 "$tmp/planted.sh")" \
	test -n "$(offenders "$tmp/planted.sh")"

mapfile -t files < <(cd "$top" && git ls-files '*.sh' run-qemu.sh .ci/run | sed "s|^|$top/|")
echo "# $(printf '%s\n' "${files[@]}" | grep -c .) shell scripts read"
found=$(offenders "${files[@]}")
check no-piped-grep-q "$found" test -z "$found"
done_testing
