#!/bin/bash
# editable-extensions.sh - torchgate env on real editable installs
# SPDX-License-Identifier: MIT
#
# usage: editable-extensions.sh TORCHGATE SRCDIR
#
# Two projects with a C++ extension that calls c10::gone(), which
# Debian's torch 1.13 does not define, installed with Debian's pip and
# setuptools (>= 64: PEP 660) into a venv on the system site-packages,
# offline (--no-index --no-build-isolation): realflat (flat layout:
# setuptools writes an editable finder, __editable___realflat_1_0_finder,
# whose MAPPING maps realflat to the source tree) and realsrc (src
# layout: a path .pth holding the src directory). No RECORD lists either
# .so. Python itself must fail to import each with 'undefined symbol'
# (the ground truth), and env must report each BROKEN, attributed to its
# distribution, naming the symbol; before env read editable installs it
# said "nothing broken" for both.
set -u
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need_deb python3-torch python3-venv python3-setuptools python3-wheel python3-pip python3-dev
need_cmd g++
PY=/usr/bin/python3

"$PY" -m venv --system-site-packages "$tmp/v" || die "python3 -m venv failed"
cat >"$tmp/ext.cpp" <<'CPP'
#include <Python.h>
namespace c10 { void gone(); }
static PyObject *f(PyObject *, PyObject *) { c10::gone(); Py_RETURN_NONE; }
static PyMethodDef m[] = {{"f", f, METH_NOARGS, ""}, {0, 0, 0, 0}};
static struct PyModuleDef d = {PyModuleDef_HEAD_INIT, "_C", 0, -1, m};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&d); }
CPP
project() { # NAME DIR PKGDIR SETUP-EXTRA
	local p=$tmp/$2
	mkdir -p "$p/$3/$1"
	: >"$p/$3/$1/__init__.py"
	cp "$tmp/ext.cpp" "$p/$3/$1/_C.cpp"
	printf '[build-system]\nrequires = ["setuptools>=64"]\nbuild-backend = "setuptools.build_meta"\n' \
		>"$p/pyproject.toml"
	cat >"$p/setup.py" <<PYEOF
from setuptools import setup, Extension
setup(name="$1", version="1.0", packages=["$1"], install_requires=["torch"], $4
      ext_modules=[Extension("$1._C", ["$3${3:+/}$1/_C.cpp"], language="c++")])
PYEOF
	(cd "$p" && "$tmp/v/bin/pip" install --no-index --no-build-isolation --no-deps -e . \
		>"$tmp/pip-$1.log" 2>&1) || { cat "$tmp/pip-$1.log"; die "pip install -e $1 failed"; }
}
project realflat flat "" ""
project realsrc srcl src 'package_dir={"": "src"},'
sp=$(echo "$tmp"/v/lib/python3.*/site-packages)
check "realflat: an editable finder" "$(ls "$sp" | grep -c '^__editable___realflat_1_0_finder.py$')" 1
check "realsrc: a path .pth" "$(cat "$sp/__editable__.realsrc-1.0.pth")" "$tmp/srcl/src"
for n in realflat realsrc; do
	check_lacks "$n: RECORD" "$(cat "$sp/$n-1.0.dist-info/RECORD")" ".so"
	check_has "$n: python3 -c 'import $n._C'" \
		"$(cd / && "$tmp/v/bin/python3" -c "import $n._C" 2>&1)" "undefined symbol: _ZN3c104goneEv"
done
out=$("$TG" env --python "$tmp/v/bin/python3" 2>"$tmp/err")
check "env exit status" "$?" 1
check "env warnings" "$(cat "$tmp/err")" ""
ext=$(sed -n '/^extensions/,/^$/p' <<<"$out")
check_has "env: realflat" "$ext" "BROKEN  realflat 1.0: 1 of the 1 symbols it needs from torch"
check_has "env: realflat's module" "$ext" "in $tmp/flat/realflat/_C.cpython-"
check_has "env: realsrc" "$ext" "BROKEN  realsrc 1.0: 1 of the 1 symbols it needs from torch"
check_has "env: realsrc's module" "$ext" "in $tmp/srcl/src/realsrc/_C.cpython-"
check_has "env: the symbol" "$ext" "c10::gone() (_ZN3c104goneEv)"
check_lacks "env: the build directory" "$ext" "/build/"
finish
