#!/bin/bash
# debian-import-check.sh - the table's presence facts against Debian's torch, imported
# SPDX-License-Identifier: MIT
#
# usage: debian-import-check.sh TORCHGATE SRCDIR
#
# Runs tests/tools/import-check.py with /usr/bin/python3 (Debian's torch
# 1.13, the one the README's Quick start installs; python3 on PATH may be
# another interpreter without torch): it imports torch, resolves every
# Python entry of data/apis.json that names something, and compares
# what it finds with the status `TORCHGATE check --torch-version`
# gives for that torch. Every disagreement must carry a reason the
# script verified (removal-stub, build-omits, optional-dep,
# python-too-new). Then the same findings, saved with --probe, are
# compared with a table that has one fact wrong (an entry made
# 'introduced 2.11' whose module 1.13 imports): the check must fail,
# naming it. Last, the legacy reduction arguments: the loss functions
# and classes whose signatures take size_average= and reduce= must be
# the ones the table's pattern names, and audit must find each keyword
# of each, but none passed as None (which does not warn). torchgate itself never imports torch; this test does. It
# fails, never skips, when python3-torch is not installed.
set -u
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
IC=$SRCDIR/tests/tools/import-check.py
need_deb python3-torch
need "$PY" "the Debian interpreter (python3-minimal)"

