#!/bin/bash
# startup.sh - start-up of two torchgate builds side by side
# SPDX-License-Identifier: MIT
#
# usage: bench/startup.sh OLD NEW      (two torchgate binaries)
#
# The network commands must not slow the others down: torchgate never
# links libcurl (tests/tools/check-no-libcurl.sh), and this times, with
# hyperfine -N, what every user runs: probe, and check (a table user)
# without a cache, for OLD and NEW, then NEW's check with a cached table
# (a copy of the built-in one with a newer table_version, which is
# parsed and fully checked instead of the built-in one), and audit of an
# empty directory (the built-in table's start-up, against /bin/true's:
# issue 29). Prints each
# mean and the shared libraries each binary loads (ldd). Environment:
# PY (default /usr/bin/python3), RUNS (default 300).
set -u
export LC_ALL=C
old=${1:?usage: bench/startup.sh OLD NEW}
new=${2:?usage: bench/startup.sh OLD NEW}
PY=${PY:-/usr/bin/python3}
RUNS=${RUNS:-300}
src=$(cd "$(dirname "$0")/.." && pwd)
command -v hyperfine >/dev/null || { echo "startup.sh: hyperfine not found (apt-get install hyperfine)"; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/empty" "$tmp/cached/torchgate"
sed 's/"table_version": "[0-9.]*"/"table_version": "2999.01.01"/' \
	"$src/data/apis.json" >"$tmp/cached/torchgate/apis.json"
echo "libraries: old $(ldd "$old" | wc -l), new $(ldd "$new" | wc -l)"
export XDG_CACHE_HOME=$tmp/empty
hyperfine -N -w 20 -r "$RUNS" \
	-n "/bin/true" "/bin/true" \
	-n "old probe" "$old probe --python $PY" \
	-n "new probe" "$new probe --python $PY" \
	-n "old check" "$old check --torch-version 2.4" \
	-n "new check" "$new check --torch-version 2.4" \
	-n "new check, cached table" "env XDG_CACHE_HOME=$tmp/cached $new check --torch-version 2.4" \
	-n "old audit of an empty directory" "$old audit --torch-version 2.11 $tmp/empty" \
	-n "new audit of an empty directory" "$new audit --torch-version 2.11 $tmp/empty" |
	grep -E '^Benchmark|Time \(mean'
