#!/bin/bash
# debian-torch.sh - probe Debian's python3-torch + libtorch-dev, check every field
# SPDX-License-Identifier: MIT
#
# usage: debian-torch.sh TORCHGATE SRCDIR
#
# Runs `torchgate probe --python /usr/bin/python3` on the real Debian
# install and checks every field it reports against the files on disk.
# The expected values are computed here, independently, with grep, sed,
# awk, dpkg-query, dpkg -L and readlink; Python is run only to read
# torchgate's JSON and to print its own sys.path. torch is never imported
# and no torch version is written in this file. It fails, never skips,
# when python3-torch or libtorch-dev is not installed.
# shellcheck disable=SC2154 # J_* come from torchgate's JSON, sourced below
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3
NULL='<null>'

# ---- prerequisites: never skip ----------------------------------------
need_deb python3-torch libtorch-dev
need "$PY" "the Debian interpreter (python3-minimal)"
need_cmd pkg-config g++ make readlink awk sed grep

# ---- what torchgate says ----------------------------------------------
"$TG" probe --python "$PY" --format=json >"$tmp/probe.json" 2>"$tmp/probe.err"
rc=$?
check "probe --format=json exit status" "$rc" 0
[ -s "$tmp/probe.err" ] && { echo "stderr of probe:"; cat "$tmp/probe.err"; }
[ -s "$tmp/probe.json" ] || die "probe printed no JSON"

# Flatten the JSON into shell variables (J_*); null is '<null>'.
"$PY" - "$tmp/probe.json" >"$tmp/j.sh" <<'PYEOF' || die "torchgate's JSON does not parse"
import json, shlex, sys
d = json.load(open(sys.argv[1]))
NULL = '<null>'
def s(v):
    if v is None: return NULL
    if v is True: return 'true'
    if v is False: return 'false'
    if isinstance(v, (list, dict)): return json.dumps(v)
    return str(v)
def q(v): return shlex.quote(s(v))
def arr(name, vs): print('%s=(%s)' % (name, ' '.join(q(v) for v in vs)))
want = {
  '': ['schema_version', 'python', 'search_path', 'torch', 'shadowed', 'problems'],
  'python': ['executable', 'version', 'prefix', 'base_prefix', 'venv', 'pyvenv_cfg', 'resolved_via', 'system_site_packages'],
  'torch': ['location', 'version', 'version_source', 'agreement', 'sources', 'cuda', 'hip', 'rocm', 'xpu',
            'git_version', 'debug', 'cxx11_abi', 'cxx11_abi_evidence', 'cxx_standard', 'include_dirs',
            'include_real', 'library_dir', 'library_real', 'libraries', 'cmake_dir', 'metadata_dir',
            'installer', 'wheel_tags', 'record', 'direct_url', 'editable', 'problems'],
}
missing = [('%s.%s' % (o, k) if o else k) for o, ks in want.items() for k in ks
           if k not in (d.get(o) or {} if o else d)]
arr('J_missing', missing)
print('J_schema_version=%s' % q(d.get('schema_version')))
for o in ('python', 'torch'):
    for k, v in (d.get(o) or {}).items():
        if isinstance(v, list) and all(not isinstance(x, (list, dict)) for x in v):
            arr('J_%s_%s' % (o, k), v)
            print('J_%s_%s_n=%d' % (o, k, len(v)))
        else:
            print('J_%s_%s=%s' % (o, k, q(v)))
t = d.get('torch') or {}
srcs = t.get('sources') or []
for f in ('source', 'file', 'value', 'pep440'):
    arr('J_src_' + f, [x.get(f) for x in srcs])
sp = d.get('search_path') or []
for f in ('dir', 'origin', 'pth'):
    arr('J_sp_' + f, [x.get(f) for x in sp])
pl = d.get('skipped_pth_lines') or []
for f in ('file', 'line', 'text'):
    arr('J_pth_' + f, [x.get(f) for x in pl])
sh = d.get('shadowed') or []
arr('J_shadowed', [x if isinstance(x, str) else (x.get('location') or x.get('dir')) for x in sh])
print('J_problems_n=%d' % len(d.get('problems') or []))
print('J_problems=%s' % q(d.get('problems')))
PYEOF
# shellcheck disable=SC1091
. "$tmp/j.sh"

check "JSON keys missing" "${J_missing[*]}" ""
check "schema_version" "$J_schema_version" 1

