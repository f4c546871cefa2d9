#!/bin/bash
# audit.sh - torchgate audit against a literal search for the same API names
# SPDX-License-Identifier: MIT
#
# usage: bench/audit.sh [TORCHGATE]      (default ./torchgate)
#
# On a tree made of TREE (default Debian's /usr/lib/python3/dist-packages/
# torch, from python3-torch) and HEADERS (default those of /usr/include/
# torch, /usr/include/ATen and /usr/include/c10 that exist, from
# libtorch-dev; HEADERS= for none), copied into one directory, and on a
# tree 4 times larger made of 4 copies of it, times
#   torchgate audit --torch-version 2.11 TREE               (text)
#   torchgate audit --format=json --torch-version 2.11 TREE (json)
#   rg -n -F -f NAMES TREE        (grep -rnF -f NAMES where rg is absent)
# where NAMES are the ids of the table (data/apis.json), and prints each
# wall time, the ratio search/audit for each format (throughput of audit
# relative to the search: issue 29 asks >= 1.0), and each command's peak
# RSS from GNU time -v (goal: flat from 1x to 4x, under 30 MiB). The text
# is what a terminal gets, as the search's lines are; the JSON also
# plans and verifies the fix each finding offers (audit(1), "fix"),
# which costs a file with a fix about two more analyses of it. RUNS
# (default 3) runs each; the best time counts. TREES="DIR..." times the
# same commands on each DIR as it is instead (a package's checkout:
# apex, DeepSpeed), where the search reads every file and audit only
# sources.
# Exit status: 0 done, 2 a prerequisite is missing.
set -u
export LC_ALL=C
TG=${1:-./torchgate}
TREE=${TREE:-/usr/lib/python3/dist-packages/torch}
HEADERS=${HEADERS-/usr/include/torch /usr/include/ATen /usr/include/c10}
RUNS=${RUNS:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$TG" ] || { echo "audit.sh: no torchgate at $TG" >&2; exit 2; }
[ -n "${TREES:-}" ] || [ -d "$TREE" ] || { echo "audit.sh: no tree at $TREE (apt-get install python3-torch, or TREE=DIR)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "audit.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
if command -v rg >/dev/null; then
	search=(rg -n -F -f)
	peer="rg -n -F"
else
	search=(grep -rnF -f)
	peer="grep -rnF (rg not installed)"
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^ *"id": "\(.*\)",$/\1/p' "$SRC/data/apis.json" >"$tmp/names"
sources() {
	find "$1" -type f \( -name '*.py' -o -name '*.pyi' -o -name '*.[ch]' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) | wc -l
}
# best wall seconds and peak RSS (KiB) of RUNS runs of "$@"
measure() {
	local best='' rss=0 k t r
	for ((k = 0; k < RUNS; k++)); do
		/usr/bin/time -v -o "$tmp/time" "$@" >/dev/null 2>&1
		t=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$tmp/time" |
			awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
		r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time")
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
		[ "$r" -gt "$rss" ] && rss=$r
	done
	echo "$best $rss"
}

if [ -n "${TREES:-}" ]; then
	printf '%-40s %-6s %8s %10s   %s\n' tree tool seconds "rss KiB" ""
	for t in $TREES; do
		[ -d "$t" ] || { echo "audit.sh: no tree at $t" >&2; exit 2; }
		read -r tt rt < <(measure "$TG" audit -q --torch-version 2.11 "$t")
		read -r ta ra < <(measure "$TG" audit -q --format=json --torch-version 2.11 "$t")
		read -r ts rs < <(measure "${search[@]}" "$tmp/names" "$t")
		printf '%-40s %-6s %8s %10s   %s source files\n' "$t" text "$tt" "$rt" "$(sources "$t")"
		printf '%-40s %-6s %8s %10s\n' "$t" json "$ta" "$ra"
		printf '%-40s %-6s %8s %10s   %s, %s files\n' "$t" search "$ts" "$rs" "$peer" "$(find "$t" -type f | wc -l)"
		awk -v t="$tt" -v a="$ta" -v s="$ts" 'BEGIN { if (t > 0 && a > 0) printf "throughput audit/search: text %.2f, json %.2f\n", s / t, s / a }'
	done
	exit 0
fi
. "$(dirname "$0")/trees.sh"
make_trees "$tmp"

printf '%-4s %-10s %8s %10s   %s\n' tree tool seconds "rss KiB" ""
for t in "$tmp/x1" "$tmp/x4"; do
	n=$([ "$t" = "$tmp/x1" ] && echo 1x || echo 4x)
	files=$(sources "$t")
	read -r tt rt < <(measure "$TG" audit -q --torch-version 2.11 "$t")
	read -r ta ra < <(measure "$TG" audit -q --format=json --torch-version 2.11 "$t")
	read -r ts rs < <(measure "${search[@]}" "$tmp/names" "$t")
	printf '%-4s %-10s %8s %10s   %s files\n' "$n" "audit text" "$tt" "$rt" "$files"
	printf '%-4s %-10s %8s %10s\n' "$n" "audit json" "$ta" "$ra"
	printf '%-4s %-10s %8s %10s   %s\n' "$n" search "$ts" "$rs" "$peer"
	awk -v t="$tt" -v a="$ta" -v s="$ts" -v n="$n" 'BEGIN { if (t > 0 && a > 0) printf "%s throughput audit/search: text %.2f, json %.2f (goal >= 1.0, issue 29)\n", n, s / t, s / a }'
done
