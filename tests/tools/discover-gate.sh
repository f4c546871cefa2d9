#!/bin/bash
# discover-gate.sh - the table's gate against one installed torch
# SPDX-License-Identifier: MIT
#
# usage: discover-gate.sh [--lang all|c++|python] [--exclusions FILE]
#                         TORCHGATE ENV-OPTION...
# e.g.   discover-gate.sh ./torchgate --python /usr/bin/python3
#        discover-gate.sh ./torchgate --prefix /path/to/venv
#
# Runs `TORCHGATE discover --format=json` on the torch that ENV-OPTION
# names and prints, per kind and in all: the declarations, how many are
# in the table, excluded (data/apis-excluded.json) and unaccounted; the
# table entries not declared, and how many of them the list excuses;
# and the exclusions that name this torch's X.Y in "torch" but matched
# nothing here (stale: the entry or its symbol is out of date). Then
# lists what fails the gate: every unaccounted declaration and every
# entry not declared and not excused, limited to --lang (c++: the
# header kinds; python: the others; not_declared entries are Python
# ones). Exit 0 the gate passes, 1 it fails, 2 usage, 3 discover could
# not run (its own status and message are shown). Reads files only, as
# discover does; needs python3 to read the JSON.
set -u
lang=all
xfile=
while [ $# -gt 0 ]; do
	case $1 in
	--lang) lang=${2:-}; shift 2 || { echo "discover-gate.sh: --lang needs a value" >&2; exit 2; } ;;
	--lang=*) lang=${1#--lang=}; shift ;;
	--exclusions) xfile=${2:-}; shift 2 || { echo "discover-gate.sh: --exclusions needs a value" >&2; exit 2; } ;;
	--) shift; break ;;
	-*) echo "discover-gate.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $lang in all | c++ | python) ;; *) echo "discover-gate.sh: --lang must be all, c++ or python, not '$lang'" >&2; exit 2 ;; esac
if [ $# -lt 2 ]; then
	echo "usage: discover-gate.sh [--lang all|c++|python] [--exclusions FILE] TORCHGATE ENV-OPTION..." >&2
	exit 2
fi
tg=$1
shift
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
list=${xfile:-$srcdir/data/apis-excluded.json}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/discover-gate.XXXXXX") || exit 3
trap 'rm -rf "$tmp"' EXIT
"$tg" discover --quiet --format=json ${xfile:+--exclusions "$xfile"} "$@" >"$tmp/d.json" 2>"$tmp/err"
rc=$?
if [ "$rc" -gt 1 ]; then
	echo "discover-gate.sh: discover exit status $rc: $(cat "$tmp/err")" >&2
	exit 3
fi
python3 - "$tmp/d.json" "$list" "$lang" <<'PY'
import collections, json, re, sys
doc = json.load(open(sys.argv[1]))
excl = json.load(open(sys.argv[2]))["excluded"]
lang = sys.argv[3]
CXX = {"C10_DEPRECATED_MESSAGE", "TORCH_WARN_DEPRECATION", "[[deprecated]]"}
def in_lang(kind):
    return lang == "all" or (kind in CXX) == (lang == "c++")
version = doc["torch"]["version"] or ""
xy = ".".join(re.match(r"[0-9.]*", version).group(0).split(".")[:2])
decls = doc["declarations"]
print("torch %s (%s), gate: %s" % (version, doc["torch"]["location"], lang))
rows = collections.OrderedDict()
for d in decls:
    for k in (d["kind"], "all"):
        r = rows.setdefault(k, [0, 0, 0, 0])
        r[0] += 1
        r[1] += d["table_id"] is not None
        r[2] += d["excluded"] is not None
        r[3] += d["table_id"] is None and d["excluded"] is None
rows.move_to_end("all") if "all" in rows else None
print("%-24s %6s %6s %8s %11s" % ("kind", "decls", "tabled", "excluded", "unaccounted"))
for k, r in rows.items():
    print("%-24s %6d %6d %8d %11d" % (k, *r))
nd = doc["not_declared"]
excused = [x for x in nd if x.get("excluded")]
print("not declared: %d (%d excused)" % (len(nd), len(excused)))
# stale exclusions: naming this X.Y, matching nothing here
met = {(d["symbol"], d["kind"]) for d in doc["excluded"]}
met |= {(x["id"], "not-declared") for x in excused}
stale = [x for x in excl if xy in x["torch"] and (x["symbol"], x["kind"]) not in met]
print("exclusions naming %s that matched nothing: %d" % (xy, len(stale)))
for x in stale:
    print("  stale: %s %s" % (x["kind"], x["symbol"]))
bad = [d for d in doc["unaccounted"] if in_lang(d["kind"])]
bad_nd = [x for x in nd if not x.get("excluded")] if lang != "c++" else []
for d in bad:
    print("UNACCOUNTED %s:%d: %s %s" % (d["file"], d["line"], d["kind"], d["symbol"]))
for x in bad_nd:
    print("NOT DECLARED %s (deprecated %s; %s)" % (x["id"], x["deprecated"], ", ".join(x["files"])))
ok = not bad and not bad_nd
print("gate (%s): %s, %d unaccounted, %d not declared" % (lang, "pass" if ok else "FAIL", len(bad), len(bad_nd)))
sys.exit(0 if ok else 1)
PY
