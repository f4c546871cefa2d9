#!/bin/bash
# cppext-example.sh - examples/cppext built by pip under build isolation, imported, called
# SPDX-License-Identifier: MIT
#
# usage: cppext-example.sh TORCHGATE SRCDIR
#
# The C++ extension example (pybind11, torch/extension.h) whose plain-
# setuptools setup.py takes its flags from torchgate.flags() and never
# imports torch: real pip (Debian's python3-pip) builds its wheel with
# build isolation on and offline (--no-index --find-links
# /usr/share/python-wheels: setuptools and wheel from Debian's -whl
# packages; torchgate, which [build-system] requires names, from the
# wheel of the CTest fixture "wheel", in $TG_WHEEL_DIR/wheel, with no
# torchgate on PATH), for Debian's /usr/bin/python3 and its python3-torch. The
# build log must show no torch import (the isolated environment has
# none: checked), the wheel is installed with pip into a fresh target
# directory, and Debian's python3 imports it and calls it on tensors.
# Then the CUDA variant's flags: TGEXT_CUDA=1 against a torch without
# CUDA must stop the build with torchgate's message (the real CUDA build
# needs a GPU machine: see the example's README). It fails, never
# skips, when python3-torch, python3-pip, python3-dev, pybind11-dev, the
# -whl packages or g++ is missing.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
EXAMPLE=$SRCDIR/examples/cppext
WHEELS=/usr/share/python-wheels
TGWHEELS=${TG_WHEEL_DIR:?TG_WHEEL_DIR is not set (the CTest fixture wheel)}/wheel
need "$EXAMPLE/setup.py" "the example (SRCDIR '$SRCDIR')"
ls "$TGWHEELS"/torchgate-*.whl >/dev/null 2>&1 || die "no torchgate wheel in '$TGWHEELS' (the fixture wheel-build failed?)"
need_deb python3-torch python3-pip python3-dev pybind11-dev \
	python3-setuptools-whl python3-wheel-whl
need_cmd g++

