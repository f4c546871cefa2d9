#!/usr/bin/env python3
# fix-proof.py - audit --fix's corpus run on the torch of this interpreter,
# before and after, with warnings recorded
# SPDX-License-Identifier: MIT
#
# usage: python3 tests/tools/fix-proof.py [--json] CORPUS
#
# CORPUS is tests/integration/fix-corpus: each case directory holds
# before.py and after.py (what `torchgate audit --fix` writes, checked
# byte for byte by tests/integration/audit-fix.sh). For each case whose
# before.py defines run(), this imports before.py and after.py as two
# modules and calls run() from each, every warning recorded
# (warnings.simplefilter("always")), and compares:
#   - the results: repr(before.run()) == repr(after.run());
#   - the warnings: after must raise no deprecation warning
#     (DeprecationWarning, FutureWarning, or a warning whose message
#     says "deprecated"), unless the case's file warns-after lists the
#     start of its message (a use the fix leaves on purpose), backquotes
#     ignored on both sides: torch 2.11 quotes the API in the message
#     (`nn.functional.upsample_nearest` is deprecated), 1.13 does not.
# It prints one line per case (ok, or what differs) and the count of
# deprecation warnings before and after; --json prints the same as one
# JSON document. Exit 0 when every case run passes, 1 when one fails, 2
# on usage. A case whose run() raises on both sides the same way counts
# as the same result (a CUDA-only case on a machine without a GPU). A
# case whose file removed holds a version (2.0: torch._six) fixes an API
# that torch removed there: on that torch or a newer one, before.py must
# raise (the removal is real) and after.py must run; the two results are
# compared where both run (Debian's 1.13, in make check).
#
# It imports torch: a research and test tool, like import-check.py; the
# product never does. Run it with Debian's /usr/bin/python3 (torch 1.13:
# cases marked norun need a newer torch and are skipped there) and with
# the GPU machine's python3 (pip's torch 2.11, CUDA), where every case
# runs; doc/audit-real-code.md keeps the figures.
import importlib.util
import json
import os
import sys
import warnings

DEPRECATION_WORDS = ("deprecated", "deprecation")


def is_deprecation(w):
    if issubclass(w.category, (DeprecationWarning, FutureWarning)):
        return True
    msg = str(w.message).lower()
    return any(word in msg for word in DEPRECATION_WORDS)


def run_file(path, name):
    """repr of run()'s result (or of what it raised) and the deprecation
    warnings seen while importing and running, as (category, first 80
    characters of the message)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            if not hasattr(mod, "run"):
                return None, []
            result = "ok " + repr(mod.run())
        except Exception as e:  # the same failure on both sides is the same
            result = "raised %s: %s" % (type(e).__name__, str(e)[:200])
    deps = sorted({(w.category.__name__, str(w.message)[:80])
                   for w in seen if is_deprecation(w)})
    return result, deps


def removed_here(d, version):
    """The version in the case's file removed when this torch is that
    one or newer, else None."""
    path = os.path.join(d, "removed")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        gone = f.read().strip()
    def key(v):
        return tuple(int(x) for x in v.split("+")[0].split(".")[:2])
    return gone if key(version) >= key(gone) else None


def main(argv):
    as_json = False
    args = argv[1:]
    if args and args[0] == "--json":
        as_json, args = True, args[1:]
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: fix-proof.py [--json] CORPUS", file=sys.stderr)
        return 2
    import torch  # the torch judged, named in the report

    corpus = args[0]
    report = {"torch": torch.__version__, "cuda": torch.cuda.is_available(),
              "python": sys.version.split()[0], "cases": []}
    failed = 0
    for case in sorted(os.listdir(corpus)):
        d = os.path.join(corpus, case)
        before, after = os.path.join(d, "before.py"), os.path.join(d, "after.py")
        if not (os.path.isfile(before) and os.path.isfile(after)):
            continue
        r = {"case": case}
        if os.path.exists(os.path.join(d, "norun")) and \
                torch.__version__.startswith("1."):
            r["status"] = "skipped: needs a newer torch (norun)"
            report["cases"].append(r)
            continue
        rb, wb = run_file(before, "fixproof_before_" + case.replace("-", "_"))
        if rb is None:
            r["status"] = "skipped: no run()"
            report["cases"].append(r)
            continue
        ra, wa = run_file(after, "fixproof_after_" + case.replace("-", "_"))
        allowed = []
        if os.path.exists(os.path.join(d, "warns-after")):
            with open(os.path.join(d, "warns-after")) as f:
                allowed = [ln.strip().replace("`", "") for ln in f
                           if ln.strip()]
        left = [w for w in wa
                if not any(w[1].replace("`", "").startswith(a)
                           for a in allowed)]
        r.update(before=rb, after=ra, deprecations_before=len(wb),
                 deprecations_after=len(wa), deprecations_left=left)
        why = []
        gone = removed_here(d, torch.__version__)
        if gone and not rb.startswith("raised "):
            why.append("before runs on a torch that removed its API")
        elif gone and not ra.startswith("ok "):
            why.append("after fails")
        elif not gone and rb != ra:
            why.append("results differ")
        if gone and not why:
            r["removed"] = gone
        if left:
            why.append("deprecation warnings after")
        r["status"] = "ok" if not why else "FAIL: " + ", ".join(why)
        failed += bool(why)
        report["cases"].append(r)
    if as_json:
        json.dump(report, sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        print("torch %s (CUDA %s), Python %s" % (report["torch"],
              "available" if report["cuda"] else "not available",
              report["python"]))
        for r in report["cases"]:
            extra = ""
            if "deprecations_before" in r:
                extra = " (deprecation warnings: %d before, %d after)" % (
                    r["deprecations_before"], r["deprecations_after"])
            if "removed" in r:
                extra += " (removed in %s: before raised, after ran)" % (
                    r["removed"])
            print("%s: %s%s" % (r["case"], r["status"], extra))
            if r["status"].startswith("FAIL"):
                print("  before: %s\n  after:  %s" % (r["before"], r["after"]))
                for w in r["deprecations_left"]:
                    print("  warns: %s: %s" % w)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
