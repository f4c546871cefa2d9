#!/bin/bash
# audit-fix-cxx.sh - torchgate audit --fix and --diff on C++: the corpus
# of tests/integration/fix-corpus-cxx, compiled against Debian's torch
# 1.13 headers after the fix, and the uses left with their reasons
# SPDX-License-Identifier: MIT
#
# usage: audit-fix-cxx.sh TORCHGATE SRCDIR
# Each case directory holds before.cpp, after.cpp (what --fix must
# write), floor (the --floor given), fix-exit (--fix's exit status), and
# optionally cuda (the case needs the CUDA toolkit's headers) and unsafe
# (its fixes are unsafe ones: --unsafe-fixes is given). For each
# case: --diff's exit status and its patch applied with patch(1) giving
# after.cpp; --fix writing after.cpp byte for byte; a second --fix and
# --diff changing nothing; and after.cpp compiled with g++, the flags
# `torchgate flags --cflags` gives for Debian's torch 1.13 and
# -Werror=deprecated-declarations -fsyntax-only. Debian's torch is a CPU
# build: a cuda case also takes the toolkit's headers
# (/usr/local/cuda*/include) and the one generated header the CPU build
# lacks (c10/cuda/impl/cuda_cmake_macros.h, written here); without a
# toolkit it is noted, not compiled. Then what is left, and why.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need_cmd patch
need_cmd g++
corpus=$SRCDIR/tests/integration/fix-corpus-cxx
read -r -a cflags < <("$TG" flags --python /usr/bin/python3 --cflags) ||
	die "torchgate flags found no torch for /usr/bin/python3 (apt-get install python3-torch libtorch-dev)"
cxx() {
	g++ "${cflags[@]}" -Werror=deprecated-declarations -fsyntax-only "$@"
}
cuda_inc=
for d in /usr/local/cuda/include /usr/local/cuda-*/include; do
	[ -e "$d/cuda_runtime_api.h" ] && cuda_inc=$d && break
done
mkdir -p "$tmp/stub/c10/cuda/impl"
printf '#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n' \
	>"$tmp/stub/c10/cuda/impl/cuda_cmake_macros.h"
