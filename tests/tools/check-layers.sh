#!/bin/bash
# check-layers.sh - the library's one-way include rule, checked
# SPDX-License-Identifier: MIT
#
# usage: check-layers.sh SRCDIR
# Reads the rule from SRCDIR/src/lib/README.md (the 'layers' and
# 'third-party' blocks) and prints one line per breach, then exits 1 if
# there was any. See that file for what is checked.
set -u
src=${1:?usage: check-layers.sh SRCDIR}
src=$(cd "$src" && pwd) || exit 2
readme=$src/src/lib/README.md
cd "$src/src" || exit 2
fail=0
bad() { echo "check-layers: $*"; fail=1; }

block() { # the lines of the fenced block named $1
	awk -v b="$1" '$0 == "```" b {on=1; next} on && /^```/ {exit} on' "$readme"
}
may() { # what folder $1 may include, in words
	local d list=""
	for d in ${allowed[$1]}; do list="$list $d/"; done
	if [ -n "$list" ]; then echo "$1/ may include only$list"; else echo "$1/ may include no other folder"; fi
}
declare -A allowed
n=0
while IFS=: read -r folder deps; do
	[ -n "$folder" ] || continue
	allowed[$folder]=" $deps "
	n=$((n + 1))
done < <(block layers)
[ "$n" -gt 0 ] || { echo "check-layers: no layers block in $readme"; exit 2; }

files=$(find lib cli -name '*.[ch]' ! -name apis_data.c ! -name advisories_data.c ! -name apis_table.c | sort)
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $files; do
	case $f in lib/*/*) from=${f#lib/}; from=${from%%/*} ;; lib/*) from=lib ;; *) from=cli ;; esac
	if [ "$from" = lib ]; then
		bad "$f: a library file outside the folders"
		continue
	fi
	if [ "$from" != cli ] && [ -z "${allowed[$from]+x}" ]; then
		bad "$f: folder '$from' is not in the layers block of src/lib/README.md"
		continue
	fi
	mod=${f%.[ch]}
	while IFS= read -r inc; do
		inc=${inc#*\"}; inc=${inc%%\"*}
		case $inc in
		cli/*)
			[ "$from" = cli ] || bad "$f includes '$inc': nothing in lib/ includes cli/"
			;;
		lib/*/*)
			to=${inc#lib/}; to=${to%%/*}
			if [ "$from" != cli ] && [ "$to" != "$from" ]; then
				case ${allowed[$from]} in
				*" $to "*) ;;
				*) bad "$f includes '$inc': $(may "$from")" ;;
				esac
			fi
			;;
		*)
			bad "$f includes '$inc': write \"lib/<folder>/<name>.h\" or \"cli/<name>.h\""
			continue
			;;
		esac
		# a folder's internal.h is for the files of that folder only
		case $inc in
		*/internal.h)
			[ "lib/$(dirname "${f#lib/}")" = "$(dirname "$inc")" ] ||
				bad "$f includes '$inc': only the files of $(dirname "$inc")/ may"
			;;
		esac
		tmod=${inc%.h}
		[ "$tmod" = "$mod" ] || echo "$mod $tmod" >>"$edges"
	done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
done

# Cycles between modules: tsort names the modules of each loop.
if ! out=$(sort -u "$edges" | tsort 2>&1 >/dev/null); then
	bad "include cycle: $(echo "$out" | grep -v 'input contains a loop' | sed 's/^tsort: //' | tr '\n' ' ')"
fi

# Third-party headers stay inside their one module.
while IFS=: read -r hdr owner; do
	[ -n "$hdr" ] || continue
	owner=lib/${owner# }
	for f in $(grep -lE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<$hdr>" $files); do
		[ "$f" = "$owner" ] || bad "$f includes <$hdr>: only $owner may"
	done
done < <(block third-party)

# Exported functions carry their file's name: tg_<file> or tg_<file>_*;
# in a subfolder (lib/audit/py/bind.c) the subfolder's path instead
# (tg_audit_py or tg_audit_py_*), for the entry points it exports and
# the functions its files share through its internal.h alike.
for f in $(echo "$files" | grep '^lib/.*\.c$'); do
	case $f in
	lib/*/*/*) stem=${f#lib/}; stem=${stem%/*}; stem=${stem//\//_} ;;
	*) stem=$(basename "$f" .c) ;;
	esac
	grep -nE '^tg_[a-z0-9_]+\(' "$f" | while IFS= read -r line; do
		name=${line#*:}; name=${name%%(*}
		case $name in
		"tg_$stem" | "tg_${stem}_"*) ;;
		*) echo "check-layers: $f:${line%%:*}: '$name' should start with 'tg_${stem}_'" ;;
		esac
	done
done | grep . && fail=1

exit $fail
