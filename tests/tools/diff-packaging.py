#!/usr/bin/env python3
"""diff-packaging.py - differential check of `torchgate version` against
pypa/packaging (a developer tool, not part of `make check`: CI has no
packaging 26.x).

usage: PYTHONPATH=/path/to/packaging/src tests/tools/diff-packaging.py \
           TORCHGATE [N] [SEED]

Generates N random versions and specifier/version pairs, N/4 markers and
N/20 requirements from
fragments of the PEP 440 / PEP 508 grammars (and near misses), runs them
through `torchgate version ... --batch`, and prints every disagreement.
"""
import json
import random
import subprocess
import sys

import packaging
from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

SEPS = ["", ".", "-", "_"]
PRE = ["a", "b", "c", "rc", "alpha", "beta", "pre", "preview", "A", "RC", "Alpha"]
POST = ["post", "rev", "r", "POST"]
NUMS = ["0", "1", "2", "00", "01", "10", "9", "99", "2026", "20260101",
        "18446744073709551616", "000"]
LOCAL = ["cu130", "cpu", "git1234567", "ubuntu", "01", "1", "abc", "ROCm6", "x"]
WS = ["", " ", "\t", "\n", "\u00a0", "\u2003", "\x1c", "\u3000"]


def rnum(r):
    return r.choice(NUMS)


def rversion(r):
    s = r.choice(["", "", "", "v", "V"])
    if r.random() < 0.15:
        s += rnum(r) + "!"
    s += ".".join(rnum(r) for _ in range(r.randint(1, 4)))
    if r.random() < 0.35:
        s += r.choice(SEPS) + r.choice(PRE) + r.choice(SEPS + [""]) + r.choice(["", rnum(r)])
    if r.random() < 0.25:
        if r.random() < 0.3:
            s += "-" + rnum(r)
        else:
            s += r.choice(SEPS) + r.choice(POST) + r.choice(SEPS) + r.choice(["", rnum(r)])
    if r.random() < 0.3:
        s += r.choice(SEPS) + r.choice(["dev", "DEV"]) + r.choice(SEPS) + r.choice(["", rnum(r)])
    if r.random() < 0.25:
        s += "+" + r.choice(["", "."]).join(
            r.choice(LOCAL) for _ in range(r.randint(1, 3))) if r.random() < 0.5 else \
            "+" + r.choice(SEPS[1:]).join(r.choice(LOCAL) for _ in range(r.randint(1, 3)))
    if r.random() < 0.1:
        s = r.choice(WS) + s + r.choice(WS)
    if r.random() < 0.08:  # near misses
        i = r.randint(0, len(s))
        s = s[:i] + r.choice([".", "-", "+", "*", "!", "x", "..", " "]) + s[i:]
    return s


OPS = ["==", "!=", "<=", ">=", "<", ">", "~=", "==="]


def rspec(r):
    parts = []
    for _ in range(r.randint(0, 3)):
        op = r.choice(OPS)
        v = rversion(r).strip()
        if op in ("==", "!=") and r.random() < 0.3:
            v = ".".join(rnum(r) for _ in range(r.randint(1, 3))) + ".*"
        parts.append(op + r.choice(["", " "]) + v)
    return r.choice([",", ", ", " ,"]).join(parts)


MVARS = ["python_version", "python_full_version", "os_name", "sys_platform",
         "platform_release", "platform_machine", "implementation_name", "extra",
         "os.name", "python_implementation"]
MVALS = ["3.12", "3.8", "3.12.3", "posix", "nt", "linux", "x86_64", "6.1.0-18-amd64",
         "cpython", "Dev_X", "dev-x", "3.12.*", "lin", "", "3.13.0rc1"]
MOPS = ["==", "!=", "<", "<=", ">", ">=", "~=", "===", "in", "not in"]
ENV = {"python_version": "3.12", "python_full_version": "3.12.3", "os_name": "posix",
       "sys_platform": "linux", "platform_release": "6.1.0-18-amd64",
       "platform_machine": "x86_64", "implementation_name": "cpython",
       "platform_python_implementation": "CPython", "extra": "dev_x"}


