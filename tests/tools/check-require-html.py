#!/usr/bin/env python3
# check-require-html.py - check the page torchgate require --format=html
# writes, with the standard library only
# SPDX-License-Identifier: MIT
#
# usage: check-require-html.py PAGE [JSON]
#
# Parses PAGE (html.parser) and fails (exit 1, one line per fault) when
# it is not one self-contained, inert, well-formed page: bytes that are
# not UTF-8, an element that loads or runs something (script, iframe,
# object, embed, img, link, a src= or srcset= attribute, an on*=
# handler, an href that is not a fragment or a relative path, @import
# or a url() other than a fragment in CSS, a style attribute that does),
# a tag left open or closed twice, a row whose cells are not one per
# release column, a cell without a known state or status, a row without
# its uses section, a link to a fragment that names no element. With
# JSON (--format=json of the same run), the page must carry its data:
# the requirement, the code band's floor and ceiling, a row for every
# floor, ceiling and private reason with that reason's use count, and
# the problems' kinds in order.
#
# Then it prints what it read, one fact a line, for the case's stdout:
# the columns, the bands with their floor and ceiling, the rows (api,
# rank, uses, and the state of each cell run-length coded), the
# problems, the uses sections and their links.
import html.parser
import json
import re
import sys

STATES = {"notyet": ".", "available": "A", "deprecated": "D", "removed": "R"}
STATUSES = {"verified": "", "inferred": "i", "unverified": "u"}
VOID = {"meta", "link", "br", "img", "input", "hr", "col", "source", "wbr"}
# SVG elements written self-closed
SELF = {"rect", "path", "line", "circle"}
BANNED = {"script", "iframe", "object", "embed", "img", "link", "frame",
          "frameset", "audio", "video", "source", "base", "form", "input",
          "applet", "noscript", "template", "image", "use", "foreignobject"}

faults = []


def fault(msg):
    faults.append(msg)


