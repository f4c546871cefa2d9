#!/bin/bash
# run-case.sh - run one CLI test case and compare what it printed
# SPDX-License-Identifier: MIT
#
# usage: run-case.sh [--update] [--valgrind] CASE_DIR TORCHGATE
#
# A case is a directory with:
#   cmd     a bash snippet; "$TORCHGATE" is the binary under test
#   stdin   (optional) fed to the snippet
#   stdout, stderr, exit   what it must print and return
# It runs in a fresh temporary directory with LC_ALL=C; that directory's
# path is written as $TMP in what it printed, and XDG_CACHE_HOME is
# $TMP/.cache (no cached table unless the case writes one). --update
# rewrites stdout/stderr/exit from the current binary. --valgrind runs torchgate
# under valgrind (memcheck, leaks are errors; exit 99 on a finding) and
# sets CASE_VALGRIND=1 for the snippet (a case whose timeout guards
# against a slow regression gives valgrind's copy a longer one).
set -u
update=0 vg=0
while [ $# -gt 2 ]; do
	case $1 in
	--update) update=1 ;;
	--valgrind) vg=1 ;;
	*) echo "run-case.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ $# -eq 2 ] || { echo "usage: run-case.sh [--update] [--valgrind] CASE_DIR TORCHGATE" >&2; exit 2; }
case_dir=$(cd "$1" && pwd) || exit 2
bin=$2
case $bin in /*) ;; *) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
[ -f "$case_dir/cmd" ] || { echo "run-case.sh: $case_dir has no cmd" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
# open to all, as /tmp is: cases run torchgate as nobody (setpriv), and
# under --valgrind that is the wrapper below, in this directory; --vgdb=no:
# no /tmp/vgdb-* file, which a recycled pid of another user's run can
# already own (EACCES, seen in CI as nobody)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
if [ $vg -eq 1 ]; then
	# cases that run torchgate as nobody copy $TORCHGATE when nobody
	# cannot reach it (a build in a 0700 directory); here that is the
	# wrapper, so the wrapper runs a copy of the binary in that case
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
		! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin"; then
		cp "$bin" "$tmp/.torchgate" && chmod 755 "$tmp/.torchgate" || exit 2
		bin=$tmp/.torchgate
	fi
	cat >"$tmp/.tg" <<WRAP
#!/bin/sh
exec valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "$bin" "\$@"
WRAP
	chmod +x "$tmp/.tg"
	bin=$tmp/.tg
fi
stdin=/dev/null
[ -f "$case_dir/stdin" ] && stdin=$case_dir/stdin
(cd "$tmp" && LC_ALL=C TORCHGATE=$bin CASE_DIR=$case_dir XDG_CACHE_HOME=$tmp/.cache CASE_VALGRIND=$vg \
	MKTORCH="$case_dir/../../../tools/mktorch.sh" bash "$case_dir/cmd") \
	<"$stdin" >"$tmp/.out" 2>"$tmp/.err"
rc=$?
for f in .out .err; do
	sed -i "s|$tmp|\$TMP|g" "$tmp/$f"
done
if [ $update -eq 1 ]; then
	cp "$tmp/.out" "$case_dir/stdout"
	cp "$tmp/.err" "$case_dir/stderr"
	echo $rc >"$case_dir/exit"
	exit 0
fi
fail=0
want_rc=$(cat "$case_dir/exit" 2>/dev/null || echo missing)
if [ "$rc" != "$want_rc" ]; then
	echo "exit status: got $rc, want $want_rc"
	fail=1
fi
diff -u "$case_dir/stdout" "$tmp/.out" || fail=1
diff -u "$case_dir/stderr" "$tmp/.err" || fail=1
exit $fail
