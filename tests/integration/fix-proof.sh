#!/bin/bash
# fix-proof.sh - the fix corpus run on Debian's torch 1.13 before and
# after, with its warnings: tests/tools/fix-proof.py in make check
# SPDX-License-Identifier: MIT
#
# usage: fix-proof.sh TORCHGATE SRCDIR
# fix-proof.py imports each case's before.py and after.py of
# tests/integration/fix-corpus under /usr/bin/python3 (Debian's torch
# 1.13) and calls run(): the results must be the same and after.py must
# raise no deprecation warning (audit-fix.sh checks that --fix writes
# after.py). Then the tool itself: a copy of the corpus with one fix
# undone and one result changed must fail, naming both. The same tool
# runs on the GPU machine's torch 2.11 (doc/audit-real-code.md).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
"$PY" -c 'import torch' 2>/dev/null || die "$PY cannot import torch (apt-get install python3-torch)"
proof=$SRCDIR/tests/tools/fix-proof.py
corpus=$SRCDIR/tests/integration/fix-corpus

out=$(cd "$tmp" && "$PY" "$proof" "$corpus" 2>&1)
check "the corpus on torch 1.13: exit status" "$?" 0
check_lacks "no case fails" "$out" "FAIL"
n=$(grep -c ': ok (deprecation warnings' <<<"$out")
check "cases run on torch 1.13 (5 or more)" "$([ "$n" -ge 5 ] && echo yes)" yes
check_has "a fixed deprecation warns before and not after" "$out" \
	"clip-grad-norm: ok (deprecation warnings: 1 before, 0 after)"

# the tool fails what it must
cp -r "$corpus" "$tmp/bad"
sed -i 's/clip_grad_norm_(/clip_grad_norm(/' "$tmp/bad/clip-grad-norm/after.py"
sed -i 's/^    return /    return 1, /' "$tmp/bad/upsample/after.py"
out=$(cd "$tmp" && "$PY" "$proof" "$tmp/bad" 2>&1)
check "a broken corpus: exit status" "$?" 1
check_has "a fix undone warns after" "$out" "clip-grad-norm: FAIL: deprecation warnings after"
check_has "a changed result" "$out" "upsample: FAIL: results differ"
out=$("$PY" "$proof" 2>&1)
check "usage: exit status" "$?" 2
finish