# ---- the interpreter: /usr/bin/python3 says ---------------------------
mapfile -t py_path < <("$PY" -c 'import sys
for p in sys.path[1:]: print(p)')
mapfile -t py_stdlib < <("$PY" -S -c 'import sys
for p in sys.path[1:]: print(p)')
py_ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
py_prefix=$("$PY" -c 'import sys; print(sys.prefix)')
py_base=$("$PY" -c 'import sys; print(sys.base_prefix)')
# the version as the executable's real name says it, too
real_py=$(readlink -f "$PY")
name_ver=$(basename "$real_py" | sed -n 's/^python\([0-9]*\.[0-9]*\)$/\1/p')
[ -n "$name_ver" ] && check "python version (from ${real_py##*/})" "$py_ver" "$name_ver"

check "python.executable" "$J_python_executable" "$PY"
check "python.version" "$J_python_version" "$py_ver"
check "python.prefix" "$J_python_prefix" "$py_prefix"
check "python.base_prefix" "$J_python_base_prefix" "$py_base"
[ "$py_prefix" = "$py_base" ] && want_venv=false || want_venv=true
check "python.venv" "$J_python_venv" "$want_venv"
want_cfg=$NULL
for c in "$(dirname "$PY")/pyvenv.cfg" "$(dirname "$(dirname "$PY")")/pyvenv.cfg"; do
	[ -f "$c" ] && { want_cfg=$c; break; }
done
check "python.pyvenv_cfg" "$J_python_pyvenv_cfg" "$want_cfg"
[ "$want_cfg" = "$NULL" ] && check "python.system_site_packages" "$J_python_system_site_packages" "$NULL"
# /usr/bin/python3 is the interpreter itself (ELF), not a shim script
if [ "$(head -c 4 "$real_py" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	check "python.resolved_via" "$J_python_resolved_via" "$NULL"
fi

# search_path must be Python's own sys.path, in order, without ''
check "search_path (dirs, in order)" "${J_sp_dir[*]}" "${py_path[*]}"
for i in "${!J_sp_dir[@]}"; do
	dir=${J_sp_dir[$i]} origin=${J_sp_origin[$i]} want=
	case ":${PYTHONPATH:-}:" in *":$dir:"*) want=PYTHONPATH ;; esac
	if [ -z "$want" ]; then
		for s in "${py_stdlib[@]}"; do [ "$s" = "$dir" ] && want=stdlib; done
	fi
	if [ -z "$want" ]; then
		for s in $("$PY" -c 'import site; print("\n".join(site.getsitepackages()))'); do
			[ "$s" = "$dir" ] && want=site
		done
		[ "$("$PY" -c 'import site; print(site.getusersitepackages())')" = "$dir" ] && want=user-site
	fi
	[ -n "$want" ] && check "search_path[$i] origin ($dir)" "$origin" "$want"
done
check "field sys_path" "$("$TG" probe --python "$PY" --field sys_path | tr '\n' ' ')" "$(printf '%s ' "${py_path[@]}")"
check "field python" "$("$TG" probe --python "$PY" --field python)" "$PY"
check "field python_version" "$("$TG" probe --python "$PY" --field python_version)" "$py_ver"
check "field prefix" "$("$TG" probe --python "$PY" --field prefix)" "$py_prefix"

# .pth lines that Python executes ("import ..."): torchgate skips them and
# says so. Python reads the .pth files of each site dir in sorted order.
want_pth=() got_pth=()
for i in "${!J_sp_dir[@]}"; do
	[ "${J_sp_origin[$i]}" = site ] || continue
	for f in "${J_sp_dir[$i]}"/*.pth; do
		[ -f "$f" ] || continue
		while IFS= read -r n; do want_pth+=("$f:$n"); done < <(awk '/^import[ \t]/ { print FNR }' "$f")
	done
done
for i in "${!J_pth_file[@]}"; do
	got_pth+=("${J_pth_file[$i]}:${J_pth_line[$i]}")
	line=$(sed -n "${J_pth_line[$i]}p" "${J_pth_file[$i]}" 2>/dev/null)
	case "$line" in
	"${J_pth_text[$i]}"*) ok "skipped_pth_lines[$i].text starts ${J_pth_file[$i]} line ${J_pth_line[$i]}" ;;
	*) fail "skipped_pth_lines[$i].text is not the start of ${J_pth_file[$i]} line ${J_pth_line[$i]}" ;;
	esac
done
check "skipped_pth_lines (file:line)" "${got_pth[*]}" "${want_pth[*]}"

# ---- where torch is: the first sys.path entry with a torch package -----
entry='' shadow=()
for d in "${py_path[@]}"; do
	if [ -f "$d/torch/__init__.py" ] || [ -f "$d/torch/version.py" ]; then
		if [ -z "$entry" ]; then entry=$d; else shadow+=("$d/torch"); fi
	fi
done
[ -n "$entry" ] || die "no sys.path entry of $PY holds torch/__init__.py"
loc=$entry/torch
dpkg -L python3-torch | grep -qx "$loc/version.py" && ok "$loc/version.py is a file of python3-torch" ||
	fail "$loc/version.py is not a file of python3-torch: the torch $PY imports is not Debian's"
check "torch.location" "$J_torch_location" "$loc"
check "torch.path_entry" "$J_torch_path_entry" "$entry"
check "shadowed" "${J_shadowed[*]}" "${shadow[*]}"
check "field shadowed" "$("$TG" probe --python "$PY" --field shadowed | tr '\n' ' ')" "$(printf '%s ' "${shadow[@]}" | sed 's/^ $//')"

# ---- version sources ----------------------------------------------------
# src_get SOURCE FIELD: that field of the named source in torchgate's list
src_get() {
	local i
	for i in "${!J_src_source[@]}"; do
		if [ "${J_src_source[$i]}" = "$1" ]; then
			case $2 in
			file) echo "${J_src_file[$i]}" ;;
			value) echo "${J_src_value[$i]}" ;;
			pep440) echo "${J_src_pep440[$i]}" ;;
			esac
			return 0
		fi
	done
	echo "<absent>"
}
# the metadata header block's Version
meta_version() { awk '/^[ \t]*$/ { exit } /^Version:/ { sub(/^Version:[ \t]*/, ""); sub(/[ \t\r]*$/, ""); print; exit }' "$1"; }
# a top-level assignment in version.py, as text: None, True, False or the string
pyval() {
	local raw
	raw=$(sed -nE "s/^$1[[:space:]]*(:[^=]*)?=[[:space:]]*(.*[^[:space:]])[[:space:]]*\$/\\2/p" "$2" | tail -n 1)
	[ -n "$raw" ] || { echo "$NULL"; return; }
	case $raw in
	\'*\') raw=${raw#\'}; echo "${raw%\'}" ;;
	\"*\") raw=${raw#\"}; echo "${raw%\"}" ;;
	None) echo "$NULL" ;;
	True) echo true ;;
	False) echo false ;;
	*) echo "$raw" ;;
	esac
}
# MAJOR.MINOR.PATCH from a version.h, empty when it has no macros
vh_version() {
	awk '/^#[ \t]*define[ \t]+TORCH_VERSION_(MAJOR|MINOR|PATCH)[ \t]/ { v[$2] = $3 }
	     END { if ("TORCH_VERSION_MAJOR" in v) print v["TORCH_VERSION_MAJOR"] "." v["TORCH_VERSION_MINOR"] "." v["TORCH_VERSION_PATCH"] }' "$1"
}
# canonical PEP 440 text is its own normal form
is_canonical() { echo "$1" | grep -Eqx '([0-9]+!)?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?(\+[a-z0-9]+(\.[a-z0-9]+)*)?'; }

