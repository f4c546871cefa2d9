#!/usr/bin/env python3
# import-check.py - the table's presence facts against an imported torch
# SPDX-License-Identifier: MIT
#
# usage: import-check.py [--table FILE] [--torchgate BIN] [--json FILE]
#                        [--files FILE] [--probe FILE | --results FILE]
#
# Imports the torch of the interpreter that runs it (a research and test
# tool: torchgate itself never imports torch) and resolves every Python
# entry of the table whose id names something (kinds module, class,
# function, method, attribute, decorator, context-manager, constant,
# type, enum; not parameter, behavior, build): it imports the longest
# importable module prefix of the id, then getattr()s along the rest.
# It compares what it finds with what the table says of torch.__version__
# (present when the status is available or deprecated, absent when
# not-yet or removed): from `BIN check --torch-version V --format=json`
# with --torchgate, else from the table's introduced and removed
# versions (release numbers only, as torchgate compares them).
#
# Each disagreement gets a reason this script verifies, or none:
#   removal-stub  the table says removed and the object found is a stub:
#                 the first raise of its source has a message that says
#                 removed (or no longer, or deprecated), or, without
#                 source, calling it with no argument raises so
#   build-omits   an import of the id's module fails inside torch
#                 itself: the build leaves a compiled part out (the
#                 error names a torch._C module, or torch.distributed
#                 says it is not available)
#   optional-dep  an import of the id's module fails naming a module
#                 outside torch whose top package this interpreter
#                 cannot find, or finds only as a namespace directory
#                 that no installed distribution provides (trixie's
#                 setuptools/_vendor/ of python3-pkg-resources), or
#                 says it depends on a package X>=V that is not
#                 installed or older (torch.utils._cxx_pytree and optree)
#   python-too-new
#                 an import of the id's module fails because this Python
#                 is newer than the torch: on Python 3.11 or later, the
#                 ValueError of dataclasses for a mutable default (torch
#                 1.13's torch.distributed._shard under Debian's 3.11)
#   instance-attribute
#                 the table says present, the id's last name is not an
#                 attribute of its class, and the class's source sets it
#                 on the instance (`self.NAME =` or `self.NAME: T =` in
#                 a method): FunctionEvent.metadata_json in 2.11
# Unexplained disagreements fail (exit 1). The report lists each
# disagreement and counts per reason; --json FILE also writes, per id,
# what was found and the table's status. --files FILE reads `torchgate
# check --format=json` run on the same install and counts the facts
# proved by import (agree), by files (evidence confirmed), by both.
#
# --probe FILE only resolves (no table status, no comparison) and writes
# the findings as JSON: for an install where torchgate and this tree
# are not (the GPU machine); --results FILE compares such findings
# instead of importing. Exit 0 no unexplained disagreement, 1 some, 2
# usage or an unreadable file.
import argparse
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import warnings

KINDS = {"module", "class", "function", "method", "attribute", "decorator",
         "context-manager", "constant", "type", "enum"}
STUB_WORDS = re.compile(r"removed|no longer|deprecated", re.I)


