#!/usr/bin/env python3
# apply-fixes.py - the fixes of an audit report applied to a source file
# SPDX-License-Identifier: MIT
#
# usage: apply-fixes.py json|sarif REPORT SOURCE [safe|all]
#
# Reads torchgate audit's JSON ("fix": {"applicability", "edits":
# [{"start", "end", "content"}]}) or SARIF (results' "fixes":
# [{"artifactChanges": [{"replacements": [{"deletedRegion",
# "insertedContent"}]}]}]) and writes SOURCE with the edits of every fix
# (safe only, unless "all") applied to standard output, as bytes. Lines
# and columns are 1-based and count bytes, lines ending at "\n"; an edit
# repeated by two fixes (the same range and text) is applied once, as
# audit --fix applies it. Exit 1 when two edits overlap.
import json
import sys


def offset(starts, line, col):
    return starts[line - 1] + col - 1


def main():
    fmt, report, source = sys.argv[1:4]
    which = sys.argv[4] if len(sys.argv) > 4 else "safe"
    src = open(source, "rb").read()
    starts = [0] + [i + 1 for i, b in enumerate(src) if b == 0x0A]
    doc = json.load(open(report))
    edits = []
    if fmt == "json":
        for f in doc["findings"]:
            x = f["fix"]
            if x is None:
                continue
            assert x["applicability"] in ("safe", "unsafe"), x
            if x["applicability"] == "unsafe" and which != "all":
                continue
            for e in x["edits"]:
                edits.append((offset(starts, e["start"]["line"], e["start"]["column"]),
                              offset(starts, e["end"]["line"], e["end"]["column"]),
                              e["content"]))
    else:
        for res in doc["runs"][0]["results"]:
            for x in res.get("fixes", []):
                if x["description"]["text"].startswith("unsafe:") and which != "all":
                    continue
                for ch in x["artifactChanges"]:
                    for r in ch["replacements"]:
                        d = r["deletedRegion"]
                        edits.append((offset(starts, d["startLine"], d["startColumn"]),
                                      offset(starts, d["endLine"], d["endColumn"]),
                                      r["insertedContent"]["text"]))
    out, at = b"", 0
    for e in sorted(set(edits), key=lambda e: (e[0], e[1] > e[0])):
        s, t, text = e
        if s < at:
            print("overlapping edits at byte %d" % s, file=sys.stderr)
            return 1
        out += src[at:s] + text.encode("utf-8")
        at = t
    sys.stdout.buffer.write(out + src[at:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
