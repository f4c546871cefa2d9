#!/bin/bash
# setuptools-example.sh - build examples/setuptools where torch cannot be imported
# SPDX-License-Identifier: MIT
#
# usage: setuptools-example.sh TORCHGATE SRCDIR
#
# The PEP 517 isolated-build situation: the interpreter that runs setup.py
# cannot import torch, torchgate is pointed at the torch to build against
# (Debian's, in /usr/lib/python3/dist-packages). The interpreter is a venv
# of Debian's /usr/bin/python3 without system site packages; only Debian's
# setuptools is added to it (a .pth naming a directory of symlinks), and
# the test proves that torch stays unimportable there. In a copy of the
# example it runs `setup.py build_ext --inplace` and `setup.py egg_info`,
# then checks the generated header and module, the compiled extension
# (loaded in that torch-less interpreter), install_requires, the import-
# time runtime check, the lazy custom_fwd (with Debian's python3, which
# can import torch), and that a wrong or missing torch fails the build
# with torchgate's message. The expected version is what `torchgate probe`
# reports; no torch version is written here except a fake too-old one.
# It fails, never skips, when python3-torch, python3-setuptools,
# python3-venv or python3-dev is not installed.
# Everything is created under one mktemp -d directory, removed on exit.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
DIST=/usr/lib/python3/dist-packages
EXAMPLE=$SRCDIR/examples/setuptools

# ---- prerequisites: never skip ------------------------------------------
need "$EXAMPLE/setup.py" "the example (SRCDIR '$SRCDIR')"
need_deb python3-torch python3-setuptools python3-venv python3-dev
need "$PY" "the Debian interpreter (python3-minimal)"
command -v cc >/dev/null || die "no C compiler (cc): install build-essential"
# what the venv gets: setuptools and what it needs from Debian, nothing else
links=(setuptools pkg_resources _distutils_hack)
for n in "${links[@]}"; do
	need "$DIST/$n" "python3-setuptools / python3-pkg-resources"
done

mkdir "$tmp/home" "$tmp/bin" "$tmp/st"
ln -s "$TG" "$tmp/bin/torchgate"

# run [VAR=VALUE...] CMD...: in a clean environment (nothing of the
# caller's PYTHONPATH, VIRTUAL_ENV, ...), torchgate on PATH
run() { env -i HOME="$tmp/home" PATH="$tmp/bin:/usr/bin:/bin" LC_ALL=C.UTF-8 "$@"; }

# ---- the interpreter that cannot import torch ---------------------------
"$PY" -m venv --without-pip "$tmp/venv" || die "$PY -m venv --without-pip failed (python3-venv)"
VPY=$tmp/venv/bin/python3
run "$VPY" -c 'import torch' >/dev/null 2>&1 && die "torch is importable in a fresh venv without system site packages"
ok "import torch fails in the fresh venv"
run "$VPY" -c 'import setuptools' >/dev/null 2>&1 && die "setuptools is importable in a fresh venv: not the situation tested"
site=$(run "$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ -d "$site" ] || die "the venv's site-packages '$site' does not exist"
for n in "${links[@]}"; do ln -s "$DIST/$n" "$tmp/st/$n"; done
# the torchgate package from the tree ([build-system] requires brings it
# under pip); it finds the binary on PATH, the tree's
ln -s "$SRCDIR/python/torchgate" "$tmp/st/torchgate"
for d in "$DIST"/setuptools-*.egg-info "$DIST"/setuptools-*.dist-info; do
	[ -e "$d" ] && ln -s "$d" "$tmp/st/"
done
echo "$tmp/st" >"$site/debian-setuptools-only.pth"

out=$(run "$VPY" -c 'import setuptools; print(setuptools.__file__)' 2>&1)
check "setuptools comes from the link directory" "$out" "$tmp/st/setuptools/__init__.py"
out=$(run "$VPY" -c 'import sys; print("\n".join(sys.path))')
case $'\n'"$out"$'\n' in
*$'\n'"$DIST"$'\n'*) fail "$DIST is on the venv's sys.path" ;;
*) ok "$DIST is not on the venv's sys.path" ;;
esac
out=$(run "$VPY" -c 'import torch' 2>&1)
check_has "import torch in the venv with setuptools added" "$out" "No module named 'torch'"

# ---- what torchgate says about the target --------------------------------
want_ver=$("$TG" probe --quiet --site-packages "$DIST" --field version)
[ -n "$want_ver" ] || die "torchgate probe --site-packages $DIST found no torch version"
IFS=. read -r maj min _ <<<"$(echo "$want_ver" | sed -E 's/^([0-9]+!)?([0-9]+(\.[0-9]+)*).*/\2/')"
min=${min:-0}
echo "torch to build against: $want_ver ($maj.$min)"
# torch.amp.custom_fwd arrived in 2.4; torch.cuda.amp.custom_fwd is there
# in every torch the example supports (deprecated from 2.4)
if [ "$maj" -gt 2 ] || { [ "$maj" -eq 2 ] && [ "$min" -ge 4 ]; }; then
	want_new=1 want_new_py=True want_amp=torch.amp
