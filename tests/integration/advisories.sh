#!/bin/bash
# advisories.sh - data/advisories.json against its schema and loader, and
# the advisories of the real Debian torch
# SPDX-License-Identifier: MIT
#
# usage: advisories.sh TORCHGATE SRCDIR
# data/advisories.json must pass the JSON Schema (data/advisories.schema.json,
# with Debian's python3-jsonschema) and torchgate's loader (env
# --which-advisories --advisories FILE); each mutation below must fail
# both. The built-in advisories are data/advisories.json. Debian's
# python3-torch (1.13.1+dfsg-4, whose torch says 1.13.0a0) is matched as
# 1.13.0a0: every advisory with a fixed version above it, the withdrawn
# CVE-2024-7804 never.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
"$PY" -c 'import jsonschema' 2>/dev/null ||
	die "$PY cannot import jsonschema (apt-get install python3-jsonschema)"
schema=$SRCDIR/data/advisories.schema.json
data=$SRCDIR/data/advisories.json

validate() { # FILE -> 0 valid, 1 invalid
	"$PY" - "$schema" "$1" <<'PYEOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
try:
    jsonschema.validate(json.load(open(sys.argv[2])), schema)
except (ValueError, jsonschema.ValidationError) as e:
    print("  jsonschema:", str(e).splitlines()[0])
    sys.exit(1)
PYEOF
}
loads() { "$TG" env --which-advisories --advisories "$1" >"$tmp/out" 2>"$tmp/err"; }

if validate "$data"; then ok "schema: $data"; else fail "schema rejects $data"; fi
if loads "$data"; then ok "loader: $data"; else fail "loader rejects $data: $(cat "$tmp/err")"; fi
n=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["advisories"]))' "$data")
check "the loader counts every advisory" "$(sed -n 's/.*, \([0-9]*\) advisories$/\1/p' "$tmp/out")" "$n"
"$TG" env --which-advisories >"$tmp/b"
v=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["advisories_version"])' "$data")
check "the built-in advisories are data/advisories.json" "$(cat "$tmp/b")" \
	"built-in (in the binary), advisories_version $v, $n advisories"

i=0
while IFS= read -r expr; do
	i=$((i + 1))
	"$PY" - "$data" "$tmp/m$i.json" "$expr" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
a = doc["advisories"]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PYEOF
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
a[0]["id"] = "OSV-1"
a[0]["aliases"] = ["CVE-22-1"]
a[0]["summary"] = ""
a[0]["severity"] = "severe"
a[0]["ranges"] = []
a[0]["ranges"][0]["fixed"] = "1.13.1+cpu"
a[0]["ranges"][0]["last_affected"] = "1.13.0"
a[0]["ranges"][0]["fixed"] = "one"
a[0]["fixed"] = "1.13.1rc"
a[0]["published"] = "26 Nov 2022"
a[0]["disputed"] = "no"
a[0]["references"] = []
a[0]["cvss"]["score"] = 11
a[0]["extra"] = 1
del a[0]["withdrawn"]
a[0]["aliases"] = ["CVE-2022-45907", "CVE-2022-45907"]
doc["package"] = "pytorch"
doc["schema_version"] = 2
del doc["advisories_version"]
MUT

# what the schema cannot say, the loader checks
i=0
while IFS= read -r expr; do
	i=$((i + 1))
	"$PY" - "$data" "$tmp/l$i.json" "$expr" <<'PYEOF'
import json, sys
doc = json.load(open(sys.argv[1]))
a = doc["advisories"]
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PYEOF
	if loads "$tmp/l$i.json"; then
		fail "loader accepts: $expr"
	else
		ok "loader rejects: $expr -> $(head -c 160 "$tmp/err")"
	fi
done <<'MUT'
a[1]["aliases"] = ["CVE-2022-45907"]
a[0]["fixed"] = "1.13.0"
a[0]["ranges"][0]["introduced"] = "2.0"
MUT

# the real Debian torch: 1.13.0a0, every advisory with introduced 0 and a
# fixed version, the withdrawn one never, and the Debian package named
if [ -x /usr/bin/python3 ] && [ -d /usr/lib/python3/dist-packages/torch ]; then
	"$TG" env --python /usr/bin/python3 --no-elf --format=json -q >"$tmp/d.json"
	check "Debian: env exit status" "$?" 1
	got=$("$PY" - "$tmp/d.json" <<'PYEOF'
import json, sys
a = json.load(open(sys.argv[1]))["advisories"]
print(a["matched_version"], a["dpkg_version"], len(a["affecting"]))
print(" ".join(x["id"] for x in a["affecting"]))
PYEOF
)
	want=$("$PY" - "$data" <<'PYEOF'
import json, sys
adv = json.load(open(sys.argv[1]))["advisories"]
# 1.13.0a0 lies in every range that starts at 0 and ends above 1.13.0a0;
# all of them end at 1.13.1 or later (PEP 440: 1.13.0a0 < 1.13.0 < 1.13.1)
hit = [a["id"] for a in adv if not a["withdrawn"]]
print("1.13.0a0 1.13.1+dfsg-4", len(hit))
print(" ".join(hit))
PYEOF
)
	check "Debian 1.13.0a0: the advisories that affect it" "$got" "$want"
	case $got in
	*GHSA-4vmg-rw8f-92f9*) fail "Debian: the withdrawn CVE-2024-7804 is reported" ;;
	*) ok "Debian: the withdrawn CVE-2024-7804 is not reported" ;;
	esac
else
	ok "skipped: Debian's python3-torch is not installed"
fi
finish
