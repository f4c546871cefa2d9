#!/bin/bash
# check-docs.sh - the man pages and --help say the same options
# SPDX-License-Identifier: MIT
#
# usage: check-docs.sh SRCDIR TORCHGATE
#
# For every command that 'TORCHGATE --help' lists, doc/torchgate-CMD.1 must
# exist, and the long options of 'TORCHGATE CMD --help' and those of the
# page's OPTIONS section must be the same set (git's
# t/t0450-txt-doc-vs-help.sh). Only --help's text is read (see
# help_options for its layout). In the page, an option is a --long in the
# tag line of a .TP or .TQ in the OPTIONS section. --help itself may be
# documented without being listed: every command takes it.
set -u
srcdir=${1:?usage: check-docs.sh SRCDIR TORCHGATE}
tg=${2:?usage: check-docs.sh SRCDIR TORCHGATE}
fail=0
err() {
	echo "check-docs: $*" >&2
	fail=1
}

# The long options of a --help text on stdin, one a line, sorted. --help
# is made from the command's option table (src/cli/opt.c): an option line
# is '  -x, --long ...' or '      --long ...'; its description starts in
# column 25, after two blanks, and continues on lines indented 24.
help_options() {
	grep -E -- '^(  -[A-Za-z0-9], |      )--[A-Za-z0-9]' |
		sed -E 's/^ +//; s/  .*//' |
		grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' | sort -u
}

# The long options of a page's OPTIONS section, one a line, sorted.
page_options() {
	awk '
	/^\.SH/ { in_opts = ($0 ~ /^\.SH +"?OPTIONS"?[ \t]*$/); next }
	in_opts && /^\.T[PQ]/ { tag = 1; next }
	in_opts && tag { print; tag = 0 }' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f[A-Z]//g' -e 's/\\f(..//g' -e 's/\\[&%]//g' |
		grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' | sort -u
}

list=$("$tg" --help) || {
	err "'$tg --help' failed"
	exit 1
}
cmds=$(printf '%s\n' "$list" | awk '
	/^commands:/ { on = 1; next }
	on && /^  [a-z]/ { print $1; next }
	on { on = 0 }')
[ -n "$cmds" ] || err "'$tg --help' lists no commands"

for c in $cmds; do
	page=$srcdir/doc/torchgate-$c.1
	if [ ! -f "$page" ]; then
		err "$c: no page doc/torchgate-$c.1"
		continue
	fi
	if ! h=$("$tg" "$c" --help); then
		err "$c: '$tg $c --help' failed"
		continue
	fi
	h=$(printf '%s\n' "$h" | help_options)
	d=$(page_options "$page")
	[ -n "$d" ] || err "$c: doc/torchgate-$c.1 has no options in OPTIONS"
	for o in $(comm -23 <(printf '%s\n' "$h") <(printf '%s\n' "$d")); do
		err "$c: $o is in '$c --help' but not in OPTIONS of doc/torchgate-$c.1"
	done
	for o in $(comm -13 <(printf '%s\n' "$h") <(printf '%s\n' "$d")); do
		[ "$o" = --help ] && continue
		err "$c: $o is in OPTIONS of doc/torchgate-$c.1 but not in '$c --help'"
	done
done
exit $fail
