#!/bin/bash
# syspath-vs-python.sh - torchgate's sys.path against the interpreter's own
# SPDX-License-Identifier: MIT
#
# usage: syspath-vs-python.sh TORCHGATE SRCDIR
#
# 'torchgate probe --field sys_path' works sys.path out from files; here
# each real interpreter is run with the very same environment (env -i plus
# exactly the variables a scenario names, same working directory) and its
# own sys.path[1:] must come out line for line the same. So must
# '--field python_version' against sys.version_info[:2].
#
# Interpreters: the Debian /usr/bin/python3 (required: its absence is a
# failure) and every $PYENV_ROOT/versions/*/bin/python3 (tested when
# present; CI has no pyenv, which is reported as a note). Scenarios, per
# interpreter:
#   1 plain, HOME an empty directory
#   2 user site under HOME, the same with PYTHONNOUSERSITE=1, and
#     PYTHONUSERBASE
#   3 PYTHONPATH: absolute, relative, empty, nonexistent, '..' entries
#   4 python -m venv --without-pip, with and without
#     --system-site-packages, probed as venv/bin/python3 and venv/bin/python
#   5 .pth files in a venv's site-packages
# and once, when pyenv is present:
#   6 python3 found through the pyenv shims (PYENV_VERSION, .python-version
#     in a parent directory of the cwd, $PYENV_ROOT/version)
# Checks marked "(extra)" go beyond the basic list.
#
# torchgate's exit status is not judged for these fields (it is 3 when no
# torch is found), except that a crash (status >= 126) fails; that the path
# is printed even when no torch is found is checked on its own.
# Everything is created under one mktemp -d directory, removed on exit.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
tg=$TG
caller_path=$PATH
caller_home=${HOME:-}

PY_SYSPATH='import sys; print("\n".join(sys.path[1:]))'
PY_VERSION='import sys; print("%d.%d" % sys.version_info[:2])'
PY_EXE='import sys; print(sys.executable)'
# a UTF-8 locale, as users have: Python < 3.7 reads .pth files as ASCII in C
LOC=LC_ALL=C.UTF-8

ncmp=0
ENVV=()  # the scenario's whole environment, NAME=VALUE
cwd=$tmp # the scenario's working directory

# run OUT ERR CMD...: CMD in $cwd with exactly the environment ENVV
run() {
	local out=$1 err=$2
	shift 2
	(cd "$cwd" && exec env -i "${ENVV[@]}" "$@") >"$out" 2>"$err"
}

show_context() {
	local e
	printf '      cwd: %s\n' "$cwd"
	printf '      env -i'
	for e in "${ENVV[@]}"; do
		printf ' %q' "$e"
	done
	printf '\n'
}

indent() {
	sed 's/^/      | /' "$1"
}

# check_syspath LABEL PYTHON [PROBE_ARGS...]: PYTHON -c sys.path[1:] against
# 'torchgate probe PROBE_ARGS --field sys_path', and the version likewise
check_syspath() {
	local label=$1 py=$2 d prc vrc trc tvrc bad=
	shift 2
	ncmp=$((ncmp + 1))
	d=$tmp/cmp/$ncmp
	mkdir -p "$d"
	run "$d/py.path" "$d/py.err" "$py" -c "$PY_SYSPATH"
	prc=$?
	run "$d/py.ver" "$d/py.verr" "$py" -c "$PY_VERSION"
	vrc=$?
	run "$d/tg.path" "$d/tg.err" "$tg" probe "$@" --field sys_path
	trc=$?
	run "$d/tg.ver" "$d/tg.verr" "$tg" probe "$@" --field python_version
	tvrc=$?
	if [ $prc -ne 0 ] || [ $vrc -ne 0 ]; then
		fail "$label: the interpreter itself failed"
		show_context
		printf '      %s exited %s/%s:\n' "$py" $prc $vrc
		cat "$d/py.err" "$d/py.verr" | sed 's/^/      | /'
		return
	fi
	[ $trc -ge 126 ] && bad="$bad torchgate-crashed($trc)"
	[ $tvrc -ge 126 ] && bad="$bad torchgate-crashed($tvrc)"
	cmp -s "$d/py.path" "$d/tg.path" || bad="$bad sys_path"
	cmp -s "$d/py.ver" "$d/tg.ver" || bad="$bad python_version"
	if [ -z "$bad" ]; then
		ok "$label"
		return
	fi
	fail "$label [${bad# }]"
	show_context
	printf '      torchgate probe'
	printf ' %q' "$@"
	printf ' --field sys_path   (exit %s)\n' $trc
	if ! cmp -s "$d/py.path" "$d/tg.path"; then
		diff -u --label "python: $py -c 'sys.path[1:]'" \
			--label "torchgate: probe $* --field sys_path" \
			"$d/py.path" "$d/tg.path" | sed 's/^/      /'
	fi
	if ! cmp -s "$d/py.ver" "$d/tg.ver"; then
		printf '      python_version: python %s, torchgate %s (exit %s)\n' \
			"$(cat "$d/py.ver")" "$(cat "$d/tg.ver")" $tvrc
	fi
	if [ -s "$d/tg.err" ]; then
		printf '      torchgate stderr:\n'
		indent "$d/tg.err"
	fi
}

