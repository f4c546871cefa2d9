#!/bin/bash
# marker-vs-packaging.sh - 'version marker' with no environment against
# packaging's own Marker.evaluate() in the real interpreter
# SPDX-License-Identifier: MIT
#
# usage: marker-vs-packaging.sh TORCHGATE SRCDIR
#
# Without an environment (or with one that lacks variables), packaging's
# Marker.evaluate() fills extra with "" and takes every other variable from
# default_environment() of the Python it runs in; 'torchgate version marker
# --python /usr/bin/python3' must give the same answers, working the
# environment out from that interpreter's files and uname(2) (it never runs
# Python). Each expression below is evaluated by /usr/bin/python3 with the
# packaging that Debian's python3-pip vendors
# (/usr/lib/python3/dist-packages/pip/_vendor/packaging, 21.3), once with
# no environment and once with a partial one, and the answer (true, false
# or error) must be torchgate's (exit 0, 1 or 4).
#
# packaging 21.3 predates two changes torchgate follows (packaging 22 and
# later): its evaluate() does not fill in extra (so Python is given
# {"extra": ""}, what packaging >= 22 adds itself), and it orders strings
# that are not versions with < <= > >= lexically where packaging 26 does
# not, and takes === on any variable as a version comparison; the list
# uses those operators only where both readings agree.
#
# @NAME@ in an expression is replaced by default_environment()'s value
# (and @major@, @minor@, @next_minor@, @prev_minor@, @micro@,
# @release_major@ by numbers from it), so that every variable is also
# compared where it is true.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

PY=/usr/bin/python3
VENDOR=/usr/lib/python3/dist-packages/pip/_vendor
need "$PY" "Debian's python3"
need "$VENDOR/packaging/markers.py" "Debian's python3-pip (apt-get install python3-pip)"

cat >"$tmp/markers.txt" <<'MARKERS'
python_version == "@python_version@"
python_version != "@python_version@"
python_version >= "3"
python_version >= "@python_version@"
python_version > "@python_version@"
python_version < "@major@.@next_minor@"
python_version <= "@major@.@prev_minor@"
python_version ~= "@python_version@"
python_version === "@python_version@"
python_version == "@major@.*"
python_version != "@major@.*"
python_version > "2.7"
python_version < "2.7"
"@python_version@" == python_version
"3.0" < python_version
python_version in "3.10 3.11 3.12 3.13"
python_version not in "2.7 3.6"
python_version == "@python_version@.0"
python_full_version == "@python_full_version@"
python_full_version >= "@major@.@minor@.0"
python_full_version < "@major@.@minor@.@micro@"
python_full_version > "@major@.@minor@.@micro@"
python_full_version == "@major@.@minor@.*"
python_full_version != "@python_full_version@"
python_full_version ~= "@major@.@minor@.0"
python_full_version === "@python_full_version@"
python_full_version <= "@python_full_version@"
python_full_version in "@python_full_version@"
python_full_version >= "@major@.@next_minor@"
implementation_name == "cpython"
implementation_name != "cpython"
implementation_name == "pypy"
"py" in implementation_name
implementation_name not in "pypy jython"
implementation_version == "@implementation_version@"
implementation_version >= "@major@.@minor@"
implementation_version < "@major@"
implementation_version ~= "@major@.@minor@.0"
platform_python_implementation == "CPython"
platform_python_implementation != "PyPy"
platform_python_implementation == "cpython"
"Py" in platform_python_implementation
os_name == "posix"
os_name == "nt"
os_name != "nt"
os_name in "posix java"
"osi" in os_name
os_name not in "nt"
sys_platform == "linux"
sys_platform == "win32"
sys_platform != "darwin"
"lin" in sys_platform
sys_platform not in "win32 cygwin"
sys_platform == "linux2"
platform_system == "@platform_system@"
platform_system == "Windows"
platform_system != "Darwin"
platform_system in "Linux Darwin"
platform_machine == "@platform_machine@"
platform_machine == "aarch64"
platform_machine in "x86_64 amd64 AMD64"
platform_machine not in "arm64 aarch64"
platform_machine >= "@platform_machine@"
platform_machine < "@platform_machine@"
platform_release == "@platform_release@"
platform_release != "@platform_release@"
"@release_major@." in platform_release
platform_release >= "0"
platform_version == "@platform_version@"
"SMP" in platform_version
platform_version != ""
extra == ""
extra == "gpu"
extra != "gpu"
extra == "" and os_name == "posix"
os_name == "nt" and sys_platform == "linux" or python_version >= "3"
os_name == "posix" or sys_platform == "win32" and python_version < "3"
os_name == "nt" or sys_platform == "win32" and python_version >= "3"
(os_name == "nt" or sys_platform == "linux") and python_version >= "3"
os_name == "nt" and (sys_platform == "linux" or python_version >= "3")
(os_name == "posix" and (platform_machine == "@platform_machine@" or platform_machine == "aarch64")) and implementation_name == "cpython"
python_version < "3" or python_version >= "@python_version@" and platform_system == "@platform_system@"
os_name=="posix"and sys_platform=="linux"
((((os_name == "posix"))))
os_name == 'posix' and 'linux' == sys_platform
os_name ~= "posix"
MARKERS

