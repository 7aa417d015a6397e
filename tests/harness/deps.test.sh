#!/usr/bin/env bash
# Host packages: `make deps` installs what is missing; every other target
# only checks the groups it needs and, if one is missing, stops first with
# one line naming it and `make deps` (scripts/install-deps.sh --check);
# under CI the check installs instead, and .ci/run runs `make deps` before
# `make check` and still ends with "N passed, N failed".
#
# Nothing is installed and nothing is built: dpkg-query, apt-get and (for
# .ci/run) make are stand-ins on PATH; dpkg-query hides the packages named
# in FAKE_MISSING, apt-get records what it was asked to install.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin" "$tmp/cibin"
real_dpkg=$(command -v dpkg-query)
cat >"$tmp/bin/dpkg-query" <<EOF
#!/usr/bin/env bash
"$real_dpkg" "\$@" | awk -v m=" \${FAKE_MISSING:-} " 'index(m, " " \$1 " ") == 0'
EOF
cat >"$tmp/bin/apt-get" <<EOF
#!/usr/bin/env bash
echo "\$*" >>"$tmp/apt-get.args"
EOF
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get"

# stopped NAME MISSING WANT CMD...: with MISSING hidden, CMD fails at once,
# with one ERROR line naming WANT and `make deps`, builds and boots nothing
stopped() {
	local name=$1 missing=$2 want=$3 rc=0
	shift 3
	mkdir -p "$tmp/cache-$name"
	env -u CI -u MAKEFLAGS -u MAKELEVEL PATH="$tmp/bin:$PATH" FAKE_MISSING="$missing" \
		CACHE_DIR="$tmp/cache-$name" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	echo "# $name: exit $rc: $(grep -m1 ERROR "$tmp/$name.out" || true)"
	check "$name:fails" "exited 0" test "$rc" != 0
	check "$name:one-line" "not exactly one ERROR line naming '$want' and make deps: $(head -n 3 "$tmp/$name.out")" \
		test "$(grep -c "ERROR: missing host packages.*$want.*install them with: make deps" "$tmp/$name.out")" = 1
	# check-one still writes its report (a failed stage is a KTAP result)
	check "$name:nothing-built-or-booted" "it went on: $(find "$tmp/cache-$name" -name console.log -o -name '.scx-*' | head -n 3 | paste -sd' ')" \
		test -z "$(find "$tmp/cache-$name" -name console.log -o -name '.scx-*' -o -path '*/build/*')"
}

stopped kernel clang-19 'clang-19' make -C "$top" --no-print-directory kernel V=core
stopped check "qemu-system-x86 shellcheck" 'qemu-system-x86 shellcheck' \
	make -C "$top" --no-print-directory check KERNELS=core
stopped check-one-tarball linux-source-6.12 'linux-source-6.12' \
	make -C "$top" --no-print-directory check-one V=baseline
stopped bench gnuplot-nox 'gnuplot-nox' make -C "$top" --no-print-directory bench
stopped check-series python3-ply 'python3-ply' make -C "$top" --no-print-directory check-series

# With KSRC= the tarball's package is not needed: the check passes it.
rc=0
env -u CI PATH="$tmp/bin:$PATH" FAKE_MISSING=linux-source-6.12 \
	"$top/scripts/install-deps.sh" --check build >"$tmp/build.out" 2>&1 || rc=$?
check check-build-without-tarball "--check build wants linux-source-6.12 (exit $rc)" test "$rc" = 0

# make deps and, under CI, --check install (the apt-get stand-in records it).
rm -f "$tmp/apt-get.args"
env -u CI -u MAKEFLAGS -u MAKELEVEL PATH="$tmp/bin:$PATH" FAKE_MISSING="busybox-static" \
	make -C "$top" --no-print-directory deps >"$tmp/deps.out" 2>&1 || true
check make-deps-installs "make deps did not apt-get install busybox-static: $(cat "$tmp/apt-get.args" 2>/dev/null)" \
	grep -q '^install .*busybox-static' "$tmp/apt-get.args"
rm -f "$tmp/apt-get.args"
rc=0
CI=true PATH="$tmp/bin:$PATH" FAKE_MISSING="qemu-system-x86" \
	"$top/scripts/install-deps.sh" --check guest >"$tmp/ci.out" 2>&1 || rc=$?
check ci-installs "under CI, --check did not install qemu-system-x86 (exit $rc): $(cat "$tmp/apt-get.args" 2>/dev/null)" \
	grep -q '^install .*qemu-system-x86' "$tmp/apt-get.args"

# .ci/run: make deps, then make check; the summary is the last line, also
# when deps fails (then check does not run).
cat >"$tmp/cibin/make" <<EOF
#!/usr/bin/env bash
echo "make \$*" >>"$tmp/ci-make.args"
case "\$1" in
deps) [ "\${FAKE_DEPS_FAIL:-}" != 1 ] || { echo "ERROR: apt-get failed" >&2; exit 2; } ;;
check) echo "3 passed, 1 failed"; echo "make: *** [Makefile:1: check] Error 1" >&2; exit 2 ;;
esac
EOF
chmod +x "$tmp/cibin/make"
# ci NAME DEPS_FAIL WANT_LAST WANT_CALLS
ci() {
	local rc=0
	rm -f "$tmp/ci-make.args"
	PATH="$tmp/cibin:$PATH" FAKE_DEPS_FAIL=$2 "$top/.ci/run" >"$tmp/$1.out" 2>&1 || rc=$?
	check "$1:last-line" "last line '$(tail -n 1 "$tmp/$1.out")', want '$3'" test "$(tail -n 1 "$tmp/$1.out")" = "$3"
	check "$1:fails" ".ci/run exited 0" test "$rc" != 0
	check "$1:calls" "make was called as: $(paste -sd',' "$tmp/ci-make.args")" \
		test "$(paste -sd',' "$tmp/ci-make.args")" = "$4"
}
ci ci-run 0 "3 passed, 1 failed" "make deps,make check"
ci ci-run-deps-fails 1 "0 passed, 1 failed" "make deps"
done_testing
