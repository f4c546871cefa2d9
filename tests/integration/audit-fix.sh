#!/bin/bash
# audit-fix.sh - torchgate audit --fix and --diff on the corpus of
# tests/integration/fix-corpus, and the proof that the fixes keep the
# code working on Debian's torch 1.13
# SPDX-License-Identifier: MIT
#
# usage: audit-fix.sh TORCHGATE SRCDIR
# Each case directory holds before.py, after.py (what --fix must write),
# floor (the --floor given), fix-exit (--fix's exit status: 1 when a
# failing use is left), and optionally unsafe (--unsafe-fixes) and norun (its fixed form needs a torch newer than 1.13). For each case:
# --diff's exit status and its patch applied with patch(1) giving after.py;
# --fix writing after.py byte for byte; the fixes --format=json and
# --format=sarif offer (tests/tools/apply-fixes.py) giving it too;
# python3 -m py_compile on it; a second --fix and --diff changing nothing; and, unless norun, run()
# imported from before.py and from after.py under /usr/bin/python3
# (Debian's torch 1.13, CPU) giving the same repr. Then exit statuses and
# hostile input: NUL, invalid UTF-8, a symbolic link, the declared floor.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need_cmd patch strace
"$PY" -c 'import torch' 2>/dev/null || die "$PY cannot import torch (apt-get install python3-torch)"
corpus=$SRCDIR/tests/integration/fix-corpus
ncases=0
nfile=0
nrun=0
for dir in "$corpus"/*/; do
	c=$(basename "$dir")
	ncases=$((ncases + 1))
	floor=$(cat "$dir/floor")
	opts=(--floor "$floor")
	[ -e "$dir/unsafe" ] && opts+=(--unsafe-fixes)
	w=$tmp/$c
	mkdir -p "$w/d" "$w/p"
	cp "$dir/before.py" "$w/d/m.py"
	cp "$dir/before.py" "$w/p/m.py"
	# --diff: exit 1, a patch that gives after.py, nothing written
	(cd "$w/d" && "$TG" audit --diff "${opts[@]}" m.py >"$w/diff" 2>"$w/diff.err")
	check "$c: --diff exit status" "$?" 1
	expect "$c: --diff writes nothing" cmp -s "$dir/before.py" "$w/d/m.py"
	(cd "$w/p" && patch -s -p1 <"$w/diff" >/dev/null 2>&1)
	expect "$c: the diff, applied, gives after.py" cmp -s "$dir/after.py" "$w/p/m.py"
	# --fix: after.py byte for byte, which compiles
	(cd "$w/d" && "$TG" audit --fix "${opts[@]}" m.py >"$w/fix.out" 2>"$w/fix.err")
	rc=$?
	expect "$c: --fix writes after.py" cmp -s "$dir/after.py" "$w/d/m.py"
	check_has "$c: the report names the floor" "$(cat "$w/fix.out")" "floor: $floor, from --floor"
	check "$c: --fix exit status" "$rc" "$(cat "$dir/fix-exit")"
	expect "$c: py_compile" "$PY" -m py_compile "$w/d/m.py"
	# JSON and SARIF offer the same fixes (with the options --fix was
	# given: --unsafe-fixes too): applied, they give after.py, those of
	# the file-level step (imports and the uses through them: a case
	# marked file-step has some) too; a file that takes more than one
	# pass is reported and applied again, as a consumer would
	which=safe
	[ -e "$dir/unsafe" ] && which=all
	[ -e "$dir/file-step" ] && nfile=$((nfile + 1))
	for fmt in json sarif; do
		cp "$dir/before.py" "$w/j.py"
		for pass in 1 2 3 4; do
			(cd "$w" && "$TG" audit --format=$fmt "${opts[@]}" j.py >"$w/report.$fmt" 2>/dev/null)
			"$PY" "$SRCDIR/tests/tools/apply-fixes.py" $fmt "$w/report.$fmt" "$w/j.py" $which >"$w/j.$fmt.py" || break
			cmp -s "$w/j.py" "$w/j.$fmt.py" && break
			cp "$w/j.$fmt.py" "$w/j.py"
		done
		expect "$c: --format=$fmt: its fixes applied give after.py" cmp -s "$dir/after.py" "$w/j.$fmt.py"
	done
	# a second run changes nothing
	cp "$w/d/m.py" "$w/once.py"
	(cd "$w/d" && "$TG" audit --fix "${opts[@]}" m.py >/dev/null 2>&1)
	expect "$c: a second --fix changes nothing" cmp -s "$w/once.py" "$w/d/m.py"
	(cd "$w/d" && "$TG" audit --diff "${opts[@]}" m.py >"$w/diff2" 2>/dev/null)
	check "$c: --diff after --fix: exit status" "$?" 0
	check "$c: --diff after --fix: no diff" "$(cat "$w/diff2")" ""
	[ -e "$dir/norun" ] && continue
	# the proof: the same results on torch 1.13 before and after
	nrun=$((nrun + 1))
	cp "$dir/before.py" "$w/before_m.py"
	cp "$w/d/m.py" "$w/after_m.py"
	got=$(cd "$w" && "$PY" -W ignore -c 'import before_m, after_m
a, b = before_m.run(), after_m.run()
print("same" if repr(a) == repr(b) else "differ: %r != %r" % (a, b))' 2>&1)
	check "$c: run() on torch 1.13, before and after" "$got" "same"
done
check "cases" "$([ "$ncases" -ge 25 ] && echo yes)" yes
check "cases whose JSON and SARIF fixes are checked: all, those through imports (7 or more) too" "$([ "$nfile" -ge 7 ] && echo yes)" yes
check "cases run on torch 1.13" "$([ "$nrun" -ge 18 ] && echo yes)" yes

# the report: fixed, left with the reason, hidden unsafe fixes
cp "$corpus/amp-floor-2.4/before.py" "$tmp/r.py"
cp "$corpus/amp-floor-2.4/before.py" "$tmp/r13.py"
out=$("$TG" audit --fix --unsafe-fixes --floor 1.13 "$tmp/r13.py" 2>&1)
check "--fix, something left: exit status" "$?" 1
# replacements newer than the floor: the guarded form (a compat block)
check_has "floor too old: the guarded form" "$out" "r13.py:9:6: fixed: torch.cuda.amp.custom_fwd -> _torchgate_custom_fwd, guarded: torch.amp.custom_fwd where torch has it, else torch.cuda.amp.custom_fwd"
check_has "floor too old, unsafe: the guarded form and the note" "$out" "fixed: torch.cuda.amp.grad_scaler.OptState -> _torchgate_OptState, guarded: torch.amp.grad_scaler.OptState where torch has it, else torch.cuda.amp.grad_scaler.OptState (unsafe: private to private"
check_has "floor too old, *args: the reason" "$out" "left: torch.cuda.amp.GradScaler: the replacement is newer than the floor (2.3 > 1.13) and its guarded form cannot be written: a call with *args"
check "floor too old: one compat block per entry" "$(grep -c '^try:  # torchgate: compat for torch < ' "$tmp/r13.py")" 5
expect "floor too old: py_compile" "$PY" -m py_compile "$tmp/r13.py"
check_has "an alias of the old module: fixed" "$out" "fixed: torch.cuda.amp.autocast -> torch.amp.autocast"
check_has "a from-import kept: the reason" "$out" "left: torch.cuda.amp.custom_bwd: the replacement is newer than the floor (2.4 > 1.13) and its guarded form cannot be written: import kept: a use of the name is left"
check_has "a from-imported name as a value: the reason" "$out" "left: torch.cuda.amp.custom_bwd: the replacement is newer than the floor (2.4 > 1.13) and its guarded form cannot be written: not a call, and the fix inserts an argument"
check_has "guarded: the reason" "$out" "left: torch.cuda.amp.GradScaler: guarded: left as written"
check_has "a string: the reason" "$out" "a mention in a comment or string: never rewritten"
# the file re-audited: the old names the blocks hold are guarded
out=$("$TG" audit --floor 1.13 "$tmp/r13.py" 2>&1)
check_has "re-audited: a block's old name is guarded" "$out" "[guarded by 'try/except ImportError' at line 5]"
# unguarded in code: only the five uses left (the from-import, *args,
# **kwargs, device_type passed, custom_bwd as a value)
check "re-audited: no fixed use left unguarded" "$(echo "$out" | grep -v -e 'guarded by' -e 'mention in' | grep -c ': deprecated: ')" 5
# a compat name the file uses otherwise: left
printf 'import torch\n_torchgate_GradScaler = 1\ns = torch.cuda.amp.GradScaler()\n' >"$tmp/taken.py"
out=$("$TG" audit --diff --floor 1.13 "$tmp/taken.py" 2>&1)
check "a compat name taken: exit status" "$?" 0
check_has "a compat name taken: the reason" "$out" "its guarded form cannot be written: the compat block's name is taken in this file"
# no leading import to put the block after
printf 'def f():\n    import torch\n    return torch.cuda.amp.GradScaler()\n' >"$tmp/noimp.py"
out=$("$TG" audit --diff --floor 1.13 "$tmp/noimp.py" 2>&1)
check_has "no leading import: the reason" "$out" "the file does not start with imports, after which the compat block would go"
# CRLF: the block in the file's newlines
printf 'import torch\r\n\r\ns = torch.cuda.amp.GradScaler()\r\n' >"$tmp/crlf.py"
"$TG" audit --fix --floor 1.13 "$tmp/crlf.py" >/dev/null 2>&1
check "CRLF: the block's newlines" "$(grep -c $'\r$' "$tmp/crlf.py")" "$(wc -l <"$tmp/crlf.py")"
expect "CRLF: py_compile" "$PY" -m py_compile "$tmp/crlf.py"
out=$("$TG" audit --diff --floor 2.4 "$tmp/r.py" 2>&1 >/dev/null)
check_has "hidden unsafe fixes counted" "$out" "2 unsafe fixes not applied (pass --unsafe-fixes)"
check_has "positional arguments kept right" "$out" "left: torch.cuda.amp.GradScaler: a call with *args"
check_has "a keyword passed already" "$out" "the call passes the inserted keyword already"
# a fix inserting two keywords (upsample_bilinear: mode= and
# align_corners=): a call passing either is left
printf 'import torch\na = torch.nn.functional.upsample_bilinear(x, align_corners=False)\nb = torch.nn.functional.upsample_bilinear(x, mode="nearest")\nc = torch.nn.functional.upsample_bilinear(x, 2)\n' >"$tmp/bil.py"
bil=$("$TG" audit --diff --floor 1.13 "$tmp/bil.py" 2>&1)
check "two keywords: both calls passing one are left" "$(grep -c 'the call passes the inserted keyword already' <<<"$bil")" 2
check_has "two keywords: inserted together" "$bil" 'c = torch.nn.functional.interpolate(x, 2, mode="bilinear", align_corners=True)'
check_has "a from-import with a use left: kept" "$out" "left: torch.cuda.amp.custom_bwd: import kept: a use of the name is left"

# import forms: an __init__.py keeps its imports (re-exports), with
# `import torch` added for the uses rewritten; a star import is not
# followed
mkdir -p "$tmp/ini"
printf 'from torch.cpu.amp import autocast\n\n\ndef f():\n    with autocast():\n        pass\n' >"$tmp/ini/__init__.py"
out=$("$TG" audit --fix --unsafe-fixes --floor 1.13 "$tmp/ini/__init__.py" 2>&1)
check "__init__.py: exit status (the import left)" "$?" 1
check_has "__init__.py: the import kept" "$out" "import kept: an __init__.py's imports may be re-exported"
check "__init__.py: the fixed text" "$(cat "$tmp/ini/__init__.py")" 'from torch.cpu.amp import autocast
import torch


def f():
    with torch.amp.autocast("cpu"):
        pass'
expect "__init__.py: py_compile" "$PY" -m py_compile "$tmp/ini/__init__.py"
printf 'import torch\nfrom torch.cpu.amp import *\nwith autocast():\n    pass\n' >"$tmp/star.py"
out=$("$TG" audit --diff --unsafe-fixes --floor 1.13 "$tmp/star.py" 2>&1)
check "a star import: exit status" "$?" 0
check_has "a star import: the reason" "$out" "import form not fixable: no import this file reads binds the name (a star import?)"
# import torch._six (removed in 2.0) with a use through it left (no
# fix): kept, with the reason; torch bound before: the import dropped
printf 'import torch._six\nx = torch._six.string_classes\ny = torch._six.inf\n' >"$tmp/six.py"
out=$("$TG" audit --diff --floor 1.13 "$tmp/six.py" 2>&1)
check_has "import torch._six, a use left: the reason" "$out" "six.py:1:8: left: torch._six: import kept: a use through the module is left"
printf 'import torch\nimport torch._six\ny = torch._six.inf\n' >"$tmp/six.py"
"$TG" audit --fix --floor 1.13 "$tmp/six.py" >/dev/null 2>&1
check "import torch._six, torch bound before: dropped" "$(cat "$tmp/six.py")" "import torch
y = torch.inf"

# the notes of unsafe fixes: shown when hidden and when applied
# (autocast without dtype= takes the current autocast dtype)
cp "$corpus/amp-cuda-floor-1.13/before.py" "$tmp/n.py"
out=$("$TG" audit --diff --floor 1.13 "$tmp/n.py" 2>&1 >/dev/null)
check_has "autocast: unsafe, not applied, its note" "$out" "n.py:11:10: unsafe fix not applied: torch.cuda.amp.autocast: without dtype=, torch.amp.autocast uses the current autocast dtype"
out=$("$TG" audit --diff --unsafe-fixes --floor 1.13 "$tmp/n.py" 2>&1 >/dev/null)
check_has "autocast: applied, its note" "$out" "n.py:11:10: would fix: torch.cuda.amp.autocast -> torch.amp.autocast (unsafe: without dtype=, torch.amp.autocast uses the current autocast dtype"
check_has "autocast: the old default named" "$out" "where torch.cuda.amp.autocast always used torch.float16"

# the floor: declared by the package, else the oldest release known
mkdir -p "$tmp/pkg/src"
printf '[project]\nname = "p"\nversion = "1"\ndependencies = ["torch>=1.13"]\n' >"$tmp/pkg/pyproject.toml"
cp "$corpus/autocast-cpu/before.py" "$tmp/pkg/src/m.py"
out=$("$TG" audit --diff "$tmp/pkg" 2>&1 >/dev/null)
check_has "the declared floor" "$out" "floor: 1.13, declared in $tmp/pkg/pyproject.toml:4: torch>=1.13"
out=$("$TG" audit --diff "$tmp/pkg/src/m.py" 2>&1 >/dev/null)
check_has "no floor declared: the oldest release" "$out" "floor: 1.0.0, the oldest torch release torchgate knows"
check_has "no floor declared: autocast's guarded form is unsafe" "$out" "unsafe fix not applied: torch.cpu.amp.autocast"
out=$("$TG" audit --diff --unsafe-fixes "$tmp/pkg/src/m.py" 2>&1 >/dev/null)
check_has "no floor declared: autocast guarded" "$out" "would fix: torch.cpu.amp.autocast -> _torchgate_autocast, guarded: torch.amp.autocast where torch has it"

out=$("$TG" audit --diff -q --floor 2.4 "$tmp/r.py" 2>&1 >/dev/null)
check "--diff -q: no report" "$out" ""

# time: 80,000 fixes in one file, in proportion to audit's time (the
# conflict test and the check after fixing were quadratic: 21 s against
# audit's 0.2 s)
{
	echo 'import torch'
	for ((i = 0; i < 80000; i++)); do echo 'torch.nn.utils.clip_grad_norm(p, 1)'; done
} >"$tmp/many.py"
t0=$(date +%s%N)
"$TG" audit --floor 1.13 "$tmp/many.py" >/dev/null 2>&1
t1=$(date +%s%N)
n=$("$TG" audit --diff --floor 1.13 "$tmp/many.py" 2>/dev/null | grep -c '^+torch.nn.utils.clip_grad_norm_(')
t2=$(date +%s%N)
check "80,000 fixes in one file" "$n" 80000
check "80,000 fixes: --diff within 10 times audit's time and 3 s" \
	"$([ $((t2 - t1)) -le $((10 * (t1 - t0) + 3000000000)) ] && echo yes || echo "no: $(((t2 - t1) / 1000000)) ms against $(((t1 - t0) / 1000000)) ms")" yes

# exit statuses: nothing to fix, usage
printf 'import torch\nx = torch.ones(1)\n' >"$tmp/clean.py"
# the operand's leading "./" is not in the diff's paths, as in git's
out=$(cd "$tmp" && "$TG" audit --diff --floor 2.4 ./r.py 2>/dev/null | head -n 2)
check "--diff of ./r.py: the paths" "$out" "--- a/r.py
+++ b/r.py"
# an absolute operand under the current directory: paths relative to it,
# so that patch -p1 applies the diff there
mkdir -p "$tmp/abs/sub"
cp "$corpus/clip-grad-norm/before.py" "$tmp/abs/sub/m.py"
(cd "$tmp/abs" && "$TG" audit --diff --floor 1.13 "$tmp/abs/sub/m.py" >"$tmp/abs.diff" 2>/dev/null)
check "--diff of an absolute path under the current directory: the paths" \
	"$(head -n 2 "$tmp/abs.diff")" "--- a/sub/m.py
+++ b/sub/m.py"
(cd "$tmp/abs" && patch -s -p1 <"$tmp/abs.diff" >/dev/null 2>&1)
expect "--diff of an absolute path: patch -p1 applies it" cmp -s "$corpus/clip-grad-norm/after.py" "$tmp/abs/sub/m.py"
"$TG" audit --diff "$tmp/clean.py" >/dev/null 2>&1
check "--diff, nothing to fix" "$?" 0
"$TG" audit --fix "$tmp/clean.py" >/dev/null 2>&1
check "--fix, nothing to fix" "$?" 0
"$TG" audit --fix --diff "$tmp/clean.py" >/dev/null 2>&1
check "--fix --diff" "$?" 2
"$TG" audit --fix --format=json "$tmp/clean.py" >/dev/null 2>&1
check "--fix --format=json" "$?" 2
"$TG" audit --unsafe-fixes "$tmp/clean.py" >/dev/null 2>&1
check "--unsafe-fixes alone" "$?" 2
"$TG" audit --fix "$tmp/missing.py" >/dev/null 2>&1
check "--fix, a missing operand" "$?" 5

# Under strace, ptrace is taken: a sanitized build's LeakSanitizer cannot
# run at exit and fails the process, so leak checking is off for the runs
# strace holds (the other runs of this test keep it).
strace_asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# SIGTERM while the temporary file exists (strace holds each fsync 2 s:
# the first is the temporary file's): it waits for the rename, so no
# temporary file is left and the file is the new one
mkdir -p "$tmp/sig"
printf 'import torch\ntorch.nn.utils.clip_grad_norm(p, 1)\n' >"$tmp/sig/m.py"
ASAN_OPTIONS=$strace_asan strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_exit=2000000 \
	bash -c 'echo $$ >"$1/pid"; exec "$0" audit --fix --floor 1.13 "$1/m.py"' \
	"$TG" "$tmp/sig" >/dev/null 2>&1 &
spid=$!
for ((i = 0; i < 50; i++)); do
	ls -a "$tmp/sig" | grep -q torchgate- && break
	sleep 0.1
done
check "SIGTERM: a temporary file exists when it is sent" "$(ls -a "$tmp/sig" | grep -c torchgate-)" 1
kill -TERM "$(cat "$tmp/sig/pid")"
wait "$spid"
check "SIGTERM: killed by it" "$?" 143
check "SIGTERM: no temporary file left" "$(ls -a "$tmp/sig" | grep -c torchgate-)" 0
check "SIGTERM: the file is the fixed one" "$(cat "$tmp/sig/m.py")" "import torch
torch.nn.utils.clip_grad_norm_(p, 1)"

# the directory's fsync, after the rename, fails (strace makes the
# second fsync EIO): the file was written, so it is fixed with a warning
mkdir -p "$tmp/sync"
printf 'import torch\ntorch.nn.utils.clip_grad_norm(p, 1)\n' >"$tmp/sync/m.py"
out=$(cd "$tmp/sync" && ASAN_OPTIONS=$strace_asan strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2 \
	"$TG" audit --fix --floor 1.13 m.py 2>&1)
check "the directory not synced: exit status" "$?" 0
check_has "the directory not synced: fixed" "$out" "m.py:2:1: fixed: torch.nn.utils.clip_grad_norm -> torch.nn.utils.clip_grad_norm_"
check_has "the directory not synced: a warning" "$out" "torchgate: audit: warning: fixed, but its directory could not be synced: cannot write 'm.py': Input/output error"
check "the directory not synced: the file is the fixed one" "$(cat "$tmp/sync/m.py")" "import torch
torch.nn.utils.clip_grad_norm_(p, 1)"

# hostile input: left as it was, byte for byte
printf 'import torch\ntorch.nn.utils.clip_grad_norm(p, 1)\n\0\n' >"$tmp/nul.py"
cp "$tmp/nul.py" "$tmp/nul.orig"
"$TG" audit --fix --floor 1.13 "$tmp/nul.py" >/dev/null 2>&1
check "a NUL byte: exit status" "$?" 4
expect "a NUL byte: not written" cmp -s "$tmp/nul.orig" "$tmp/nul.py"
printf 'import torch\ntorch.nn.utils.clip_grad_norm(p, 1)\n# \xff\n' >"$tmp/bad.py"
cp "$tmp/bad.py" "$tmp/bad.orig"
"$TG" audit --fix --floor 1.13 "$tmp/bad.py" >/dev/null 2>&1
check "invalid UTF-8: exit status" "$?" 4
expect "invalid UTF-8: not written" cmp -s "$tmp/bad.orig" "$tmp/bad.py"
# a symbolic link stays one; the file it names is fixed, its mode kept
mkdir -p "$tmp/ln"
cp "$corpus/clip-grad-norm/before.py" "$tmp/ln/real.py"
chmod 640 "$tmp/ln/real.py"
ln -s real.py "$tmp/ln/link.py"
"$TG" audit --fix --floor 1.13 "$tmp/ln/link.py" >/dev/null 2>&1
check "a symbolic link: exit status" "$?" 0
expect "a symbolic link stays one" test -L "$tmp/ln/link.py"
expect "the file it names is fixed" cmp -s "$corpus/clip-grad-norm/after.py" "$tmp/ln/real.py"
check "its mode kept" "$(stat -c %a "$tmp/ln/real.py")" 640
finish
