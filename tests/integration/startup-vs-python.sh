#!/bin/bash
# startup-vs-python.sh - interpreters whose start-up files are odd, against Python
# SPDX-License-Identifier: MIT
#
# usage: startup-vs-python.sh TORCHGATE SRCDIR
#
# Venvs of the Debian /usr/bin/python3 (required, with python3-venv) whose
# files change how, or whether, the interpreter starts; each is run with
# env -i and a UTF-8 locale, and 'torchgate probe --python VENV/bin/python3'
# must agree:
#   pth-not-utf8    a .pth with a byte that is not UTF-8 on line 2: Python
#                   cannot start ("Fatal Python error: init_import_site");
#                   torchgate exits 4 naming the file and the line, and
#                   --format=json still writes the report, with "error"
#                   (and so for each pyenv Python 3.8 or later where one
#                   is installed: pth-not-utf8-pyenv-X.Y.Z)
#   pth-utf8        a .pth naming a non-ASCII directory: the same sys.path
#   stale-home-link pyvenv.cfg home names a directory without python3 and
#                   bin/python3 is a link: the same sys.path and
#                   sys.base_prefix, and a warning
#   stale-home-copy the same with --copies, pyvenv.cfg's executable intact:
#                   the same sys.path
#   stale-all-copy  --copies, home and executable both gone: Python starts
#                   on its compiled-in prefix, which no file names;
#                   torchgate exits 3 saying what in pyvenv.cfg is wrong,
#                   with JSON
#   linked-prefix   a prefix (a copy of /usr/bin/python3.11 and a link to
#                   its standard library) reached through a symbolically
#                   linked directory: sys.prefix and sys.path keep the
#                   link's name; venv-of-link: a venv made from it, whose
#                   sys.base_prefix keeps it too
#   merged-bin      /bin/python3 where /bin links to usr/bin (Debian's
#                   merged /usr): getpath's search for the landmark stops
#                   below the root, so sys.prefix is the compiled-in
#                   /usr, not /; also a linked bin directory alone
#   home-frozen-site PYTHONHOME names a prefix whose lib/python3.11/site.py
#                   is an upstream one (no dist-packages): from 3.11 site
#                   is frozen into the binary, so the Debian binary still
#                   adds that prefix's dist-packages, and the torch there
#                   is found; the on-disk site.py is not what runs
#   home-usr-pyenv  where pyenv has a 3.11 or later: PYTHONHOME=/usr with
#                   it gives no Debian dist-packages (noted when absent)
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need "$PY" "Debian's python3 (apt-get install python3)"
"$PY" -m venv --help >/dev/null 2>&1 || die "python3 -m venv does not work (apt-get install python3-venv)"
mkdir -p "$tmp/home"
E=(env -i LC_ALL=C.UTF-8 HOME="$tmp/home" PATH=/usr/bin:/bin)
PY_SYSPATH='import sys; print("\n".join(sys.path[1:]))'

# py VENV CODE: run the venv's python in $tmp
py() { (cd "$tmp" && "${E[@]}" "$1/bin/python3" -c "$2"); }
# tg ARGS...: torchgate in $tmp, the same environment
tg() { (cd "$tmp" && "${E[@]}" "$TG" "$@"); }

mkvenv() { "$PY" -m venv --without-pip "$@" || die "python3 -m venv $* failed"; }

# --- .pth that is not UTF-8
v=$tmp/v-bad
mkvenv "$v"
sp=$(echo "$v"/lib/python3.*/site-packages)
mkdir -p "$tmp/d1"
printf '%s\n\xff\xfe\n' "$tmp/d1" >"$sp/bad.pth"
out=$(py "$v" 'print(1)' 2>&1)
rc=$?
check_has "pth-not-utf8: python" "$out" "init_import_site"
[ $rc -ne 0 ] && ok "pth-not-utf8: python exits $rc" || fail "pth-not-utf8: python started"
tg probe --python "$v/bin/python3" --field location >/dev/null 2>"$tmp/err"
check "pth-not-utf8: exit" "$?" 4
check "pth-not-utf8: stderr" "$(cat "$tmp/err")" \
	"torchgate: probe: '$sp/bad.pth': line 2 is not UTF-8: Python cannot start (site.py fails to decode the file: \"Fatal Python error: init_import_site\")"
json=$(tg probe --python "$v/bin/python3" --format=json 2>/dev/null)
check "pth-not-utf8: json exit" "$?" 4
check "pth-not-utf8: json error" "$(printf '%s' "$json" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["error"]); print(d["python"]["executable"])')" \
	"'$sp/bad.pth': line 2 is not UTF-8: Python cannot start (site.py fails to decode the file: \"Fatal Python error: init_import_site\")
