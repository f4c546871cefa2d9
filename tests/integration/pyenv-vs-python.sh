#!/bin/bash
# pyenv-vs-python.sh - pyenv shims followed as pyenv follows them
# SPDX-License-Identifier: MIT
#
# usage: pyenv-vs-python.sh TORCHGATE SRCDIR
#
# A fake pyenv root (written here; no pyenv needed) holds a shim as pyenv
# writes it, versions/3.11.9 (bin/python3 a link to the Debian
# /usr/bin/python3) and versions/3.11-lnk, a symbolic link to a prefix of
# its own (a copy of /usr/bin/python3.11 beside a link to its standard
# library). "system" is a python3 in a directory on PATH. For each case
# the interpreter pyenv would exec (from pyenv's own scripts:
# pyenv-version-file-read, pyenv-version-name, pyenv-which) is written
# down, and 'torchgate probe --python SHIM' must name it (--field python)
# and give the sys.path[1:] that interpreter prints when run by that
# path. Where a real pyenv is installed (its libexec), the shim is also
# run through it, and must exec the same interpreter.
#   env-missing     PYENV_VERSION=3.99 (not installed): system
#   env-list        PYENV_VERSION=3.99:3.11.9: 3.11.9
#   env-blank       PYENV_VERSION='3.11.9 3.12' (one name: split on ':'
#                   only): system
#   file-first-word .python-version '3.99 3.11.9': only the first word of
#                   a line counts: system
#   file-link       .python-version with a comment, then '  3.11-lnk':
#                   sys.prefix keeps versions/3.11-lnk, unresolved
#   global-python-  $PYENV_ROOT/version 'python-3.11.9': 3.11.9
#   none            nothing provides python3, no system python3: exit 3
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need "$PY" "Debian's python3"
need /usr/bin/python3.11 "Debian's python3.11 (the lnk prefix copies it)"
PY_SYSPATH='import sys; print("\n".join(sys.path[1:]))'

R=$tmp/pyenv
mkdir -p "$R/shims" "$R/versions/3.11.9/bin" "$tmp/prefix/bin" "$tmp/prefix/lib" \
	"$tmp/sysbin" "$tmp/work/sub" "$tmp/home"
cat >"$R/shims/python3" <<SHIM
#!/usr/bin/env bash
set -e
[ -n "\$PYENV_DEBUG" ] && set -x

program="\${0##*/}"

export PYENV_ROOT="$R"
exec "$R/libexec/pyenv" exec "\$program" "\$@"
SHIM
chmod +x "$R/shims/python3"
ln -s /usr/bin/python3 "$R/versions/3.11.9/bin/python3"
cp /usr/bin/python3.11 "$tmp/prefix/bin/python3.11"
ln -s python3.11 "$tmp/prefix/bin/python3"
ln -s /usr/lib/python3.11 "$tmp/prefix/lib/python3.11"
ln -s "$tmp/prefix" "$R/versions/3.11-lnk"
ln -s /usr/bin/python3 "$tmp/sysbin/python3"
real_pyenv=
for d in "${PYENV_ROOT:-}" "${HOME:-}/.pyenv" /root/.pyenv; do
	[ -n "$d" ] && [ -x "$d/libexec/pyenv" ] && { real_pyenv=$d/libexec; break; }
done
if [ -n "$real_pyenv" ]; then
	ln -s "$real_pyenv" "$R/libexec"
else
	note "no pyenv installed: the shims are not run through pyenv itself"
fi

BASEENV=(LC_ALL=C.UTF-8 HOME="$tmp/home")
# shim_case NAME WANT_EXE [VAR=VALUE...]: in $tmp/work/sub, PATH the shims
# then $tmp/sysbin, plus the variables given
shim_case() {
	local name=$1 want=$2 got rc
	shift 2
	local E=(env -i "${BASEENV[@]}" PATH="$R/shims:$tmp/sysbin:/usr/bin:/bin" "$@")
	got=$(cd "$tmp/work/sub" && "${E[@]}" "$TG" probe --python python3 --field python 2>"$tmp/err")
	check "$name: interpreter" "$got" "$want"
	check "$name: sys.path" \
		"$(cd "$tmp/work/sub" && "${E[@]}" "$TG" probe --python python3 --field sys_path 2>&1)" \
		"$(cd "$tmp/work/sub" && env -i "${BASEENV[@]}" "$want" -c "$PY_SYSPATH" 2>&1)"
	if [ -n "$real_pyenv" ]; then
		check "$name: pyenv itself" \
			"$(cd "$tmp/work/sub" && "${E[@]}" python3 -c 'import sys; print(sys.executable)' 2>&1)" \
			"$want"
	fi
}

# the system python3 is found on PATH with the shims left out: its
# sys.executable is the path there
shim_case env-missing "$tmp/sysbin/python3" PYENV_VERSION=3.99
check_has "env-missing: resolved via" \
	"$(cd "$tmp/work/sub" && env -i "${BASEENV[@]}" PATH="$R/shims:$tmp/sysbin:/usr/bin:/bin" PYENV_VERSION=3.99 \
		"$TG" probe --python python3 --format=json 2>/dev/null)" \
	"-> system (no 'python3' in version '3.99' set by PYENV_VERSION: pyenv falls back to system)"
shim_case env-list "$R/versions/3.11.9/bin/python3" PYENV_VERSION=3.99:3.11.9
shim_case env-blank "$tmp/sysbin/python3" "PYENV_VERSION=3.11.9 3.12"
printf '3.99 3.11.9\n' >"$tmp/work/.python-version"
shim_case file-first-word "$tmp/sysbin/python3"
printf '# pinned\n  3.11-lnk  \n' >"$tmp/work/.python-version"
shim_case file-link "$R/versions/3.11-lnk/bin/python3"
check "file-link: sys.prefix" \
	"$(cd "$tmp/work/sub" && env -i "${BASEENV[@]}" PATH="$R/shims:$tmp/sysbin:/usr/bin:/bin" "$TG" probe --python python3 --field prefix 2>&1)" \
	"$(env -i "${BASEENV[@]}" "$R/versions/3.11-lnk/bin/python3" -c 'import sys; print(sys.prefix)')"
rm "$tmp/work/.python-version"
printf 'python-3.11.9\n' >"$R/version"
shim_case global-python- "$R/versions/3.11.9/bin/python3"

# nothing provides python3: no version, no system python3 (PATH without
# /usr/bin: torchgate is run by its absolute path, Python not at all)
got=$(cd "$tmp/work/sub" && env -i "${BASEENV[@]}" PATH="$R/shims" PYENV_VERSION=3.99 \
	"$TG" probe --python python3 --field python 2>&1)
rc=$?
check "none: exit" "$rc" 3
check "none: message" "$got" \
	"torchgate: probe: pyenv shim '$R/shims/python3': no 'python3' in the version set by PYENV_VERSION, nor on PATH outside the shims (system)"

finish
