#!/bin/bash
# check-docs.sh - the man pages and --help say the same options
# SPDX-License-Identifier: MIT
#
# usage: check-docs.sh SRCDIR TORCHGATE
#
# For every command that 'TORCHGATE --help' lists, doc/torchgate-CMD.1 must
# exist, and the long options of 'TORCHGATE CMD --help' and those of the
# page's OPTIONS section must be the same set (git's
# t/t0450-txt-doc-vs-help.sh). Only --help's text is read: an option is a
# line after the usage paragraph that begins with blanks, then '-x, --long'
# or '--long', indented no deeper than the least indented such line (a
# deeper one continues a description); every --long before the option's
# description (two blanks or ': ') counts. A --help with no such line (version's today) is read from
# its usage paragraph instead. In the page, an option is a --long in the
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

# The long options of a --help text on stdin, one a line, sorted.
help_options() {
	awk '
	BEGIN { n = 0 }
	!done && /^[ \t]*$/ { done = 1; next }
	!done { usage = usage " " $0; next }
	/^ +(-[A-Za-z0-9], )?--[A-Za-z0-9]/ {
		s = $0
		match(s, /^ +/)
		ind[n] = RLENGTH
		if (n == 0 || RLENGTH < min) min = RLENGTH
		s = substr(s, RLENGTH + 1)
		if ((i = index(s, "  ")) > 0) s = substr(s, 1, i - 1)
		if ((i = index(s, ": ")) > 0) s = substr(s, 1, i - 1)
		opt[n++] = s
	}
	END {
		if (!n) print usage
		for (k = 0; k < n; k++) if (ind[k] == min) print opt[k]
	}' |
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
