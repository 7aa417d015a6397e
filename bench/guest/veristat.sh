#!/bin/sh
# The "veristat" guest payload (bench/veristat.sh): veristat on every
# /veristat/*.bpf.o, veristat.reps=N times (default 1), each run's CSV
# between VERISTAT-CSV-BEGIN/END rep N on the console, its stderr as
# VERISTAT-STDERR: lines. veristat.log=N on the
# kernel command line also prints, per program, the line count and hash
# of its normalized verifier log at level N (VERISTAT-LOGHASH lines);
# veristat.logshow=FILE/PROG also prints that program's normalized log
# (VERISTAT-LOGSHOW: lines).
loglevel='' reps=1 logshow=''
# shellcheck disable=SC2013 # /proc/cmdline is one line of blank-separated words
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	veristat.log=*) loglevel=${arg#veristat.log=} ;;
	veristat.reps=*) reps=${arg#veristat.reps=} ;;
	veristat.logshow=*) logshow=${arg#veristat.logshow=} ;;
	esac
done
# Keep kernel messages off the console while the CSV is printed.
dmesg -n 1 2>/dev/null || true
cd /veristat || { echo "veristat: no /veristat in the guest"; exit 2; }
# shellcheck disable=SC2035 # our own *.bpf.o names; a ./ would show in veristat's file column
objs=$(ls *.bpf.o)
echo "veristat: kernel $(uname -r), objects: $objs"
# reps runs of the whole set, each printed as its own CSV block ("rep N"):
# the counts must repeat exactly, the durations give a median.
rc=0 i=1
while [ "$i" -le "$reps" ]; do
	r=0
	# shellcheck disable=SC2086 # objs: the object names, one word each
	./veristat -q -o csv \
		-e file,prog,verdict,duration,total_insns,total_states,peak_states,max_states_per_insn,mark_read \
		$objs >/tmp/veristat.csv 2>/tmp/veristat.err || r=$?
	echo "VERISTAT-CSV-BEGIN rep $i"
	cat /tmp/veristat.csv
	echo "VERISTAT-CSV-END rep $i"
	sed 's/^/VERISTAT-STDERR: /' /tmp/veristat.err
	echo "veristat: rep $i exit $r"
	[ "$r" = 0 ] || rc=$r
	i=$((i + 1))
done
# Why a program failed: libbpf's messages and the verifier log of the
# first failing program of each object (veristat -v), as VERISTAT-DIAG:.
for o in $objs; do
	p=$(awk -F, -v o="$o" '$1 == o && $3 == "failure" { print $2; exit }' /tmp/veristat.csv)
	[ -n "$p" ] || continue
	./veristat -v -f "$o/$p" "$o" 2>&1 | tail -n 60 | sed 's/^/VERISTAT-DIAG: /'
done
# The verifier log of every program (veristat -v -l N), normalized and
# hashed here: printing it whole over the serial console takes about a
# minute per 1.5 MB under TCG (level 2: tens of MB per kernel). What
# legitimately differs between two kernels is normalized away: timings,
# kfunc and helper ids (name#id), kernel BTF type ids (btf_id N), map ids,
# kernel addresses.
if [ -n "$loglevel" ]; then
	echo "VERISTAT-LOG-BEGIN level $loglevel"
	for o in $objs; do
		# shellcheck disable=SC2013 # program names: one word each
		for p in $(awk -F, -v o="$o" '$1 == o { print $2 }' /tmp/veristat.csv); do
			./veristat -v -l "$loglevel" -f "$o/$p" "$o" >/tmp/vlog 2>&1
			sed -n '/^PROCESSING /,/^processed [0-9]* insns/p' /tmp/vlog |
				sed -e 's/DURATION US: [0-9]*/DURATION US: N/' \
					-e '/^verification time [0-9]* usec$/d' \
					-e 's/\([A-Za-z_][A-Za-z0-9_]*\)#[0-9][0-9]*/\1#ID/g' \
					-e 's/map\[id:[0-9]*\]/map[id:N]/g' \
					-e 's/btf_id [0-9][0-9]*/btf_id N/g' \
					-e 's/0xff[0-9a-f]\{10,\}/0xADDR/g' >/tmp/vlog.norm
			echo "VERISTAT-LOGHASH $o $p $(wc -l </tmp/vlog.norm) $(sha256sum </tmp/vlog.norm | cut -c1-16) $(grep -m1 '^processed ' /tmp/vlog.norm)"
			[ "$logshow" != "$o/$p" ] || sed 's/^/VERISTAT-LOGSHOW: /' /tmp/vlog.norm
		done
	done
	echo "VERISTAT-LOG-END"
fi
exit $rc
