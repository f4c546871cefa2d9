#!/bin/bash
# audit-sarif.sh - torchgate audit --format=sarif against the SARIF 2.1.0 schema
# SPDX-License-Identifier: MIT
#
# usage: audit-sarif.sh TORCHGATE SRCDIR [FIXTURES]
# Audits tests/data/audit-pkg (findings, mentions, guards, notes), a
# file with fixes (their replacements applied) and a tree with no
# findings, and validates each log with Debian's
# python3-jsonschema against the official schema in
# SRCDIR/../shared/data/sarif-schema-2.1.0.json. Where ../shared is absent
# it says so and checks the fields GitHub code scanning requires itself.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
schema=$SRCDIR/../shared/data/sarif-schema-2.1.0.json
if [ -f "$schema" ]; then
	"$PY" -c 'import jsonschema' 2>/dev/null ||
		die "$PY cannot import jsonschema (apt-get install python3-jsonschema)"
else
	echo "# $schema is absent: checking the required fields only"
	schema=
fi

validate() { # FILE -> 0 valid, 1 invalid, with the reason
	"$PY" - "$1" "$schema" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
if sys.argv[2]:
    import jsonschema
    schema = json.load(open(sys.argv[2]))
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as e:
        print("  jsonschema:", str(e).splitlines()[0])
        sys.exit(1)
# what code scanning needs, checked either way
assert doc["version"] == "2.1.0", "version"
run = doc["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
# one rule per entry used, in the order of first use
first = []
for res in run["results"]:
    if res["ruleId"] not in first:
        first.append(res["ruleId"])
assert ids == first, "one rule per entry, in the order of first use"
for r in rules:
    assert r["help"]["text"] and r["shortDescription"]["text"], r["id"]
for res in run["results"]:
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"], res["ruleId"]
    assert res["level"] in ("error", "warning", "note"), res["level"]
    assert res["message"]["text"], "message"
    loc = res["locations"][0]["physicalLocation"]
    uri = loc["artifactLocation"]["uri"]
    assert not uri.startswith("./") and not uri.startswith("/"), uri
    assert loc["region"]["startLine"] >= 1, "startLine"
print("  %d rules, %d results" % (len(rules), len(run["results"])))
PY
}

cp -r "$SRCDIR/tests/data/audit-pkg" "$tmp/pkg"
mkdir "$tmp/empty"
cd "$tmp" || die "cannot enter $tmp"
"$TG" audit --format=sarif --torch-version 2.11 ./pkg >"$tmp/a.sarif"
check "exit on the findings" "$?" 1
if validate "$tmp/a.sarif"; then ok "valid: findings"; else fail "invalid: findings"; fi
# fixes: a safe one (two replacements: a name and an inserted argument)
# and an unsafe one, valid, and what they give applied
mkdir "$tmp/fix"
printf 'import torch\n\n\ndef f(x):\n    with torch.cuda.amp.autocast(enabled=True):\n        y = torch.cuda.amp.grad_scaler.OptState.READY\n    return torch.nn.functional.upsample(x, scale_factor=2)\n' >"$tmp/fix/m.py"
"$TG" audit --format=sarif --floor 2.6 fix >"$tmp/c.sarif"
check "exit with fixes" "$?" 1
if validate "$tmp/c.sarif"; then ok "valid: fixes"; else fail "invalid: fixes"; fi
got=$("$PY" -c 'import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    for x in r.get("fixes", []):
        print(r["ruleId"], x["description"]["text"].split(":")[0],
              len(x["artifactChanges"][0]["replacements"]),
              x["artifactChanges"][0]["artifactLocation"]["uri"])' "$tmp/c.sarif")
check "the results' fixes" "$got" "torch.cuda.amp.autocast unsafe 2 fix/m.py
torch.cuda.amp.grad_scaler.OptState unsafe 1 fix/m.py
torch.nn.functional.upsample safe 1 fix/m.py"
"$PY" "$SRCDIR/tests/tools/apply-fixes.py" sarif "$tmp/c.sarif" "$tmp/fix/m.py" all >"$tmp/fixed.py"
check "the fixes applied" "$(sed -n '5,7p' "$tmp/fixed.py")" '    with torch.amp.autocast("cuda", enabled=True):
        y = torch.amp.grad_scaler.OptState.READY
    return torch.nn.functional.interpolate(x, scale_factor=2)'
# fixes through imports (the file-level step): one fix, the same
# replacements on each finding it fixes, valid, and what --fix writes
# once applied (with --unsafe-fixes: autocast is unsafe)
mkdir "$tmp/imp"
printf 'from torch.cuda.amp import autocast, custom_fwd\n\n\n@custom_fwd\ndef f(x):\n    with autocast(enabled=True):\n        return x\n' >"$tmp/imp/m.py"
cp "$tmp/imp/m.py" "$tmp/imp-m.py"
"$TG" audit --format=sarif --unsafe-fixes --floor 2.6 imp >"$tmp/d.sarif"
check "through imports: exit with fixes" "$?" 1
if validate "$tmp/d.sarif"; then ok "valid: fixes through imports"; else fail "invalid: fixes through imports"; fi
got=$("$PY" -c 'import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    for x in r.get("fixes", []):
        print(r["ruleId"], x["description"]["text"].split(":")[0],
              len(x["artifactChanges"][0]["replacements"]))' "$tmp/d.sarif")
check "through imports: the results' fixes" "$got" "torch.cuda.amp.autocast unsafe 5
torch.cuda.amp.custom_fwd unsafe 5
torch.cuda.amp.custom_fwd unsafe 5
torch.cuda.amp.autocast unsafe 5"
"$PY" "$SRCDIR/tests/tools/apply-fixes.py" sarif "$tmp/d.sarif" "$tmp/imp/m.py" all >"$tmp/imp-fixed.py"
"$TG" audit --fix --unsafe-fixes --floor 2.6 imp >/dev/null 2>&1
check "through imports: the fixes applied give what --fix writes" "$(cat "$tmp/imp-fixed.py")" "$(cat "$tmp/imp/m.py")"
check "through imports: the text" "$(cat "$tmp/imp/m.py")" 'import torch


@torch.amp.custom_fwd(device_type="cuda")
def f(x):
    with torch.amp.autocast("cuda", enabled=True):
        return x'
# one fix of the step applied alone: the whole step
"$PY" - "$tmp/d.sarif" "$tmp/one.sarif" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["runs"][0]["results"]
for r in res[1:]:
    r.pop("fixes", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$PY" "$SRCDIR/tests/tools/apply-fixes.py" sarif "$tmp/one.sarif" "$tmp/imp-m.py" all >"$tmp/imp-one.py"
check "through imports: one result's fix alone gives the same text" "$(cat "$tmp/imp-one.py")" "$(cat "$tmp/imp/m.py")"
"$TG" audit --format=sarif --torch-version 2.11 empty >"$tmp/b.sarif"
check "exit with nothing found" "$?" 0
if validate "$tmp/b.sarif"; then ok "valid: no findings"; else fail "invalid: no findings"; fi
finish