want_sources=() want_pep=()
# add_source NAME FILE VALUE PEP440 ; FILE compared after readlink -f
add_source() {
	local got_file
	want_sources+=("$1")
	want_pep+=("$4")
	got_file=$(src_get "$1" file)
	if [ "$got_file" = "<absent>" ]; then
		fail "sources: no '$1' source, but $2 says $3"
		return
	fi
	case $1 in
	dpkg) check "source $1 file" "$got_file" "$2" ;;
	*) check "source $1 file (real path)" "$(readlink -f "$got_file")" "$(readlink -f "$2")" ;;
	esac
	check "source $1 value" "$(src_get "$1" value)" "$3"
	check "source $1 pep440" "$(src_get "$1" pep440)" "$4"
}

# metadata: python3-torch's egg-info (or dist-info) directory
meta_dir=$(dpkg -L python3-torch | grep -E "^$entry/torch-[^/]*\\.(egg|dist)-info\$" | head -n 1)
[ -n "$meta_dir" ] && ok "python3-torch lists $meta_dir" || fail "python3-torch lists no torch-*.egg-info in $entry"
meta_file=$meta_dir/PKG-INFO
[ -f "$meta_file" ] || meta_file=$meta_dir/METADATA
meta_ver=$(meta_version "$meta_file")
is_canonical "$meta_ver" && ok "Version '$meta_ver' of the metadata is canonical PEP 440" || fail "test limitation: metadata Version '$meta_ver' is not canonical PEP 440"
add_source metadata "$meta_file" "$meta_ver" "$meta_ver"
check "torch.metadata_dir" "$J_torch_metadata_dir" "$meta_dir"
check "field metadata_dir" "$("$TG" probe --python "$PY" --field metadata_dir)" "$meta_dir"

