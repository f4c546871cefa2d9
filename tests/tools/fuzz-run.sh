#!/bin/bash
# fuzz-run.sh - run each libFuzzer harness for a bounded time over its corpus
# SPDX-License-Identifier: MIT
#
# usage: tests/tools/fuzz-run.sh SECONDS [NAME...]
#
# From a build configured with `CC=clang ./configure --enable-fuzzing`
# (and --enable-sanitizers for ASan and UBSan), where `make` built the
# tests/fuzz/fuzz_<name> binaries. Runs each harness (all of
# tests/fuzz/fuzz_*, or the NAMEs given) for SECONDS, one at a time, in
# one process (no -jobs), on a copy of its seed corpus
# SRCDIR/tests/fuzz/corpus-<name>, so the source tree is never written.
# Prints a line per harness: executions, executions per second, CPU
# seconds (user + system), the corpus size at the end (files), peak RSS,
# and ok or what went wrong. A crash, leak, timeout (10 s an input) or
# out-of-memory (2 GiB) leaves its input in the work directory (kept, and
# named in the output) and makes the exit status 1.
#
# Environment: FUZZ_WORK, the work directory (default: a new one under
# TMPDIR, removed when everything passed); FUZZ_FLAGS, more libFuzzer
# flags.
set -u
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] || {
	echo "usage: $0 SECONDS [NAME...]" >&2
	exit 2
}
secs=$1
shift
if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for f in tests/fuzz/fuzz_*; do
		case $f in *.c | *.h | *.o) continue ;; esac
		[ -x "$f" ] && names+=("${f#tests/fuzz/fuzz_}")
	done
fi
[ ${#names[@]} -gt 0 ] || {
	echo "$0: no tests/fuzz/fuzz_* here: run it in a build configured with --enable-fuzzing, after make" >&2
	exit 2
}
work=${FUZZ_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/tg-fuzz-run.XXXXXX")}
mkdir -p "$work" || exit 2

failed=0
printf '%-12s %12s %8s %8s %8s %8s  %s\n' harness execs exec/s cpu_s corpus rss_mb result
for n in "${names[@]}"; do
	bin=tests/fuzz/fuzz_$n
	seeds=$srcdir/tests/fuzz/corpus-$n
	[ -x "$bin" ] || { echo "$0: $bin is missing" >&2; failed=1; continue; }
	[ -d "$seeds" ] || { echo "$0: $seeds is missing" >&2; failed=1; continue; }
	rm -rf "$work/corpus-$n" && cp -R "$seeds" "$work/corpus-$n"
	log=$work/$n.log
	TIMEFORMAT='%U %S'
	# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
	{ time "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$work/$n-" ${FUZZ_FLAGS:-} \
		"$work/corpus-$n" >"$log" 2>&1; } 2>"$work/$n.time"
	rc=$?
	read -r u s <"$work/$n.time"
	cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f", u + s }')
	stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
	files=$(find "$work/corpus-$n" -type f | wc -l)
	if [ $rc -eq 0 ]; then
		result=ok
	else
		failed=1
		art=$(ls "$work/$n-"* 2>/dev/null | head -n 1)
		result="FAILED (exit $rc): $(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|ALARM|out-of-memory|deadly signal' "$log")${art:+; input $art}"
	fi
	printf '%-12s %12s %8s %8s %8s %8s  %s\n' "$n" "$(stat number_of_executed_units)" \
		"$(stat average_exec_per_sec)" "$cpu" "$files" "$(stat peak_rss_mb)" "$result"
	[ $rc -eq 0 ] || tail -n 40 "$log" | sed "s/^/  $n| /"
done
if [ $failed -eq 0 ] && [ -z "${FUZZ_WORK:-}" ]; then
	rm -rf "$work"
else
	echo "work directory (logs, corpora, inputs): $work"
fi
exit $failed