# The partial environment of the second pass, as JSON for both.
PARTIAL='{"python_version": "3.5", "extra": "gpu", "os_name": "nt", "platform_system": "Windows"}'

cat >"$tmp/eval.py" <<'PYEOF'
import json, platform, sys
sys.path.insert(0, sys.argv[1])
from packaging import markers

env = markers.default_environment()
major, minor = (int(x) for x in env["python_version"].split("."))
subst = dict(env)
subst.update(major=str(major), minor=str(minor), next_minor=str(minor + 1),
             prev_minor=str(minor - 1),
             micro=str(sys.version_info.micro),
             release_major=env["platform_release"].split(".")[0])
partial = json.loads(sys.argv[3])
out = open(sys.argv[4], "w")
for line in open(sys.argv[2]):
    expr = line.rstrip("\n")
    for k, v in subst.items():
        expr = expr.replace("@%s@" % k, v)
    answers = []
    for given in ({}, partial):
        e = {"extra": ""}  # what packaging >= 22 fills in itself
        e.update(given)
        try:
            answers.append("true" if markers.Marker(expr).evaluate(e)
                           else "false")
        except (markers.UndefinedComparison,
                markers.UndefinedEnvironmentName, markers.InvalidMarker):
            answers.append("error")
    out.write("%s\t%s\t%s\n" % (expr, answers[0], answers[1]))
PYEOF

"$PY" "$tmp/eval.py" "$VENDOR" "$tmp/markers.txt" "$PARTIAL" "$tmp/want.tsv" ||
	die "'$PY' could not evaluate the markers with '$VENDOR/packaging'"
n=$(wc -l <"$tmp/want.tsv")
note "$n expressions, packaging $("$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import packaging; print(packaging.__version__)' "$VENDOR")"

# answer RC: torchgate's exit status as packaging's answer
answer() {
	case $1 in
	0) echo true ;;
	1) echo false ;;
	4) echo error ;;
	*) echo "exit $1" ;;
	esac
}

while IFS=$'\t' read -r expr want want_partial; do
	got=$("$TG" version marker --python "$PY" "$expr" 2>"$tmp/err")
	rc=$?
	a=$(answer $rc)
	if [ "$a" = error ]; then
		[ -z "$got" ] && [ -s "$tmp/err" ] || a="error with stdout '$got'"
	elif [ "$got" != "$a" ]; then
		a="$a, printed '$got'"
	fi
	check "no environment: $expr" "$a" "$want"
	[ "$a" = "$want" ] || sed 's/^/      | /' "$tmp/err"
	"$TG" version marker --python "$PY" "$expr" "$PARTIAL" >/dev/null 2>"$tmp/err"
	a=$(answer $?)
	check "partial environment: $expr" "$a" "$want_partial"
	[ "$a" = "$want_partial" ] || sed 's/^/      | /' "$tmp/err"
done <"$tmp/want.tsv"

# The same through --batch, one line per expression with an empty object.
got=$(cut -f1 "$tmp/want.tsv" | sed 's/$/\t{}/' |
	"$TG" version marker --batch --python "$PY")
want=$(cut -f2 "$tmp/want.tsv")
if [ "$got" == "$want" ]; then
	ok "--batch, no environment: the same $n answers"
else
	check "--batch, no environment" "$got" "$want"
fi

finish
