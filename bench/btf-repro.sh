#!/usr/bin/env bash
# Is a kernel's BTF reproducible? Re-encodes the BTF of a built vmlinux from
# its DWARF with pahole, the way the kernel's link step does, twice with the
# flags the build used and twice without pahole's -j (parallel encoding),
# and prints the sha256 of each .BTF and where sched_ext_ops lands. The
# kernel's scripts/Makefile.btf drops -j (pahole < 1.27) when
# KBUILD_BUILD_TIMESTAMP is set, which scripts/kbuild.sh does.
#
# Usage: bench/btf-repro.sh KERNEL_TREE  (markdown on stdout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib.sh"
. "$here/../scripts/kbuild.sh"

[ $# -eq 1 ] || die "usage: $0 KERNEL_TREE"
tree=$1
[ -f "$tree/vmlinux" ] || die "$tree: no vmlinux (make kernel)"
command -v pahole >/dev/null || die "pahole not found (apt-get install dwarves)"
bt=$tree/tools/bpf/bpftool/bpftool
[ -x "$bt" ] || die "$bt: missing (the tree's payload build makes it: make payload)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# what the kernel's link step passes to pahole in our builds, less any -j
# shellcheck disable=SC2016 # $$PAHOLE_FLAGS is for make (and the shell it runs), not for us
flags=$(make -s -C "$tree" run-command KBUILD_RUN_COMMAND='echo $$PAHOLE_FLAGS' 2>/dev/null |
	tail -1)
# shellcheck disable=SC2001 # a regex: a -j or -jN word anywhere in the flags
serial=$(echo "$flags" | sed 's/\(^\| \)-j[0-9]*\( \|$\)/ /g')

encode() { # NAME FLAGS...
	local name=$1
	shift
	# (pahole 1.24 warns about every DW_TAG_label: noise)
	pahole -J --btf_encode_detached="$tmp/$name.btf" "$@" "$tree/vmlinux" >/dev/null 2>&1
	# shellcheck disable=SC2016 # the backquotes are Markdown code spans
	printf '| %s | `%s` | %s | %s |\n' "$name" "$*" \
		"$(sha256sum <"$tmp/$name.btf" | cut -c1-16)" \
		"$("$bt" btf dump file "$tmp/$name.btf" 2>/dev/null |
			awk '/^\[[0-9]+\] STRUCT .sched_ext_ops. / { print $1; exit }')"
}

echo "pahole $(pahole --version), $(basename "$tree"), flags with scripts/kbuild.sh: \`$flags\`"
echo
echo "| run | pahole flags | sha256 of .BTF (16) | sched_ext_ops id |"
echo "|---|---|---|---|"
# pahole's flags, one word each
read -r -a serial_args <<<"$serial"
encode parallel-1 "${serial_args[@]}" -j
encode parallel-2 "${serial_args[@]}" -j
encode serial-1 "${serial_args[@]}"
encode serial-2 "${serial_args[@]}"
