#!/bin/bash
# debian-gate.sh - the table's gate against Debian's real torch 1.13
# SPDX-License-Identifier: MIT
#
# usage: debian-gate.sh TORCHGATE SRCDIR
# tests/tools/discover-gate.sh on Debian's torch: every declaration its
# files make (warnings.warn, @deprecated, C10_DEPRECATED_MESSAGE,
# [[deprecated]], TORCH_WARN_DEPRECATION) is in data/apis.json or
# data/apis-excluded.json, every entry the table calls deprecated in
# 1.13 is declared or excused, and no exclusion that names 1.13 is
# stale. Also: the script fails, naming what, when the
# exclusion list is empty, and rejects bad usage. Like the other debian-*
# scripts it fails (never skips) when python3-torch is not installed.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
GATE_LANG=all
PY=/usr/bin/python3
T=/usr/lib/python3/dist-packages/torch
need "$T/version.py" "Debian's python3-torch is not installed"
G=$SRCDIR/tests/tools/discover-gate.sh

bash "$G" --lang "$GATE_LANG" "$TG" --python "$PY" >"$tmp/gate" 2>"$tmp/err"
rc=$?
sed 's/^/      /' "$tmp/gate"
check "gate ($GATE_LANG) exit status on Debian's torch" "$rc" 0
check_has "gate report" "$(cat "$tmp/gate")" "gate ($GATE_LANG): pass, 0 unaccounted, 0 not declared"
check_has "gate report" "$(cat "$tmp/gate")" "exclusions naming 1.13 that matched nothing: 0"

# the gate can fail: without the exclusion list, the C++ exclusions of
# 1.13 are unaccounted (their count read from the list, not written here)
printf '{"schema_version": 1, "description": "none", "excluded": []}\n' >"$tmp/none.json"
want=$("$PY" -c 'import json, sys
print(sum(1 for x in json.load(open(sys.argv[1]))["excluded"]
          if "1.13" in x["torch"] and x["kind"] in ("C10_DEPRECATED_MESSAGE", "[[deprecated]]", "TORCH_WARN_DEPRECATION")))' "$SRCDIR/data/apis-excluded.json")
bash "$G" --lang c++ --exclusions "$tmp/none.json" "$TG" --python "$PY" >"$tmp/gate2" 2>&1
rc=$?
check "gate without exclusions: exit status" "$rc" 1
if [ "$want" -gt 0 ]; then
	check_has "gate without exclusions" "$(cat "$tmp/gate2")" "gate (c++): FAIL, $want unaccounted"
	check_has "gate without exclusions names them" "$(cat "$tmp/gate2")" "UNACCOUNTED torch/include/"
else
	fail "data/apis-excluded.json excludes no C++ declaration of 1.13"
fi

# usage errors: exit 2, a message, nothing run
bash "$G" --lang rust "$TG" --python "$PY" >/dev/null 2>"$tmp/e1"
check "bad --lang: exit status" "$?" 2
check_has "bad --lang" "$(cat "$tmp/e1")" "--lang must be all, c++ or python, not 'rust'"
bash "$G" "$TG" >/dev/null 2>"$tmp/e2"
check "no environment option: exit status" "$?" 2
check_has "no environment option" "$(cat "$tmp/e2")" "usage: discover-gate.sh"
bash "$G" "$TG" --site-packages "$tmp/nowhere" >/dev/null 2>"$tmp/e3"
check "no torch: exit status" "$?" 3
check_has "no torch" "$(cat "$tmp/e3")" "discover exit status 3"
finish
