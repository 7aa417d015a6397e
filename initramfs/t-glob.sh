# shellcheck shell=sh
# T=PATTERN, the one test filter (make check T=, scx.t= on the guest's
# command line): the matcher, the same file in the guest (busybox ash,
# /scx/t-glob.sh, sourced by /scx/ktap.sh) and on the host (bash: the
# Makefile's check, tests/harness/run.sh, scripts/ktap-report.sh), so the
# two cannot drift.
#
# As kunit.py's --filter_glob=SUITE_GLOB[.TEST_GLOB], with ":" for ".":
# PATTERN is a comma-separated list, a name is selected when one of them
# matches it; each is a shell glob (*, ?, [...], [!...]):
#   no ":"        matched against the suite, the name's part before its
#                 first ":" (neg: all of neg:*; matrix: the test "matrix";
#                 scx-*: every suite starting so)
#   ends in ":"   the names starting so (neg: as neg; bad-input:tarball:)
#   else          matched against the whole suite:test name; "*" also
#                 matches ":" (scx-selftest:*dispatch*, *:*dispatch*)
# Test names use only letters, digits and _ . : @ + / = - (a name is a
# pattern selecting just itself); a pattern may use those, the glob
# characters and commas, nothing else (it goes on the kernel command
# line and into shell case patterns).

# t_glob_check PATTERN: one line on stderr and status 1 if PATTERN is no
# valid T= (empty is: every test).
t_glob_check() {
	[ -z "$1" ] && return 0
	_tg_why=
	case "$1" in
	*[!]A-Za-z0-9_.:@+/=,*?![-]*)
		_tg_why="only letters, digits, _ . : @ + / = -, the globs * ? [...] [!...] and commas for a list" ;;
	,* | *, | *,,*) _tg_why="an empty pattern in the comma-separated list" ;;
	*[][!]*)
		# what is left once every [...] is gone: no bracket, no "!"
		case "$(printf '%s' "$1" | sed 's/\[!\{0,1\}[^][!]\{1,\}\]//g')" in
		*[][!]*) _tg_why="a [ without its ], an empty [], or a ! outside [!...]" ;;
		esac ;;
	esac
	[ -z "$_tg_why" ] && return 0
	printf "T='%s': %s (e.g. T=neg:, T='scx-selftest:*dispatch*', T=neg:,pos:; make list-tests prints the names)\n" "$1" "$_tg_why" >&2
	return 1
}

# t_glob_match PATTERN NAME: NAME is selected by PATTERN (empty: all are).
t_glob_match() {
	[ -z "$1" ] && return 0
	_tg_rest=$1,
	while [ -n "$_tg_rest" ]; do
		_tg_p=${_tg_rest%%,*}
		_tg_rest=${_tg_rest#*,}
		# shellcheck disable=SC2254 # unquoted on purpose: the pattern is a glob
		case "$_tg_p" in
		*:) case "$2" in $_tg_p*) return 0 ;; esac ;;
		*:*) case "$2" in $_tg_p) return 0 ;; esac ;;
		*) case "${2%%:*}" in $_tg_p) return 0 ;; esac ;;
		esac
	done
	return 1
}

# t_glob_suite PATTERN SUITE: some name SUITE:... (or SUITE itself) may be
# selected, so the suite has to run (and filter its results by name). Exact
# for a pattern whose part before its first ":" has no glob; otherwise
# SUITE has to start with that part's text before its first glob.
t_glob_suite() {
	[ -z "$1" ] && return 0
	_tg_rest=$1,
	while [ -n "$_tg_rest" ]; do
		_tg_p=${_tg_rest%%,*}
		_tg_rest=${_tg_rest#*,}
		# shellcheck disable=SC2254 # unquoted on purpose: the pattern is a glob
		case "$_tg_p" in
		*:*)
			_tg_h=${_tg_p%%:*}
			case "$2" in $_tg_h) return 0 ;; esac
			case "$_tg_h" in
			*[][*?]*)
				_tg_l=${_tg_h%%[][*?]*}
				case "$2" in "$_tg_l"*) return 0 ;; esac ;;
			esac ;;
		*) case "$2" in $_tg_p) return 0 ;; esac ;;
		esac
	done
	return 1
}
