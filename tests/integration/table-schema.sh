#!/bin/bash
# table-schema.sh - the API tables against their JSON Schema, two ways
# SPDX-License-Identifier: MIT
#
# usage: table-schema.sh TORCHGATE SRCDIR
# data/apis.json and tests/data/apis-mini.json must pass both the JSON
# Schema (data/apis.schema.json, checked with Debian's python3-jsonschema)
# and torchgate's own strict loader; each mutation below must fail both.
# The same for the exclusion list data/apis-excluded.json and its schema
# (loaded by discover --exclusions), whose see ids must be in the table.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
"$PY" -c 'import jsonschema' 2>/dev/null ||
	die "$PY cannot import jsonschema (apt-get install python3-jsonschema)"
schema=$SRCDIR/data/apis.schema.json

validate() { # FILE [SCHEMA] -> 0 valid, 1 invalid
	"$PY" - "${2:-$schema}" "$1" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
try:
    doc = json.load(open(sys.argv[2]))
    jsonschema.validate(doc, schema)
except (ValueError, jsonschema.ValidationError) as e:
    print("  jsonschema:", str(e).splitlines()[0])
    sys.exit(1)
PY
}
loads() { "$TG" check --table "$1" --torch-version 2.11.0 >/dev/null 2>"$tmp/err"; }

for t in "$SRCDIR/data/apis.json" "$SRCDIR/tests/data/apis-mini.json"; do
	if validate "$t"; then ok "schema: $t"; else fail "schema rejects $t"; fi
	if loads "$t"; then ok "loader: $t"; else fail "loader rejects $t: $(cat "$tmp/err")"; fi
done
n=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["entries"]))' "$SRCDIR/data/apis.json")
if [ "$n" -ge 80 ]; then ok "data/apis.json has $n entries"; else fail "data/apis.json has $n entries, fewer than 80"; fi

# the default table is data/apis.json, embedded
if "$TG" check --torch-version 2.11.0 --format=json >"$tmp/a.json" &&
	"$TG" check --table "$SRCDIR/data/apis.json" --torch-version 2.11.0 --format=json >"$tmp/b.json" &&
	cmp -s "$tmp/a.json" "$tmp/b.json"; then
	ok "the built-in table is data/apis.json"
else
	fail "the built-in table differs from data/apis.json"
fi

# mutations of the mini table: both validators must reject each
mini=$SRCDIR/tests/data/apis-mini.json
i=0
while IFS= read -r expr; do
	i=$((i + 1))
	"$PY" - "$mini" "$tmp/m$i.json" "$expr" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
e = doc["entries"]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
	if validate "$tmp/m$i.json" >/dev/null; then
		fail "schema accepts mutation: $expr"
	else
		ok "schema rejects: $expr"
	fi
	if loads "$tmp/m$i.json"; then
		fail "loader accepts mutation: $expr"
	else
		ok "loader rejects: $expr -> $(head -c 160 "$tmp/err")"
	fi
done <<'MUT'
e[0]["language"] = "rust"
e[0]["kind"] = "gadget"
e[0]["private"] = 0
del e[1]["notes"]
e[1]["surprise"] = True
e[2]["introduced"]["version"] = "2.4.0a0"
e[2]["introduced"]["bound"] = "roughly"
e[2]["introduced"]["bound"] = "between"
e[2]["introduced"]["after"] = "1.0"
e[2]["removed"]["bound"] = "between"; e[2]["removed"]["after"] = "1.0"
e[2]["deprecated"]["status"] = "sure"
e[2]["warning"]["category"] = "Warning"
e[2]["evidence"]["files"] = ["/etc/passwd"]
e[2]["usage"] = [""]
e[3]["id"] = "torch.(bad)"
del e[4]["fix"]
e[4]["fix"] = {}
e[4]["fix"]["applicability"] = "maybe"
e[4]["fix"]["to"] = None; e[4]["fix"]["insert"] = None; e[4]["fix"]["bare"] = None
e[5]["fix"]["note"] = None
e[4]["fix"]["bare"] = "always"
e[4]["fix"]["insert"] = None
e[4]["fix"]["insert"]["at"] = 0
e[4]["fix"]["insert"]["at"] = -1; e[4]["fix"]["insert"]["text"] = "1"
e[4]["fix"]["insert"]["text"] = ""
e[4]["fix"]["insert"]["text"] = "a\nb"
del e[4]["fix"]["insert"]["max_positional"]
e[4]["fix"]["to"] = "torch::amp"
e[4]["fix"]["surprise"] = 1
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": {"from": "data", "to": "data_ptr(); system(\"id\")"}, "insert": None, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": {"from": "data<float>", "to": "data_ptr"}, "insert": None, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": None, "insert": {"at": 0, "text": "(system(\"id\"), false)", "max_positional": None}, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": None, "insert": {"at": 0, "text": "\"a\\\\\"", "max_positional": None}, "bare": None, "note": None}
e[3]["replacement"]["since"] = 2.4
doc["schema_version"] = 2
doc["entries"] = []
doc["extra"] = 1
MUT

