#!/bin/bash
# interleave.sh - wall times of commands run in turn, minimum and median
# SPDX-License-Identifier: MIT
#
# usage: bench/interleave.sh N 'COMMAND A' 'COMMAND B' ...
#
# Runs A, B, ... one after another, N rounds, each with its output to
# /dev/null, and prints the minimum and the median wall time of each.
# Interleaved rounds spread a busy moment of the machine over every
# command instead of one (hyperfine runs one command's runs together).
# A command is split on blanks (no quoting inside it).
# Exit status: 0, or 2 for a usage error.
set -u
n=${1:-}
case $n in '' | *[!0-9]*) echo "usage: bench/interleave.sh N 'COMMAND'..." >&2; exit 2 ;; esac
shift
[ $# -gt 0 ] || { echo "usage: bench/interleave.sh N 'COMMAND'..." >&2; exit 2; }
declare -A t
for ((i = 0; i < n; i++)); do
	k=0
	for c in "$@"; do
		s=$(date +%s%N)
		# shellcheck disable=SC2086
		$c >/dev/null 2>&1
		e=$(date +%s%N)
		t[$k]+="$(((e - s) / 100000)) "
		k=$((k + 1))
	done
done
k=0
for c in "$@"; do
	echo "${t[$k]}" | tr ' ' '\n' | grep . | sort -n |
		awk -v c="$c" '{ a[NR] = $1 } END { printf "min %.1f med %.1f ms  %s\n", a[1] / 10, a[int((NR + 1) / 2)] / 10, c }'
	k=$((k + 1))
done