# version.py
vpy=$loc/version.py
vpy_ver=$(pyval __version__ "$vpy")
add_source version.py "$vpy" "$vpy_ver" "$vpy_ver"

# version.h (and headeronly/version.h, torch 2.9 on), from libtorch-dev
for rel in torch/csrc/api/include/torch/version.h torch/headeronly/version.h; do
	name=version.h
	[ "$rel" = torch/headeronly/version.h ] && name=headeronly/version.h
	f=$(dpkg -L libtorch-dev | grep -E "/include/$rel\$" | head -n 1)
	if [ -n "$f" ] && [ -n "$(vh_version "$f")" ]; then
		v=$(vh_version "$f")
		lit=$(grep -A1 -E '^#[ \t]*define[ \t]+TORCH_VERSION([ \t]|\\|$)' "$f" | grep -o '"[^"]*"' | tr -d '"')
		[ -z "$lit" ] || [ "$lit" = "$v" ] || echo "note: $f: TORCH_VERSION \"$lit\" vs macros $v"
		add_source "$name" "$f" "$v" "$v"
	else
		check "source $name (none: no macros in the file)" "$(src_get "$name" file)" "<absent>"
	fi
done
vh_file=$(dpkg -L libtorch-dev | grep -E '/include/torch/csrc/api/include/torch/version.h$' | head -n 1)
[ -n "$vh_file" ] && ok "libtorch-dev lists $vh_file" || fail "libtorch-dev lists no torch/csrc/api/include/torch/version.h"

# CMake, under /usr/lib/<triplet>/cmake/Torch
triplet=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("MULTIARCH") or "")')
cmv=$(dpkg -L libtorch-dev | grep -E '/cmake/Torch/TorchConfigVersion\.cmake$' | head -n 1)
[ -n "$cmv" ] && ok "libtorch-dev lists $cmv" || fail "libtorch-dev lists no cmake/Torch/TorchConfigVersion.cmake"
cmake_dir=$(dirname "$cmv")
[ -z "$triplet" ] || check "cmake dir is /usr/lib/<triplet>/cmake/Torch" "$cmake_dir" "/usr/lib/$triplet/cmake/Torch"
cm_ver=$(sed -nE 's/^[[:space:]]*set[[:space:]]*\([[:space:]]*PACKAGE_VERSION[[:space:]]+"([^"]*)".*/\1/p' "$cmv" | head -n 1)
add_source cmake "$cmv" "$cm_ver" "$cm_ver"
check "torch.cmake_dir" "$J_torch_cmake_dir" "$cmake_dir"
check "field cmake_dir" "$("$TG" probe --python "$PY" --field cmake_dir)" "$cmake_dir"

# dpkg: python3-torch's version; PEP 440 form = the upstream part without
# epoch, Debian revision and repack suffix
dpkg_ver=$(dpkg-query -W -f='${Version}' python3-torch)
dpkg_up=$(echo "$dpkg_ver" | sed -E 's/^[0-9]+://; s/-[^-]*$//; s/[+~](dfsg|ds|repack)[0-9.]*$//')
add_source dpkg "/var/lib/dpkg/status" "$dpkg_ver" "$dpkg_up"

check "sources (the set)" "$(printf '%s\n' "${J_src_source[@]}" | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_sources[@]}" | sort | tr '\n' ' ')"

# reported version: version.py's __version__
check "torch.version" "$J_torch_version" "$vpy_ver"
check "torch.version_source" "$J_torch_version_source" version.py

# agreement: all equal -> agree; a major.minor differs -> conflict; else differ
agreement=$(printf '%s\n' "${want_pep[@]}" | sed -E 's/^[0-9]+!//' | awk -F'[.+a-z]' '
	{ mm = $1 "." ($2 == "" ? 0 : $2); seen[$0] = 1; if (NR == 1) first = mm; else if (mm != first) c = 1 }
	END { n = 0; for (k in seen) n++; r = "agree"; if (n > 1) r = "differ"; if (c) r = "conflict"; print r }')
check "Debian's sources differ" "$agreement" differ
check "torch.agreement" "$J_torch_agreement" "$agreement"

# ---- version.py facts ---------------------------------------------------
for k in cuda hip rocm xpu git_version; do
	check "torch.$k (version.py)" "$(eval echo "\"\${J_torch_$k}\"")" "$(pyval "$k" "$vpy")"