def css_ok(text, where):
    low = text.lower()
    if "@import" in low:
        fault(f"{where}: @import")
    for m in re.finditer(r"url\(\s*['\"]?([^)'\"]*)", low):
        if not m.group(1).startswith("#"):
            fault(f"{where}: url({m.group(1)}) is not a fragment")
    if "expression(" in low or "javascript:" in low:
        fault(f"{where}: script in CSS")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.ids = set()
        self.frags = []
        self.cols = []
        self.bands = []
        self.rows = []
        self.row = None
        self.problems = []
        self.sections = []
        self.section = None
        self.in_style = False
        self.in_title = False
        self.title = ""
        self.requirement = None
        self.in_req = False
        self.links = []
        self.in_a = False

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        a = dict(attrs)
        if tag not in VOID and tag not in SELF:
            self.stack.append(tag)
        elif tag in SELF:
            # written <rect .../>: handle_startendtag; <rect ...> with
            # children (a <title>) is closed later
            self.stack.append(tag)
        if "id" in a:
            if a["id"] in self.ids:
                fault(f"id '{a['id']}' twice")
            self.ids.add(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "style":
            self.in_style = True
        if tag == "title" and len(self.stack) == 3:
            self.in_title = True
        if tag == "text" and "release" in cls:
            self.cols.append(a.get("data-release"))
        if tag == "g" and "band" in cls:
            self.bands.append((a.get("data-band"), a.get("data-floor"),
                               a.get("data-ceiling")))
        if tag == "g" and "row" in cls:
            self.row = {"api": a.get("data-api"), "rank": a.get("data-rank"),
                        "uses": a.get("data-uses"), "cells": []}
            self.rows.append(self.row)
        if tag == "g" and "cell" in cls:
            if self.row is None:
                fault("a cell outside a row")
            else:
                st, fa = a.get("data-state"), a.get("data-status")
                if st not in STATES or fa not in STATUSES:
                    fault(f"cell {a.get('data-release')}: state {st} "
                          f"status {fa}")
                    return
                c = STATES[st] + STATUSES[fa]
                if a.get("data-split"):
                    c += "/" + STATES.get(a["data-split"], "?")
                if a.get("opacity"):
                    c += "~"
                self.row["cells"].append((a.get("data-release"), c))
        if tag == "li" and "problem" in cls:
            self.problems.append(a.get("data-kind"))
        if tag == "section" and "api" in cls:
            self.section = {"api": a.get("data-api"), "id": a.get("id"),
                            "links": []}
            self.sections.append(self.section)
        if tag == "code" and "requirement" in cls:
            self.in_req = True
            self.requirement = ""
        if tag == "a":
            h = a.get("href", "")
            if h.startswith("#"):
                self.frags.append(h[1:])
            elif self.section is not None:
                self.section["links"].append([h, ""])
                self.in_a = True
            self.links.append(h)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            fault(f"</{tag}> closes <{self.stack[-1] if self.stack else ''}>")
            return
        self.stack.pop()
        if tag == "style":
            self.in_style = False
        if tag == "title":
            self.in_title = False
        if tag == "code":
            self.in_req = False
        if tag == "a":
            self.in_a = False
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.in_style:
            css_ok(data, "<style>")
        if self.in_title:
            self.title += data
        if self.in_req:
            self.requirement += data
        if self.in_a and self.section is not None:
            self.section["links"][-1][1] += data

    def check(self, tag, attrs):
        if tag in BANNED:
            fault(f"<{tag}>")
        for k, v in attrs:
            v = v or ""
            if k in ("src", "srcset", "data", "action", "formaction",
                     "xlink:href", "background", "poster", "ping"):
                fault(f"<{tag} {k}=>")
            if k.startswith("on"):
                fault(f"<{tag} {k}=>: an event handler")
            if k == "style":
                css_ok(v, f"<{tag} style>")
            if k == "href":
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", v) or \
                        v.startswith("//"):
                    fault(f"<{tag} href={v}>: not a relative link")
            if k == "fill" or k == "stroke":
                css_ok(v, f"<{tag} {k}>")
            if k == "xmlns" and v != "http://www.w3.org/2000/svg":
                fault(f"xmlns {v}")


def runs(cells):
    out, prev, n = [], None, 0
    for _, c in cells:
        if c == prev:
            n += 1
            continue
        if prev is not None:
            out.append(f"{n}{prev}" if n > 1 else prev)
        prev, n = c, 1
    if prev is not None:
        out.append(f"{n}{prev}" if n > 1 else prev)
    return " ".join(out)


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: check-require-html.py PAGE [JSON]", file=sys.stderr)
        return 2
    raw = open(sys.argv[1], "rb").read()
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        fault(f"not UTF-8: {e}")
        text = raw.decode("utf-8", errors="replace")
    if not text.startswith("<!DOCTYPE html>\n"):
        fault("no <!DOCTYPE html> first")
    for bad in ("<script", "@import", "url(http", "src=", "http://",
                "https://"):
        n = text.lower().count(bad)
        # the one namespace URI of the inline SVG is no resource
        if bad == "http://":
            n -= text.count('xmlns="http://www.w3.org/2000/svg"')
        if n:
            fault(f"'{bad}' in the page ({n})")
    p = Page()
    p.feed(text)
    p.close()
    if p.stack:
        fault(f"left open: {p.stack}")
    for f in p.frags:
        if f not in p.ids:
            fault(f"#{f} names no element")
    if not p.cols:
        fault("no release column")
    for r in p.rows:
        got = [c[0] for c in r["cells"]]
        if got != p.cols:
            fault(f"row {r['api']}: cells {len(got)} for "
                  f"{len(p.cols)} columns")
        if not any(s["api"] == r["api"] for s in p.sections):
            fault(f"row {r['api']}: no uses section")
    for s in p.sections:
        if not s["links"]:
            fault(f"uses of {s['api']}: no link")
    if len(sys.argv) == 3:
        j = json.load(open(sys.argv[2]))
        if p.requirement != j["requirement"]:
            fault(f"requirement {p.requirement} != {j['requirement']}")
        code = [b for b in p.bands if b[0] == "code"]
        want_f = "\u2265" + j["floor"]["version"] if j["floor"]["version"] \
            else "no floor"
        want_c = "<" + j["ceiling"]["version"] if j["ceiling"]["version"] \
            else "no ceiling"
        if len(code) != 1 or code[0][1:] != (want_f, want_c):
            fault(f"code band {code} != {want_f} {want_c}")
        rows = {r["api"]: r for r in p.rows}
        for key, rank in (("floor", "floor"), ("ceiling", "ceiling")):
            for r in j[key]["because"]:
                got = rows.get(r["api"])
                if not got or got["rank"] != rank or \
                        int(got["uses"]) != len(r["uses"]):
                    fault(f"{key} reason {r['api']}: row {got and got['rank']}")
        for r in j["private"]:
            got = rows.get(r["api"])
            if not got or int(got["uses"]) != len(r["uses"]):
                fault(f"private {r['api']}: no row with its uses")
        kinds = [k for k in p.problems if k != "conflict"]
        if kinds != [q["kind"] for q in j["problems"]]:
            fault(f"problems {kinds} != the JSON's")
        if p.problems.count("conflict") != len(j["conflicts"]):
            fault("conflicts differ from the JSON's")
    if faults:
        for f in faults:
            print(f"check-require-html: {sys.argv[1]}: {f}", file=sys.stderr)
        return 1
    print(f"title: {p.title}")
    print(f"columns: {len(p.cols)}: {p.cols[0]} .. {p.cols[-1]}")
    for b in p.bands:
        print(f"band {b[0]}: {b[1]} | {b[2]}")
    for r in p.rows:
        print(f"row {r['api']} [{r['rank']}] {r['uses']} uses: "
              f"{runs(r['cells'])}")
    for k in p.problems:
        print(f"problem: {k}")
    for s in p.sections:
        print(f"uses {s['api']} ({s['id']}):")
        for h, t in s["links"]:
            print(f"  {t} -> {h}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
