#!/bin/bash
# import-vs-python.sh - what 'import torch' would find, against the interpreter
# SPDX-License-Identifier: MIT
#
# usage: import-vs-python.sh TORCHGATE SRCDIR
#
# Each layout puts directories on PYTHONPATH and asks the Debian
# /usr/bin/python3 (required) what importlib.util.find_spec("torch") gives:
# nothing is imported or run, only the path finder's answer is printed
# (a package and its directory, a module file, or namespace portions).
# 'torchgate probe --python /usr/bin/python3' in the very same environment
# must agree: a package is the location it reports (exit 0); a module
# (torch.py, torch.pyc, an extension module by the interpreter's
# suffixes) and a namespace package are exit 3 with a message that names
# what Python would import. Layouts:
#   ns-then-pkg    torch/ with only version.py (a namespace portion), then
#                  a regular package: the package wins
#   py-then-pkg    torch.py, then a package: the module wins
#   ext-then-pkg   torch.cpython-311-...so beside a namespace torch/
#   abi3-then-pkg  torch.abi3.so; so-then-pkg: torch.so; pyc-then-pkg
#   other-abi      torch.cpython-399-...so (not this interpreter's): the
#                  package later on wins
#   pkg-and-py     torch/__init__.py and torch.py in one entry: the package
#   init-ext       torch/__init__.<EXT_SUFFIX> without __init__.py: a
#                  package
#   ns-only        two namespace portions and no regular package (in a
#                  venv without system site-packages, away from Debian's
#                  python3-torch); ns-only-one: one portion
#   ns-then-module a portion, then torch.py: the module
#   ns-then-debian the portions, then whatever dist-packages holds
#   *-pyenv-X.Y.Z  ext-then-pkg, other-abi (3.99's suffix) and
#                  ns-then-pkg again with each pyenv Python 3.8 or later
#                  where one is installed (noted when none is)
# and the warnings, against what Python says in the same environment:
#   cwd-package    torch/__init__.py in the working directory: python -c
#                  imports it (find_spec run there says so); torchgate
#                  warns, naming it
#   meta-elsewhere a torch dist-info alone earlier on the path:
#                  importlib.metadata.version("torch") and the imported
#                  copy differ; the warning names both versions
#   shadowed-other two packages of different versions: the one not
#                  imported is named on stderr and near the top of the
#                  text report
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
need "$PY" "Debian's python3 (apt-get install python3)"
MKTORCH=$SRCDIR/tests/tools/mktorch.sh
LPY=$PY
EXT=$("$PY" -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')

FIND='import importlib.util as u
s = u.find_spec("torch")
if s is None:
    print("none")
elif s.origin is None or s.loader is None or type(s.loader).__name__ == "NamespaceLoader":
    print("namespace " + " ".join(s.submodule_search_locations))
elif s.submodule_search_locations is not None:
    print("package " + s.submodule_search_locations[0])
else:
    print("module " + s.origin)'

# layout NAME DIRS...: compare for PYTHONPATH=DIRS (joined with ':')
layout() {
	local name=$1 pp py got rc err kind what
	shift
	pp=$(
		IFS=:
		echo "$*"
	)
	mkdir -p "$tmp/home"
	py=$(cd "$tmp" && env -i HOME="$tmp/home" PYTHONPATH="$pp" "$LPY" -c "$FIND" 2>&1)
	got=$(cd "$tmp" && env -i HOME="$tmp/home" PYTHONPATH="$pp" PATH=/usr/bin:/bin \
		"$TG" probe --python "$LPY" --field location 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	kind=${py%% *}
	what=${py#* }
	case $kind in
	package)
		check "$name: exit" "$rc" 0
		check "$name: location" "$got" "$what"
		;;
	module)
		check "$name: exit" "$rc" 3
		check_has "$name: stderr" "$err" "would import the module '$what', not torch's package"
		;;
	namespace)
		check "$name: exit" "$rc" 3
		check_has "$name: stderr" "$err" "would import a namespace package"
		check_has "$name: stderr" "$err" "'${what%% *}'"
		;;
	*) fail "$name: python says '$py'" ;;
	esac
}

pkg() { bash "$MKTORCH" "$1" --version "${2:-2.5.1}" >/dev/null; }

d=$tmp/l
mkdir -p "$d"/{ns,pkg,py,ext,abi3,so,pyc,other,both,initext,ns2}
pkg "$d/pkg" 2.5.1
mkdir -p "$d/ns/torch"
echo "__version__ = '9.9.9'" >"$d/ns/torch/version.py"
layout ns-then-pkg "$d/ns" "$d/pkg"

echo 'x = 1' >"$d/py/torch.py"
layout py-then-pkg "$d/py" "$d/pkg"

: >"$d/ext/torch$EXT"
mkdir -p "$d/ext/torch"
layout ext-then-pkg "$d/ext" "$d/pkg"

: >"$d/abi3/torch.abi3.so"
layout abi3-then-pkg "$d/abi3" "$d/pkg"
: >"$d/so/torch.so"
layout so-then-pkg "$d/so" "$d/pkg"
: >"$d/pyc/torch.pyc"
layout pyc-then-pkg "$d/pyc" "$d/pkg"

