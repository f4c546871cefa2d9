#!/bin/bash
# flags-vs-cpp-extension.sh - torchgate flags against torch.utils.cpp_extension
# SPDX-License-Identifier: MIT
#
# usage: flags-vs-cpp-extension.sh TORCHGATE SRCDIR
#
# On Debian's torch (python3-torch), what 'torchgate flags --python
# /usr/bin/python3' prints is compared, flag by flag as torchgate-flags(1)
# documents, with what torch.utils.cpp_extension itself returns when this
# test imports torch (the product never does): include_paths() (those
# that exist) and the interpreter's sysconfig include, library_paths(),
# CppExtension's libraries, torch._C._GLIBCXX_USE_CXX11_ABI, the -std
# BuildExtension appends (read from its source), COMMON_NVCC_FLAGS and
# _get_cuda_arch_flags() for several TORCH_CUDA_ARCH_LIST values (our
# side from a fake CUDA torch, since Debian's has no CUDA). Then a small
# extension compiled by g++ with the words of --cflags and --libs is
# imported and called by Debian's python3. It fails, never skips, when
# python3-torch, python3-dev, pybind11-dev or g++ is missing.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
MKTORCH=$SRCDIR/tests/tools/mktorch.sh

# ---- prerequisites: never skip ------------------------------------------
need_deb python3-torch python3-dev pybind11-dev
need_cmd g++

# ---- what cpp_extension says --------------------------------------------
"$PY" - >"$tmp/want" 2>"$tmp/want.err" <<'PYEOF' || { cat "$tmp/want.err"; die "python3 could not import torch.utils.cpp_extension"; }
import os, re, sys, sysconfig
import torch
from torch.utils import cpp_extension as c
e = c.CppExtension("x", ["x.cpp"])
inc = [p for p in c.include_paths() if os.path.isdir(p)]
print("include_dirs=" + " ".join(inc + [sysconfig.get_paths()["include"]]))
print("library_dirs=" + " ".join(e.library_dirs))
print("libraries=" + " ".join(e.libraries))
print("abi=%d" % int(torch._C._GLIBCXX_USE_CXX11_ABI))
src = open(c.__file__).read()
m = re.search(r"cpp_flag = cpp_flag_prefix \+ 'c\+\+(\d+)'", src)
print("std=" + (m.group(1) if m else "?"))
print("nvcc_common=" + " ".join(c.COMMON_NVCC_FLAGS))
for arch in ["7.5", "8.0;8.6", "7.0+PTX", "7.5 8.6", "8.0;8.0;8.6+PTX", "Ampere", "Turing;Volta"]:
    os.environ["TORCH_CUDA_ARCH_LIST"] = arch
    print("arch[%s]=%s" % (arch, " ".join(c._get_cuda_arch_flags())))
PYEOF
want() { sed -n "s/^$1=//p" "$tmp/want"; }

# ---- what torchgate says ------------------------------------------------
json=$("$TG" flags --quiet --python "$PY" --name tgcheck --format=json) || die "torchgate flags --python $PY failed"
got() {
	printf '%s' "$json" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
e = d["extension"]
k = sys.argv[1]
if k == "abi":
    print(dict((m[0], m[1]) for m in e["define_macros"]).get("_GLIBCXX_USE_CXX11_ABI", ""))
elif k == "std":
    print(d["cxx_standard"])
else:
    print(" ".join(e[k]))' "$1"
}
for k in include_dirs library_dirs libraries abi std; do
	check "$k" "$(got $k)" "$(want $k)"
done
defs=$(printf '%s' "$json" | "$PY" -c 'import json,sys; print(" ".join(m[0] + ("=" + m[1] if m[1] else "") for m in json.load(sys.stdin)["extension"]["define_macros"]))')
check "define_macros" "$defs" "TORCH_API_INCLUDE_EXTENSION_H TORCH_EXTENSION_NAME=tgcheck _GLIBCXX_USE_CXX11_ABI=$(want abi)"

# the CUDA side, from a fake CUDA torch and toolkit under a conda-style prefix
sp=$tmp/env/lib/python3.11/site-packages
mkdir -p "$tmp/env/conda-meta" "$sp" "$tmp/env/include/python3.11" "$tmp/cuda/include"
: >"$tmp/env/include/python3.11/Python.h"
: >"$tmp/cuda/include/cuda_runtime.h"
bash "$MKTORCH" "$sp" --version 2.5.1+cu124 --cuda 12.4 --abi 1 >/dev/null || die "mktorch.sh failed"
mkdir -p "$sp/torch/include/pybind11" "$sp/torch/lib"
: >"$sp/torch/include/pybind11/pybind11.h"
: >"$sp/torch/lib/libc10.so"
common=$(CUDA_HOME=$tmp/cuda "$TG" flags --quiet --prefix "$tmp/env" --cuda --arch 8.0 --format=json |
	"$PY" -c 'import json,sys; print(" ".join(f["arg"] for f in json.load(sys.stdin)["flags"] if f["from"] == "cpp_extension.COMMON_NVCC_FLAGS"))')
check "COMMON_NVCC_FLAGS" "$common" "$(want nvcc_common)"
while IFS= read -r line; do
	arch=${line#arch[}; arch=${arch%%]=*}
	g=$(CUDA_HOME=$tmp/cuda "$TG" flags --quiet --prefix "$tmp/env" --cuda --arch "$arch" --nvcc-flags --format=args | grep -- -gencode | tr '\n' ' ')
	check "_get_cuda_arch_flags() for '$arch'" "${g% }" "${line#*]=}"
done < <(grep '^arch\[' "$tmp/want")

# ---- a real extension, compiled with the words and called ---------------
mkdir "$tmp/ext"
cat >"$tmp/ext/tgcheck.cpp" <<'CPP'
#include <torch/extension.h>
static torch::Tensor twice(torch::Tensor x) { return x * 2; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("twice", &twice); }
CPP
suffix=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
cflags=$("$TG" flags --quiet --python "$PY" --name tgcheck --cflags) || die "flags --cflags failed"
libs=$("$TG" flags --quiet --python "$PY" --libs) || die "flags --libs failed"
eval "set -- $cflags"
c=("$@")
eval "set -- $libs"
if nice g++ "${c[@]}" -shared -o "$tmp/ext/tgcheck$suffix" "$tmp/ext/tgcheck.cpp" "$@" 2>"$tmp/ext/err"; then
	ok "g++ with 'torchgate flags --cflags' and '--libs' builds the extension"
	out=$(cd "$tmp/ext" && "$PY" -c 'import torch, tgcheck; print(tgcheck.twice(torch.arange(3)).tolist())' 2>&1)
	check "the extension imported and called" "$out" "[0, 2, 4]"
else
	fail "g++ failed: $(head -5 "$tmp/ext/err")"
fi
finish
