#!/bin/bash
# compare.sh - two torchgate builds side by side: the commands but audit and env
# SPDX-License-Identifier: MIT
#
# usage: bench/compare.sh OLD NEW
#
# For probe, check, emit, flags, discover (on this machine's Debian
# torch, /usr/bin/python3) and require (of tests/data/audit-apex), so
# that a change made for one command is seen not to slow the others
# (issue 29; audit and env have bench/audit.sh and bench/env.sh):
# the instructions it executes, counted by valgrind's callgrind (the same
# count run after run, whatever else the machine is doing), and its wall
# time from hyperfine (-N, warm cache; meaningful only on a quiet
# machine). Prints one line per command with both builds and the ratio
# NEW/OLD. Exit status: 0 printed, 2 a prerequisite is missing or a
# command failed.
set -u
export LC_ALL=C
[ $# -eq 2 ] || { echo "usage: bench/compare.sh OLD NEW" >&2; exit 2; }
old=$1 new=$2
PY=${PY:-/usr/bin/python3}
for t in "$old" "$new"; do
	[ -x "$t" ] || { echo "compare.sh: '$t' is not executable" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "compare.sh: valgrind not found" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "compare.sh: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

src=$(cd "$(dirname "$0")/.." && pwd)
names=(probe check emit flags discover require)
args=(
	"probe --python $PY"
	"check --python $PY"
	"emit --quiet --python $PY --header $tmp/h.h --module $tmp/m.py --api torch.amp.custom_fwd --api torch.cuda.amp.custom_fwd"
	"flags --python $PY --cflags"
	"discover --quiet --python $PY"
	"require $src/tests/data/audit-apex"
)

instr() { # instructions of one run of "$@"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" \
		>/dev/null 2>"$tmp/vg" || { echo "compare.sh: $* failed" >&2; cat "$tmp/vg" >&2; exit 2; }
	sed -n 's/.*Collected : *//p' "$tmp/vg"
}

printf '%-8s %14s %14s %7s %10s %10s %7s\n' command "old instr" "new instr" ratio "old ms" "new ms" ratio
for k in "${!names[@]}"; do
	read -r -a a <<<"${args[$k]}"
	io=$(instr "$old" "${a[@]}")
	in=$(instr "$new" "${a[@]}")
	hyperfine -N -w 5 -r "${RUNS:-100}" --export-json "$tmp/h.json" \
		"$old ${args[$k]}" "$new ${args[$k]}" >/dev/null 2>&1 ||
		{ echo "compare.sh: hyperfine failed on ${names[$k]}" >&2; exit 2; }
	read -r to tn < <("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["mean"]*1e3, r[1]["mean"]*1e3)' "$tmp/h.json")
	awk -v n="${names[$k]}" -v io="$io" -v inew="$in" -v to="$to" -v tn="$tn" \
		'BEGIN { printf "%-8s %14d %14d %7.3f %10.2f %10.2f %7.3f\n", n, io, inew, inew / io, to, tn, tn / to }'
done
