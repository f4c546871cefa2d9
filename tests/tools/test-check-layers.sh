#!/bin/bash
# test-check-layers.sh - check-layers.sh finds each kind of breach
# SPDX-License-Identifier: MIT
#
# usage: test-check-layers.sh SRCDIR
# Copies the source tree's src/ into a temporary directory, breaks the
# rule once per case, and checks the message check-layers.sh prints.
set -u
src=$(cd "${1:?usage: test-check-layers.sh SRCDIR}" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# case NAME EXPECTED-LINE-PATTERN -- then a shell snippet run in the copy
case_() {
	local name=$1 want=$2 snippet=$3 out
	rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$src/src" "$tmp/t/src"
	(cd "$tmp/t/src" && eval "$snippet")
	out=$(bash "$src/tests/tools/check-layers.sh" "$tmp/t")
	if [ $? -ne 1 ] || ! grep -qE -- "$want" <<<"$out"; then
		echo "FAIL $name: wanted exit 1 and /$want/, got:"
		echo "$out"
		fails=$((fails + 1))
	else
		echo "ok $name"
	fi
}

out=$(bash "$src/tests/tools/check-layers.sh" "$src") ||
	{ echo "FAIL the tree itself: $out"; fails=$((fails + 1)); }

case_ upward 'lib/pep/spec.c includes .lib/table/table.h.: pep/ may include only util/$' \
	'sed -i "0,/^#include \"lib/s//#include \"lib\/table\/table.h\"\n&/" lib/pep/spec.c'
case_ lowest 'lib/util/buf.c includes .lib/pep/version.h.: util/ may include no other folder' \
	'echo "#include \"lib/pep/version.h\"" >>lib/util/buf.c'
case_ cli 'lib/util/buf.c includes .cli/cli.h.: nothing in lib/ includes cli/' \
	'echo "#include \"cli/cli.h\"" >>lib/util/buf.c'
case_ cycle 'include cycle: .*lib/util/(buf|err)' \
	'echo "#include \"lib/util/buf.h\"" >>lib/util/err.h'
case_ third-party 'lib/table/table.c includes <cjson/cJSON.h>: only lib/util/json.c may' \
	'echo "#include <cjson/cJSON.h>" >>lib/table/table.c'
case_ prefix "lib/pep/name.c:[0-9]+: 'tg_canon' should start with 'tg_name_'" \
	'printf "int\ntg_canon(void)\n{\n\treturn 0;\n}\n" >>lib/pep/name.c'
case_ folder "lib/newdir/x.c: folder 'newdir' is not in the layers block" \
	'mkdir lib/newdir && echo "int x;" >lib/newdir/x.c'
case_ plain-include "lib/pep/name.c includes 'name.h': write" \
	'echo "#include \"name.h\"" >>lib/pep/name.c'
case_ internal "lib/audit/require.c includes 'lib/audit/py/internal.h': only the files of lib/audit/py/ may" \
	'echo "#include \"lib/audit/py/internal.h\"" >>lib/audit/require.c'
case_ subfolder-prefix "lib/audit/py/rules.c:[0-9]+: 'tg_rules_x' should start with 'tg_audit_py_'" \
	'printf "int\ntg_rules_x(void)\n{\n\treturn 0;\n}\n" >>lib/audit/py/rules.c'
case_ subfolder-upward "lib/audit/py/rules.c includes 'lib/render/emit.h': audit/ may include only" \
	'echo "#include \"lib/render/emit.h\"" >>lib/audit/py/rules.c'

[ "$fails" -eq 0 ]