# check_field LABEL EXPECTED FIELD [PROBE_ARGS...]
check_field() {
	local label=$1 want=$2 field=$3 d rc got
	shift 3
	ncmp=$((ncmp + 1))
	d=$tmp/cmp/$ncmp
	mkdir -p "$d"
	run "$d/out" "$d/err" "$tg" probe "$@" --field "$field"
	rc=$?
	got=$(cat "$d/out")
	if [ "$got" = "$want" ] && [ $rc -lt 126 ]; then
		ok "$label"
		return
	fi
	fail "$label"
	show_context
	printf '      torchgate probe'
	printf ' %q' "$@"
	printf ' --field %s   (exit %s)\n' "$field" $rc
	printf '      want: %s\n      got:  %s\n' "$want" "$got"
	[ -s "$d/err" ] && { printf '      torchgate stderr:\n'; indent "$d/err"; }
}

# mkvenv DIR PYTHON [ARGS...]
mkvenv() {
	local dir=$1 py=$2
	shift 2
	if ! (cd "$tmp" && env -i "PATH=$caller_path" "$LOC" "HOME=$tmp" \
		"$py" -m venv --without-pip "$@" "$dir") >"$dir.log" 2>&1; then
		fail "cannot create venv $dir with $py -m venv --without-pip $*"
		indent "$dir.log"
		return 1
	fi
}