def rmarker(r, depth=0):
    parts = []
    for i in range(r.randint(1, 3)):
        if i:
            parts.append(r.choice(["and", "or"]))
        if depth < 2 and r.random() < 0.2:
            parts.append("(" + rmarker(r, depth + 1) + ")")
            continue
        var, val = r.choice(MVARS), repr(r.choice(MVALS))
        op = r.choice(MOPS)
        parts.append(f"{val} {op} {var}" if r.random() < 0.2 else f"{var} {op} {val}")
    s = " ".join(parts)
    if r.random() < 0.05:
        i = r.randint(0, len(s))
        s = s[:i] + r.choice(["(", ")", "'", "==", " and"]) + s[i:]
    return s


def pk_marker(m):
    try:
        return "true" if Marker(m).evaluate(dict(ENV)) else "false"
    except Exception:
        return "error"


def rreq(r):
    s = r.choice(["torch", "Torch_Vision", "a.b-c", "x"])
    if r.random() < 0.3:
        s += "[" + ",".join(r.choice(["cuda", "Dev", "a_b"]) for _ in range(r.randint(0, 2))) + "]"
    if r.random() < 0.15:
        s += " @ https://example.org/p-1.0.whl"
    elif r.random() < 0.7:
        sp = rspec(r)
        s += ("(" + sp + ")") if r.random() < 0.2 else (r.choice(["", " "]) + sp)
    if r.random() < 0.4:
        s += r.choice([";", " ; "]) + rmarker(r)
    return s


def pk_req(s):
    try:
        q = Requirement(s)
    except InvalidRequirement:
        return "invalid"
    return json.dumps({"name": q.name, "extras": sorted(q.extras), "specifier": str(q.specifier),
                       "marker": str(q.marker) if q.marker else None, "url": q.url})


def pk_norm(s):
    try:
        return str(Version(s))
    except InvalidVersion:
        return "invalid"


def pk_match(spec, v, pre):
    try:
        ss = SpecifierSet(spec)
    except InvalidSpecifier:
        return "error"
    return "true" if ss.contains(v, prereleases=pre) else "false"


def run(tg, args, lines):
    p = subprocess.run([tg, "version"] + args + ["--batch"], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True, errors="surrogateescape")
    out = p.stdout.split("\n")[:-1]
    assert len(out) == len(lines), (args, p.stderr, len(out), len(lines))
    return out


def main():
    tg = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    r = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    print("packaging", packaging.__version__, file=sys.stderr)
    bad = 0
    vs = [rversion(r) for _ in range(n)]
    vs = [v for v in vs if "\n" not in v]
    got = run(tg, ["normalize"], vs)
    for v, g in zip(vs, got):
        want = pk_norm(v)
        if g != want:
            bad += 1
            print("normalize", repr(v), "torchgate", g, "packaging", want)
    lines, wants = [], []
    for _ in range(n):
        spec, v = rspec(r), rversion(r).strip()
        if "\t" in spec + v or "\n" in spec + v:
            continue
        pre = r.choice([None, True, False])
        lines.append(spec + "\t" + v + ("" if pre is None else "\t" + str(pre).lower()))
        wants.append(pk_match(spec, v, pre))
    got = run(tg, ["match"], lines)
    for l, g, w in zip(lines, got, wants):
        if g != w:
            bad += 1
            print("match", repr(l), "torchgate", g, "packaging", w)
    lines = [m for m in (rmarker(r) for _ in range(n // 4)) if "\t" not in m]
    got = run(tg, ["marker"], [m + "\t" + json.dumps(ENV) for m in lines])
    for m, g in zip(lines, got):
        want = pk_marker(m)
        if g != want:
            bad += 1
            print("marker", repr(m), "torchgate", g, "packaging", want)
    for q in (rreq(r) for _ in range(n // 20)):
        p = subprocess.run([tg, "version", "req", q], capture_output=True, text=True)
        g = p.stdout.strip() if p.returncode == 0 else "invalid"
        want = pk_req(q)
        if g != want:
            bad += 1
            print("req", repr(q), "torchgate", g, "packaging", want)
    print(bad, "disagreements", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
