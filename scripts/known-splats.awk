# Which lines of a kernel log are known splats (known-splats.txt)? One
# program for the host (detect-splat.sh, mawk) and the guest (sched-load's
# run-guest.sh, busybox awk), so both judge a log the same way.
#
#   awk -v mode=known -v variant=V -f known-splats.awk KNOWN_SPLATS LOG
#       LINE<TAB>WHY<TAB>TEXT for each known splat line
#   awk -v mode=blank -v variant=V [-v block=1] -f known-splats.awk KNOWN_SPLATS LOG
#       the log with each known splat line replaced by "[known splat
#       elided]" (line numbers kept); block=1 elides the rest of each known
#       report too: a one-line rule's up to its "---[ end trace" (at most
#       120 lines), a caused: rule's up to the splat that caused it, a
#       block: rule's up to the end of its report
#   awk -v mode=lint -f known-splats.awk KNOWN_SPLATS /dev/null
#       one line per malformed rule (no variant, an unknown variant, no
#       test, no cause); nothing if all are well formed
#   -v variant=V: the kernel variant the log is from (baseline, core, full,
#       with -debug for the debug config); without it no rule applies
#   -v run=NAME: the whole LOG is the kernel log of the test NAME (the
#       guest's per-run log has no result line to find its run by)
#   -v prev=NAME: and NAME is the test that ran just before it
#
# Every rule names where it holds, so that a splat known on one kernel or
# in one test fails everywhere else:
#   VARIANTS;TESTS;RULE
# VARIANTS: the kernel variants, comma-separated (see lint_variant); TESTS:
# an extended regexp the name of the test running at the line must match:
# the in-tree runner's test ("hotplug", from its "  runner| TEST: hotplug"
# to its "=====  END  ====="), a sched-load run ("sched:hotplug-scx_qmap",
# from its "sched-load: mark N" kernel line to its result "ok N
# sched:..."), else the next result line's name in the same suite (what
# detect-splat.sh calls the test running). RULE is one of:
#   REGEX;WHY
#       a line matching REGEX is known
#   after:REGEX;WHY
#       the same, and also in the one test that follows a matching test
#       (up to its "=====  END  =====" or its result line): for a report
#       raised by a timer the test armed, which may fire after it ended
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
# WHY is the cause; a rule without one, or without variants or tests,
# never applies (and mode=lint names it).

# lint_variant(V): V is a kernel variant the harness boots
function lint_variant(v) {
	return v ~ /^(baseline|core|full|limit)(-debug)?$/
}

function bad(line, why) {
	nbad++
	if (mode == "lint")
		printf "%s: %s\n", why, line
	else
		printf "known-splats.awk: rule ignored (%s): %s\n", why, line >"/dev/stderr"
}

