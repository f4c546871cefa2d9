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
#
# The synopses too: every option --help lists must be named in its usage
# lines (generated from the option tables by cli_opt_usage, so this
# checks the generator) and in the page's SYNOPSIS section when the page
# has one, by its --long name or its -x; and a page's SYNOPSIS names no
# option --help does not list.
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

# The options of --help as 'LONG SHORT' lines ('--quiet -q', '--all -'),
# sorted: the option lines again, with their short names.
help_pairs() {
	grep -E -- '^(  -[A-Za-z0-9], |      )--[A-Za-z0-9]' |
		sed -E 's/^ +//' |
		awk '{
			short = "-"
			if ($1 ~ /^-[A-Za-z0-9],$/) { short = substr($1, 1, 2); $0 = $2 }
			match($0, /^--[A-Za-z0-9][A-Za-z0-9-]*/)
			print substr($0, 1, RLENGTH), short
		}' | sort -u
}

# The options a synopsis on stdin names, one a line: every --long, and
# every -x, also from a cluster such as [-qv].
synopsis_options() {
	local text
	text=$(cat)
	printf '%s\n' "$text" | grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*'
	printf '%s\n' "$text" | grep -oE -- '(^|[[ |])-[A-Za-z0-9]+' |
		sed -E 's/^[[ |]?-//' | grep -oE '.' | sed 's/^/-/'
}

# The usage lines of a --help text on stdin: up to the first empty line.
help_synopsis() {
	sed '/^$/q'
}

# A page's SYNOPSIS section, the roff escapes of dashes and fonts gone.
page_synopsis() {
	awk '
	/^\.SH/ { on = ($0 ~ /^\.SH +"?SYNOPSIS"?[ \t]*$/); next }
	on' "$1" |
		sed -e 's/\\-/-/g' -e 's/\\f[A-Z]//g' -e 's/\\f(..//g' -e 's/\\[&%]//g'
}

# Each option of pairs ($2, 'LONG SHORT' lines) named in the synopsis
# options ($3, one a line)? An error names command $1 and where ($4).
named_in() {
	local long short
	while read -r long short; do
		[ -n "$long" ] || continue
		grep -qxF -- "$long" <<<"$3" && continue
		[ "$short" != - ] && grep -qxF -- "$short" <<<"$3" && continue
		err "$1: $long is in '$1 --help' but not in $4"
	done <<<"$2"
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
	if ! full=$("$tg" "$c" --help); then
		err "$c: '$tg $c --help' failed"
		continue
	fi
	h=$(printf '%s\n' "$full" | help_options)
	pairs=$(printf '%s\n' "$full" | help_pairs)
	syn=$(printf '%s\n' "$full" | help_synopsis | synopsis_options | sort -u)
	named_in "$c" "$pairs" "$syn" "its usage synopsis"
	if grep -qE '^\.SH +"?SYNOPSIS' "$page"; then
		psyn=$(page_synopsis "$page" | synopsis_options | sort -u)
		named_in "$c" "$pairs" "$psyn" "SYNOPSIS of doc/torchgate-$c.1"
		for o in $psyn; do
			[ "$o" = --help ] && continue
			grep -qE -- "^$o | $o\$" <<<"$pairs" ||
				err "$c: $o is in SYNOPSIS of doc/torchgate-$c.1 but not in '$c --help'"
		done
	fi
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