ncases=0
ncompiled=0
for dir in "$corpus"/*/; do
	c=$(basename "$dir")
	ncases=$((ncases + 1))
	opts=(--floor "$(cat "$dir/floor")")
	[ -e "$dir/unsafe" ] && opts+=(--unsafe-fixes)
	w=$tmp/$c
	mkdir -p "$w/d" "$w/p"
	cp "$dir/before.cpp" "$w/d/m.cpp"
	cp "$dir/before.cpp" "$w/p/m.cpp"
	# --diff: exit 1, a patch that gives after.cpp, nothing written
	(cd "$w/d" && "$TG" audit --diff "${opts[@]}" m.cpp >"$w/diff" 2>"$w/diff.err")
	check "$c: --diff exit status" "$?" 1
	expect "$c: --diff writes nothing" cmp -s "$dir/before.cpp" "$w/d/m.cpp"
	(cd "$w/p" && patch -s -p1 <"$w/diff" >/dev/null 2>&1)
	expect "$c: the diff, applied, gives after.cpp" cmp -s "$dir/after.cpp" "$w/p/m.cpp"
	# --fix: after.cpp byte for byte
	(cd "$w/d" && "$TG" audit --fix "${opts[@]}" m.cpp >"$w/fix.out" 2>"$w/fix.err")
	rc=$?
	expect "$c: --fix writes after.cpp" cmp -s "$dir/after.cpp" "$w/d/m.cpp"
	check "$c: --fix exit status" "$rc" "$(cat "$dir/fix-exit")"
	# a second run changes nothing
	cp "$w/d/m.cpp" "$w/once.cpp"
	(cd "$w/d" && "$TG" audit --fix "${opts[@]}" m.cpp >/dev/null 2>&1)
	expect "$c: a second --fix changes nothing" cmp -s "$w/once.cpp" "$w/d/m.cpp"
	(cd "$w/d" && "$TG" audit --diff "${opts[@]}" m.cpp >"$w/diff2" 2>/dev/null)
	check "$c: --diff after --fix: exit status" "$?" 0
	check "$c: --diff after --fix: no diff" "$(cat "$w/diff2")" ""
	# the proof: the fixed file compiles against torch 1.13, deprecation
	# warnings as errors
	if [ -e "$dir/cuda" ]; then
		if [ -z "$cuda_inc" ]; then
			note "$c: not compiled: no CUDA toolkit headers under /usr/local"
			continue
		fi
		expect "$c: after.cpp compiles on torch 1.13 (CUDA)" \
			cxx -I"$tmp/stub" -I"$cuda_inc" "$w/d/m.cpp"
	else
		expect "$c: after.cpp compiles on torch 1.13" cxx "$w/d/m.cpp"
	fi
	ncompiled=$((ncompiled + 1))
done
check "cases" "$([ "$ncases" -ge 5 ] && echo yes)" yes
check "cases compiled" "$([ "$ncompiled" -ge 4 ] && echo yes)" yes
# what the fix is for: the use it removes does not compile on 1.13
cp "$corpus/at-check-crlf/before.cpp" "$tmp/at.cpp"
if cxx "$tmp/at.cpp" >/dev/null 2>&1; then
	fail "AT_CHECK compiles on torch 1.13"
else
	ok "AT_CHECK does not compile on torch 1.13"
fi
# AT_ASSERT and AT_ASSERTM do, and without a warning: their deprecation
# is a comment in the header, so nothing but the table tells of it
cp "$corpus/at-assert/before.cpp" "$tmp/assert.cpp"
expect "AT_ASSERT and AT_ASSERTM compile on torch 1.13 without a warning" \
	cxx -Werror "$tmp/assert.cpp"

# what is left, and why
cat >"$tmp/left.cpp" <<'EOF'
#include <ATen/core/Tensor.h>
#include <THC/THC.h>
#include <torch/version.h>

void f(const at::Tensor &x, int mode, THCState *state) {
#if TORCH_VERSION_MAJOR < 2
  auto s = x.type().scalarType();
#endif
  if (mode < 0)
    AT_ERROR("bad mode ", mode);
  else
    AT_ASSERT(mode < 4);
  auto t = x.type();
  AT_ERROR(/* no message */);
  AT_CHECK(x.defined(), "x");
}
EOF
cp "$tmp/left.cpp" "$tmp/left.orig"
out=$("$TG" audit --fix --floor 1.1 "$tmp/left.cpp" 2>&1)
check "--fix, something left: exit status" "$?" 1
expect "--fix, nothing fixable: nothing written" cmp -s "$tmp/left.orig" "$tmp/left.cpp"
check_has "floor too old: the reason" "$out" "left: AT_CHECK: the replacement is newer than the floor (1.2 > 1.1)"
out=$("$TG" audit --diff --floor 1.13 "$tmp/left.cpp" 2>&1)
check "--diff, one fix: exit status" "$?" 1
check_has "the one fix" "$out" "left.cpp:15:3: would fix: AT_CHECK -> TORCH_CHECK"
check_has "an #include: the reason" "$out" "left: THC: an #include: no replacement"
check_has "THCState: the reason" "$out" "left: THC: no replacement for this form of the use"
check_has "guarded: the reason" "$out" "left: at::Tensor::type: guarded: left as written"
check_has "; else: the reason" "$out" "left: AT_ERROR: a call followed by \"; else\""
check_has "AT_ASSERT: unsafe, with what it changes" "$out" \
	"12:5: unsafe fix not applied: AT_ASSERT: the failure message quotes the condition as written"
check_has ".type() alone: the reason" "$out" "13:14: left: at::Tensor::type: no replacement for this form of the use"
check_has "no arguments: the reason" "$out" "left: AT_ERROR: a call without arguments: not fixed"
check_lacks "guarded: no edit" "$out" "-  auto s = x.type().scalarType();"
out=$("$TG" audit --diff --unsafe-fixes --floor 1.13 "$tmp/left.cpp" 2>&1)
check_has "AT_ASSERT after an else: fixed with --unsafe-fixes" "$out" \
	"+    TORCH_INTERNAL_ASSERT(mode < 4);"
# a name an entry covers besides its own, with a fix that renames the
# entry's own name only: a table where AT_CHECK's entry also covers
# AT_CHECK_MSG (as AT_ERROR's covered AT_ASSERT before table
# 2026.12.04.8)
/usr/bin/python3 - "$SRCDIR/data/apis.json" "$tmp/spelled.json" <<'PY' ||
import json, sys
t = json.load(open(sys.argv[1]))
for e in t["entries"]:
    if e["id"] == "AT_CHECK":
        e["usage"].append("\\bAT_CHECK_MSG\\b")
json.dump(t, open(sys.argv[2], "w"))
PY
	die "cannot write a table for the spelling case"
printf 'void f(bool ok) {\n  AT_CHECK_MSG(ok, "no");\n}\n' >"$tmp/spelled.cpp"
out=$("$TG" audit --table "$tmp/spelled.json" --diff --floor 1.13 "$tmp/spelled.cpp" 2>&1)
check_has "another spelling: the reason" "$out" \
	"left: AT_CHECK: no replacement for this spelling"
finish
