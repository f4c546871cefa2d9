#!/bin/bash
# device.sh - issue 29's measurements on a machine that has no build tools
# SPDX-License-Identifier: MIT
#
# usage: bench/device.sh pack [DIR]      (here; DIR default devbench)
#        bench/device.sh run DIR [PYTHON] (there; PYTHON default python3)
#
# The GPU machine (16 CPUs, pip's torch 2.11 in a venv) has neither
# torchgate's libraries nor ripgrep, hyperfine, strace or GNU time, and
# no package registry. `pack` puts in DIR (under the working tree, to
# travel with it; remove it afterwards) the torchgate binary
# relinked with the run path $ORIGIN/lib, the libraries it and the
# tools need (lib/, the C library left out) and the tools (bin/); git
# ignores devbench/, so the device tool's run must carry it (carry:
# ["devbench"]). `run`,
# on the other machine, in the repository's root, times there what
# bench/probe.sh, bench/env-real.sh and bench/audit.sh time here, on
# PYTHON's torch:
#   probe: hyperfine -N `torchgate probe --python PYTHON` against
#          /bin/true (goal <= 2.0x), the build's binary and the wheel's
#          (tests/wheel/build.sh builds and installs it: wheel/bin and
#          wheel/libexec, as pip lays them out), then bench/probe.sh with
#          the wheel's (goals >= 1,500x import torch, >= 50x
#          importlib.metadata);
#   env:   bench/env-real.sh (env, env --no-elf, pip check; goal >= 100x
#          pip check and <= 15 ms);
#   audit: bench/audit.sh with TREE the torch package, its include/
#          among it (goal >= 1.0x rg), then the 4-copy tree under taskset
#          at 1, 2, 4, 8 and all CPUs (text, JSON and rg), hyperfine of
#          the three at all CPUs, with strace -c -f and GNU time -v
#          of the JSON audit at all CPUs (futex calls, context switches).
# Everything it prints goes to $OUT/device.txt too when OUT is set (the
# device tool's folder that comes back).
# Exit status: 0 done, 2 a prerequisite is missing.
set -u
export LC_ALL=C
die() { echo "bench/device.sh: $*" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/.." && pwd)

# the libraries of each file, the C library's own left out
libs_of() {
	ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
		grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | sort -u
}

pack() {
	local dir=${1:-devbench} t
	cd "$SRC" || die "no source tree"
	[ -f Makefile ] || die "configure first (the README's Quick start)"
	for t in rg hyperfine strace; do
		command -v "$t" >/dev/null || die "$t not found: apt-get install ripgrep hyperfine strace"
	done
	[ -x /usr/bin/time ] || die "GNU time not found: apt-get install time"
	rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/lib" || die "cannot make $dir"
	# the binary as the build makes it, but for its run path
	make -s torchgate >/dev/null || die "make torchgate failed"
	rm -f torchgate
	# make turns $$ into $, the recipe's shell \$ into $: $ORIGIN
	make -s torchgate LDFLAGS="${LDFLAGS:-} "'-Wl,-rpath,\$$ORIGIN/lib' >/dev/null ||
		die "relinking torchgate failed"
	cp torchgate "$dir/torchgate" || die "cannot copy torchgate"
	readelf -d "$dir/torchgate" | grep -q 'R[UN]*PATH.*\$ORIGIN/lib' ||
		die "the relinked torchgate has no run path \$ORIGIN/lib"
	rm -f torchgate
	make -s torchgate >/dev/null || die "make torchgate failed"
	# and the wheel's, built and installed as a user gets it
	TG_WHEEL_DIR=$(cd "$dir" && pwd)/wheel-work bash tests/wheel/build.sh ./torchgate . >"$dir/wheel.log" 2>&1 ||
		die "the wheel build failed: $dir/wheel.log"
	mkdir -p "$dir/wheel/bin" && cp "$dir/wheel-work/venv/bin/torchgate" "$dir/wheel/bin/" &&
		cp -R "$dir/wheel-work/venv/libexec" "$dir/wheel/" &&
		rm -rf "$dir/wheel-work" "$dir/wheel.log" || die "cannot copy the wheel's files"
	for t in rg hyperfine strace; do cp "$(command -v "$t")" "$dir/bin/"; done
	cp /usr/bin/time "$dir/bin/time"
	# shellcheck disable=SC2046
	cp -L $(libs_of "$dir/torchgate" "$dir"/bin/*) "$dir/lib/" || die "cannot copy the libraries"
	echo "packed $dir ($(du -sh "$dir" | cut -f1)): torchgate, $(ls "$dir/bin" | tr '\n' ' ')"
	echo "lib: $(ls "$dir/lib" | tr '\n' ' ')"
	git check-ignore -q "$dir" 2>/dev/null ||
		echo "note: git does not ignore $dir: it travels as untracked files (do not commit it)"
}

run() {
	local dir=${1:?usage: bench/device.sh run DIR [PYTHON]} py=${2:-python3}
	local tg torch ncpu c
	cd "$SRC" || die "no source tree"
	dir=$(cd "$dir" 2>/dev/null && pwd) || die "no $1 (bench/device.sh pack makes it)"
	tg=$dir/torchgate
	[ -x "$tg" ] || die "no torchgate in $dir"
	export PATH=$dir/bin:$PATH
	# the tools take their libraries from lib/ only where the system
	# has none; torchgate's run path finds its own
	for c in rg hyperfine strace; do
		"$c" --version >/dev/null 2>&1 ||
			export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	done
	"$tg" --version >/dev/null || die "torchgate does not start: $("$tg" --version 2>&1 | head -n 1)"
	py=$(command -v "$py") || die "no $py"
	torch=$("$tg" probe --python "$py" --field location) || die "torchgate finds no torch under $py"
	ncpu=$(nproc)
	echo "machine: $ncpu CPUs, $(sed -n 's/^model name[ \t]*: //p' /proc/cpuinfo | head -n 1)"
	echo "torchgate: $("$tg" --version), git $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "python: $py; torch $("$tg" probe --python "$py" --field version) at $torch"
	echo
	echo "== probe (hyperfine -N; wheel/bin/torchgate is the wheel's)"
	hyperfine -N -w 20 -r 300 "$tg probe --python $py" \
		"$dir/wheel/bin/torchgate probe --python $py" /bin/true 2>&1 |
		grep -E 'Benchmark|Time|±|faster'
	echo
	echo "== probe against import torch and importlib.metadata (bench/probe.sh, the wheel's binary)"
	PY=$py IMPORT_RUNS=${IMPORT_RUNS:-5} bash "$SRC/bench/probe.sh" "$dir/wheel/bin/torchgate" 2>&1
	echo
	echo "== env (bench/env-real.sh)"
	RUNS=${RUNS:-20} bash "$SRC/bench/env-real.sh" "$tg" "$py" 2>&1 | tail -n 12
	echo
	echo "== audit (bench/audit.sh, TREE=$torch)"
	TREE=$torch HEADERS='' RUNS=5 bash "$SRC/bench/audit.sh" "$tg"
	echo
	echo "== scaling, the 4-copy tree, best of 3 (taskset)"
	scaling "$tg" "$torch" "$ncpu"
}

scaling() {
	local tg=$1 torch=$2 ncpu=$3 tmp n k best t
	tmp=$(mktemp -d) || die "mktemp failed"
	# shellcheck source=bench/trees.sh
	. "$SRC/bench/trees.sh"
	TREE=$torch HEADERS='' make_trees "$tmp" >/dev/null
	sed -n 's/^ *"id": "\(.*\)",$/\1/p' "$SRC/data/apis.json" >"$tmp/names"
	for n in $(printf '%s\n' 1 2 4 8 "$ncpu" | sort -n -u); do
		[ "$n" -le "$ncpu" ] || continue
		for c in text json rg; do
			best=
			for k in 1 2 3; do
				case $c in
				rg) set -- rg -n -F -f "$tmp/names" ;;
				text) set -- "$tg" audit -q --torch-version 2.11 ;;
				json) set -- "$tg" audit -q --format=json --torch-version 2.11 ;;
				esac
				t=$( { /usr/bin/time -f %e taskset -c "0-$((n - 1))" "$@" "$tmp/x4" >/dev/null; } 2>&1 | tail -n 1)
				if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
			done
			printf '%3s CPUs  %-6s %s s\n' "$n" "$c" "$best"
		done
	done
	echo "-- the 4-copy tree at $ncpu CPUs (hyperfine -N, means)"
	hyperfine -N -i -w 3 -r 20 "$tg audit -q --torch-version 2.11 $tmp/x4" \
		"$tg audit -q --format=json --torch-version 2.11 $tmp/x4" \
		"rg -n -F -f $tmp/names $tmp/x4" 2>&1 | grep -E 'Benchmark|Time'
	echo "-- JSON audit of the 4-copy tree at $ncpu CPUs: system calls (strace -c -f)"
	strace -c -f -o "$tmp/strace" "$tg" audit -q --format=json --torch-version 2.11 "$tmp/x4" >/dev/null 2>&1
	head -n 12 "$tmp/strace"
	echo "-- and GNU time -v"
	/usr/bin/time -v "$tg" audit -q --format=json --torch-version 2.11 "$tmp/x4" 2>&1 >/dev/null |
		grep -E 'Elapsed|Maximum resident|context switches|User time|System time'
	rm -rf "$tmp"
}

case ${1:-} in
pack) shift; pack "$@" ;;
run)
	shift
	if [ -n "${OUT:-}" ]; then
		run "$@" 2>&1 | tee "$OUT/device.txt"
		exit "${PIPESTATUS[0]}"
	fi
	run "$@"
	;;
*) die "usage: bench/device.sh pack [DIR] | run DIR [PYTHON]" ;;
esac
