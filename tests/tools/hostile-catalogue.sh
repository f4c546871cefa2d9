#!/bin/bash
# hostile-catalogue.sh - the page of hostile inputs, from the cases
# SPDX-License-Identifier: MIT
#
# usage: hostile-catalogue.sh SRCDIR            print the page
#        hostile-catalogue.sh --check SRCDIR    fail unless doc/ has it
#
# Every directory tests/cli/hostile/AREA-NAME is a CLI case (run by
# run-case.sh like any other) whose cmd begins with '#' lines saying what
# is hostile and what torchgate promises. The page doc/hostile-inputs.md
# is made from those lines, the case's exit status and the first line it
# prints on stderr, so the promise and the test cannot drift apart.
# --check also fails on a case without its comment, an unknown AREA, or
# fewer than MIN cases.
set -u
MIN=40
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
srcdir=${1:?usage: hostile-catalogue.sh [--check] SRCDIR}
dir=$srcdir/tests/cli/hostile
page=$srcdir/doc/hostile-inputs.md

# The areas, in the page's order: name, then heading.
areas=(
	out "Output files"
	signal "Interrupted runs"
	stdout "Standard output"
	alloc "Allocation failures"
	dpkg "dpkg's database"
	venv "pyvenv.cfg and the interpreter"
	pth ".pth files"
	meta "Distribution metadata"
	versionpy "torch/version.py"
	cdefine "C headers (version.h)"
	cmake "CMake files"
	table "API tables"
	check "torchgate check"
	audit "torchgate audit"
	version "torchgate version"
	marker "Markers"
	msg "Messages"
)

fail=0
err() {
	echo "hostile-catalogue: $*" >&2
	fail=1
}

# What a case says about itself: its leading '#' lines, joined.
describe() {
	awk 'NR == 1 && !/^#/ { exit } /^#/ { sub(/^# ?/, ""); printf "%s%s", (n++ ? " " : ""), $0; next } { exit }' "$1/cmd"
}

page() {
	local i a h c name n=0 what rc line
	cat <<'EOF'
# What torchgate does with hostile input

torchgate runs as root inside build containers and reads files that
other programs wrote, sometimes half-written or hostile. This page lists
what it promises for each kind of such input: one case per entry, each a
test in `tests/cli/hostile/` that `make check` runs. The exit status and
the first line printed on standard error are the test's own expected
output (`$TMP` is the test's temporary directory). The page is generated
by `tests/tools/hostile-catalogue.sh` from the cases; do not edit it.

Everywhere: nothing read is executed or imported; a bad file gets one
line naming the file and the problem; an output file is either written
whole or left as it was.
EOF
	for ((i = 0; i < ${#areas[@]}; i += 2)); do
		a=${areas[i]} h=${areas[i + 1]}
		set -- "$dir/$a"-*/
		[ -d "$1" ] || continue
		printf '\n## %s\n' "$h"
		for c in "$@"; do
			c=${c%/}
			name=${c##*/}
			what=$(describe "$c")
			rc=$(cat "$c/exit" 2>/dev/null)
			line=$(head -n 1 "$c/stderr" 2>/dev/null)
			printf '\n- **%s** (exit %s). %s\n' "$name" "$rc" "$what"
			[ -n "$line" ] && printf '  `%s`\n' "${line//\`/\'}"
			n=$((n + 1))
		done
	done
	printf '\n%d cases.\n' "$n"
}

if [ $check -eq 0 ]; then
	page
	exit 0
fi

known=" "
for ((i = 0; i < ${#areas[@]}; i += 2)); do
	known+="${areas[i]} "
done
count=0
for c in "$dir"/*/; do
	[ -d "$c" ] || continue
	c=${c%/}
	name=${c##*/}
	count=$((count + 1))
	case $known in *" ${name%%-*} "*) ;; *) err "$name: unknown area '${name%%-*}' (see the list in this script)" ;; esac
	[ -n "$(describe "$c")" ] || err "$name: cmd does not begin with '#' lines saying what is hostile"
	[ -f "$c/exit" ] || err "$name: no exit file"
done
[ $count -ge $MIN ] || err "$count cases in tests/cli/hostile, fewer than $MIN"
if ! page | diff -u "$page" - >&2; then
	err "doc/hostile-inputs.md is out of date: tests/tools/hostile-catalogue.sh . >doc/hostile-inputs.md"
fi
exit $fail
