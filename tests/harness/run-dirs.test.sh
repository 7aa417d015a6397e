#!/usr/bin/env bash
# make check and make main read each kernel's results from the directory
# check-one wrote them to (the Makefile's run_dir, one place), with BENCH=1
# and DEBUG=1 too: `make check BENCH=1` once looked for runs/<v>-<id>
# while check-one wrote runs/<v>-bench-<id>, and found no log and no
# report. No kernel is built and nothing boots: check's and main's
# sub-makes are a stand-in (MAKE=) that, as check-one, writes a console
# log, a report and timings where `make print-run-dir` (check-one's
# RUN_DIR) says, in a CACHE_DIR of its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/fake-make" <<EOF
#!/usr/bin/env bash
# check-one as far as its files go; every other sub-make does nothing.
args=()
one=
for a; do
	case \$a in
	check-one) one=1 ;;
	--no-print-directory) ;;
	*) args+=("\$a") ;;
	esac
done
[ -n "\$one" ] || exit 0
echo "\${args[*]}" >>"$tmp/check-one.args"
d=\$(make -s --no-print-directory -C "$top" print-run-dir "\${args[@]}")
mkdir -p "\$d"
printf '%s\n' "ok 1 neg:c1" >"\$d/console.log"
printf '%s\n' "KTAP version 1" "1..1" "ok 1 neg:c1" >"\$d/report.ktap"
printf 'cases\tneg:c1\t1\n' >"\$d/timings.tsv"
cat "\$d/report.ktap"
echo "1 passed, 0 failed"
EOF
chmod +x "$tmp/fake-make"

# run NAME GOAL VAR=value...: make GOAL with the stand-in, in its own cache
run() {
	local name=$1 goal=$2
	shift 2
	env -u RUN_ID -u MAKEFLAGS -u MAKELEVEL make -C "$top" --no-print-directory "$goal" \
		MAKE="$tmp/fake-make" CACHE_DIR="$tmp/$name" RUN_ID=t SCHED_LOAD=off \
		T=no-such-harness-file:x "$@" >"$tmp/$name.out" 2>&1 || true
}

for flags in "BENCH=1" "DEBUG=1 BENCH=1" "BENCH=0"; do
	name=check-$(tr ' =' '_-' <<<"$flags")
	# shellcheck disable=SC2086 # the flags are words on purpose
	run "$name" check KERNELS="core baseline" $flags
	t=$tmp/$name/runs/check-t/timings.tsv
	check "$name:reads-check-one-timings" "check did not gather check-one's timings.tsv ($(find "$tmp/$name/runs" -mindepth 1 -maxdepth 1 -printf '%f '))" \
		grep -q '^core/cases' "$t"
	check "$name:side-by-side" "check did not find both kernels' console logs for side-by-side" \
		grep -q '^# core against baseline:' "$tmp/$name.out"
	check "$name:nests-reports" "check's whole-run report lacks a kernel's report" \
		grep -qE '^ +ok 1 neg:c1' "$tmp/$name/runs/check-t/report.ktap"
done

# main runs plain kernels (BENCH= DEBUG=) whatever it was given, and reads them there.
run main main BENCH=1
check main:check-one-plain "main's check-one was not given BENCH= ($(head -n 1 "$tmp/check-one.args"))" \
	grep -q ' BENCH= ' "$tmp/check-one.args"
check main:side-by-side "main did not find the kernels' console logs ($(find "$tmp/main/runs" -mindepth 1 -maxdepth 1 -printf '%f '))" \
	test -f "$tmp/main/runs/core-t/side-by-side.txt"
done_testing
