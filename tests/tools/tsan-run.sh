#!/bin/bash
# tsan-run.sh - the threaded code under ThreadSanitizer
# SPDX-License-Identifier: MIT
#
# usage: tests/tools/tsan-run.sh BUILDDIR SRCDIR [CASE_DIR...]
#
# BUILDDIR is a build configured with
#   CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS=-fsanitize=thread
# (no --enable-werror: at -O1 GCC warns of truncations it does not see
# at -O2), where `make torchgate tests/unit/test_engine
# tests/unit/test_dists` ran. Runs test_engine (its 5,000 files and
# 2,500 walk notes wrap audit's ring of jobs, on 1 to 64 threads) and
# test_dists (env's distributions loaded on threads) RUNS times each
# (default 3), then each CLI case
# (default: every case of audit, env, require and hostile, the commands
# that run the engine or env's collecting threads) with the sanitized
# torchgate, as run-case.sh runs them. TSAN_OPTIONS has halt_on_error=1:
# a report aborts the process (exit 66), and a case's stderr then differs
# from what it expects. Prints the failures and a count.
# Exit status: 0 no report and every case passed, 1 otherwise, 2 usage.
set -u
export LC_ALL=C
[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR SRCDIR [CASE_DIR...]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
src=$(cd "$2" && pwd) || exit 2
shift 2
if ! [ -x "$build/torchgate" ] || ! [ -x "$build/tests/unit/test_engine" ] ||
	! [ -x "$build/tests/unit/test_dists" ]; then
	echo "$0: make torchgate tests/unit/test_engine tests/unit/test_dists in $build first" >&2
	exit 2
fi
nm "$build/torchgate" | grep -q __tsan_init || {
	echo "$0: $build/torchgate is not built with -fsanitize=thread" >&2
	exit 2
}
export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
[ $# -gt 0 ] || set -- "$src"/tests/cli/{audit,env,require,hostile}/*/
failed=0
for t in test_engine test_dists; do
	for ((k = 0; k < ${RUNS:-3}; k++)); do
		"$build/tests/unit/$t" >"$build/tsan-$t.log" 2>&1 || {
			echo "FAIL $t (run $((k + 1))):"
			tail -n 30 "$build/tsan-$t.log"
			failed=$((failed + 1))
		}
	done
done
for c in "$@"; do
	bash "$src/tests/cli/run-case.sh" "$c" "$build/torchgate" >"$build/tsan-case.log" 2>&1 || {
		echo "FAIL ${c%/}:"
		tail -n 30 "$build/tsan-case.log"
		failed=$((failed + 1))
	}
done
echo "tsan-run: test_engine and test_dists ${RUNS:-3} runs each and $# cases, $failed failed"
[ "$failed" -eq 0 ]