function load(line,    i, kind, rest, vs, tre, nv, v, k) {
	if (line ~ /^#/ || line ~ /^[ \t]*$/)
		return
	i = index(line, ";")
	if (i == 0)
		return bad(line, "no ';' fields")
	vs = substr(line, 1, i - 1)
	rest = substr(line, i + 1)
	i = index(rest, ";")
	if (i == 0)
		return bad(line, "want VARIANTS;TESTS;RULE")
	tre = substr(rest, 1, i - 1)
	rest = substr(rest, i + 1)
	if (vs == "")
		return bad(line, "no variant")
	nv = split(vs, v, ",")
	for (k = 1; k <= nv; k++)
		if (!lint_variant(v[k]))
			return bad(line, "unknown variant '" v[k] "'")
	if (tre == "")
		return bad(line, "no test")
	if (rest !~ /^(block|caused):/) {
		scope[n + 1] = ""
		if (rest ~ /^after:/) {
			scope[n + 1] = "after"
			rest = substr(rest, 7)
		}
		i = index(rest, ";")
		if (i == 0 || substr(rest, i + 1) ~ /^[ \t]*$/)
			return bad(line, "no cause (WHY)")
		re[++n] = substr(rest, 1, i - 1)
		why[n] = substr(rest, i + 1)
		vars[n] = "," vs ","
		tests[n] = tre
		return
	}
	i = index(rest, ":")
	kind = substr(rest, 1, i - 1)
	rest = substr(rest, i + 1)
	i = index(rest, ";")
	if (i == 0)
		return bad(line, "want " kind ":REGEX;TRACE;WHY")
	mre[nm + 1] = substr(rest, 1, i - 1)
	rest = substr(rest, i + 1)
	i = index(rest, ";")
	if (i == 0 || substr(rest, i + 1) ~ /^[ \t]*$/)
		return bad(line, "no cause (WHY)")
	mkind[++nm] = kind
	mtrace[nm] = substr(rest, 1, i - 1)
	mwhy[nm] = substr(rest, i + 1)
	mvars[nm] = "," vs ","
	mtests[nm] = tre
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

# result_name(LINE): the test name of a result line, "" if it is none
function result_name(s) {
	if (s !~ /^(  runner\| )?(not )?ok [0-9]+ /)
		return ""
	sub(/^  runner\| /, "", s)
	sub(/^(not )?ok [0-9]+ /, "", s)
	sub(/ *#.*/, "", s)
	sub(/ +$/, "", s)
	return s
}

# TN[i]: the test running at line i; TP[i]: the test before that one (for
# after: rules). See the header for which test a line belongs to.
function test_lines(    i, x, nr, s, cur, last, mark, markline, lastrun, num) {
	if (run != "") {
		for (i = 1; i <= N; i++) {
			TN[i] = run
			TP[i] = prev
		}
		return
	}
	# by default, the next result line in the same suite
	nr = ""
	for (i = N; i >= 1; i--) {
		s = result_name(L[i])
		if (s != "")
			nr = s
		TN[i] = nr
		TP[i] = ""
		if (L[i] ~ /^# suite: /)
			nr = ""
	}
	# the in-tree runner's TEST: .. END, sched-load's mark N .. result N
	cur = last = mark = lastrun = ""
	for (i = 1; i <= N; i++) {
		if (L[i] ~ /^# suite: /)
			cur = last = mark = lastrun = ""
		if (L[i] ~ /^  runner\| TEST: /) {
			s = L[i]
			sub(/^  runner\| TEST: /, "", s)
			sub(/ +$/, "", s)
			cur = s
		}
		if (cur != "") {
			TN[i] = cur
			TP[i] = last
		} else if (last != "")
			TP[i] = last
		if (L[i] ~ /^  runner\| =+ +END +=+/ && cur != "") {
			last = cur
			cur = ""
		}
		if (L[i] ~ /sched-load: mark [0-9]+ *$/) {
			mark = L[i]
			sub(/.*sched-load: mark /, "", mark)
			sub(/ +$/, "", mark)
			markline = i
		} else if (mark != "" && L[i] ~ /^(not )?ok [0-9]+ (sched|control):/) {
			num = L[i]
			sub(/^(not )?ok /, "", num)
			sub(/ .*/, "", num)
			if (num != mark)
				continue
			s = result_name(L[i])
			for (x = markline; x <= i; x++) {
				TN[x] = s
				TP[x] = lastrun
			}
			lastrun = s
			mark = ""
		} else if (mark == "" && lastrun != "")
			TP[i] = lastrun
	}
}

# in_scope(VARS, TESTS, SCOPE, I): the rule holds at line I
function in_scope(vs, tre, sc, i) {
	if (variant == "" || index(vs, "," variant ",") == 0)
		return 0
	if (TN[i] != "" && TN[i] ~ tre)
		return 1
	return sc == "after" && TP[i] != "" && TP[i] ~ tre
}

FILENAME == ARGV[1] { load($0); next }
{ sub(/\r$/, ""); L[++N] = $0 }

END {
	if (mode == "lint")
		exit (nbad > 0)
	test_lines()
	for (i = 1; i <= N; i++)
		for (k = 1; k <= n; k++) {
			if (L[i] !~ re[k] || !in_scope(vars[k], tests[k], scope[k], i))
				continue
			kw[i] = why[k]
			one[i] = 1
			break
		}
	for (i = 1; i <= N; i++) {
		if (one[i])
			continue
		for (k = 1; k <= nm; k++) {
			if (L[i] !~ mre[k] || !in_scope(mvars[k], mtests[k], "", i))
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
