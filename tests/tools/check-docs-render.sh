#!/bin/bash
# check-docs-render.sh - every man page renders without a warning
# SPDX-License-Identifier: MIT
#
# usage: check-docs-render.sh GROFF SRCDIR
#
# Each page of doc/ is formatted as man(1) would format it, at its default
# width and at 80 columns, with every groff warning on; any output on
# standard error fails. CTest registers this test only when configure
# found groff (CI installs groff-base), so a missing groff shows as a
# missing test, never as a pass.
set -u
groff=${1:?usage: check-docs-render.sh GROFF SRCDIR}
srcdir=${2:?usage: check-docs-render.sh GROFF SRCDIR}
fail=0
n=0
for page in "$srcdir"/doc/*.[1-8]; do
	[ -f "$page" ] || continue
	n=$((n + 1))
	for width in "" -rLL=80n; do
		msg=$(LC_ALL=C.UTF-8 "$groff" -man -Tutf8 -ww -z $width "$page" 2>&1 >/dev/null)
		if [ $? -ne 0 ] || [ -n "$msg" ]; then
			echo "check-docs-render: ${page#"$srcdir"/}${width:+ ($width)}:" >&2
			printf '%s\n' "$msg" >&2
			fail=1
		fi
	done
done
if [ "$n" -eq 0 ]; then
	echo "check-docs-render: no pages in $srcdir/doc" >&2
	exit 1
fi
exit $fail
