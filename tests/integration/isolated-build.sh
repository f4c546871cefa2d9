#!/bin/bash
# isolated-build.sh - the example's wheel, built by real pip and python -m build
# SPDX-License-Identifier: MIT
#
# usage: isolated-build.sh TORCHGATE SRCDIR
#
# The situation torchgate is for: examples/setuptools/setup.py runs
# 'torchgate verify' and 'torchgate emit --python sys.executable' inside a
# PEP 517 isolated build, and pins install_requires to the torch it built
# against. That must be the torch the installed package will run
# against, not the build environment's. Real pip (Debian's python3-pip)
# and real python -m build (python3-build) build the wheel offline
# (PIP_NO_INDEX, PIP_FIND_LINKS=/usr/share/python-wheels: setuptools and
# wheel come from python3-setuptools-whl and python3-wheel-whl); the
# wheel's Requires-Dist must be torch==X.Y.* for the X.Y that the target
# interpreter itself gives for torch.version.__version__ (it is run for
# that, in the target environment, after the build). Targets:
#   dist      Debian's /usr/bin/python3 with python3-torch in dist-packages
#   user      the same with a torch 2.11 in the user site (~/.local),
#             which pip's PYTHONNOUSERSITE=1 hides from the build
#   venv      a venv with system site packages holding a torch 2.5 of its
#             own, pip and build run by the venv's python
# each built by pip wheel and by python -m build --wheel. Then a package
# whose setup.py runs 'torchgate probe --python sys.executable' (probe-in-
# build) shows, for each hook pip and build call, the one-line note that
# names the isolated environment and the version torchgate answers (with
# a torch 2.11 in the user site).
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
EXAMPLE=$SRCDIR/examples/setuptools
WHEELS=/usr/share/python-wheels
# torchgate, which the example's [build-system] requires names: the
# wheel of the CTest fixture "wheel"
TGWHEELS=${TG_WHEEL_DIR:?TG_WHEEL_DIR is not set (the CTest fixture wheel)}/wheel
need "$EXAMPLE/setup.py" "the example (SRCDIR '$SRCDIR')"
ls "$TGWHEELS"/torchgate-*.whl >/dev/null 2>&1 || die "no torchgate wheel in '$TGWHEELS' (the fixture wheel-build failed?)"
need_deb python3-torch python3-pip python3-build python3-venv python3-dev \
	python3-setuptools-whl python3-wheel-whl
command -v cc >/dev/null || die "no C compiler (cc): install build-essential"
MKTORCH=$SRCDIR/tests/tools/mktorch.sh

mkdir -p "$tmp/home" "$tmp/bin" "$tmp/out"
ln -s "$TG" "$tmp/bin/torchgate"
# python -m build makes its environment with virtualenv where that is
# importable (Debian's python3-virtualenv, which pre-commit pulls in),
# else with venv; the cases below are venv's, so the frontend is kept
# from importing virtualenv (VENV_ONLY); virtualenv's own case is last
mkdir -p "$tmp/novirtualenv"
echo 'raise ModuleNotFoundError("hidden by isolated-build.sh")' >"$tmp/novirtualenv/virtualenv.py"
VENV_ONLY=PYTHONPATH=$tmp/novirtualenv
# a clean, offline environment; torchgate on PATH
run() {
	env -i HOME="$tmp/home" PATH="$tmp/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 \
		PIP_NO_INDEX=1 PIP_FIND_LINKS="$WHEELS $TGWHEELS" PIP_DISABLE_PIP_VERSION_CHECK=1 \
		PIP_NO_CACHE_DIR=1 "$@"
}

fresh() {
	rm -rf "$1" && cp -R "$EXAMPLE" "$1" &&
		rm -rf "$1/build" "$1"/*.egg-info "$1/ampext/_torch_gate.py" "$1"/ampext/*.so
}

# torch X.Y as the target interpreter imports it
target_xy() {
	(cd "$tmp" && run "$1" -c 'import torch.version as v; print(v.__version__)') 2>&1 |
		sed -E 's/^([0-9]+)\.([0-9]+).*/\1.\2/'
}

# requires WHEEL: the Requires-Dist lines of a wheel
requires() {
	"$PY" - "$1" <<'PYEOF'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
m = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")][0]
for line in z.read(m).decode().splitlines():
    if line.startswith("Requires-Dist:"):
        print(line.split(":", 1)[1].strip())
PYEOF
}