# pth_reset SITEDIR: remove what the previous .pth case wrote
pth_reset() {
	rm -f "$1"/*.pth "$1"/.*.pth "$1"/*.PTH "$1"/*.egg-link
}

# test_interp TAG PYTHON: scenarios 1 to 5 for one base interpreter
test_interp() {
	local tag=$1 py=$2 xy base home emptyhome venv sp P v b f
	xy=$(env -i "PATH=$caller_path" "$LOC" "HOME=$tmp" "$py" -c "$PY_VERSION") || {
		fail "$tag: $py does not run"
		return
	}
	printf '\n=== %s: %s (Python %s)\n' "$tag" "$py" "$xy"
	base=$tmp/$tag
	emptyhome=$base/emptyhome
	home=$base/home
	mkdir -p "$base/work/relpp" "$emptyhome" \
		"$home/.local/lib/python$xy/site-packages" \
		"$base/ub/lib/python$xy/site-packages" \
		"$base/pp/abs" "$base/pp/sub" "$base/pp/dotdot" \
		"$base/usite-pth-target"
	printf '%s\n' "$base/usite-pth-target" \
		>"$home/.local/lib/python$xy/site-packages/usite.pth"

	# 1. the plain interpreter
	cwd=$base/work
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$emptyhome")
	check_syspath "$tag 1 plain, empty HOME" "$py" --python "$py"

	# 2. user site
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$home")
	check_syspath "$tag 2 user site \$HOME/.local/lib/python$xy/site-packages (with a .pth)" \
		"$py" --python "$py"
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$home" "PYTHONNOUSERSITE=1")
	check_syspath "$tag 2 user site, PYTHONNOUSERSITE=1" "$py" --python "$py"
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$home" "PYTHONUSERBASE=$base/ub")
	check_syspath "$tag 2 PYTHONUSERBASE=\$tmp/ub" "$py" --python "$py"
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$home" "PYTHONNOUSERSITE=")
	check_syspath "$tag 2 user site, PYTHONNOUSERSITE= (empty) (extra)" "$py" --python "$py"
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$home" "PYTHONNOUSERSITE=0")
	check_syspath "$tag 2 user site, PYTHONNOUSERSITE=0 (extra)" "$py" --python "$py"

	# 3. PYTHONPATH
	for v in "$base/pp/abs" relpp "$base/pp/abs::$base/pp/dotdot" \
		"$base/pp/nonexistent" "$base/pp/sub/../dotdot" \
		"$base/pp/abs:relpp::$base/pp/nonexistent:$base/pp/sub/../dotdot" \
		"$base/pp/abs/"; do
		case $v in
		*/) f=" (extra)" ;;
		*) f= ;;
		esac
		ENVV=("PATH=$caller_path" "$LOC" "HOME=$emptyhome" "PYTHONPATH=$v")
		check_syspath "$tag 3 PYTHONPATH=${v//$tmp/\$tmp}$f" "$py" --python "$py"
	done
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$emptyhome" "PYTHONPATH=")
	check_syspath "$tag 3 PYTHONPATH= (set, empty) (extra)" "$py" --python "$py"

	# 4. venvs
	for v in nosys sys; do
		mkdir -p "$base/$v"
		if [ $v = sys ]; then
			mkvenv "$base/$v/venv" "$py" --system-site-packages || continue
		else
			mkvenv "$base/$v/venv" "$py" || continue
		fi
		cwd=$base/$v
		for h in "$emptyhome" "$home"; do
			if [ "$h" = "$home" ]; then f="HOME with a user site"; else f="empty HOME"; fi
			ENVV=("PATH=$caller_path" "$LOC" "HOME=$h")
			for b in python3 python; do
				check_syspath "$tag 4 venv ($v-site-packages), $f, --python venv/bin/$b" \
					"venv/bin/$b" --python "venv/bin/$b"
			done
			check_syspath "$tag 4 venv ($v-site-packages), $f, --python \$tmp/.../venv/bin/python3 (extra)" \
				"$cwd/venv/bin/python3" --python "$cwd/venv/bin/python3"
		done
		cwd=$base/work
		ENVV=("PATH=$base/$v/venv/bin:$caller_path" "$LOC" "HOME=$home" "VIRTUAL_ENV=$base/$v/venv")
		check_syspath "$tag 4 venv ($v-site-packages) activated: VIRTUAL_ENV and PATH, no --python (extra)" \
			"$base/$v/venv/bin/python3"
	done

	# torch absent: --field sys_path must still print the path
	venv=$base/nosys/venv
	if [ -x "$venv/bin/python3" ]; then
		cwd=$base/nosys
		ENVV=("PATH=$caller_path" "$LOC" "HOME=$emptyhome")
		run "$tmp/nt.out" "$tmp/nt.err" "$tg" probe --python venv/bin/python3
		b=$?
		run "$tmp/nt.path" "$tmp/nt.perr" "$tg" probe --python venv/bin/python3 --field sys_path
		v=$?
		if [ $b -ne 3 ]; then
			fail "$tag 4 venv without system site-packages: want 'no torch found' (exit 3) from torchgate probe, got exit $b"
			indent "$tmp/nt.err"
		elif [ ! -s "$tmp/nt.path" ] || [ $v -ge 126 ]; then
			fail "$tag 4 no torch found: --field sys_path prints nothing (exit $v)"
			indent "$tmp/nt.perr"
		else
			ok "$tag 4 no torch found (probe exit 3): --field sys_path still prints the path (exit $v)"
		fi
	fi

	# 5. .pth files
	venv=$base/pth/venv
	mkdir -p "$base/pth"
	mkvenv "$venv" "$py" || return
	sp=$venv/lib/python$xy/site-packages
	if [ ! -d "$sp" ]; then
		fail "$tag 5 venv has no $sp"
		return
	fi
	P=$base/pthdirs
	mkdir -p "$P"/{abs,comment,b1,b2,imp,dup,trail,trail2,order-A,order-a,order-b,crlf1,crlf2,hidden,bom,relup,nested} \
		"$sp/reldir" "$sp/importable" "$base/src/myproj/myproj"
	: >"$P/thing.egg"
	printf '%s\n' "$P/nested" >"$P/abs/nested.pth"
	cwd=$base/work
	ENVV=("PATH=$caller_path" "$LOC" "HOME=$emptyhome")

	pth_case() {
		check_syspath "$tag 5 .pth: $1" "$venv/bin/python3" --python "$venv/bin/python3"
		pth_reset "$sp"
	}
	pth_reset "$sp"
	printf '%s\n' "$P/abs" >"$sp/t.pth"
	pth_case "absolute path line"
	printf 'reldir\n' >"$sp/t.pth"
	pth_case "relative path line"
	printf '../../../../../pthdirs/relup\n' >"$sp/t.pth"
	pth_case "relative path line with .. (extra)"
	printf '#%s\n# %s\n%s\n' "$P/comment" "$P/comment" "$P/b1" >"$sp/t.pth"
	pth_case "comment lines"
	printf '%s\n\n   \n%s\n' "$P/b1" "$P/b2" >"$sp/t.pth"
	pth_case "blank and whitespace-only lines"
	printf 'import sys\n%s\nimport\tsys\n' "$P/imp" >"$sp/t.pth"
	pth_case "'import sys' lines"
	printf 'importable\n' >"$sp/t.pth"
	pth_case "line 'importable' (starts with 'import', no blank: a path) (extra)"
	printf '%s\n%s\n' "$P/does-not-exist" "$P/b1" >"$sp/t.pth"
	pth_case "nonexistent dir line"
	printf '%s\n%s\n%s\n' "$P/dup" "$P/b1" "$P/dup" >"$sp/t.pth"
	pth_case "duplicate line"
	printf '%s\n%s/\n%s\n%s\n' "$P/dup" "$P/dup" "$P/b1/../dup" "$sp" >"$sp/t.pth"
	pth_case "duplicates spelt differently, and the site dir itself (extra)"
	printf '%s   \n%s \t \n' "$P/trail" "$P/trail2" >"$sp/t.pth"
	pth_case "trailing spaces (and a tab)"
	printf '%s\n' "$P/order-b" >"$sp/b.pth"
	printf '%s\n' "$P/order-a" >"$sp/a.pth"
	printf '%s\n' "$P/order-A" >"$sp/A.pth"
	printf '%s\n' "$P/b1" >"$sp/ignored.PTH"
	pth_case "several .pth files: sorted by name (b.pth, a.pth, A.pth written; also ignored.PTH)"
	printf '%s\r\n%s\r\n' "$P/crlf1" "$P/crlf2" >"$sp/crlf.pth"
	pth_case "CRLF line ends"
	printf '%s\n' "$base/src/myproj" >"$sp/easy-install.pth"
	printf '%s\n.' "$base/src/myproj" >"$sp/myproj.egg-link"
	pth_case "easy-install.pth + myproj.egg-link source dir"
	printf '%s\n' "$P/thing.egg" >"$sp/t.pth"
	pth_case "line naming an existing file (an .egg) (extra)"
	printf '%s\n' "$P/abs" >"$sp/t.pth"
	pth_case "a .pth inside a dir added by a .pth is not read (extra)"
	printf '%s\n' "$P/hidden" >"$sp/.hidden.pth"
	pth_case "hidden .hidden.pth (CPython 3.13 skips it) (extra)"
	printf '\357\273\277%s\n' "$P/bom" >"$sp/bom.pth"
	pth_case "UTF-8 BOM in a .pth (CPython >= 3.13 strips it) (extra)"
	# everything at once
	{
		printf '# a comment\n\n'
		printf '%s\n' "$P/abs" reldir "$P/does-not-exist"
		printf 'import sys\n'
		printf '%s   \n' "$P/trail"
		printf '%s\n' "$P/abs" "$P/dup"
	} >"$sp/all.pth"
	printf '%s\n' "$P/order-b" >"$sp/b.pth"
	printf '%s\n' "$P/order-a" >"$sp/a.pth"
	printf '%s\n' "$P/order-A" >"$sp/A.pth"
	printf '%s\r\n%s\r\n' "$P/crlf1" "$P/dup" >"$sp/crlf.pth"
	printf '%s\n' "$base/src/myproj" >"$sp/easy-install.pth"
	printf '%s\n.' "$base/src/myproj" >"$sp/myproj.egg-link"
	pth_case "all of the above together (without the extras)"
}