def missing_package(top):
    """Why package top counts as not installed ("" if it is installed):
    no module top at all, or only a namespace directory that no
    installed distribution provides (Debian's python3-pkg-resources
    leaves setuptools/_vendor/ without python3-setuptools)."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return " (%s not installed)" % top
    if spec.origin not in (None, "namespace"):
        return ""
    try:
        importlib.metadata.version(top)
        return ""
    except importlib.metadata.PackageNotFoundError:
        return " (%s is a namespace directory only, %s; no %s distribution installed)" % (
            top, ", ".join(spec.submodule_search_locations or []), top)


def import_error(mod, e):
    """What an import of mod failing with e says: (class, message)."""
    name = getattr(e, "name", None)
    msg = "%s: %s" % (type(e).__name__, e)
    if isinstance(e, ModuleNotFoundError) and name:
        top = name.split(".")[0]
        if top != "torch":
            why = missing_package(top)
            if why:
                return "optional-dep", msg + why
    m = re.search(r"depends on `([A-Za-z0-9_.-]+)>=([0-9.]+)`, which is an optional "
                  r"dependency", str(e))
    if isinstance(e, ImportError) and m:
        try:
            have = importlib.metadata.version(m.group(1))
        except importlib.metadata.PackageNotFoundError:
            have = None
        if have is None or release(have) < release(m.group(2)):
            return "optional-dep", msg + " (%s installed: %s)" % (m.group(1), have or "none")
    if isinstance(e, ValueError) and sys.version_info >= (3, 11) and \
            re.search(r"mutable default .* is not allowed: use default_factory", str(e)):
        return "python-too-new", msg + " (dataclasses reject it since Python 3.11)"
    if re.search(r"torch\._C\b|_C\.[A-Za-z_]", msg):
        return "build-omits", msg
    if mod.startswith("torch.distributed"):
        try:
            import torch.distributed as d

            if not d.is_available():
                return "build-omits", msg + " (torch.distributed.is_available() is False)"
        except Exception:
            pass
    return "import-error", msg


def is_stub(obj):
    """Whether obj is a removal stub, and why (verified here)."""
    try:
        src = inspect.getsource(obj)
    except (TypeError, OSError):
        src = None
    if src is not None:
        m = re.search(r"\braise\s+(\w+)\(\s*f?(\"\"\"|'''|\"|')(.*?)\2", src, re.S)
        if m and STUB_WORDS.search(m.group(3)):
            return True, "its source raises %s: %s" % (m.group(1), " ".join(m.group(3).split())[:120])
        return False, None
    if callable(obj) and not inspect.isclass(obj):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obj()
        except Exception as e:
            if STUB_WORDS.search(str(e)):
                return True, "calling it raises %s: %s" % (type(e).__name__, str(e)[:120])
    return False, None


def resolve(ident, stub=False):
    """Resolve ident in this interpreter: a dict of what was found; stub:
    look whether what is found is a removal stub (for an entry that the
    table says removed: the look may call it)."""
    parts = ident.split(".")
    errors = []
    for i in range(len(parts), 0, -1):
        mod = ".".join(parts[:i])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obj = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name is not None and e.name.startswith("torch") and \
                    (e.name == mod or mod.startswith(e.name + ".")):
                continue  # no such module: a shorter prefix
            errors.append((mod,) + import_error(mod, e))
            continue
        except Exception as e:  # ImportError, RuntimeError, OSError...
            errors.append((mod,) + import_error(mod, e))
            continue
        path = mod
        for p in parts[i:]:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obj = getattr(obj, p)
            except Exception as e:  # AttributeError, or a raising __getattr__
                r = {"present": False, "module": mod, "missing": p, "after": path,
                     "error": "%s: %s" % (type(e).__name__, str(e)[:200])}
                if p == parts[-1] and inspect.isclass(obj) and sets_on_self(obj, p):
                    r["instance"] = "%s.__init__ or another method sets self.%s" % (path, p)
                if errors:
                    r["import"] = errors[0]
                return r
            path += "." + p
        r = {"present": True, "module": mod}
        if stub:
            yes, why = is_stub(obj)
            if yes:
                r["stub"] = why
        return r
    return {"present": False, "module": None, "import": errors[0] if errors else None}


def sets_on_self(cls, name):
    """Whether cls's source assigns self.name in a method."""
    try:
        src = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return re.search(r"^\s+self\.%s\s*(?::[^=\n]+)?=(?!=)" % re.escape(name), src, re.M) is not None


def probe(entries):
    warnings.simplefilter("ignore")
    import torch

    out = {"torch": torch.__version__, "python": sys.version.split()[0],
           "file": os.path.dirname(torch.__file__), "found": {}}
    for e in entries:
        out["found"][e["id"]] = resolve(e["id"], e["removed"]["version"] is not None)
    return out


def release(v):
    m = re.match(r"\d+(?:\.\d+)*", v or "")
    t = [int(x) for x in m.group(0).split(".")] if m else []
    while len(t) < 3:
        t.append(0)
    return tuple(t)


def status_from_table(e, v):
    tv = release(v)
    if e["introduced"]["version"] and tv < release(e["introduced"]["version"]):
        return "not-yet"
    if e["removed"]["version"] and tv >= release(e["removed"]["version"]):
        return "removed"
    d = e["deprecated"]
    if d["version"] and tv >= release(d["version"]) and \
            not (d.get("withdrawn") and tv >= release(d["withdrawn"])):
        return "deprecated"
    return "available"


