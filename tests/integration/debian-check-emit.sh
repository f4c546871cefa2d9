#!/bin/bash
# debian-check-emit.sh - check and emit against Debian's real torch
# SPDX-License-Identifier: MIT
#
# usage: debian-check-emit.sh TORCHGATE SRCDIR
# On the python3-torch install: the amp family's statuses (what issue 4
# asks for 1.13), every table entry confirmed or explained, and a header
# that agrees with torch's own version.h, static_assert by static_assert,
# compiled as C11 and C++17 with -Wall -Wextra -Werror -pedantic.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need /usr/lib/python3/dist-packages/torch/version.py "Debian's torch is not installed (apt-get install python3-torch libtorch-dev)"
need /usr/include/torch "Debian's torch is not installed (apt-get install python3-torch libtorch-dev)"

st() { "$TG" check --python "$PY" --format=json "$1" | "$PY" -c 'import json,sys; a=json.load(sys.stdin)["apis"][0]; print(a["status"], a["evidence"]["verdict"])'; }
ver=$("$TG" probe --python "$PY" --field version)
case $ver in 1.13*) ok "Debian's torch is 1.13 ($ver)" ;; *) fail "this test knows Debian's 1.13; found $ver" ;; esac
check "torch.amp.autocast" "$(st torch.amp.autocast)" "available confirmed"
for id in torch.amp.GradScaler torch.amp.custom_fwd torch.amp.custom_bwd torch.amp.grad_scaler.OptState; do
	check "$id" "$(st $id)" "not-yet confirmed"
done
for id in torch.cuda.amp.autocast torch.cuda.amp.GradScaler torch.cuda.amp.custom_fwd torch.cuda.amp.custom_bwd torch.cuda.amp.grad_scaler.OptState; do
	check "$id" "$(st $id)" "available confirmed"
done
"$TG" check --python "$PY" torch.cuda.amp.custom_fwd >/dev/null
check "check exit (all available)" "$?" 0
"$TG" check --python "$PY" torch.amp.custom_fwd >/dev/null
check "check exit (not-yet)" "$?" 1
# every entry: confirmed, or contradicted only where the notes say why
"$TG" check --python "$PY" --format=json >"$tmp/all.json"
expect "every entry confirmed, or contradicted where the notes say why" "$PY" - "$tmp/all.json" <<'PY'
import json, sys
apis = json.load(open(sys.argv[1]))["apis"]
bad = [a["id"] for a in apis if a["evidence"]["verdict"] == "contradicted"]
known = {"THC.THCAtomics.cuh"}  # Debian's CPU-only build ships no THC/
print("entries: %d, contradicted: %s" % (len(apis), bad))
sys.exit(1 if set(bad) - known else 0)
PY

# emit, then compile against torch's own version.h
"$TG" emit --python "$PY" --quiet --header "$tmp/gate.h" --module "$tmp/gate.py" --macro-prefix DEB \
	--api torch.cuda.amp.custom_fwd --api torch.amp.custom_fwd --api torch.amp.autocast
check "emit exit" "$?" 0
cat >"$tmp/t.c" <<'C'
#include "gate.h"
#include <torch/version.h>
#ifdef __cplusplus
#define SA static_assert
#else
#define SA _Static_assert
#endif
SA(DEB_TORCH_VERSION_MAJOR == TORCH_VERSION_MAJOR, "major");
SA(DEB_TORCH_VERSION_MINOR == TORCH_VERSION_MINOR, "minor");
SA(DEB_TORCH_VERSION_PATCH == TORCH_VERSION_PATCH, "patch");
SA(DEB_TORCH_AT_LEAST(TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH), "at least");
SA(DEB_HAS_TORCH_CUDA_AMP_CUSTOM_FWD == 1 && DEB_HAS_TORCH_AMP_CUSTOM_FWD == 0, "amp");
SA(DEB_TORCH_CUDA_VERSION == 0 && DEB_TORCH_HIP_VERSION == 0, "cpu only");
#if DEB_TORCH_CXX11_ABI != 1
#error "Debian builds with the C++11 ABI"
#endif
int main(void) { return 0; }
C
cp "$tmp/t.c" "$tmp/t.cpp"
inc=-I/usr/include/torch/csrc/api/include
cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$tmp" $inc -c "$tmp/t.c" -o "$tmp/c.o" 2>"$tmp/err"
check "C11 compile with torch's version.h" "$?" 0
c++ -std=c++17 -Wall -Wextra -Werror -pedantic -I"$tmp" $inc -c "$tmp/t.cpp" -o "$tmp/cxx.o" 2>>"$tmp/err"
check "C++17 compile with torch's version.h" "$?" 0
[ -s "$tmp/err" ] && cat "$tmp/err"
# the module, imported where torch cannot be (-I -S: no site-packages)
out=$("$PY" -I -S -c "import sys; sys.path.insert(0, '$tmp'); import gate; print(gate.TORCH_VERSION, gate.HAS_TORCH_AMP_CUSTOM_FWD, 'torch' in sys.modules)")
check "module without torch" "$out" "$ver False False"
# with Debian's site-packages, check_runtime reads torch's metadata
out=$("$PY" -c "import sys; sys.path.insert(0, '$tmp'); import gate; print(gate.check_runtime(), 'torch' in sys.modules)")
check "check_runtime (metadata, no import)" "$out" "$("$PY" -c 'import importlib.metadata as m; print(m.version("torch"))') False"
finish