done
want_debug=$(pyval debug "$vpy")
check "torch.debug (version.py)" "$J_torch_debug" "$want_debug"

# ---- C++ facts from TorchConfig.cmake -----------------------------------
tc=$cmake_dir/TorchConfig.cmake
[ -f "$tc" ] && ok "$tc exists" || fail "$tc is missing"
flags=$(sed -nE 's/^[[:space:]]*set[[:space:]]*\([[:space:]]*TORCH_CXX_FLAGS[[:space:]]+"([^"]*)".*/\1/p' "$tc" | head -n 1)
abi_n=$(echo "$flags" | sed -nE 's/.*-D_GLIBCXX_USE_CXX11_ABI=([01]).*/\1/p')
[ -n "$abi_n" ] && ok "$tc sets -D_GLIBCXX_USE_CXX11_ABI=$abi_n" || fail "$tc sets no -D_GLIBCXX_USE_CXX11_ABI in TORCH_CXX_FLAGS ('$flags')"
want_abi=$NULL
[ "$abi_n" = 1 ] && want_abi=true
[ "$abi_n" = 0 ] && want_abi=false
check "torch.cxx11_abi (TORCH_CXX_FLAGS)" "$J_torch_cxx11_abi" "$want_abi"
check_has "torch.cxx11_abi_evidence" "$J_torch_cxx11_abi_evidence" "$tc"
check_has "torch.cxx11_abi_evidence" "$J_torch_cxx11_abi_evidence" "-D_GLIBCXX_USE_CXX11_ABI=$abi_n"
std=$(sed -nE 's/^[[:space:]]*CXX_STANDARD[[:space:]]+([0-9]+).*/\1/p' "$tc" | head -n 1)
[ -n "$std" ] && ok "$tc has a CXX_STANDARD" || fail "$tc has no CXX_STANDARD"
check "torch.cxx_standard (CXX_STANDARD)" "$J_torch_cxx_standard" "$std"
check "torch.cxx_standard_evidence" "${J_torch_cxx_standard_evidence:-}" "$tc"

# ---- include and library directories ------------------------------------
want_inc=("$loc/include" "$loc/include/torch/csrc/api/include")
check "torch.include_dirs" "${J_torch_include_dirs[*]}" "${want_inc[*]}"
for d in "${J_torch_include_dirs[@]}"; do
	[ -d "$d" ] && ok "include dir '$d' exists" || fail "include dir '$d' does not exist"
done
inc_torch_real=$(readlink -f "$loc/include/torch")
check "torch/include/torch resolves under /usr/include" "$inc_torch_real" /usr/include/torch
check "torch.include_real" "$J_torch_include_real" "$(dirname "$inc_torch_real")"
check "version.h through include_dirs[1]" "$(readlink -f "${J_torch_include_dirs[1]:-/nonexistent}/torch/version.h")" "$(readlink -f "$vh_file")"
check "field include_dirs" "$("$TG" probe --python "$PY" --field include_dirs | tr '\n' ' ')" "$(printf '%s ' "${want_inc[@]}")"

check "torch.library_dir" "$J_torch_library_dir" "$loc/lib"
[ -d "$loc/lib" ] && ok "$loc/lib exists" || fail "$loc/lib does not exist"
for l in "${J_torch_libraries[@]}"; do
	[ -e "$J_torch_library_dir/lib$l.so" ] && ok "listed library '$l' is $J_torch_library_dir/lib$l.so" || fail "listed library '$l': no $J_torch_library_dir/lib$l.so"
done
# torch's own libraries present in the directory must all be listed
want_libs=()
for l in torch torch_cpu c10 torch_cuda c10_cuda torch_hip c10_hip torch_xpu c10_xpu torch_python; do
	[ -e "$loc/lib/lib$l.so" ] && want_libs+=("$l")
done
check "torch.libraries (the set)" "$(printf '%s\n' "${J_torch_libraries[@]}" | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_libs[@]}" | sort | tr '\n' ' ')"
libreal=$(dirname "$(readlink -f "$loc/lib/libtorch.so")")
check "torch.library_real" "$J_torch_library_real" "$libreal"
[ -n "$triplet" ] && check "libraries really in /usr/lib/<triplet>" "$libreal" "/usr/lib/$triplet"
check "field library_dir" "$("$TG" probe --python "$PY" --field library_dir)" "$loc/lib"
check "field libraries" "$("$TG" probe --python "$PY" --field libraries | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_libs[@]}" | sort | tr '\n' ' ')"