: >"$d/other/torch.cpython-399-x86_64-linux-gnu.so"
layout other-abi "$d/other" "$d/pkg"

pkg "$d/both" 2.6.0
echo 'x = 1' >"$d/both/torch.py"
layout pkg-and-py "$d/both" "$d/pkg"

pkg "$d/initext" 2.7.0
rm "$d/initext/torch/__init__.py"
: >"$d/initext/torch/__init__$EXT"
layout init-ext "$d/initext" "$d/pkg"

# namespace portions only count when no package is found on the whole
# path: the Debian dist-packages torch (python3-torch) may be one, so the
# portions alone are tried in a venv without system site-packages
mkdir -p "$d/ns2/torch"
"$PY" -m venv --without-pip "$tmp/venv" || die "python3 -m venv failed (apt-get install python3-venv)"
LPY=$tmp/venv/bin/python3
layout ns-only "$d/ns" "$d/ns2"
layout ns-only-one "$d/ns2"
layout ns-then-module "$d/ns" "$d/py" "$d/pkg"
LPY=$PY
layout ns-then-debian "$d/ns" "$d/ns2"

# --- the same with each pyenv Python: its own extension suffix
n=0
for p in "${PYENV_ROOT:-/root/.pyenv}"/versions/3.*/bin/python3; do
	[ -x "$p" ] || continue
	ver=$(basename "$(dirname "$(dirname "$p")")")
	case $ver in 3.[0-7].*) continue ;; esac
	n=$((n + 1))
	LPY=$p
	suf=$("$p" -c 'import importlib.machinery as m; print(m.EXTENSION_SUFFIXES[0])')
	mkdir -p "$d/ext-$ver"
	: >"$d/ext-$ver/torch$suf"
	layout "ext-then-pkg-pyenv-$ver" "$d/ext-$ver" "$d/pkg"
	layout "other-abi-pyenv-$ver" "$d/other" "$d/pkg"
	layout "ns-then-pkg-pyenv-$ver" "$d/ns" "$d/pkg"
done
[ $n -gt 0 ] || note "no pyenv Python 3.8+: the pyenv layouts not run (expected in CI)"
LPY=$PY

# --- warnings
w=$tmp/w
mkdir -p "$w/cwd/torch" "$w/meta/torch-2.4.0.dist-info"
: >"$w/cwd/torch/__init__.py"
pkg "$w/pkg" 2.5.1
pkg "$w/old" 2.3.0
E=(env -i HOME="$tmp/home" PATH=/usr/bin:/bin)
origin=$(cd "$w/cwd" && "${E[@]}" PYTHONPATH="$w/pkg" "$PY" -c 'import importlib.util as u; print(u.find_spec("torch").origin)')
check "cwd-package: python -c imports" "$origin" "$w/cwd/torch/__init__.py"
got=$(cd "$w/cwd" && "${E[@]}" PYTHONPATH="$w/pkg" "$TG" probe --python "$PY" --field location 2>&1 >/dev/null)
check_has "cwd-package: warning" "$got" "warning: the current directory holds '$w/cwd/torch': 'python -c \"import torch\"' run here imports it"
got=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/pkg" "$TG" probe --python "$PY" --field location 2>&1 >/dev/null)
check_lacks "cwd-package: no warning elsewhere" "$got" "current directory"

printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n' >"$w/meta/torch-2.4.0.dist-info/METADATA"
mv=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/meta:$w/pkg" "$PY" -c 'import importlib.metadata as m; print(m.version("torch"))')
origin=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/meta:$w/pkg" "$PY" -c 'import importlib.util as u; print(u.find_spec("torch").origin)')
check "meta-elsewhere: python's metadata" "$mv" 2.4.0
check "meta-elsewhere: python imports" "$origin" "$w/pkg/torch/__init__.py"
got=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/meta:$w/pkg" "$TG" probe --python "$PY" --field version 2>&1)
check_has "meta-elsewhere: probe" "$got" "torchgate: probe: warning: importlib.metadata.version(\"torch\") gives $mv (from '$w/meta/torch-2.4.0.dist-info') while 'import torch' gives 2.5.1 (from '$w/pkg/torch'): tools that read metadata (pip, packaging) see another torch"

origin=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/pkg:$w/old" "$PY" -c 'import importlib.util as u; print(u.find_spec("torch").origin)')
check "shadowed-other: python imports" "$origin" "$w/pkg/torch/__init__.py"
got=$(cd "$w" && "${E[@]}" PYTHONPATH="$w/pkg:$w/old" "$TG" probe --python "$PY" 2>"$tmp/err" | sed -n 2p)
check "shadowed-other: second line of the report" "$got" "  shadowed       torch 2.3.0 at $w/old/torch (not imported: details below)"
check_has "shadowed-other: stderr" "$(cat "$tmp/err")" \
	"warning: torch 2.3.0 at '$w/old/torch' is shadowed: 'import torch' imports torch 2.5.1 from '$w/pkg/torch'"

finish