# build_case NAME PYTHON TOOL: build the example with TOOL (pip or build)
# run by PYTHON; the wheel must pin the torch PYTHON imports
build_case() {
	local name=$1 py=$2 tool=$3 w=$tmp/src-$1-$3 out=$tmp/out/$1-$3 whl want log
	fresh "$w" || die "cannot copy the example"
	mkdir -p "$out"
	log=$tmp/$name-$tool.log
	case $tool in
	pip) (cd "$tmp" && run "$py" -m pip wheel --no-deps -w "$out" "$w") >"$log" 2>&1 ;;
	build) (cd "$w" && run "$VENV_ONLY" "$py" -m build --wheel -o "$out" .) >"$log" 2>&1 ;;
	esac
	check "$name/$tool: build exit status" "$?" 0
	whl=$(ls "$out"/ampext-*.whl 2>/dev/null | head -n 1)
	if [ -z "$whl" ]; then
		fail "$name/$tool: no wheel"
		sed 's/^/      | /' "$log" | tail -n 30
		return
	fi
	want=$(target_xy "$py")
	# older metadata writers spell it "torch (==X.Y.*)"
	check "$name/$tool: Requires-Dist" "$(requires "$whl" | tr -d ' ()')" "torch==$want.*"
}

# --- dist: Debian's torch
build_case dist "$PY" pip
build_case dist "$PY" build

# --- user: a torch in the user site, ahead of dist-packages
usite=$tmp/home/.local/lib/python3.11/site-packages
bash "$MKTORCH" "$usite" --version 2.11.0 >/dev/null
build_case user "$PY" pip
build_case user "$PY" build
rm -rf "$tmp/home/.local"

# --- venv: a torch of the venv's own
"$PY" -m venv --without-pip --system-site-packages "$tmp/venv" || die "python3 -m venv failed"
vsite=$("$tmp/venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
bash "$MKTORCH" "$vsite" --version 2.5.1 >/dev/null
build_case venv "$tmp/venv/bin/python3" pip
build_case venv "$tmp/venv/bin/python3" build

# --- the note, and what torchgate says inside each kind of build: a
# package whose setup.py runs 'torchgate probe --field version' with
# sys.executable and keeps what it printed
P=$tmp/probe-pkg
mkdir -p "$P"
cat >"$P/pyproject.toml" <<'TOML'
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"
[project]
name = "probeinbuild"
version = "0.1"
TOML
cat >"$P/setup.py" <<'PYEOF'
import os, subprocess, sys
from setuptools import setup
r = subprocess.run(["torchgate", "probe", "--python", sys.executable, "--field", "version"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
with open(os.environ["PROBE_OUT"], "a") as f:
    f.write("exe %s\nexit %d\nout %s\nerr %s\n" % (sys.executable, r.returncode, r.stdout.strip(), r.stderr.strip()))
setup(py_modules=[])
PYEOF
bash "$MKTORCH" "$usite" --version 2.11.0 >/dev/null
(cd "$tmp" && run PROBE_OUT="$tmp/probe-pip.txt" "$PY" -m pip wheel --no-deps -w "$tmp/out/probe" "$P") >"$tmp/probe-pip.log" 2>&1
sed 's/^/      | /' "$tmp/probe-pip.txt"
got=$(grep -m1 '^err ' "$tmp/probe-pip.txt")
check_has "probe in pip's build: note" "$got" "torchgate: probe: note: pip's isolated build environment '"
check_has "probe in pip's build: note" "$got" "pip-build-env-"
check "probe in pip's build: version" "$(grep -m1 '^out ' "$tmp/probe-pip.txt")" "out 2.11.0"
(cd "$P" && run "$VENV_ONLY" PROBE_OUT="$tmp/probe-build.txt" "$PY" -m build --wheel -o "$tmp/out/probe" .) >"$tmp/probe-build.log" 2>&1
got=$(grep -m1 '^err ' "$tmp/probe-build.txt")
check_has "probe in build's venv: note" "$got" "is python -m build's isolated build venv: describing '$PY', the interpreter that ran build"
check_has "probe in build's venv: interpreter" "$(grep -m1 '^exe ' "$tmp/probe-build.txt")" "/build-env-"
check "probe in build's venv: version" "$(grep -m1 '^out ' "$tmp/probe-build.txt")" "out 2.11.0"

# --- a build environment virtualenv made: its pyvenv.cfg names no
# frontend (base-executable is the system's python also when build ran
# from a venv), so torchgate says so and stops, never guesses
if run "$PY" -c 'import virtualenv' 2>/dev/null; then
	(cd "$P" && run PROBE_OUT="$tmp/probe-virtualenv.txt" "$PY" -m build --wheel -o "$tmp/out/probe-ve" .) >"$tmp/probe-ve.log" 2>&1
	got=$(grep -m1 '^err ' "$tmp/probe-virtualenv.txt")
	check_has "probe in virtualenv's build env: message" "$got" "is the throwaway venv of an isolated build (python -m build) and its pyvenv.cfg does not name the interpreter that made it: name the environment the package is built for with --python, --prefix or --site-packages"
	check "probe in virtualenv's build env: no version" "$(grep -c '^out [0-9]' "$tmp/probe-virtualenv.txt")" 0
else
	echo "note: python3-virtualenv is not installed: python -m build's virtualenv case not run"
fi
rm -rf "$tmp/home/.local"

finish