else
	want_new=0 want_new_py=False want_amp=torch.cuda.amp
fi

# a fresh copy of the example, without what a build in the tree left
fresh() {
	rm -rf "$1" && cp -R "$EXAMPLE" "$1" &&
		rm -rf "$1/build" "$1"/*.egg-info "$1/ampext/_torch_gate.py" "$1"/ampext/*.so
}

# ---- the build ------------------------------------------------------------
W=$tmp/ampext
fresh "$W" || die "cannot copy $EXAMPLE"
ENVARGS="--site-packages $DIST"
out=$(cd "$W" && run TORCHGATE_ENV_ARGS="$ENVARGS" "$VPY" setup.py build_ext --inplace 2>&1)
rc=$?
check "setup.py build_ext --inplace exit status" "$rc" 0
[ $rc -eq 0 ] || echo "$out"
check_has "build output" "$out" "ampext: torch $want_ver "
check_has "build output" "$out" "requires torch==$maj.$min.*"

H=$W/build/ampext_torch_gate.h M=$W/ampext/_torch_gate.py
expect "build/ampext_torch_gate.h exists" test -f "$H"
expect "ampext/_torch_gate.py exists" test -f "$M"
check "header AMPEXT_TORCH_VERSION_STRING" "$(sed -n 's/^#define AMPEXT_TORCH_VERSION_STRING //p' "$H" 2>/dev/null)" "\"$want_ver\""
so=$(find "$W/ampext" -maxdepth 1 -name '_gate*.so' | head -n 1)
expect "compiled extension ampext/_gate*.so exists" test -n "$so"

# a second build: emit leaves the header alone, so nothing is recompiled
before=$(stat -c '%y' "$H" "$so" 2>&1 | tr '\n' ' ')
out=$(cd "$W" && run TORCHGATE_ENV_ARGS="$ENVARGS" "$VPY" setup.py build_ext --inplace 2>&1)
check "second build_ext exit status" "$?" 0
check "second build_ext: header and extension untouched" "$(stat -c '%y' "$H" "$so" 2>&1 | tr '\n' ' ')" "$before"
case $out in
*"building 'ampext._gate'"*) fail "second build_ext recompiled the extension: $out" ;;
*) ok "second build_ext compiled nothing" ;;
esac

# ---- the extension and the module, in the torch-less interpreter ---------
# loaded by file path: `import ampext` would run check_runtime() (below)
out=$(cd "$tmp" && run "$VPY" - "$W" <<'PYEOF' 2>&1
import glob, importlib.util, sys
w = sys.argv[1]
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m
g = load("ampext._gate", glob.glob(w + "/ampext/_gate*.so")[0])
t = load("ampext._torch_gate", w + "/ampext/_torch_gate.py")
print("torch_importable", importlib.util.find_spec("torch") is not None)
print("torch_version", g.torch_version())
print("has_amp_custom_fwd", g.has_amp_custom_fwd())
print("amp_module", g.amp_module())
v = t.TORCH_VERSION_TUPLE
print("at_least_self", g.at_least(*v), g.at_least(v[0], v[1]), g.at_least(v[0]))
print("at_least_next", g.at_least(v[0], v[1] + 1), g.at_least(v[0] + 1))
print("TORCH_VERSION", t.TORCH_VERSION)
print("HAS_TORCH_AMP_CUSTOM_FWD", t.HAS_TORCH_AMP_CUSTOM_FWD)
print("HAS_TORCH_CUDA_AMP_CUSTOM_FWD", t.HAS_TORCH_CUDA_AMP_CUSTOM_FWD)
print("HAS_TORCH_AMP_AUTOCAST", t.HAS_TORCH_AMP_AUTOCAST)
PYEOF
)
echo "$out" | grep -q '^torch_importable' && ok "the extension and the module load" || fail "loading the extension failed: $out"
field() { echo "$out" | sed -n "s/^$1 //p"; }
check "torch importable while loading the extension" "$(field torch_importable)" False
check "_gate.torch_version()" "$(field torch_version)" "$want_ver"
check "_gate.has_amp_custom_fwd()" "$(field has_amp_custom_fwd)" "$want_new"
check "_gate.amp_module() (#if AMPEXT_TORCH_AT_LEAST(2, 4, 0))" "$(field amp_module)" "$want_amp"
check "_gate.at_least(build version)" "$(field at_least_self)" "True True True"
check "_gate.at_least(next minor, next major)" "$(field at_least_next)" "False False"
check "_torch_gate.TORCH_VERSION" "$(field TORCH_VERSION)" "$want_ver"
check "_torch_gate.HAS_TORCH_AMP_CUSTOM_FWD" "$(field HAS_TORCH_AMP_CUSTOM_FWD)" "$want_new_py"
check "_torch_gate.HAS_TORCH_CUDA_AMP_CUSTOM_FWD" "$(field HAS_TORCH_CUDA_AMP_CUSTOM_FWD)" True
check "_torch_gate.HAS_TORCH_AMP_AUTOCAST" "$(field HAS_TORCH_AMP_AUTOCAST)" True

# ---- install_requires, as the package metadata has it ---------------------
# each spelling of the environment: the same options for every command,
# so setup.py passes TORCHGATE_ENV_ARGS to verify and emit as it is
for envargs in "$ENVARGS" "--python $PY" "--prefix /usr" "--prefix=/usr"; do
	rm -rf "$W/ampext.egg-info"
	out=$(cd "$W" && run TORCHGATE_ENV_ARGS="$envargs" "$VPY" setup.py -q egg_info 2>&1)
	check "setup.py egg_info with TORCHGATE_ENV_ARGS='$envargs' exit status" "$?" 0
	check "requires.txt ($envargs)" "$(cat "$W/ampext.egg-info/requires.txt" 2>&1)" "torch==$maj.$min.*"
done
# the torch built against satisfies it under strict PEP 440, pre-release or not
"$TG" verify --quiet --site-packages "$DIST" "torch==$maj.$min.*"
check "torchgate verify (strict) 'torch==$maj.$min.*' exit status" "$?" 0

# ---- import ampext: check_runtime() without torch, then with Debian's -----
out=$(cd "$tmp" && run PYTHONPATH="$W" "$VPY" -c 'import ampext' 2>&1)
check_has "import ampext without torch" "$out" "ImportError: built for torch $want_ver, but torch is not installed"
out=$(cd "$tmp" && run PYTHONPATH="$W" "$PY" - <<'PYEOF' 2>&1
import sys
import ampext
print("torch_imported_by_import", "torch" in sys.modules)
print("runtime", ampext.TORCH_RUNTIME_VERSION)
def f(x):
    return x
g = ampext.custom_fwd(f)
print("torch_imported_by_call", "torch" in sys.modules)
print("wraps", getattr(g, "__wrapped__", None) is f)
import torch
p = ampext.custom_fwd()  # without a function: a partial of torch's decorator
want = torch.amp.custom_fwd if ampext._torch_gate.HAS_TORCH_AMP_CUSTOM_FWD else torch.cuda.amp.custom_fwd
print("decorator", "%s.%s" % (p.func.__module__.rsplit(".", 1)[0], p.func.__name__), p.func is want)
PYEOF
)
echo "$out" | grep -q '^torch_imported_by_import' && ok "import ampext with $PY" || fail "import ampext with $PY failed: $out"
field() { echo "$out" | sed -n "s/^$1 //p"; }
check "torch imported by 'import ampext'" "$(field torch_imported_by_import)" False
check_has "ampext.TORCH_RUNTIME_VERSION (metadata)" "$(field runtime)" "$maj.$min"
check "torch imported by ampext.custom_fwd(f)" "$(field torch_imported_by_call)" True
check "ampext.custom_fwd(f) wraps f" "$(field wraps)" True
check "ampext.custom_fwd() is" "$(field decorator)" "$want_amp.custom_fwd True"

# ---- failures stop the build with torchgate's message ---------------------
# no TORCHGATE_ENV_ARGS: the interpreter running setup.py, which has no torch
fresh "$tmp/f1"
out=$(cd "$tmp/f1" && run "$VPY" setup.py build_ext --inplace 2>&1)
rc=$?
expect "no torch for the default --python: build fails (exit $rc)" test $rc -ne 0
check_has "no torch: message" "$out" "torchgate: verify: no torch found for Python '$VPY'"
check_has "no torch: hint" "$out" "TORCHGATE_ENV_ARGS"
expect "no torch: nothing emitted" test ! -e "$tmp/f1/build/ampext_torch_gate.h"

# a torch older than the example supports
mkdir -p "$tmp/old/torch"
echo "__version__ = '1.12.1'" >"$tmp/old/torch/version.py"
: >"$tmp/old/torch/__init__.py"
fresh "$tmp/f2"
out=$(cd "$tmp/f2" && run TORCHGATE_ENV_ARGS="--site-packages $tmp/old" "$VPY" setup.py build_ext --inplace 2>&1)
rc=$?
expect "torch 1.12.1: build fails (exit $rc)" test $rc -ne 0
check_has "torch 1.12.1: message" "$out" "torchgate: verify: torch 1.12.1 is older than this package requires (>=1.13)"
expect "torch 1.12.1: nothing emitted" test ! -e "$tmp/f2/build/ampext_torch_gate.h"

# no torchgate at all
out=$(cd "$tmp/f2" && env -i HOME="$tmp/home" PATH=/usr/bin:/bin TORCHGATE_ENV_ARGS="$ENVARGS" "$VPY" setup.py build_ext --inplace 2>&1)
rc=$?
if [ -e /usr/bin/torchgate ] || [ -e /bin/torchgate ]; then
	echo "note: a torchgate is installed in /usr/bin or /bin; 'torchgate not found' not checked"
else
	expect "no torchgate: build fails (exit $rc)" test $rc -ne 0
	check_has "no torchgate: message" "$out" "ampext: the torchgate binary was not found; looked for:"
fi

finish