# ---- installer, wheel, record, direct_url, editable ---------------------
want_inst=$NULL
[ -f "$meta_dir/INSTALLER" ] && want_inst=$(head -n 1 "$meta_dir/INSTALLER" | tr -d '\r\n')
check "torch.installer" "$J_torch_installer" "$want_inst"
want_tags=()
[ -f "$meta_dir/WHEEL" ] && mapfile -t want_tags < <(sed -n 's/^Tag:[ \t]*//p' "$meta_dir/WHEEL")
check "torch.wheel_tags" "${J_torch_wheel_tags[*]}" "${want_tags[*]}"
[ -f "$meta_dir/RECORD" ] && want_rec=true || want_rec=false
check "torch.record" "$J_torch_record" "$want_rec"
[ -f "$meta_dir/direct_url.json" ] || check "torch.direct_url" "$J_torch_direct_url" "$NULL"
# a dpkg-owned torch in a site dir is not an editable install
check "torch.editable" "$J_torch_editable" false
check "torch.editable_via" "${J_torch_editable_via:-$NULL}" "$NULL"
check "torch.problems" "$J_torch_problems_n" 0
check "problems" "$J_problems" "[]"

# ---- every --field against the files -------------------------------------
f() { "$TG" probe --python "$PY" --field "$1"; }
b01() { case $1 in true) echo 1 ;; false) echo 0 ;; *) echo "" ;; esac; }
nn() { [ "$1" = "$NULL" ] && echo "" || echo "$1"; }
check "field version" "$(f version)" "$vpy_ver"
check "field version_source" "$(f version_source)" version.py
check "field location" "$(f location)" "$loc"
check "field agreement" "$(f agreement)" "$agreement"
for k in cuda hip rocm xpu git_version; do
	check "field $k" "$(f $k)" "$(nn "$(pyval "$k" "$vpy")")"
done
check "field debug" "$(f debug)" "$(b01 "$want_debug")"
check "field cxx11_abi" "$(f cxx11_abi)" "$abi_n"
check "field cxx_standard" "$(f cxx_standard)" "$std"
check "field installer" "$(f installer)" "$(nn "$want_inst")"
check "field editable" "$(f editable)" 0

# ---- text format ----------------------------------------------------------
"$TG" probe --python "$PY" >"$tmp/probe.txt" 2>/dev/null
check "text exit status" "$?" 0
check "text first line" "$(head -n 1 "$tmp/probe.txt")" "torch $vpy_ver (from version.py)"

# ---- shell format: eval gives the same values -----------------------------
"$TG" probe --python "$PY" --format=shell >"$tmp/probe.sh"
check "shell exit status" "$?" 0
bash -n "$tmp/probe.sh" && ok "the shell format is valid shell" || fail "the shell format is not valid shell"
rel=$(echo "$vpy_ver" | sed -E 's/^([0-9]+!)?([0-9]+(\.[0-9]+)*).*/\2/')
IFS=. read -r v_maj v_min v_pat _ <<<"$rel"
(
	set -u
	# shellcheck disable=SC1091
	eval "$(cat "$tmp/probe.sh")"
	vals=(
		"$TORCH_VERSION" "$TORCH_VERSION_MAJOR" "$TORCH_VERSION_MINOR" "$TORCH_VERSION_PATCH"
		"$TORCH_VERSION_SOURCE" "$TORCH_AGREEMENT" "$TORCH_LOCATION" "$TORCH_CUDA" "$TORCH_HIP"
		"$TORCH_ROCM" "$TORCH_XPU" "$TORCH_GIT_VERSION" "$TORCH_DEBUG" "$TORCH_CXX11_ABI"
		"$TORCH_CXX_STANDARD" "$TORCH_INCLUDE_DIR" "$TORCH_API_INCLUDE_DIR" "$TORCH_LIBRARY_DIR"
		"$TORCH_CMAKE_DIR" "$TORCH_INSTALLER" "$TORCH_EDITABLE" "$TORCH_SHADOWED" "$TORCH_LIBRARIES")
	printf '%s\n' "${vals[@]}"
) >"$tmp/shell.vals" 2>"$tmp/shell.err" && ok "eval of the shell format" || fail "eval of the shell format failed: $(cat "$tmp/shell.err")"
{
	printf '%s\n' "$vpy_ver" "$v_maj" "$v_min" "${v_pat:-0}" version.py "$agreement" "$loc"
	for k in cuda hip rocm xpu git_version; do nn "$(pyval "$k" "$vpy")"; done
	printf '%s\n' "$(b01 "$want_debug")" "$abi_n" "$std" "${want_inc[0]}" "${want_inc[1]}" "$loc/lib" \
		"$cmake_dir" "$(nn "$want_inst")" 0 "${#shadow[@]}" "${J_torch_libraries[*]}"
} >"$tmp/shell.want"
names=(VERSION VERSION_MAJOR VERSION_MINOR VERSION_PATCH VERSION_SOURCE AGREEMENT LOCATION CUDA HIP
	ROCM XPU GIT_VERSION DEBUG CXX11_ABI CXX_STANDARD INCLUDE_DIR API_INCLUDE_DIR LIBRARY_DIR
	CMAKE_DIR INSTALLER EDITABLE SHADOWED LIBRARIES)