# C++ fix texts the schema's patterns let through but the loader
# refuses: a replacement that adds a call, a Python literal
i=0
while IFS= read -r expr; do
	i=$((i + 1))
	"$PY" - "$mini" "$tmp/c$i.json" "$expr" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
e = doc["entries"]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
	if loads "$tmp/c$i.json"; then
		fail "loader accepts C++ fix text: $expr"
	else
		ok "loader rejects C++ fix text: $expr -> $(head -c 160 "$tmp/err")"
	fi
done <<'MUT'
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": {"from": "data", "to": "abort()"}, "insert": None, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": None, "insert": {"at": 0, "text": "True", "max_positional": None}, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": None, "insert": {"at": 0, "text": "x=1", "max_positional": None}, "bare": None, "note": None}
e[0]["fix"] = {"applicability": "safe", "to": "at::Tensor::data_ptr", "replace": None, "insert": None, "bare": None, "note": None}
MUT
# and the forms the table uses load
"$PY" - "$mini" "$tmp/cok.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
e = doc["entries"]
e[0]["fix"] = {"applicability": "safe", "to": None, "replace": {"from": "type().scalarType()", "to": "scalar_type()"}, "insert": {"at": 0, "text": "false", "max_positional": None}, "bare": None, "note": None}
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
if loads "$tmp/cok.json"; then ok "loader: a C++ rename and a literal inserted"; else fail "loader rejects type().scalarType() -> scalar_type() with false inserted: $(cat "$tmp/err")"; fi
if validate "$tmp/cok.json" >/dev/null; then ok "schema: a C++ rename and a literal inserted"; else fail "schema rejects type().scalarType() -> scalar_type()"; fi

# the exclusion list: schema and loader (discover with --exclusions, on a
# fake torch; 0 or 1 is a list that loaded, 4 one that did not)
xschema=$SRCDIR/data/apis-excluded.schema.json
xlist=$SRCDIR/data/apis-excluded.json
bash "$SRCDIR/tests/tools/mktorch.sh" "$tmp/sp" >/dev/null
xloads() {
	"$TG" discover --site-packages "$tmp/sp" --exclusions "$1" --quiet >/dev/null 2>"$tmp/err"
	[ $? -le 1 ]
}
if validate "$xlist" "$xschema"; then ok "schema: $xlist"; else fail "schema rejects $xlist"; fi
if xloads "$xlist"; then ok "loader: $xlist"; else fail "loader rejects $xlist: $(cat "$tmp/err")"; fi
unknown=$("$PY" - "$xlist" "$SRCDIR/data/apis.json" <<'PY'
import json, sys
ids = {e["id"] for e in json.load(open(sys.argv[2]))["entries"]}
print(" ".join(sorted({x["see"] for x in json.load(open(sys.argv[1]))["excluded"]
                       if x["see"] and x["see"] not in ids})))
PY
)
check "exclusions whose see is not a table id" "$unknown" ""
"$TG" discover --site-packages "$tmp/sp" --format=json --quiet >"$tmp/xa.json"
"$TG" discover --site-packages "$tmp/sp" --format=json --quiet --exclusions "$xlist" >"$tmp/xb.json"
if cmp -s "$tmp/xa.json" "$tmp/xb.json" &&
	"$TG" discover --site-packages "$tmp/sp" --quiet --exclusions "$tmp/nowhere" 2>/dev/null
	[ $? -eq 5 ]; then
	ok "discover reads the built-in list without --exclusions, the file with it"
else
	fail "discover --exclusions: the built-in list and the file differ, or a missing file is not exit 5"
fi
i=0
while IFS= read -r expr; do
	i=$((i + 1))
	"$PY" - "$xlist" "$tmp/x$i.json" "$expr" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
x = doc["excluded"] = doc["excluded"] or [{"symbol": "a", "kind": "warnings.warn", "message": None, "torch": ["2.11"], "category": "internal", "see": None, "reason": "r"}]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
	if validate "$tmp/x$i.json" "$xschema" >/dev/null; then
		fail "exclusion schema accepts mutation: $expr"
	else
		ok "exclusion schema rejects: $expr"
	fi
	if xloads "$tmp/x$i.json"; then
		fail "exclusion loader accepts mutation: $expr"
	else
		ok "exclusion loader rejects: $expr -> $(head -c 160 "$tmp/err")"
	fi
done <<'MUT'
x[0]["kind"] = "warn"
x[0]["category"] = "boring"
x[0]["message"] = ""
x[0]["kind"] = "not-declared"; x[0]["message"] = "m"
x[0]["torch"] = []
x[0]["torch"] = ["2.x"]
x[0]["see"] = "torch.(bad)"
x[0]["reason"] = ""
x[0]["extra"] = 1
del x[0]["see"]
doc["schema_version"] = 2
del doc["description"]
doc["excluded"] = {}
MUT
finish
