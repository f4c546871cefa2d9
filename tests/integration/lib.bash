# lib.bash - what every integration script shares, sourced, never run
# SPDX-License-Identifier: MIT
#
# A script in this directory starts with
#
#	. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
#
# and ends with `finish`. Sourced without arguments, this file reads the
# script's own: TORCHGATE SRCDIR, as CTest passes them (git's
# t/test-lib.sh is the model). It sets
#
#	TG        the torchgate binary, as an absolute path
#	SRCDIR    the source tree, absolute
#	tmp       a fresh directory (physical path), removed on exit
#	TEST_NAME the script's name without .sh
#
# and gives the assertions: ok, fail, check, check_has, check_lacks,
# expect. Each one is counted; finish prints the count, names what failed
# and sets the exit status (0 all passed, 1 something failed, 2 usage).
# A missing prerequisite is a failure with a message naming it (need,
# need_cmd, need_deb, die), never a skip. A script that stops before
# finish fails too, so an early exit cannot pass unnoticed.
#
# The name ends in .bash, not .sh, so that the glob of
# tests/CTestTestfile.cmake.in (tests/integration/*.sh, one test per
# script) does not take it for a test, while it stays beside the scripts
# that source it; it is bash (arrays, local, BASH_SOURCE), as they are.
# It sets no shell options and no locale: each script keeps its own.

TEST_NAME=$(basename "$0" .sh)
tg_lib_passes=0
tg_lib_fails=0
tg_lib_failed=()
tg_lib_finished=

# ---- assertions -------------------------------------------------------

# ok WHAT: a passed assertion
ok() {
	tg_lib_passes=$((tg_lib_passes + 1))
	printf 'ok    %s\n' "$*"
}

# fail WHAT: a failed assertion; WHAT says what differed
fail() {
	tg_lib_fails=$((tg_lib_fails + 1))
	tg_lib_failed+=("$*")
	printf 'FAIL  %s\n' "$*"
}

# note WHAT: information, not an assertion
note() {
	printf 'note: %s\n' "$*"
}

# check WHAT GOT WANT: GOT must be WANT, byte for byte. A difference of
# several lines is shown as a diff.
check() {
	if [ "$2" == "$3" ]; then
		ok "$1 = $3"
		return 0
	fi
	case $2$3 in
	*$'\n'*)
		fail "$1: got and want differ"
		diff -u --label want --label got <(printf '%s\n' "$3") <(printf '%s\n' "$2") |
			sed 's/^/      /'
		;;
	*) fail "$1: got '$2', want '$3'" ;;
	esac
	return 0
}

# check_has WHAT HAYSTACK NEEDLE: HAYSTACK must contain NEEDLE
check_has() {
	case "$2" in
	*"$3"*) ok "$1 has '$3'" ;;
	*) fail "$1 lacks '$3': '$2'" ;;
	esac
}

# check_lacks WHAT HAYSTACK NEEDLE: HAYSTACK must not contain NEEDLE
check_lacks() {
	case "$2" in
	*"$3"*) fail "$1 has '$3': '$2'" ;;
	*) ok "$1 lacks '$3'" ;;
	esac
}

# expect WHAT CMD...: CMD must exit 0 (its stdin is the caller's, so a
# here-document can feed it)
expect() {
	local what=$1 rc
	shift
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$what"
	else
		fail "$what (exit status $rc)"
	fi
	return 0
}

# ---- prerequisites: a failure, never a skip ----------------------------

# die WHAT: a prerequisite is missing, or the test cannot go on
die() {
	fail "$*"
	printf '%s: FAILED (prerequisite missing)\n' "$TEST_NAME"
	tg_lib_finished=yes
	exit 1
}

# need PATH WHY: PATH must exist; WHY names what provides it
need() {
	[ -e "$1" ] || die "'$1' is missing: $2"
}

# need_cmd TOOL...: each TOOL must be on PATH
need_cmd() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || die "'$t' not found on PATH: $TEST_NAME needs it"
	done
}

# need_deb PACKAGE...: each Debian package must be installed
need_deb() {
	local p st
	command -v dpkg-query >/dev/null || die "dpkg-query not found: this test needs a Debian system"
	for p in "$@"; do
		st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
		[ "$st" = "install ok installed" ] ||
			die "Debian package '$p' is not installed (status: '${st:-unknown}'); run: apt-get install --no-install-recommends $p"
	done
}

# ---- the end ------------------------------------------------------------

# finish: the summary and the exit status
finish() {
	local f
	tg_lib_finished=yes
	printf '%s: %d passed, %d failed\n' "$TEST_NAME" $tg_lib_passes $tg_lib_fails
	if [ $tg_lib_fails -ne 0 ]; then
		printf 'failed:\n'
		for f in "${tg_lib_failed[@]}"; do
			printf '  %s\n' "${f%%$'\n'*}"
		done
		exit 1
	fi
	exit 0
}

tg_lib_exit() {
	local rc=$?
	[ -n "${tmp:-}" ] && rm -rf "$tmp"
	if [ -z "$tg_lib_finished" ]; then
		printf 'FAIL  %s stopped before its end (exit status %d, %d passed, %d failed)\n' \
			"$TEST_NAME" $rc $tg_lib_passes $tg_lib_fails
		exit 1
	fi
}

# ---- arguments, the binary, the temporary directory --------------------

if [ $# -lt 2 ]; then
	echo "usage: $TEST_NAME.sh TORCHGATE SRCDIR" >&2
	exit 2
fi
TG=$1
case $TG in /*) ;; *) TG=$(cd "$(dirname "$TG")" && pwd)/$(basename "$TG") ;; esac
SRCDIR=$(cd "$2" && pwd) || {
	echo "$TEST_NAME: cannot enter the source tree '$2'" >&2
	exit 2
}

tmp=
trap tg_lib_exit EXIT
[ -x "$TG" ] || die "torchgate binary '$TG' is missing or not executable"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tg-$TEST_NAME.XXXXXX") || die "mktemp -d failed"
# Python's getcwd() and abspath() see the physical path: use it throughout.
tmp=$(cd "$tmp" && pwd -P) || die "cannot enter '$tmp'"
