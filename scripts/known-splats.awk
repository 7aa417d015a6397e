# Which lines of a kernel log are known splats (known-splats.txt)? One
# program for the host (detect-splat.sh, mawk) and the guest (sched-load's
# run-guest.sh, busybox awk), so both judge a log the same way.
#
#   awk -v mode=known -f known-splats.awk KNOWN_SPLATS LOG
#       LINE<TAB>WHY<TAB>TEXT for each known splat line
#   awk -v mode=blank [-v block=1] -f known-splats.awk KNOWN_SPLATS LOG
#       the log with each known splat line replaced by "[known splat
#       elided]" (line numbers kept); block=1 elides the rest of each known
#       report too: a one-line rule's up to its "---[ end trace" (at most
#       120 lines), a caused: rule's up to the splat that caused it, a
#       block: rule's up to the end of its report
#   -v run=NAME: the whole LOG is the kernel log of the test NAME (the
#       guest's per-run log has no result line to find its run by)
#   -v prev=NAME: and NAME is the test that ran just before it
#
# Rules, one a line (lines starting with # are comments):
#   REGEX;WHY
#       a line matching REGEX is known
#   hotplug:REGEX;WHY
#       the same, but only inside a CPU-hotplug test: the in-tree runner's
#       "hotplug" (from its "  runner| TEST: hotplug" line to its
#       "=====  END  =====") or a sched-load run sched:hotplug-* (from its
#       "sched-load: mark N" kernel line to its result "ok N sched:...")
#   after-hotplug:REGEX;WHY
#       the same, and also in the one test that follows a CPU-hotplug test
#       (up to its "=====  END  =====" or its result line): for a report
#       raised by a timer the hotplug armed, which may fire after the
#       hotplug test has ended
#   caused:REGEX;TRACE[&&TRACE...];WHY
#       a line matching REGEX is known only as part of a report printed
#       from inside a known splat: the next line that a one-line rule
#       matches comes within 200 lines, and each TRACE matches some line
#       between the two (lockdep noticing the printk of a known WARN
#       prints its report before the WARN's own line)
#   block:REGEX;TRACE[&&TRACE...];WHY
#       a line matching REGEX is known when each TRACE matches some line of
#       its own report: the lines after it up to the first "</TASK>" or
#       "---[ end trace" (at most 40), for a splat known by its backtrace
function load(line,    i, kind, rest) {
	if (line ~ /^#/ || index(line, ";") == 0)
		return
	if (line !~ /^(block|caused):/) {
		scope[n + 1] = ""
		if (line ~ /^hotplug:/) {
			scope[n + 1] = "hotplug"
			line = substr(line, 9)
		} else if (line ~ /^after-hotplug:/) {
			scope[n + 1] = "after"
			line = substr(line, 15)
		}
		i = index(line, ";")
		re[++n] = substr(line, 1, i - 1)
		why[n] = substr(line, i + 1)
		return
	}
	i = index(line, ":")
	mkind[++nm] = substr(line, 1, i - 1)
	rest = substr(line, i + 1)
	i = index(rest, ";")
	mre[nm] = substr(rest, 1, i - 1)
	rest = substr(rest, i + 1)
	i = index(rest, ";")
	mtrace[nm] = substr(rest, 1, i - 1)
	mwhy[nm] = substr(rest, i + 1)
}

# traces_in(SPEC, FROM, TO): 1 if each &&-separated regexp of SPEC matches
# some line L[FROM..TO]
function traces_in(spec, from, to,    t, nt, m, x) {
	nt = split(spec, t, "&&")
	for (m = 1; m <= nt; m++) {
		for (x = from; x <= to && L[x] !~ t[m]; x++)
			;
		if (x > to)
			return 0
	}
	return 1
}

# The names of CPU-hotplug tests: the in-tree selftest, sched-load's runs
function is_hotplug(name) {
	return name == "hotplug" || name ~ /^sched:hotplug-/
}

# hp[i] = 1 for each line inside a hotplug test, ah[i] = 1 for each line
# inside one or in the test that follows it (see hotplug: and after-hotplug:
# above)
function hotplug_lines(    i, x, intree, after, mark, markline, from, s, num) {
	intree = 0
	after = 0
	mark = ""
	from = 0
	for (i = 1; i <= N; i++) {
		if (L[i] ~ /^# suite: /)
			intree = after = 0
		if (L[i] ~ /^  runner\| TEST: /) {
			s = L[i]
			sub(/^  runner\| TEST: /, "", s)
			sub(/ +$/, "", s)
			# the test after a hotplug test is "after" to its END
			after = (intree || after == 1) ? 2 : 0
			intree = is_hotplug(s)
		}
		if (intree || (run != "" && is_hotplug(run)))
			hp[i] = 1
		if (intree || after || (run != "" && (is_hotplug(run) || is_hotplug(prev))))
			ah[i] = 1
		if (L[i] ~ /^  runner\| =+ +END +=+/) {
			if (intree)
				after = 1
			else if (after == 2)
				after = 0
			intree = 0
		}
		# sched-load: its run N starts at its mark; its first result
		# line "ok N sched:NAME" ends it and says whether it was hotplug
		if (L[i] ~ /sched-load: mark [0-9]+ *$/) {
			mark = L[i]
			sub(/.*sched-load: mark /, "", mark)
			sub(/ +$/, "", mark)
			markline = i
		} else if (mark != "" && L[i] ~ /^(not )?ok [0-9]+ sched:/) {
			s = L[i]
			sub(/^(not )?ok /, "", s)
			num = s
			sub(/ .*/, "", num)
			if (num != mark)
				continue
			sub(/^[0-9]+ /, "", s)
			sub(/ .*/, "", s)
			# a run right after a hotplug run: "after" from the
			# hotplug run's result to this result
			if (from)
				for (x = from; x <= i; x++)
					ah[x] = 1
			from = 0
			if (is_hotplug(s)) {
				for (x = markline; x <= i; x++)
					hp[x] = ah[x] = 1
				from = i + 1
			}
			mark = ""
		}
	}
}

FILENAME == ARGV[1] { load($0); next }
{ sub(/\r$/, ""); L[++N] = $0 }

END {
	hotplug_lines()
	for (i = 1; i <= N; i++)
		for (k = 1; k <= n; k++) {
			if (L[i] !~ re[k])
				continue
			if (scope[k] == "hotplug" && !(i in hp))
				continue
			if (scope[k] == "after" && !(i in ah))
				continue
			kw[i] = why[k]
			one[i] = 1
			break
		}
	for (i = 1; i <= N; i++) {
		if (one[i])
			continue
		for (k = 1; k <= nm; k++) {
			if (L[i] !~ mre[k])
				continue
			if (mkind[k] == "block") {
				# its report: up to "</TASK>" or "---[ end trace"
				for (e = i + 1; e <= N && e < i + 40; e++)
					if (L[e] ~ /<\/TASK>|---\[ end trace/)
						break
				if (e > N)
					e = N
				if (!traces_in(mtrace[k], i + 1, e))
					continue
				bend[i] = e
			} else {
				# caused: the next one-line known splat, within 200 lines
				for (j = i + 1; j <= N && j <= i + 200 && !one[j]; j++)
					;
				if (j > N || j > i + 200 || !traces_in(mtrace[k], i + 1, j - 1))
					continue
				cause[i] = j
			}
			kw[i] = mwhy[k]
			break
		}
	}
	skip = 0
	for (i = 1; i <= N; i++) {
		if (mode == "known") {
			if (i in kw)
				printf "%d\t%s\t%s\n", i, kw[i], L[i]
			continue
		}
		if (i in kw) {
			print "[known splat elided]"
			if (block)
				skip = (i in cause) ? cause[i] - i : ((i in bend) ? bend[i] - i : 120)
			continue
		}
		if (skip > 0) {
			skip--
			if (L[i] ~ /---\[ end trace/)
				skip = 0
			print "[known splat elided]"
			continue
		}
		print L[i]
	}
}
