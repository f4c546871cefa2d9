#!/bin/bash
# debian-discover.sh - discover on Debian's real torch 1.13
# SPDX-License-Identifier: MIT
#
# usage: debian-discover.sh TORCHGATE SRCDIR
# Every harvested declaration must be at the file and line it names, the
# known C++ deprecations of 1.13's headers must be found, and the count of
# qualifying warnings.warn calls must not fall below what Python's own ast
# module finds in the same files (computed here, not hard-coded).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
T=/usr/lib/python3/dist-packages/torch
need "$T/version.py" "Debian's python3-torch is not installed"

"$TG" discover --python "$PY" --format=json >"$tmp/d.json" 2>"$tmp/err"
rc=$?
if [ "$rc" -le 1 ]; then ok "discover exit status $rc (0 or 1)"; else fail "discover exit $rc: $(cat "$tmp/err")"; fi
expect "every declaration where it says; not fewer warnings.warn than ast; the C++ deprecations" "$PY" - "$tmp/d.json" "$T" <<'PY'
import ast, collections, json, os, sys
doc = json.load(open(sys.argv[1]))
root = os.path.dirname(sys.argv[2])
decls = doc["declarations"]
kinds = collections.Counter(d["kind"] for d in decls)
print("declarations:", len(decls), dict(kinds))
bad = 0
# every declaration is where it says: the line holds the construct
for d in decls:
    path = os.path.join(root, d["file"])
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    window = "\n".join(lines[d["line"] - 1:d["line"] + 2])
    token = {"@deprecated": "deprecated", "warnings.warn": "warn",
             "C10_DEPRECATED_MESSAGE": "C10_DEPRECATED_MESSAGE",
             "TORCH_WARN_DEPRECATION": "TORCH_WARN_DEPRECATION",
             "[[deprecated]]": "[[deprecated"}[d["kind"]]
    if token not in window:
        print("FAIL: %s:%d does not hold %s" % (d["file"], d["line"], d["kind"]))
        bad += 1
# Python's ast: warnings.warn(...) with a Future/DeprecationWarning category
want = 0
for dirpath, dirs, files in os.walk(sys.argv[2]):
    dirs[:] = [x for x in dirs if x != "__pycache__"]
    for f in files:
        if not f.endswith(".py"):
            continue
        try:
            tree = ast.parse(open(os.path.join(dirpath, f), "rb").read())
        except SyntaxError:
            continue
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr == "warn" and isinstance(n.func.value, ast.Name)
                    and n.func.value.id == "warnings"):
                continue
            cats = [a for a in n.args[1:]] + [k.value for k in n.keywords if k.arg == "category"]
            if any(isinstance(c, (ast.Name, ast.Attribute)) and
                   (getattr(c, "id", None) or getattr(c, "attr", "")) in ("FutureWarning", "DeprecationWarning")
                   for c in cats):
                want += 1
got = kinds.get("warnings.warn", 0)
print("warnings.warn with a deprecation category (ast): %d, harvested warnings.warn: %d" % (want, got))
if got < want:
    print("FAIL: fewer warnings.warn than ast finds"); bad += 1
syms = {d["symbol"] for d in decls}
for s in ("at::Tensor::type",):
    if s not in syms:
        print("FAIL: %s not harvested" % s); bad += 1
if kinds.get("C10_DEPRECATED_MESSAGE", 0) < 1:
    print("FAIL: no C10_DEPRECATED_MESSAGE"); bad += 1
for k in ("not_in_table", "excluded", "unaccounted", "not_declared"):
    if not isinstance(doc.get(k), list):
        print("FAIL: no list %s" % k); bad += 1
# every declaration without an entry is excluded or unaccounted, once
if not bad:
    split = [(d["symbol"], d["line"], d["file"]) for d in doc["excluded"] + doc["unaccounted"]]
    if sorted(split) != sorted((d["symbol"], d["line"], d["file"]) for d in doc["not_in_table"]):
        print("FAIL: excluded + unaccounted is not not_in_table"); bad += 1
    print("not in the table: %d, excluded %d, unaccounted %d" % (len(doc["not_in_table"]), len(doc["excluded"]), len(doc["unaccounted"])))
sys.exit(1 if bad else 0)
PY
finish
