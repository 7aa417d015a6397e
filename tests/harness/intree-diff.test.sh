#!/usr/bin/env bash
# selftests/intree-diff/intree-diff.sh takes a predicted failure only with
# its predicted line, read in that test's own output, and the matrix only
# with exactly the patched R cells. A stand-in runner-patched prints canned
# runner output; nothing boots.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# The stand-in: `runner-patched -t NAME` prints $tmp/out.NAME, and the
# output of every other test whose name holds NAME (-t is a substring match).
cat >"$tmp/bin/runner-patched" <<EOF
#!/bin/sh
for f in "$tmp"/out.*; do
	case "\${f#$tmp/out.}" in *"\$2"*) cat "\$f" ;; esac
done
EOF
chmod +x "$tmp/bin/runner-patched"
printf 'TEST: t_fail\nERR: t_fail.c:1\nLoaded the bad scheduler\nnot ok 1 t_fail # \n' >"$tmp/out.t_fail"
printf 'TEST: t_fail_other\nthe predicted line of another test\nnot ok 2 t_fail_other # \n' >"$tmp/out.t_fail_other"
printf 'TEST: t_pass\nok 1 t_pass # \n' >"$tmp/out.t_pass"
printf 'TEST: mx\nMISMATCH enqueue x scx_bpf_consume: expected R, got A\nnot ok 1 mx # \n' >"$tmp/out.mx"
printf '# op\tkfunc\tclass\tpatched\n' >"$tmp/cells"
printf 'enqueue\tscx_bpf_consume\tdsp\tR\n' >>"$tmp/cells"
printf 'tick\tscx_bpf_consume\tdsp\tA\n' >>"$tmp/cells"

# verdict NAME LISTLINE: the result line intree-diff.sh writes for LISTLINE
verdict() {
	printf '%s\n' "$2" >"$tmp/list"
	PATH="$tmp/bin:$PATH" sh "$top/selftests/intree-diff/intree-diff.sh" \
		"$tmp/list" "$tmp/cells" "$tmp/res.$1" >/dev/null 2>&1 || true
	cat "$tmp/res.$1"
}
want() { # want NAME ok|not LISTLINE
	local got
	got=$(verdict "$1" "$3")
	case "$2" in
	ok) check "$1" "want ok, got: $got" grep -q '^ok ' <<<"$got" ;;
	not) check "$1" "want not ok, got: $got" grep -q '^not ok ' <<<"$got" ;;
	esac
}
want predicted-line ok 't_fail | fail:Loaded the bad scheduler | why'
want wrong-line not 't_fail | fail:Loaded another scheduler | why'
# The line is in the runner's output, but of another test -t also ran.
want other-tests-line not 't_fail | fail:the predicted line of another test | why'
want bare-fail-refused not 't_fail | fail | why'
want pass-expected-fails not 't_pass | fail:anything | why'
want pass ok 't_pass | pass | why'
want fail-expected-pass not 't_fail | pass | why'
want missing-test not 'no_such_test | pass | why'
want matrix-exact ok 'mx | matrix | why'
printf 'tick\tscx_bpf_consume\tdsp\tR\n' >>"$tmp/cells"
want matrix-cell-missing not 'mx | matrix | why'
# its diagnostics go to stdout, not among the results
check matrix-one-result "$(wc -l <"$tmp/res.matrix-cell-missing") result lines, want 1" \
	test "$(wc -l <"$tmp/res.matrix-cell-missing")" -eq 1
done_testing