# --- interpreters -----------------------------------------------------------

debian=/usr/bin/python3
if [ ! -x "$debian" ]; then
	fail "the Debian interpreter $debian does not exist: it is required"
else
	test_interp debian "$debian"
fi

pyenv_root=
for r in "${PYENV_ROOT:-}" "${caller_home:+$caller_home/.pyenv}" /root/.pyenv; do
	[ -n "$r" ] && [ -d "$r/versions" ] && { pyenv_root=$r; break; }
done
pyenv_versions=()
if [ -n "$pyenv_root" ]; then
	for d in "$pyenv_root"/versions/*/; do
		[ -d "$d" ] || continue
		v=$(basename "$d")
		if [ -x "$d/bin/python3" ]; then
			pyenv_versions+=("$v")
		else
			note "pyenv version $v has no bin/python3: not tested"
		fi
	done
fi
if [ ${#pyenv_versions[@]} -eq 0 ]; then
	echo
	note "no pyenv interpreter (\$PYENV_ROOT/versions/*/bin/python3, ~/.pyenv, /root/.pyenv):"
	note "pyenv scenarios not run. That is expected in CI, which has no pyenv."
else
	for v in "${pyenv_versions[@]}"; do
		test_interp "pyenv-$v" "$pyenv_root/versions/$v/bin/python3"
	done
