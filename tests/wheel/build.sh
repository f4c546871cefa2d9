#!/bin/bash
# build.sh - the CTest fixture "wheel": torchgate's sdist, its wheel, one venv
# SPDX-License-Identifier: MIT
#
# usage: TG_WHEEL_DIR=DIR build.sh TORCHGATE SRCDIR
#
# Built once for every test that needs the wheel (tests/wheel/*.sh, and
# the examples' isolated builds in tests/integration), into TG_WHEEL_DIR,
# which it empties first:
#   src/    the files MANIFEST.in names, copied from SRCDIR (a checkout
#           configured in place, or make distcheck's read-only tree)
#   dist/   python3 -m build --sdist of src/, offline (PIP_NO_INDEX,
#           setuptools from /usr/share/python-wheels): its setup.py runs
#           autoreconf -fi in the release tree
#   wheel/  pip wheel of that tarball, offline, with autoreconf, autoconf,
#           automake and aclocal on PATH replaced by scripts that fail:
#           the sdist must build without autotools
#   venv/   a venv of Debian's /usr/bin/python3 with the wheel installed
#           by pip (no torchgate on PATH anywhere here)
# and the logs. Fails, never skips, when a Debian package it needs is
# missing. Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.bash"
W=${TG_WHEEL_DIR:?TG_WHEEL_DIR is not set (tests/CTestTestfile.cmake sets it)}
PY=/usr/bin/python3
need_deb python3-pip python3-build python3-venv python3-setuptools-whl \
	python3-wheel-whl python3-setuptools libpcre2-dev libcjson-dev
need_cmd cc make pkg-config autoreconf objdump

rm -rf "$W" && mkdir -p "$W/src" "$W/dist" "$W/wheel" "$W/home" "$W/noauto" ||
	die "cannot make '$W'"
# the source files, as MANIFEST.in lists them
while read -r kind what; do
	case $kind in include | graft) ;; *) continue ;; esac
	for f in $what; do
		(cd "$SRCDIR" && cp -R --parents "$f" "$W/src/") || die "cannot copy '$f' from '$SRCDIR'"
	done
done <"$SRCDIR/MANIFEST.in"
chmod -R u+w "$W/src"

for t in autoreconf autoconf autoheader automake aclocal autom4te; do
	printf '#!/bin/sh\necho "%s run by the wheel build: the sdist must carry configure" >&2\nexit 1\n' "$t" >"$W/noauto/$t"
	chmod +x "$W/noauto/$t"
done
run() {
	env -i HOME="$W/home" PATH="/usr/bin:/bin" LC_ALL=C.UTF-8 \
		PIP_NO_INDEX=1 PIP_FIND_LINKS=/usr/share/python-wheels \
		PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 "$@"
}

start=$SECONDS
(cd "$W/src" && run nice -n 10 "$PY" -m build --sdist -o "$W/dist" .) >"$W/sdist.log" 2>&1
check "python3 -m build --sdist exit status" "$?" 0
sdist=$(ls "$W"/dist/torchgate-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$sdist" ] || { sed 's/^/      | /' "$W/sdist.log" | tail -n 30; die "no sdist in $W/dist"; }
ok "sdist: $(basename "$sdist") ($((SECONDS - start)) s)"

start=$SECONDS
(cd "$W" && run PATH="$W/noauto:/usr/bin:/bin" nice -n 10 "$PY" -m pip wheel --no-deps \
	-w "$W/wheel" "$sdist") >"$W/wheel.log" 2>&1
check "pip wheel SDIST (offline, no autotools) exit status" "$?" 0
whl=$(ls "$W"/wheel/torchgate-*.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || { sed 's/^/      | /' "$W/wheel.log" | tail -n 40; die "no wheel in $W/wheel"; }
check_lacks "the wheel build's log" "$(cat "$W/wheel.log")" "run by the wheel build"
ok "wheel: $(basename "$whl") ($((SECONDS - start)) s)"

run "$PY" -m venv "$W/venv" >"$W/venv.log" 2>&1 || die "$PY -m venv failed: $(cat "$W/venv.log")"
run "$W/venv/bin/python" -m pip install --no-deps "$whl" >>"$W/venv.log" 2>&1
check "pip install WHEEL into a fresh venv exit status" "$?" 0
expect "the venv's bin/torchgate is executable" test -x "$W/venv/bin/torchgate"
finish
