#!/usr/bin/env python3
"""diff-packaging.py - differential check of `torchgate version` against
pypa/packaging (a developer tool, not part of `make check`: CI has no
packaging 26.x).

usage: PYTHONPATH=/path/to/packaging/src tests/tools/diff-packaging.py \
           TORCHGATE [N] [SEED]

Generates N random versions, specifier/version pairs and markers from
fragments of the PEP 440 / PEP 508 grammars (and near misses), runs them
through `torchgate version ... --batch`, and prints every disagreement.
"""
import json
import random
import subprocess
import sys

import packaging
from packaging.markers import Marker
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
    print(bad, "disagreements", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