# the table as built in: what it says of this torch, found by import
"$PY" "$IC" --table "$SRCDIR/data/apis.json" --torchgate "$TG" --json "$tmp/rows.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
sed 's/^/      /' "$tmp/out"
check "import-check.py exit status on Debian's torch" "$rc" 0
out=$(cat "$tmp/out")
check_has "report" "$out" "torch 1.13"
check_has "report" "$out" "unexplained 0"
check_lacks "report" "$out" "UNEXPLAINED"
# the reasons seen on this install, each one verified by the script
check_has "a removal stub" "$out" "removal-stub  torch.solve (table: removed; found): its source raises RuntimeError: This function was deprecated since version 1.9 and is now removed."
check_has "an optional package" "$out" "optional-dep  torch.testing._internal.common_utils (table: available; not found): import torch.testing._internal.common_utils: ModuleNotFoundError: No module named 'expecttest'"
check_has "a module this Python cannot import" "$out" "python-too-new torch.distributed._shard.sharded_tensor (table: available; not found)"
# a package that is only a namespace directory (trixie's setuptools/ of
# python3-pkg-resources, no python3-setuptools): not installed; a real one is
mkdir -p "$tmp/ns/tgnsonly/_vendor" "$tmp/ns/tgreal" && : >"$tmp/ns/tgreal/__init__.py"
ns=$(cd "$tmp" && "$PY" -c 'import importlib.util, sys
sys.path.insert(0, sys.argv[2])
s = importlib.util.spec_from_file_location("ic", sys.argv[1])
m = importlib.util.module_from_spec(s)
s.loader.exec_module(m)
print(m.missing_package("tgnsonly")); print(m.missing_package("tgnothere")); print(repr(m.missing_package("tgreal")))' "$IC" "$tmp/ns")
check_has "a namespace directory only" "$ns" "(tgnsonly is a namespace directory only, $tmp/ns/tgnsonly; no tgnsonly distribution installed)"
check_has "no such package" "$ns" "(tgnothere not installed)"
check_has "a regular package is installed" "$ns" "''"
# the five onnx entries 1.13 defines (issue 30): found, and the table agrees
n=$("$PY" -c 'import json, sys
rows = json.load(open(sys.argv[1]))["entries"]
ids = ["torch.onnx.select_model_mode_for_export"] + ["torch.onnx.utils." + x for x in
       ("disable_apex_o2_state_dict_hook", "exporter_context", "setup_onnx_logging", "unconvertible_ops")]
print(sum(rows[i]["present"] and rows[i]["verdict"] == "agree" for i in ids))' "$tmp/rows.json")
check "onnx entries defined in 1.13's torch/onnx/utils.py, found and agreed" "$n" 5
# every entry resolved is counted once
total=$(sed -n 's/.*: \([0-9]*\) entries resolved$/\1/p' "$tmp/out")
sum=$(sed -n 's/^agree \([0-9]*\), removal-stub \([0-9]*\), build-omits \([0-9]*\), optional-dep \([0-9]*\), python-too-new \([0-9]*\), instance-attribute \([0-9]*\), unexplained \([0-9]*\)$/\1+\2+\3+\4+\5+\6+\7/p' "$tmp/out")
check "counts add up to the entries resolved" "$((sum))" "$total"

# the check can fail: one fact made wrong, compared with saved findings
"$PY" "$IC" --table "$SRCDIR/data/apis.json" --probe "$tmp/probe.json" >/dev/null 2>&1
check "--probe exit status" "$?" 0
"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in d["entries"]:
    if e["id"] == "torch.onnx.utils.unconvertible_ops":
        e["introduced"] = {"version": "2.11", "bound": "exact", "status": "unverified", "note": "wrong on purpose"}
json.dump(d, open(sys.argv[2], "w"))' "$SRCDIR/data/apis.json" "$tmp/bad.json"
"$PY" "$IC" --table "$tmp/bad.json" --results "$tmp/probe.json" --torchgate "$TG" >"$tmp/bad.out" 2>&1
check "a wrong fact: exit status" "$?" 1
check_has "a wrong fact" "$(cat "$tmp/bad.out")" "UNEXPLAINED   torch.onnx.utils.unconvertible_ops (table: not-yet; found): found in torch.onnx.utils, but the table says it is not there"
check_has "a wrong fact" "$(cat "$tmp/bad.out")" "unexplained 1"
# and without torchgate, from the table's own versions: the same verdicts
"$PY" "$IC" --table "$tmp/bad.json" --results "$tmp/probe.json" >"$tmp/bad2.out" 2>&1
check "a wrong fact, statuses from the table: exit status" "$?" 1
check "a wrong fact, statuses from the table: same report" "$(cat "$tmp/bad2.out")" "$(cat "$tmp/bad.out")"

# unreadable findings: exit 2, the file named
"$PY" "$IC" --results "$tmp/nowhere.json" >/dev/null 2>"$tmp/e1"
check "missing --results file: exit status" "$?" 2
check_has "missing --results file" "$(cat "$tmp/e1")" "import-check.py: cannot read '$tmp/nowhere.json'"
# instance-attribute: an attribute a class's method sets on self (2.11's
# FunctionEvent.metadata_json) is told from one nothing sets
mkdir -p "$tmp/ia"
printf 'class E:\n    def __init__(self, m=None):\n        self.metadata_json = m\n        self.n: int = 1\n        x = self.other == 2\n' >"$tmp/ia/iamod.py"
got=$(cd "$tmp/ia" && "$PY" -c 'import importlib.util, sys
s = importlib.util.spec_from_file_location("ic", sys.argv[1]); m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
import iamod
print([m.sets_on_self(iamod.E, n) for n in ("metadata_json", "n", "other", "missing")])' "$IC" 2>&1)
check "instance-attribute: set on self, annotated, compared, absent" "$got" "[True, True, False, False]"
# the legacy reduction arguments: every function of torch.nn.functional
# and every class of torch.nn that this torch's signatures show taking
# size_average= and reduce= (the classes must be the ones the table's
# pattern names), called with each =False: all found by audit; called
# with both =None, which does not warn (seen for the classes): none
mkdir -p "$tmp/loss"
"$PY" -c 'import inspect, json, re, sys
import torch.nn as nn, torch.nn.functional as F
def takes(o):
    try:
        return {"size_average", "reduce"} <= set(inspect.signature(o).parameters)
    except (TypeError, ValueError):
        return False
fs = sorted(n for n in dir(F) if not n.startswith("_") and not isinstance(getattr(F, n), type) and callable(getattr(F, n)) and takes(getattr(F, n)))
cs = sorted(n for n in dir(nn) if isinstance(getattr(nn, n), type) and takes(getattr(nn, n).__init__))
e = [e for e in json.load(open(sys.argv[1]))["entries"] if e["id"] == "torch.nn.functional.size_average"][0]
named = sorted(re.match(r"\\b\(\?:([\w|]+)\)", e["usage"][2]).group(1).split("|"))
with open(sys.argv[2], "w") as f:
    f.write("import torch.nn as nn\nimport torch.nn.functional as F\n")
    for kw in ("size_average", "reduce"):
        f.writelines("F.%s(x, y, %s=False)\n" % (n, kw) for n in fs)
        f.writelines("nn.%s(%s=False)\n" % (n, kw) for n in cs)
    f.writelines("F.%s(x, y, size_average=None, reduce=None)\n" % n for n in fs)
    f.writelines("nn.%s(size_average=None, reduce=None)\n" % n for n in cs)
import warnings
def warns(c, v):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        c(size_average=v, reduce=v)
    return any("size_average and reduce" in str(m.message) for m in w)
# NLLLoss2d warns of itself
ok = all(warns(getattr(nn, n), False) and (n == "NLLLoss2d" or not warns(getattr(nn, n), None)) for n in cs)
print(len(fs), len(cs), named == cs, ok)' "$SRCDIR/data/apis.json" "$tmp/loss/a.py" >"$tmp/loss.out" 2>&1
read -r nf nc same warned <"$tmp/loss.out"
check "loss functions and classes found by signature" "$(( ${nf:-0} > 0 && ${nc:-0} > 0 ))" 1
check "the table's class pattern names this torch's loss classes" "${same:-?}" True
check "each class warns of False, none of None" "${warned:-?}" True
"$TG" audit -q --format=json --torch-version 1.13 "$tmp/loss" >"$tmp/loss.json"
n=$("$PY" -c 'import json, sys
print(sum(f["api"] == "torch.nn.functional.size_average" for f in json.load(open(sys.argv[1]))["findings"]))' "$tmp/loss.json")
check "every legacy reduction argument found" "$n" "$(( 2 * (${nf:-0} + ${nc:-0}) ))"
finish