$v/bin/python3"

for p in "${PYENV_ROOT:-/root/.pyenv}"/versions/3.*/bin/python3; do
	[ -x "$p" ] || continue
	ver=$(basename "$(dirname "$(dirname "$p")")")
	case $ver in 3.[0-7].*) continue ;; esac
	v=$tmp/v-bad-$ver
	"$p" -m venv --without-pip "$v" >/dev/null 2>&1 || { note "venv of $p failed: not tested"; continue; }
	sp=$(echo "$v"/lib/python3.*/site-packages)
	printf '%s\n\xff\xfe\n' "$tmp/d1" >"$sp/bad.pth"
	py "$v" 'print(1)' >/dev/null 2>&1 && fail "pth-not-utf8-pyenv-$ver: python $ver started" ||
		ok "pth-not-utf8-pyenv-$ver: python $ver does not start"
	tg probe --python "$v/bin/python3" --field location >/dev/null 2>"$tmp/err"
	check "pth-not-utf8-pyenv-$ver: exit" "$?" 4
	check_has "pth-not-utf8-pyenv-$ver: stderr" "$(cat "$tmp/err")" "'$sp/bad.pth': line 2 is not UTF-8"
done

# --- .pth with UTF-8 that is not ASCII
v=$tmp/v-utf8
mkvenv "$v"
sp=$(echo "$v"/lib/python3.*/site-packages)
mkdir -p "$tmp/dé"
printf '%s\n' "$tmp/dé" >"$sp/ok.pth"
check "pth-utf8: sys.path" "$(tg probe --python "$v/bin/python3" --field sys_path 2>&1)" \
	"$(py "$v" "$PY_SYSPATH" 2>&1)"

# --- a stale home, bin/python3 a link
v=$tmp/v-link
mkvenv "$v"
sed -i 's|^home = .*|home = /nonexistent/bin|' "$v/pyvenv.cfg"
check "stale-home-link: sys.path" "$(tg probe --python "$v/bin/python3" --field sys_path 2>&1)" \
	"$(py "$v" "$PY_SYSPATH" 2>&1)"
check "stale-home-link: base_prefix" \
	"$(tg probe --python "$v/bin/python3" --format=json 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["python"]["base_prefix"])')" \
	"$(py "$v" 'import sys; print(sys.base_prefix)')"
tg probe --python "$v/bin/python3" --field version >/dev/null 2>"$tmp/err"
check_has "stale-home-link: warning" "$(cat "$tmp/err")" \
	"warning: '$v/pyvenv.cfg': home '/nonexistent/bin' holds no python3; Python finds its base through the link '$v/bin/python3'"

# --- a stale home, a copied interpreter
v=$tmp/v-copy
mkvenv --copies "$v"
sed -i 's|^home = .*|home = /nonexistent/bin|' "$v/pyvenv.cfg"
check "stale-home-copy: sys.path" "$(tg probe --python "$v/bin/python3" --field sys_path 2>&1)" \
	"$(py "$v" "$PY_SYSPATH" 2>&1)"
sed -i 's|^executable = .*|executable = /nonexistent/bin/python3.11|' "$v/pyvenv.cfg"
py "$v" 'print(1)' >/dev/null 2>&1 && ok "stale-all-copy: python starts" || fail "stale-all-copy: python does not start"
tg probe --python "$v/bin/python3" --field version >/dev/null 2>"$tmp/err"
check "stale-all-copy: exit" "$?" 3
check "stale-all-copy: stderr" "$(cat "$tmp/err")" \
	"torchgate: probe: '$v/pyvenv.cfg': home '/nonexistent/bin' holds no python3, '$v/bin/python3' is a copy (not a link) and its executable '/nonexistent/bin/python3.11' does not exist: cannot tell the base Python; set home in pyvenv.cfg to the directory of the Python the venv was made from"
json=$(tg probe --python "$v/bin/python3" --format=json 2>/dev/null)
check "stale-all-copy: json exit" "$?" 3
check_has "stale-all-copy: json" "$json" '"error": "'"'$v/pyvenv.cfg': home"

