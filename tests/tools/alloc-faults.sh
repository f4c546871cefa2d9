#!/bin/bash
# alloc-faults.sh - fail each allocation of torchgate in turn, over the CLI cases
# SPDX-License-Identifier: MIT
#
# usage: alloc-faults.sh [options] TORCHGATE SRCDIR [CASE_DIR...]
#   TORCHGATE  a binary built with ./configure --enable-alloc-faults
#              (best with --enable-sanitizers too: leaks and memory errors
#              are then reports, and reports are failures)
#   CASE_DIR   cases to run (default: every SRCDIR/tests/cli/*/*)
#   --all N    fail every one of the first N allocations (default 200)
#   --samples S  beyond N, S more spread evenly up to the last one, which
#              is always run (default 40)
#   --jobs J   cases run J at a time (default 2)
#   --keep DIR keep the work of failed runs under DIR (default: a temp dir,
#              kept only when something failed)
#
# For each case it runs the case once with no failure, as run-case.sh
# does (fresh temporary directory, LC_ALL=C, $TORCHGATE, $CASE_DIR,
# $MKTORCH), and reads how many allocations each torchgate process made
# (tests/alloc/allocfail.c logs one line per process). Then it runs the
# case again for each N of the schedule with $TORCHGATE_FAIL_ALLOC=N: the
# N-th allocation of every torchgate process in the case fails. A run
# passes when
#   - no sanitizer reported anything (ASan with detect_leaks, UBSan);
#   - every torchgate process exited with its status of the run without
#     failures, or, when its allocation failed, with 5 (the out-of-memory
#     status, torchgate(1) EXIT STATUS);
#   - the case printed what it must (its stdout, stderr, exit), or a
#     process whose allocation failed exited 5 and the case's output says
#     "out of memory": a failure never turns into a changed answer;
#   - the case's directory holds no file that neither the run without
#     failures nor the run whose first allocation failed left (no stray
#     temporary files; a file the case made itself and that torchgate
#     removes when it succeeds, such as a stale temporary file, stays
#     when torchgate stops at its first allocation).
# A case may run torchgate as another user (as root, probe/unreadable-
# torch-dir drops to nobody through setpriv): the process log is made
# writable by all and the run's directory open to all (sticky, like
# /tmp) for the sanitizers' reports, so that such a process is checked
# like any other.
# Prints one line per failed run and a summary; exits 1 when a run failed.
set -u
all=40 samples=40 jobs=2 keep=
while [ $# -gt 0 ]; do
	case $1 in
	--all) all=$2; shift ;;
	--samples) samples=$2; shift ;;
	--jobs) jobs=$2; shift ;;
	--keep) keep=$2; shift ;;
	--one) break ;;
	--*) echo "alloc-faults.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done

# One run of one case: run_case CASE N DIR. DIR gets the case's temporary
# directory (t/), its output (out, err, rc), the process log (log) and
# the sanitizers' reports (san.*).
run_case() {
	local c=$1 n=$2 d=$3 stdin=/dev/null
	rm -rf "$d" && mkdir -p "$d/t" || return 2
	: >"$d/log" && chmod 666 "$d/log" && chmod 1777 "$d" || return 2
	[ -f "$c/stdin" ] && stdin=$c/stdin
	(cd "$d/t" && env LC_ALL=C TORCHGATE="$bin" CASE_DIR="$c" \
		XDG_CACHE_HOME="$d/t/.cache" \
		MKTORCH="$c/../../../tools/mktorch.sh" \
		TORCHGATE_FAIL_ALLOC="$n" TORCHGATE_ALLOC_LOG="$d/log" \
		ASAN_OPTIONS="detect_leaks=1:log_path=$d/san:abort_on_error=0" \
		UBSAN_OPTIONS="print_stacktrace=1:log_path=$d/san" \
		bash "$c/cmd") <"$stdin" >"$d/out" 2>"$d/err"
	echo $? >"$d/rc"
	sed -i "s|$d/t|\$TMP|g" "$d/out" "$d/err"
	touch "$d/log"
	(cd "$d/t" && find . -mindepth 1 | sort) >"$d/files"
}