def statuses_from_torchgate(bin_, table, v, ids):
    cmd = [bin_, "check", "--quiet", "--table", table, "--torch-version", v, "--format=json"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        sys.exit("import-check.py: %s: exit status %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    st = {a["id"]: a["status"] for a in json.loads(p.stdout)["apis"]}
    return {i: st[i] for i in ids}


def classify(e, want, f):
    """None when found agrees with want, else (reason or None, detail)."""
    if f["present"] == want:
        return None
    imp = f.get("import")
    if want and imp:
        mod, cls, msg = imp
        if cls in ("build-omits", "optional-dep", "python-too-new"):
            return cls, "import %s: %s" % (mod, msg)
        return None, "import %s: %s" % (mod, msg)
    if want and f.get("instance"):
        return "instance-attribute", f["instance"]
    if want:
        return None, "not found: %s has no %s (%s)" % (f.get("after"), f.get("missing"), f.get("error"))
    if f.get("stub") and e["removed"]["version"]:
        return "removal-stub", f["stub"]
    return None, "found in %s, but the table says it is not there" % f["module"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(prog="import-check.py")
    ap.add_argument("--table", default=os.path.join(here, "..", "..", "data", "apis.json"))
    ap.add_argument("--torchgate")
    ap.add_argument("--json")
    ap.add_argument("--files")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--probe")
    g.add_argument("--results")
    a = ap.parse_args()
    try:
        table = json.load(open(a.table))
    except (OSError, ValueError) as e:
        sys.exit("import-check.py: cannot read '%s': %s" % (a.table, e))
    entries = [e for e in table["entries"] if e["language"] == "python" and e["kind"] in KINDS]
    if a.probe:
        json.dump(probe(entries), open(a.probe, "w"), indent=1, sort_keys=True)
        return 0
    if a.results:
        try:
            res = json.load(open(a.results))
        except (OSError, ValueError) as e:
            print("import-check.py: cannot read '%s': %s" % (a.results, e), file=sys.stderr)
            return 2
        entries = [e for e in entries if e["id"] in res["found"]]
    else:
        res = probe(entries)
    v = res["torch"]
    if a.torchgate:
        st = statuses_from_torchgate(a.torchgate, a.table, v, [e["id"] for e in entries])
    else:
        st = {e["id"]: status_from_table(e, v) for e in entries}
    counts = {"agree": 0, "removal-stub": 0, "build-omits": 0, "optional-dep": 0,
              "python-too-new": 0, "instance-attribute": 0, None: 0}
    rows = {}
    print("torch %s (%s), python %s: %d entries resolved" % (v, res["file"], res["python"], len(entries)))
    for e in entries:
        i = e["id"]
        f = res["found"][i]
        want = st[i] in ("available", "deprecated")
        c = classify(e, want, f)
        rows[i] = dict(f, status=st[i], expected_present=want)
        if c is None:
            counts["agree"] += 1
            rows[i]["verdict"] = "agree"
            continue
        reason, detail = c
        counts[reason] += 1
        rows[i]["verdict"] = reason or "UNEXPLAINED"
        print("%-13s %s (table: %s; %s): %s" % (reason or "UNEXPLAINED", i, st[i],
                                                "found" if f["present"] else "not found", detail))
    print("agree %d, removal-stub %d, build-omits %d, optional-dep %d, python-too-new %d, "
          "instance-attribute %d, unexplained %d"
          % (counts["agree"], counts["removal-stub"], counts["build-omits"],
             counts["optional-dep"], counts["python-too-new"], counts["instance-attribute"],
             counts[None]))
    if a.files:
        try:
            ev = {x["id"]: x["evidence"]["verdict"] for x in json.load(open(a.files))["apis"]}
        except (OSError, ValueError, KeyError) as e:
            print("import-check.py: cannot read '%s': %s" % (a.files, e), file=sys.stderr)
            return 2
        byimp = {i for i, r in rows.items() if r["verdict"] == "agree"}
        byfiles = {i for i in rows if ev.get(i) == "confirmed"}
        print("proved by import %d, by files %d, by both %d, by neither %d (of %d)" % (
            len(byimp), len(byfiles), len(byimp & byfiles), len(set(rows) - byimp - byfiles), len(rows)))
    if a.json:
        json.dump({"torch": v, "python": res["python"], "file": res["file"], "entries": rows},
                  open(a.json, "w"), indent=1, sort_keys=True)
    return 1 if counts[None] else 0


if __name__ == "__main__":
    sys.exit(main())