fi

# --- 6. pyenv shims ---------------------------------------------------------

# shim_check LABEL WANT_PYTHON [PYENV_VERSION]: in $cwd, python3 through
# the shims must be WANT_PYTHON (else the test setup is wrong), torchgate
# without --python must name it and give its sys.path
shim_check() {
	local label=$1 want=$2 got
	ncmp=$((ncmp + 1))
	run "$tmp/shim.out" "$tmp/shim.err" python3 -c "$PY_EXE"
	got=$(cat "$tmp/shim.out")
	if [ -z "$want" ]; then
		want=$got
	fi
	if [ "$got" != "$want" ] || [ -z "$got" ]; then
		fail "$label: pyenv itself resolved python3 to '$got', the test expected '$want'"
		show_context
		indent "$tmp/shim.err"
		return
	fi
	check_syspath "$label: sys_path" "$want"
	check_field "$label: --field python names $want" "$want" python
}

if [ ${#pyenv_versions[@]} -ne 0 ]; then
	printf '\n=== pyenv shims (%s)\n' "$pyenv_root"
	if [ ! -x "$pyenv_root/shims/python3" ]; then
		note "no $pyenv_root/shims/python3 (pyenv rehash not run?): shim scenarios not run"
	else
		global=
		[ -f "$pyenv_root/version" ] && global=$(head -n 1 "$pyenv_root/version")
		v_env= v_file=
		for v in "${pyenv_versions[@]}"; do
			[ "$v" = "$global" ] && continue
			if [ -z "$v_env" ]; then v_env=$v
			elif [ -z "$v_file" ]; then v_file=$v
			fi
		done
		[ -n "$v_env" ] || v_env=${pyenv_versions[0]}
		[ -n "$v_file" ] || v_file=$v_env
		note "global version '${global:-none}', PYENV_VERSION test uses $v_env, .python-version test uses $v_file"
		home=$tmp/shimhome
		mkdir -p "$home" "$tmp/shim/proj/sub" "$tmp/shim/plain"
		printf '%s\n' "$v_file" >"$tmp/shim/proj/.python-version"
		spath="PATH=$pyenv_root/shims:$caller_path"

		cwd=$tmp/shim/plain
		ENVV=("$spath" "$LOC" "HOME=$home" "PYENV_ROOT=$pyenv_root" "PYENV_VERSION=$v_env")
		shim_check "6 shim, PYENV_VERSION=$v_env" \
			"$pyenv_root/versions/$v_env/bin/python3"
		ENVV=("$spath" "$LOC" "HOME=$home" "PYENV_VERSION=$v_env")
		shim_check "6 shim, PYENV_VERSION=$v_env, PYENV_ROOT unset (extra)" \
			"$pyenv_root/versions/$v_env/bin/python3"

		cwd=$tmp/shim/proj/sub
		ENVV=("$spath" "$LOC" "HOME=$home" "PYENV_ROOT=$pyenv_root")
		shim_check "6 shim, .python-version ($v_file) in the cwd's parent" \
			"$pyenv_root/versions/$v_file/bin/python3"

		# $PYENV_ROOT/version applies only when no .python-version is
		# found from the cwd up
		cwd=$tmp/shim/plain
		d=$cwd
		while [ "$d" != / ] && [ ! -e "$d/.python-version" ]; do d=$(dirname "$d"); done
		if [ -e "$d/.python-version" ]; then
			note "$d/.python-version exists: the \$PYENV_ROOT/version check is not run"
		elif [ -n "$global" ] && [ -x "$pyenv_root/versions/$global/bin/python3" ]; then
			ENVV=("$spath" "$LOC" "HOME=$home" "PYENV_ROOT=$pyenv_root")
			shim_check "6 shim, \$PYENV_ROOT/version ($global) (extra)" \
				"$pyenv_root/versions/$global/bin/python3"
		else
			note "\$PYENV_ROOT/version names '${global:-nothing}', not an installed python3: that check is not run"
		fi
		ENVV=("$spath" "$LOC" "HOME=$home" "PYENV_ROOT=$pyenv_root" "PYENV_VERSION=system")
		shim_check "6 shim, PYENV_VERSION=system (extra)" ""
	fi
fi

# --- summary ----------------------------------------------------------------

echo
finish