# check_run CASE BASE DIR: prints why run DIR fails, nothing if it passes.
check_run() {
	local c=$1 b=$2 d=$3 f same=0 oom=0
	# a report has one of these lines; a process killed by the case
	# (SIGKILL) during LeakSanitizer's exit check leaves only "Unable to
	# get registers from thread", which is no finding
	for f in "$d"/san.*; do
		[ -e "$f" ] && grep -q -E 'ERROR|runtime error|SUMMARY' "$f" &&
			{ echo "sanitizer report: $(grep -m1 -E 'ERROR|runtime error|SUMMARY' "$f")"; return; }
	done
	# the status of each process against the statuses of the same argv
	# in the run without failures
	f=$(awk 'NR == FNR { k = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", k); ok[k] = ok[k] " " $1 " "; next }
		{ k = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", k)
		  if ($3 == 1 && $1 == 5) { print "oom"; next }
		  if (index(ok[k], " " $1 " ")) next
		  print "torchgate " k ": exit " $1 ", want" ok[k] (ok[k] == "" ? "(not run before)" : "") ($3 ? "or 5" : "") }' \
		"$b/log" "$d/log")
	case $f in
	*torchgate*) echo "$f" | grep -m1 torchgate; return ;;
	oom*) oom=1 ;;
	esac
	if [ "$(cat "$d/rc")" = "$(cat "$c/exit")" ] && cmp -s "$d/out" "$c/stdout" &&
		cmp -s "$d/err" "$c/stderr"; then
		same=1
	fi
	if [ $same = 0 ]; then
		if [ $oom = 0 ]; then
			echo "output differs from the case's (exit $(cat "$d/rc")), and no torchgate exited 5 for the failed allocation"
			return
		fi
		if ! grep -q 'out of memory' "$d/err" "$d/out"; then
			echo "exit 5 without 'out of memory': $(grep -m1 torchgate "$d/err")"
			return
		fi
	fi
	f=$b/files
	[ -f "$b/../first.files" ] && f="$f $b/../first.files"
	# shellcheck disable=SC2086
	f=$(sort -u $f | comm -13 - "$d/files" | head -3 | tr '\n' ' ')
	[ -z "$f" ] || echo "left behind: $f"
}

# One case, all of its schedule: prints "case runs failures" last.
one_case() {
	local c=$1 w=$2 max n why runs=0 bad=0 name
	name=$(basename "$(dirname "$c")")/$(basename "$c")
	run_case "$c" 0 "$w/base"
	why=$(check_run "$c" "$w/base" "$w/base")
	if [ -n "$why" ]; then
		echo "FAIL $name: without failures: $why"
		echo "$name 1 1"
		return
	fi
	max=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$w/base/log")
	if [ ! -s "$w/base/log" ] && grep -q TORCHGATE "$c/cmd"; then
		echo "FAIL $name: no process log: is $bin an --enable-alloc-faults build?"
		echo "$name 1 1"
		return
	fi
	for n in $(schedule "$max"); do
		runs=$((runs + 1))
		run_case "$c" "$n" "$w/run"
		[ "$n" = 1 ] && cp "$w/run/files" "$w/first.files"
		why=$(check_run "$c" "$w/base" "$w/run")
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			echo "FAIL $name: allocation $n of $max: $why"
			cp -r "$w/run" "$w/fail-$n"
		fi
	done
	rm -rf "$w/base" "$w/run" "$w/first.files"
	echo "$name $runs $bad"
}

# 1..all, then samples more spread evenly over (all, max], max last
schedule() {
	local max=$1 n k
	for ((n = 1; n <= max && n <= all; n++)); do echo $n; done
	[ "$max" -gt "$all" ] || return 0
	for ((k = 1; k <= samples; k++)); do
		echo $((all + (max - all) * k / samples))
	done | uniq
}

if [ "${1:-}" = --one ]; then
	# internal: alloc-faults.sh [options] --one TORCHGATE CASE WORK
	bin=$2
	one_case "$3" "$4"
	exit 0
fi

[ $# -ge 2 ] || { echo "usage: alloc-faults.sh [--all N] [--samples S] [--jobs J] [--keep DIR] TORCHGATE SRCDIR [CASE_DIR...]" >&2; exit 2; }
bin=$1 src=$2
shift 2
case $bin in /*) ;; *) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
if [ $# -eq 0 ]; then
	set -- "$src"/tests/cli/*/*/
fi
work=${keep:-$(mktemp -d)}
mkdir -p "$work" && chmod 711 "$work" || exit 2
start=$(date +%s)
k=0
for c in "$@"; do
	c=$(cd "$c" && pwd) || exit 2
	k=$((k + 1))
	printf '%s\0%s\0' "$c" "$work/$k"
done | xargs -0 -n 2 -P "$jobs" "$0" --all "$all" --samples "$samples" --one "$bin" >"$work/results"
grep '^FAIL' "$work/results"
awk '!/^FAIL/ { cases++; runs += $2; bad += $3 } END {
	printf "alloc-faults: %d cases, %d runs, %d failed", cases, runs, bad }' "$work/results"
echo " ($(($(date +%s) - start)) s; allocations 1-$all, then $samples spread up to the last)"
if grep -q '^FAIL' "$work/results"; then
	echo "the failed runs are kept in $work"
	exit 1
fi
[ -n "$keep" ] || rm -rf "$work"
exit 0
