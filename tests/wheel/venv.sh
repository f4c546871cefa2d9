#!/bin/bash
# venv.sh - the wheel installed: the command with an empty environment, and the Python API
# SPDX-License-Identifier: MIT
#
# usage: TG_WHEEL_DIR=DIR venv.sh TORCHGATE SRCDIR
#
# In the fixture's venv (Debian's /usr/bin/python3, the wheel installed
# by pip): bin/torchgate runs under env -i and loads the libcjson.so.1 the
# wheel put in libexec/torchgate (a table file parsed with it), answers
# as the tree's torchgate does,
# and update says it has no network; the package (torchgate.bin, probe,
# verify true and false, flags for setuptools.Extension, emit, env,
# require, run's timeout, the errors) works without importing torch (an
# import hook that fails on it is in place), and
# python -m torchgate runs the binary. Then pip install --target: bin()
# finds target/bin/torchgate, which runs. Debian's python3-torch is the
# torch looked at. Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.bash"
W=${TG_WHEEL_DIR:?TG_WHEEL_DIR is not set (tests/CTestTestfile.cmake sets it)}
PY=/usr/bin/python3
V=$W/venv
need_deb python3-torch
need "$V/bin/torchgate" "the fixture wheel-build's venv"
whl=$(ls "$W"/wheel/torchgate-*.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || die "no wheel in '$W/wheel'"
version=$(sed -n 's/^AC_INIT(\[torchgate\], *\[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")

# ---- the command -----------------------------------------------------------
check "env -i bin/torchgate --version" "$(env -i "$V/bin/torchgate" --version 2>&1)" "torchgate $version"
want=$("$TG" probe --quiet --python "$PY" --field version)
check "env -i bin/torchgate probe --python $PY --field version" \
	"$(env -i "$V/bin/torchgate" probe --quiet --python "$PY" --field version 2>&1)" "$want"
# a table file is parsed by cJSON: the real library answers through the
# binary's NEEDED path (linked against a stub of it)
out=$(env -i "$V/bin/torchgate" check --table "$SRCDIR/data/apis.json" --torch-version 2.4 \
	torch.cuda.amp.custom_fwd 2>&1)
check "env -i bin/torchgate check --table (cJSON) exit status" "$?" 0
check_has "env -i bin/torchgate check --table" "$out" "torch.cuda.amp.custom_fwd: deprecated since 2.4"
check "ldd: libcjson.so.1 is the wheel's, named by its path" \
	"$(readlink -f "$(ldd "$V/bin/torchgate" | awk '$1 ~ /libcjson\.so\.1$/ {print $1}')")" \
	"$(readlink -f "$V/libexec/torchgate/libcjson.so.1")"
check "ldd: no PCRE2 (linked in)" "$(ldd "$V/bin/torchgate" | grep -c pcre2)" 0
err=$(env -i HOME="$tmp" "$V/bin/torchgate" update --url http://127.0.0.1:1/apis.json 2>&1)
check "update: exit status" "$?" 5
check_has "update: message" "$err" "torchgate: update: the network commands are not built (the Python wheel carries no libcurl; build torchgate from its source for update and releases)"
out=$(env -i HOME="$tmp" "$V/bin/torchgate" releases --index http://127.0.0.1:1/ 2>"$tmp/rel.err")
check "releases: exit status (the built-in list)" "$?" 0
check_has "releases: why" "$(cat "$tmp/rel.err")" "the Python wheel carries no libcurl"

# ---- the package ----------------------------------------------------------
mkdir -p "$tmp/empty"
printf '#!/bin/sh\nsleep 5\n' >"$tmp/slow"
chmod +x "$tmp/slow"
out=$(cd "$tmp" && env -i HOME="$tmp" PATH=/usr/bin:/bin \
	"$V/bin/python" - "$PY" "$tmp" <<'PYEOF' 2>&1
import os, sys
class NoTorch:  # an import of torch, here, fails loudly
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise SystemExit("the torchgate package imported torch")
sys.meta_path.insert(0, NoTorch())
import torchgate
py, tmp = sys.argv[1], sys.argv[2]
print("version", torchgate.__version__)
print("bin", torchgate.bin())
doc = torchgate.probe(python=py)
print("probe", doc["torch"]["version"])
print("verify", torchgate.verify("torch>=1.13,<3", python=py, policy="base"))
try:
    torchgate.verify("torch>=99", python=py)
    print("verify >=99: no exception")
except torchgate.VersionError as e:
    print("VersionError", e.returncode, e.message)
try:
    torchgate.verify("torch>=1", site_packages=os.path.join(tmp, "empty"))
except torchgate.VersionError:
    print("no torch: VersionError")
except torchgate.TorchgateError as e:
    print("no torch:", type(e).__name__, e.returncode, e.message.startswith("torchgate: verify: no torch found"))
kw = torchgate.flags(python=py, name="tgx")
print("flags", sorted(kw))
print("macro", ("TORCH_EXTENSION_NAME", "tgx") in kw["define_macros"])
from setuptools import Extension
e = Extension("tgx", ["tgx.cpp"], **kw)
print("Extension", e.language, e.libraries[:2])
print("flags full", sorted(torchgate.flags(python=py, full=True))[:3])
torchgate.emit(os.path.join(tmp, "g.h"), os.path.join(tmp, "g.py"), python=py,
               macro_prefix="TGX", apis=["torch.amp.autocast"])
print("emit", "#define TGX_TORCH_VERSION_MAJOR 1" in open(os.path.join(tmp, "g.h")).read())
print("env", "sections" in torchgate.env(python=py, elf=False))
print("require", torchgate.require(os.path.join(tmp, "g.py"))["schema_version"])
try:
    torchgate.run("probe", "--no-such-option")
except torchgate.TorchgateError as e:
    print("usage error", e.returncode, e.message.startswith("torchgate: probe: "))
os.environ["TORCHGATE"] = os.path.join(tmp, "slow")
try:
    torchgate.run("probe", timeout=0.5)
except torchgate.TorchgateError as e:
    print("timeout", e.returncode, "did not finish in 0.5 s" in e.message)
os.environ["TORCHGATE"] = os.path.join(tmp, "nothing")
try:
    torchgate.bin()
except torchgate.TorchgateNotFound as e:
    print("not found", isinstance(e, FileNotFoundError), e.message)
print("torch imported", "torch" in sys.modules)
PYEOF
)
check "the API in the venv" "$out" "version $version
bin $V/bin/torchgate
probe $want
verify True
VersionError 1 torchgate: verify: torch $want is older than this package requires (>=99)
no torch: TorchgateError 3 True
flags ['define_macros', 'extra_compile_args', 'include_dirs', 'language', 'libraries', 'library_dirs', 'runtime_library_dirs']
macro True
Extension c++ ['c10', 'torch']
flags full ['cuda', 'cuda_home', 'cxx_standard']
emit True
env True
require 1
usage error 2 True
timeout None True
not found True \$TORCHGATE is '$tmp/nothing', which is not an executable file
torch imported False"
check "python -m torchgate --version" "$(env -i "$V/bin/python" -m torchgate --version 2>&1)" "torchgate $version"

# ---- pip install --target: the binary and its library move with it -------
env -i HOME="$tmp" PATH=/usr/bin:/bin PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
	"$V/bin/python" -m pip install --no-deps --target "$tmp/t" "$whl" >"$tmp/target.log" 2>&1
check "pip install --target exit status" "$?" 0
expect "--target: libexec/torchgate/libcjson.so.1" test -f "$tmp/t/libexec/torchgate/libcjson.so.1"
out=$(cd "$tmp" && env -i PATH=/usr/bin:/bin PYTHONPATH="$tmp/t" "$PY" -c \
	'import subprocess, torchgate; b = torchgate.bin(); print(b); print(subprocess.run([b, "--version"], stdout=subprocess.PIPE, universal_newlines=True, timeout=60).stdout.strip())' 2>&1)
check "--target: torchgate.bin() and its --version" "$out" "$tmp/t/bin/torchgate
torchgate $version"
finish