mapfile -t sv <"$tmp/shell.vals"
mapfile -t sw <"$tmp/shell.want"
for i in "${!names[@]}"; do
	check "shell TORCH_${names[$i]}" "${sv[$i]-<unset>}" "${sw[$i]}"
done

# ---- make format: a Makefile that includes it -----------------------------
"$TG" probe --python "$PY" --format=make >"$tmp/torch.mk"
check "make exit status" "$?" 0
# Each variable is used as a recipe uses it: expanded into a shell command
# line, so the shell's quoting applies; one word per line comes back.
printf 'include %s\n' "$tmp/torch.mk" >"$tmp/Makefile"
for v in TORCH_VERSION TORCH_CPPFLAGS TORCH_CXXFLAGS TORCH_LDFLAGS TORCH_LIBS; do
	printf '%s:\n\t@printf "%%s\\n" $(%s)\n' "$v" "$v" >>"$tmp/Makefile"
done
printf 'compile:\n\t$(CXX) $(TORCH_CPPFLAGS) $(TORCH_CXXFLAGS) -fsyntax-only v.cpp\n' >>"$tmp/Makefile"
mkv() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$tmp" -f "$tmp/Makefile" "$1" 2>&1 | tr '\n' ' '; }
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$tmp" -f "$tmp/Makefile" TORCH_VERSION >/dev/null 2>"$tmp/make.err" && ok "make reads the make format" || fail "make cannot read the make format: $(cat "$tmp/make.err")"
mk_cpp=$(mkv TORCH_CPPFLAGS)
check "make TORCH_VERSION" "$(mkv TORCH_VERSION)" "$vpy_ver "
check_has "make TORCH_CPPFLAGS" " $mk_cpp" " -I${want_inc[0]} "
check_has "make TORCH_CPPFLAGS" " $mk_cpp" " -I${want_inc[1]} "
check_has "make TORCH_CPPFLAGS" " $mk_cpp" " -D_GLIBCXX_USE_CXX11_ABI=$abi_n "
check_has "make TORCH_CXXFLAGS" " $(mkv TORCH_CXXFLAGS)" " -std=c++$std "
check_has "make TORCH_LDFLAGS" " $(mkv TORCH_LDFLAGS)" " -L$loc/lib "
check_has "make TORCH_LIBS" " $(mkv TORCH_LIBS)" " -ltorch "
check_has "make TORCH_LIBS" " $(mkv TORCH_LIBS)" " -lc10 "

# ---- pc format: pkg-config accepts it -------------------------------------
mkdir -p "$tmp/pc"
"$TG" probe --python "$PY" --format=pc >"$tmp/pc/torch.pc"
check "pc exit status" "$?" 0
PKG_CONFIG_PATH=$tmp/pc pkg-config --cflags --modversion torch >"$tmp/pc.out" 2>&1
check "pkg-config --cflags --modversion exit status" "$?" 0
export PKG_CONFIG_PATH=$tmp/pc
# Version: is the release segment (pkg-config compares rpm-style), the
# full version a variable
check "pkg-config --modversion" "$(pkg-config --modversion torch 2>&1)" "$(echo "$vpy_ver" | sed -E 's/^([0-9]+(\.[0-9]+)*).*/\1/')"
check "pkg-config --variable=torch_version" "$(pkg-config --variable=torch_version torch 2>&1)" "$vpy_ver"
pc_cflags=$(pkg-config --cflags torch 2>&1)
check_has "pkg-config --cflags" " $pc_cflags " " -I${want_inc[0]} "
check_has "pkg-config --cflags" " $pc_cflags " " -I${want_inc[1]} "
check_has "pkg-config --cflags" " $pc_cflags " " -D_GLIBCXX_USE_CXX11_ABI=$abi_n "
check_lacks "pkg-config --cflags" " $pc_cflags " " -std="
check "pkg-config --variable=cxx_std_flag" "$(pkg-config --variable=cxx_std_flag torch 2>&1)" "-std=c++$std"
pc_cflags="$pc_cflags $(pkg-config --variable=cxx_std_flag torch)"
check_has "pkg-config --libs" " $(pkg-config --libs torch 2>&1) " " -L$loc/lib "
pkg-config --atleast-version="$v_maj.$v_min" torch && ok "pkg-config --atleast-version=$v_maj.$v_min torch" || fail "pkg-config --atleast-version=$v_maj.$v_min torch failed"