mkdir -p "$tmp/home" "$tmp/bin" "$tmp/out"
# no torchgate on PATH: the builds get the wheel's
run() {
	env -i HOME="$tmp/home" PATH="/usr/bin:/bin" LC_ALL=C.UTF-8 \
		PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 "$@"
}
cp -R "$EXAMPLE" "$tmp/src" && chmod -R u+w "$tmp/src" && rm -rf "$tmp/src/build" "$tmp/src"/*.egg-info ||
	die "cannot copy the example"

# setup.py must never import torch: a torch.py next to it that fails
# loudly would be found first if it tried (the source directory is on
# sys.path when setup.py runs)
printf 'raise SystemExit("setup.py imported torch")\n' >"$tmp/src/torch.py"

start=$SECONDS
(cd "$tmp" && run nice -n 10 "$PY" -m pip wheel --no-index --find-links "$WHEELS" \
	--find-links "$TGWHEELS" --no-deps -w "$tmp/out" "$tmp/src") >"$tmp/build.log" 2>&1
rc=$?
note "pip wheel of the example (isolated, torch C++ headers): $((SECONDS - start)) s"
check "pip wheel (isolated, offline) exit status" "$rc" 0
[ $rc -eq 0 ] || sed 's/^/      | /' "$tmp/build.log" | tail -n 40
check_has "the build log (isolated)" "$(cat "$tmp/build.log")" "Installing build dependencies"
check_lacks "the build log" "$(cat "$tmp/build.log")" "setup.py imported torch"
check_lacks "the build log" "$(cat "$tmp/build.log")" "--no-build-isolation"
whl=$(ls "$tmp/out"/tgext-*.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || die "no tgext wheel in $tmp/out"
ok "wheel built: $(basename "$whl")"
case $(basename "$whl") in
*-cp3*-linux_x86_64.whl | *-cp3*-linux_*.whl) ok "the wheel is platform-specific (it holds the compiled extension)" ;;
*) fail "the wheel is not platform-specific: $(basename "$whl")" ;;
esac

run "$PY" -m pip install --no-index --no-deps --target "$tmp/site" "$whl" >"$tmp/install.log" 2>&1
check "pip install --target exit status" "$?" 0
out=$(cd "$tmp" && run PYTHONPATH="$tmp/site" "$PY" -c '
import torch, tgext
print(tgext.__file__.startswith(__import__("sys").argv[1]))
print(tgext.axpb(torch.arange(4, dtype=torch.float64), 2.0, 1.0).tolist())
print(tgext.has_cuda())' "$tmp/site" 2>&1)
check "the installed extension, imported and called" "$out" $'True\n[1.0, 3.0, 5.0, 7.0]\nFalse'

# loaded before torch: the rpath finds torch's libraries
out=$(cd "$tmp" && run PYTHONPATH="$tmp/site" "$PY" -c 'import tgext; import torch; print(tgext.axpb(torch.ones(2), 3.0, 0.0).tolist())' 2>&1)
check "tgext imported before torch" "$out" "[3.0, 3.0]"

# ---- the CUDA variant, on a torch without CUDA: torchgate's message ----
(cd "$tmp" && run TGEXT_CUDA=1 TORCH_CUDA_ARCH_LIST=9.0 "$PY" -m pip wheel --no-index \
	--find-links "$WHEELS" --find-links "$TGWHEELS" --no-deps -w "$tmp/out-cuda" "$tmp/src") >"$tmp/cuda.log" 2>&1
check "TGEXT_CUDA=1 on Debian's CPU torch: exit status" "$?" 1
check_has "its log" "$(cat "$tmp/cuda.log")" "torchgate: flags: torch at '/usr/lib/python3/dist-packages/torch' is not built with CUDA"

# ---- the CUDA variant up to nvcc: a fake CUDA torch and toolkit ----------
# A venv with system site packages (so pip is there) whose own torch is
# a fake CUDA 13.0 build (mktorch.sh; pybind11 headers and libc10.so
# added); the toolkit's nvcc records its arguments and fails, so setup.py
# must call it on the .cu with torchgate's nvcc flags.
MKTORCH=$SRCDIR/tests/tools/mktorch.sh
"$PY" -m venv --without-pip --system-site-packages "$tmp/venv" || die "python3 -m venv failed (python3-venv)"
vsite=$("$tmp/venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
bash "$MKTORCH" "$vsite" --version 2.11.0+cu130 --cuda 13.0 --abi 1 >/dev/null || die "mktorch.sh failed"
mkdir -p "$vsite/torch/include/pybind11" "$vsite/torch/lib" "$tmp/cuda/include" "$tmp/cuda/bin"
: >"$vsite/torch/include/pybind11/pybind11.h"
: >"$vsite/torch/lib/libc10.so"
: >"$tmp/cuda/include/cuda_runtime.h"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\nexit 1\n' "$tmp/nvcc.args" >"$tmp/cuda/bin/nvcc"
chmod +x "$tmp/cuda/bin/nvcc"
(cd "$tmp" && run TGEXT_CUDA=1 TORCH_CUDA_ARCH_LIST=9.0 CUDA_HOME="$tmp/cuda" "$tmp/venv/bin/python3" \
	-m pip wheel --no-index --find-links "$WHEELS" --find-links "$TGWHEELS" --no-deps -w "$tmp/out-cuda2" "$tmp/src") >"$tmp/cuda2.log" 2>&1
check "TGEXT_CUDA=1 with the fake nvcc: exit status" "$?" 1
if [ -f "$tmp/nvcc.args" ]; then
	args=$(cat "$tmp/nvcc.args")
	want=$(cd "$tmp" && run TORCH_CUDA_ARCH_LIST=9.0 CUDA_HOME="$tmp/cuda" "$TG" flags --quiet \
		--python "$tmp/venv/bin/python3" --name tgext --cuda --nvcc-flags --format=args)
	check_has "nvcc's arguments" "$args" "csrc/tgext_cuda.cu"
	check_has "nvcc's arguments" "$args" "-gencode=arch=compute_90,code=sm_90"
	check_has "nvcc's arguments" "$args" "-I$tmp/cuda/include"
	check "nvcc's arguments after -c SRC -o OBJ" "$(printf '%s\n' "$args" | tail -n +5)" "$want"
else
	fail "setup.py did not run nvcc for the CUDA variant"
	sed 's/^/      | /' "$tmp/cuda2.log" | tail -n 30
fi
finish