# --- a prefix reached through a directory symlink
need /usr/bin/python3.11 "Debian's python3.11"
mkdir -p "$tmp/realprefix/bin" "$tmp/realprefix/lib"
cp /usr/bin/python3.11 "$tmp/realprefix/bin/python3.11"
ln -s python3.11 "$tmp/realprefix/bin/python3"
ln -s /usr/lib/python3.11 "$tmp/realprefix/lib/python3.11"
ln -s "$tmp/realprefix" "$tmp/linked"
L=$tmp/linked
check "linked-prefix: sys.prefix" "$(tg probe --python "$L/bin/python3" --field prefix 2>&1)" \
	"$(py "$L" 'import sys; print(sys.prefix)' 2>&1)"
check_has "linked-prefix: the link's name" "$(tg probe --python "$L/bin/python3" --field prefix 2>&1)" "$L"
check "linked-prefix: sys.path" "$(tg probe --python "$L/bin/python3" --field sys_path 2>&1)" \
	"$(py "$L" "$PY_SYSPATH" 2>&1)"
(cd "$tmp" && "${E[@]}" "$L/bin/python3" -m venv --without-pip "$tmp/v-of-link") || die "venv of the linked prefix failed"
v=$tmp/v-of-link
check "venv-of-link: base_prefix" \
	"$(tg probe --python "$v/bin/python3" --format=json 2>/dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["python"]["base_prefix"])')" \
	"$(py "$v" 'import sys; print(sys.base_prefix)')"
check "venv-of-link: sys.path" "$(tg probe --python "$v/bin/python3" --field sys_path 2>&1)" \
	"$(py "$v" "$PY_SYSPATH" 2>&1)"

# --- a program reached through a linked bin directory
mkdir -p "$tmp/lk2"
ln -s /usr/bin "$tmp/lk2/bin"
for p in /bin/python3 "$tmp/lk2/bin/python3.11"; do
	if [ -x "$p" ]; then
		check "merged-bin: sys.prefix of $p" "$(cd "$tmp" && "${E[@]}" "$TG" probe --python "$p" --field prefix 2>&1)" \
			"$(cd "$tmp" && "${E[@]}" "$p" -c 'import sys; print(sys.prefix)' 2>&1)"
		check "merged-bin: sys.path of $p" "$(cd "$tmp" && "${E[@]}" "$TG" probe --python "$p" --field sys_path 2>&1)" \
			"$(cd "$tmp" && "${E[@]}" "$p" -c "$PY_SYSPATH" 2>&1)"
	else
		note "no $p: merged-bin case not run"
	fi
done

# --- PYTHONHOME and the frozen site module
H=$tmp/home311
mkdir -p "$H/lib/python3.11" "$H/lib/python3/dist-packages" "$H/lib/python3.11/site-packages"
for f in /usr/lib/python3.11/*; do
	[ "$(basename "$f")" = site.py ] || ln -s "$f" "$H/lib/python3.11/"
done
sed 's/dist-packages/site-packages/g' /usr/lib/python3.11/site.py >"$H/lib/python3.11/site.py"
grep -q dist-packages "$H/lib/python3.11/site.py" && fail "home-frozen-site: the stand-in site.py still says dist-packages"
bash "$SRCDIR/tests/tools/mktorch.sh" "$H/lib/python3/dist-packages" --version 2.6.0 >/dev/null
hp() { (cd "$tmp" && "${E[@]}" PYTHONHOME="$H" "$@"); }
check "home-frozen-site: sys.path" "$(hp "$TG" probe --python "$PY" --field sys_path 2>&1)" \
	"$(hp "$PY" -c "$PY_SYSPATH" 2>&1)"
check "home-frozen-site: torch" "$(hp "$TG" probe --python "$PY" --field location 2>&1)" \
	"$(hp "$PY" -c 'import importlib.util as u, os; print(os.path.dirname(u.find_spec("torch").origin))' 2>&1)"
pyenv_py=
for d in "${PYENV_ROOT:-}" /root/.pyenv; do
	for p in "$d"/versions/3.1[1-9]*/bin/python3; do
		[ -n "$d" ] && [ -x "$p" ] && { pyenv_py=$p; break 2; }
	done
done
if [ -n "$pyenv_py" ]; then
	check "home-usr-pyenv: sys.path ($pyenv_py)" \
		"$(cd "$tmp" && "${E[@]}" PYTHONHOME=/usr "$TG" probe --python "$pyenv_py" --field sys_path 2>&1)" \
		"$(cd "$tmp" && "${E[@]}" PYTHONHOME=/usr "$pyenv_py" -c "$PY_SYSPATH" 2>&1)"
else
	note "no pyenv Python 3.11+: home-usr-pyenv not run (expected in CI)"
fi

finish