# ---- the flags compile against torch's own version.h ---------------------
cat >"$tmp/v.cpp" <<CPP
#include <torch/version.h>
static_assert(TORCH_VERSION_MAJOR == $(vh_version "$vh_file" | cut -d. -f1), "major");
static_assert(TORCH_VERSION_MINOR == $(vh_version "$vh_file" | cut -d. -f2), "minor");
static_assert(TORCH_VERSION_PATCH == $(vh_version "$vh_file" | cut -d. -f3), "patch");
#if _GLIBCXX_USE_CXX11_ABI != $abi_n
#error "ABI flag not applied"
#endif
#if __cplusplus < 20${std}00L && $std > 11
#error "standard not applied"
#endif
int main() { return 0; }
CPP
# shellcheck disable=SC2086
g++ $pc_cflags -fsyntax-only "$tmp/v.cpp" 2>"$tmp/cc.err" && ok "g++ \$(pkg-config --cflags torch) compiles #include <torch/version.h>" || fail "g++ \$(pkg-config --cflags torch) cannot compile #include <torch/version.h>: $(head -5 "$tmp/cc.err")"
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$tmp" -f "$tmp/Makefile" compile >"$tmp/cc.err" 2>&1 && ok "make's \$(CXX) \$(TORCH_CPPFLAGS) \$(TORCH_CXXFLAGS) compiles #include <torch/version.h>" || fail "make's \$(CXX) \$(TORCH_CPPFLAGS) \$(TORCH_CXXFLAGS) cannot compile #include <torch/version.h>: $(head -5 "$tmp/cc.err")"

# ---- verify, with specs computed from the found version ------------------
v_next=$v_maj.$((v_min + 1))
out=$("$TG" verify --policy=base --python "$PY" ">=$v_maj.$v_min" 2>&1)
check "verify --policy=base '>=$v_maj.$v_min' exit status" "$?" 0
check_has "verify --policy=base '>=$v_maj.$v_min' says" "$out" "satisfies"
out=$("$TG" verify --policy=base --python "$PY" "<$v_maj.$v_min" 2>&1)
check "verify --policy=base '<$v_maj.$v_min' exit status" "$?" 1
check_has "verify --policy=base '<$v_maj.$v_min' says" "$out" "newer than this package allows"
out=$("$TG" verify --policy=base --python "$PY" ">=$v_next" 2>&1)
check "verify --policy=base '>=$v_next' exit status" "$?" 1
check_has "verify --policy=base '>=$v_next' says" "$out" "older than this package requires"
out=$("$TG" verify --policy=base --python "$PY" "torch>=$v_maj.$v_min,<$v_next" 2>&1)
check "verify --policy=base 'torch>=$v_maj.$v_min,<$v_next' exit status" "$?" 0
out=$("$TG" verify --quiet --policy=base --python "$PY" ">=$v_maj.$v_min" 2>&1)
check "verify --quiet prints nothing on success" "$out" ""
# strict PEP 440: a pre-release (1.13.0a0) is below >=MAJOR.MINOR
if echo "$vpy_ver" | grep -Eq '(a|b|rc|\.dev)[0-9]+'; then want_strict=1; else want_strict=0; fi
"$TG" verify --python "$PY" ">=$v_maj.$v_min" >/dev/null 2>&1
check "verify (strict) '>=$v_maj.$v_min' exit status for $vpy_ver" "$?" "$want_strict"
"$TG" verify --python "$PY" "==$vpy_ver" >/dev/null 2>&1
check "verify (strict) '==$vpy_ver' exit status" "$?" 0


# ---- a dpkg directory too long for a path: said, never cut -----------
long=/$(printf 'd%.0s' $(seq 4999))
out=$(TORCHGATE_DPKG_ADMINDIR=$long "$TG" probe --python "$PY" --field version 2>&1 >/dev/null)
check_has "TORCHGATE_DPKG_ADMINDIR of 5000 characters: warning" "$out" "torchgate: probe: warning: path too long: '${long:0:64}...'"
TORCHGATE_DPKG_ADMINDIR=$long "$TG" probe --python "$PY" --field version >/dev/null 2>&1
check "TORCHGATE_DPKG_ADMINDIR of 5000 characters: exit status" "$?" 0

finish
