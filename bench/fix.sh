#!/bin/bash
# fix.sh - torchgate audit --diff and --fix against audit on the same tree
# SPDX-License-Identifier: MIT
#
# usage: bench/fix.sh [TORCHGATE]      (default ./torchgate)
#
# On the trees bench/audit.sh builds (TREE, default Debian's
# /usr/lib/python3/dist-packages/torch, and HEADERS, copied into one
# directory; and 4 copies of it), times
#   torchgate audit -q --format=json --floor 2.6 --torch-version 2.11 TREE
#   torchgate audit --diff -q --floor 2.6 --torch-version 2.11 TREE
#   torchgate audit --fix -q --floor 2.6 --torch-version 2.11 COPY
# (--fix on a fresh copy of the tree each run, the copy not timed) and
# prints each wall time and the ratios diff/audit and fix/audit (the
# issue's goal: --fix within 2x of audit), and the files --fix rewrote.
# RUNS (default 3) runs each; the best time counts. ONLY=1x or 4x times
# one tree.
# Exit status: 0 done, 2 a prerequisite is missing.
set -u
export LC_ALL=C
TG=${1:-./torchgate}
TREE=${TREE:-/usr/lib/python3/dist-packages/torch}
HEADERS=${HEADERS-/usr/include/torch /usr/include/ATen /usr/include/c10}
RUNS=${RUNS:-3}
ONLY=${ONLY:-}
[ -x "$TG" ] || { echo "fix.sh: no torchgate at $TG" >&2; exit 2; }
TG=$(cd "$(dirname "$TG")" && pwd)/$(basename "$TG")
[ -d "$TREE" ] || { echo "fix.sh: no tree at $TREE (apt-get install python3-torch, or TREE=DIR)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/trees.sh"
make_trees "$tmp"
opts=(-q --floor 2.6 --torch-version 2.11)

secs() { # wall seconds of "$@"
	local a b
	a=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	b=$(date +%s.%N)
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f\n", b - a }'
}

best() { # the least of the numbers on stdin
	sort -g | head -1
}

printf '%-4s %-8s %8s\n' tree command seconds
for t in x1 x4; do
	[ -n "$ONLY" ] && [ "$ONLY" != "${t#x}x" ] && continue
	n=${t#x}x
	ta=$(for ((k = 0; k < RUNS; k++)); do secs "$TG" audit --format=json "${opts[@]}" "$tmp/$t"; done | best)
	td=$(for ((k = 0; k < RUNS; k++)); do secs "$TG" audit --diff "${opts[@]}" "$tmp/$t"; done | best)
	tf=$(for ((k = 0; k < RUNS; k++)); do
		rm -rf "$tmp/copy" && cp -r "$tmp/$t" "$tmp/copy"
		secs "$TG" audit --fix "${opts[@]}" "$tmp/copy"
	done | best)
	changed=$(diff -rq --no-dereference "$tmp/$t" "$tmp/copy" 2>/dev/null | wc -l)
	printf '%-4s %-8s %8s\n' "$n" audit "$ta" "$n" diff "$td" "$n" fix "$tf"
	awk -v a="$ta" -v d="$td" -v f="$tf" -v n="$n" -v c="$changed" 'BEGIN { if (a > 0) printf "%s diff/audit: %.2f, fix/audit: %.2f (goal <= 2), %d files rewritten\n", n, d / a, f / a, c }'
done
