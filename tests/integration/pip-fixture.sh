#!/bin/bash
# pip-fixture.sh - probe the real pip/uv site-packages fixture, check every field
# SPDX-License-Identifier: MIT
#
# usage: pip-fixture.sh TORCHGATE SRCDIR
#
# Runs `torchgate probe --site-packages DIR` on
# SRCDIR/tests/data/pip-fixture/h200-venv-py312 (the part of a real
# torch 2.11.0+cu130 wheel install that torchgate reads, copied from
# ../shared/fixtures: see tests/data/pip-fixture/README.md) and checks
# every field it reports against those files. Expected values are
# computed here from the files with grep, sed and awk; Python is run only
# to read torchgate's JSON. No torch version is written in this file.
# The fixture is part of the source tree, so this runs in every make
# check; it fails, never skips, when the fixture is absent.
# shellcheck disable=SC2154 # J_* come from torchgate's JSON, sourced below
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
NULL='<null>'

# ---- prerequisites: never skip ----------------------------------------
SP=$SRCDIR/tests/data/pip-fixture/h200-venv-py312
need "$SP" "the pip fixture (tests/data/pip-fixture in the source tree)"
SP=$(cd "$SP" && pwd) || die "cannot enter '$SP'"
need_cmd python3 pkg-config g++ make awk sed grep readlink
PY=$(command -v python3)

# ---- what torchgate says ----------------------------------------------
"$TG" probe --site-packages "$SP" --format=json >"$tmp/probe.json" 2>"$tmp/probe.err"
check "probe --format=json exit status" "$?" 0
[ -s "$tmp/probe.err" ] && { echo "stderr of probe:"; cat "$tmp/probe.err"; }
[ -s "$tmp/probe.json" ] || die "probe printed no JSON"

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
  'python': ['executable', 'version', 'prefix'],
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
print('J_skipped_pth_n=%d' % len(d.get('skipped_pth_lines') or []))
sh = d.get('shadowed') or []
arr('J_shadowed', [x if isinstance(x, str) else (x.get('location') or x.get('dir')) for x in sh])
print('J_problems_n=%d' % len(d.get('problems') or []))
PYEOF
# shellcheck disable=SC1091
. "$tmp/j.sh"

check "JSON keys missing" "${J_missing[*]}" ""
check "schema_version" "$J_schema_version" 1

# ---- the environment: only the directory given --------------------------
for k in executable version prefix; do
	check "python.$k (no interpreter with --site-packages)" "$(eval echo "\"\${J_python_$k}\"")" "$NULL"
done
check "search_path" "${J_sp_dir[*]}" "$SP"
check "search_path[0].origin" "${J_sp_origin[0]:-}" argument
check "search_path[0].pth" "${J_sp_pth[0]:-}" "$NULL"
check "skipped_pth_lines" "$J_skipped_pth_n" 0
f() { "$TG" probe --site-packages "$SP" --field "$1"; }
check "field sys_path" "$(f sys_path)" "$SP"
for k in python python_version prefix; do
	check "field $k (unknown: empty)" "$(f $k)" ""
done

# ---- where torch is -----------------------------------------------------
loc=$SP/torch
[ -f "$loc/__init__.py" ] || [ -f "$loc/version.py" ] || die "$loc has neither __init__.py nor version.py"
check "torch.location" "$J_torch_location" "$loc"
check "torch.path_entry" "$J_torch_path_entry" "$SP"
check "shadowed" "${J_shadowed[*]}" ""
check "field shadowed" "$(f shadowed)" ""

# ---- helpers --------------------------------------------------------------
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
hdr() { awk -v k="$1" 'BEGIN { k = k ":" } /^[ \t]*$/ { exit } index($0, k) == 1 { v = substr($0, length(k) + 1); sub(/^[ \t]*/, "", v); sub(/[ \t\r]*$/, "", v); print v; exit }' "$2"; }
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
vh_version() {
	awk '/^#[ \t]*define[ \t]+TORCH_VERSION_(MAJOR|MINOR|PATCH)[ \t]/ { v[$2] = $3 }
	     END { if ("TORCH_VERSION_MAJOR" in v) print v["TORCH_VERSION_MAJOR"] "." v["TORCH_VERSION_MINOR"] "." v["TORCH_VERSION_PATCH"] }' "$1"
}
is_canonical() { echo "$1" | grep -Eqx '([0-9]+!)?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?(\+[a-z0-9]+(\.[a-z0-9]+)*)?'; }
want_sources=() want_pep=()
add_source() {
	local got_file
	want_sources+=("$1")
	want_pep+=("$4")
	got_file=$(src_get "$1" file)
	if [ "$got_file" = "<absent>" ]; then
		fail "sources: no '$1' source, but $2 says $3"
		return
	fi
	check "source $1 file" "$got_file" "$2"
	check "source $1 value" "$(src_get "$1" value)" "$3"
	check "source $1 pep440" "$(src_get "$1" pep440)" "$4"
}

# ---- version sources ------------------------------------------------------
# metadata: the dist-info whose METADATA says Name: torch
meta_dir=
for d in "$SP"/*.dist-info "$SP"/*.egg-info; do
	m=$d/METADATA
	[ -f "$m" ] || m=$d/PKG-INFO
	[ -f "$m" ] || continue
	n=$(hdr Name "$m" | tr 'A-Z' 'a-z' | sed -E 's/[-_.]+/-/g')
	[ "$n" = torch ] && { meta_dir=$d; meta_file=$m; }
done
[ -n "$meta_dir" ] || die "no dist-info in $SP says Name: torch"
meta_ver=$(hdr Version "$meta_file")
is_canonical "$meta_ver" && ok "Version '$meta_ver' of the metadata is canonical PEP 440" || fail "test limitation: METADATA Version '$meta_ver' is not canonical PEP 440"
add_source metadata "$meta_file" "$meta_ver" "$meta_ver"
check "torch.metadata_dir" "$J_torch_metadata_dir" "$meta_dir"
check "field metadata_dir" "$(f metadata_dir)" "$meta_dir"

vpy=$loc/version.py
vpy_ver=$(pyval __version__ "$vpy")
is_canonical "$vpy_ver" && ok "__version__ '$vpy_ver' is canonical PEP 440" || fail "test limitation: __version__ '$vpy_ver' is not canonical PEP 440"
add_source version.py "$vpy" "$vpy_ver" "$vpy_ver"

# version.h forwards to headeronly/version.h (2.9 on): only a file with
# the macros is a source
for rel in torch/csrc/api/include/torch/version.h torch/headeronly/version.h; do
	name=version.h
	[ "$rel" = torch/headeronly/version.h ] && name=headeronly/version.h
	hf=$loc/include/$rel
	if [ -f "$hf" ] && [ -n "$(vh_version "$hf")" ]; then
		v=$(vh_version "$hf")
		lit=$(grep -A1 -E '^#[ \t]*define[ \t]+TORCH_VERSION([ \t]|\\|$)' "$hf" | grep -o '"[^"]*"' | tr -d '"')
		[ -z "$lit" ] || [ "$lit" = "$v" ] || echo "note: $hf: TORCH_VERSION \"$lit\" vs macros $v"
		add_source "$name" "$hf" "$v" "$v"
		vh_file=$hf
	else
		check "source $name (none: no macros in $rel)" "$(src_get "$name" file)" "<absent>"
	fi
done
[ -n "${vh_file:-}" ] && ok "$vh_file has the TORCH_VERSION_* macros" || fail "no version.h in $loc/include has the TORCH_VERSION_* macros"
# TORCH_ABI_VERSION as the compiler computes it from the header
printf '#include <stdio.h>\n#include <torch/headeronly/version.h>\nint main(void) { printf("0x%%016llx\\n", (unsigned long long)TORCH_ABI_VERSION); return 0; }\n' >"$tmp/abi.c"
cc -I"$loc/include" -o "$tmp/abi" "$tmp/abi.c" && ok "a program that includes headeronly/version.h compiles" || fail "cannot compile a program that includes headeronly/version.h"
check "torch.abi_version (as the compiler computes TORCH_ABI_VERSION)" "$("$TG" probe --site-packages "$SP" --field abi_version)" "$("$tmp/abi")"
grep -q 'include <torch/headeronly/version.h>' "$loc/include/torch/csrc/api/include/torch/version.h" &&
	echo "note: csrc/api version.h only forwards to headeronly/version.h"

cmake_dir=$loc/share/cmake/Torch
cmv=$cmake_dir/TorchConfigVersion.cmake
cm_ver=$(sed -nE 's/^[[:space:]]*set[[:space:]]*\([[:space:]]*PACKAGE_VERSION[[:space:]]+"([^"]*)".*/\1/p' "$cmv" | head -n 1)
add_source cmake "$cmv" "$cm_ver" "$cm_ver"
check "torch.cmake_dir" "$J_torch_cmake_dir" "$cmake_dir"
check "field cmake_dir" "$(f cmake_dir)" "$cmake_dir"

check "sources (the set)" "$(printf '%s\n' "${J_src_source[@]}" | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_sources[@]}" | sort | tr '\n' ' ')"
check "torch.version" "$J_torch_version" "$vpy_ver"
check "torch.version_source" "$J_torch_version_source" version.py
agreement=$(printf '%s\n' "${want_pep[@]}" | sed -E 's/^[0-9]+!//' | awk -F'[.+a-z]' '
	{ mm = $1 "." ($2 == "" ? 0 : $2); seen[$0] = 1; if (NR == 1) first = mm; else if (mm != first) c = 1 }
	END { n = 0; for (k in seen) n++; r = "agree"; if (n > 1) r = "differ"; if (c) r = "conflict"; print r }')
[ "$meta_ver" != "$vpy_ver" ] && check "METADATA and version.py differ, so agreement" "$agreement" differ
check "torch.agreement" "$J_torch_agreement" "$agreement"

# ---- version.py facts ---------------------------------------------------
for k in cuda hip rocm xpu git_version; do
	check "torch.$k (version.py)" "$(eval echo "\"\${J_torch_$k}\"")" "$(pyval "$k" "$vpy")"
done
want_debug=$(pyval debug "$vpy")
check "torch.debug (version.py)" "$J_torch_debug" "$want_debug"
# the local label of __version__ names the same CUDA as cuda =
cuda=$(pyval cuda "$vpy")
case $vpy_ver in *+cu*) check "version.py local label vs cuda" "cu$(echo "$cuda" | tr -d .)" "${vpy_ver##*+}" ;; esac

# ---- C++ facts from TorchConfig.cmake -----------------------------------
tc=$cmake_dir/TorchConfig.cmake
flags=$(sed -nE 's/^[[:space:]]*set[[:space:]]*\([[:space:]]*TORCH_CXX_FLAGS[[:space:]]+"([^"]*)".*/\1/p' "$tc" | head -n 1)
abi_n=$(echo "$flags" | sed -nE 's/.*-D_GLIBCXX_USE_CXX11_ABI=([01]).*/\1/p')
want_abi=$NULL want_ev=$NULL
if [ -n "$abi_n" ]; then
	[ "$abi_n" = 1 ] && want_abi=true || want_abi=false
elif ls "$loc"/lib/libc10.so "$loc"/lib/libtorch_cpu.so >/dev/null 2>&1; then
	want_abi='<from the libraries>'
fi
[ -n "$abi_n" ] || echo "note: $tc sets no TORCH_CXX_FLAGS and $loc/lib is absent: the ABI is unknown"
if [ "$want_abi" = '<from the libraries>' ]; then
	echo "note: libraries present, ABI read from ELF not checked here"
else
	check "torch.cxx11_abi" "$J_torch_cxx11_abi" "$want_abi"
	[ -n "$abi_n" ] || check "torch.cxx11_abi_evidence" "$J_torch_cxx11_abi_evidence" "$want_ev"
fi
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
check "torch.include_real" "$J_torch_include_real" "$(dirname "$(readlink -f "$loc/include/torch")")"
check "field include_dirs" "$(f include_dirs | tr '\n' ' ')" "$(printf '%s ' "${want_inc[@]}")"
if [ -d "$loc/lib" ]; then
	want_libdir=$loc/lib
else
	want_libdir=$NULL
fi
check "torch.library_dir" "$J_torch_library_dir" "$want_libdir"
want_libs=()
for l in torch torch_cpu c10 torch_cuda c10_cuda torch_hip c10_hip torch_xpu c10_xpu torch_python; do
	[ -e "$loc/lib/lib$l.so" ] && want_libs+=("$l")
done
check "torch.libraries (the set)" "$(printf '%s\n' "${J_torch_libraries[@]}" | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_libs[@]}" | sort | tr '\n' ' ')"
[ "$want_libdir" = "$NULL" ] && check "torch.library_real" "$J_torch_library_real" "$NULL"
check "field library_dir" "$(f library_dir)" "$([ "$want_libdir" = "$NULL" ] || echo "$want_libdir")"
check "field libraries" "$(f libraries | sort | tr '\n' ' ')" "$(printf '%s\n' "${want_libs[@]}" | sort | tr '\n' ' ' | sed 's/^ $//')"

# ---- installer, wheel, record, direct_url, editable ---------------------
want_inst=$NULL
[ -f "$meta_dir/INSTALLER" ] && want_inst=$(head -n 1 "$meta_dir/INSTALLER" | tr -d '\r\n')
check "torch.installer (INSTALLER)" "$J_torch_installer" "$want_inst"
mapfile -t want_tags < <(sed -n 's/^Tag:[ \t]*//p' "$meta_dir/WHEEL" | tr -d '\r')
check "torch.wheel_tags (WHEEL)" "${J_torch_wheel_tags[*]}" "${want_tags[*]}"
[ -f "$meta_dir/RECORD" ] && want_rec=true || want_rec=false
check "torch.record" "$J_torch_record" "$want_rec"
[ -f "$meta_dir/direct_url.json" ] || check "torch.direct_url" "$J_torch_direct_url" "$NULL"
check "torch.editable" "$J_torch_editable" false
check "torch.problems" "$J_torch_problems_n" 0
check "problems" "$J_problems_n" 0

# ---- every --field ------------------------------------------------------
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
check "field cxx11_abi (unknown: empty)" "$(f cxx11_abi)" "$abi_n"
check "field cxx_standard" "$(f cxx_standard)" "$std"
check "field installer" "$(f installer)" "$(nn "$want_inst")"
check "field editable" "$(f editable)" 0

# ---- text format ----------------------------------------------------------
"$TG" probe --site-packages "$SP" >"$tmp/probe.txt" 2>/dev/null
check "text exit status" "$?" 0
check "text first line" "$(head -n 1 "$tmp/probe.txt")" "torch $vpy_ver (from version.py)"
check_has "text cxx11 abi" "$(cat "$tmp/probe.txt")" "cxx11 abi      unknown"

# ---- shell format ---------------------------------------------------------
"$TG" probe --site-packages "$SP" --format=shell >"$tmp/probe.sh"
check "shell exit status" "$?" 0
bash -n "$tmp/probe.sh" && ok "the shell format is valid shell" || fail "the shell format is not valid shell"
rel=$(echo "$vpy_ver" | sed -E 's/^([0-9]+!)?([0-9]+(\.[0-9]+)*).*/\2/')
IFS=. read -r v_maj v_min v_pat _ <<<"$rel"
(
	set -u
	eval "$(cat "$tmp/probe.sh")"
	printf '%s\n' "$TORCH_VERSION" "$TORCH_VERSION_MAJOR" "$TORCH_VERSION_MINOR" "$TORCH_VERSION_PATCH" \
		"$TORCH_VERSION_SOURCE" "$TORCH_AGREEMENT" "$TORCH_LOCATION" "$TORCH_CUDA" "$TORCH_HIP" \
		"$TORCH_ROCM" "$TORCH_XPU" "$TORCH_GIT_VERSION" "$TORCH_DEBUG" "$TORCH_CXX11_ABI" \
		"$TORCH_CXX_STANDARD" "$TORCH_INCLUDE_DIR" "$TORCH_API_INCLUDE_DIR" "$TORCH_LIBRARY_DIR" \
		"$TORCH_CMAKE_DIR" "$TORCH_INSTALLER" "$TORCH_EDITABLE" "$TORCH_SHADOWED" "$TORCH_LIBRARIES"
) >"$tmp/shell.vals" 2>"$tmp/shell.err" && ok "eval of the shell format" || fail "eval of the shell format failed: $(cat "$tmp/shell.err")"
{
	printf '%s\n' "$vpy_ver" "$v_maj" "$v_min" "${v_pat:-0}" version.py "$agreement" "$loc"
	for k in cuda hip rocm xpu git_version; do nn "$(pyval "$k" "$vpy")"; done
	printf '%s\n' "$(b01 "$want_debug")" "$abi_n" "$std" "${want_inc[0]}" "${want_inc[1]}" \
		"$(nn "$want_libdir")" "$cmake_dir" "$(nn "$want_inst")" 0 0 "${want_libs[*]}"
} >"$tmp/shell.want"
names=(VERSION VERSION_MAJOR VERSION_MINOR VERSION_PATCH VERSION_SOURCE AGREEMENT LOCATION CUDA HIP
	ROCM XPU GIT_VERSION DEBUG CXX11_ABI CXX_STANDARD INCLUDE_DIR API_INCLUDE_DIR LIBRARY_DIR
	CMAKE_DIR INSTALLER EDITABLE SHADOWED LIBRARIES)
mapfile -t sv <"$tmp/shell.vals"
mapfile -t sw <"$tmp/shell.want"
for i in "${!names[@]}"; do
	check "shell TORCH_${names[$i]}" "${sv[$i]-<unset>}" "${sw[$i]}"
done

# ---- make format ----------------------------------------------------------
"$TG" probe --site-packages "$SP" --format=make >"$tmp/torch.mk"
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
if [ -n "$abi_n" ]; then
	check_has "make TORCH_CPPFLAGS" " $mk_cpp" " -D_GLIBCXX_USE_CXX11_ABI=$abi_n "
else
	check_lacks "make TORCH_CPPFLAGS (ABI unknown)" "$mk_cpp" "_GLIBCXX_USE_CXX11_ABI"
fi
check_has "make TORCH_CXXFLAGS" " $(mkv TORCH_CXXFLAGS)" " -std=c++$std "

# ---- pc format ------------------------------------------------------------
mkdir -p "$tmp/pc"
"$TG" probe --site-packages "$SP" --format=pc >"$tmp/pc/torch.pc"
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
check_lacks "pkg-config --cflags" " $pc_cflags " " -std="
check "pkg-config --variable=cxx_std_flag" "$(pkg-config --variable=cxx_std_flag torch 2>&1)" "-std=c++$std"
pc_cflags="$pc_cflags $(pkg-config --variable=cxx_std_flag torch)"
if [ -n "$abi_n" ]; then
	check_has "pkg-config --cflags" " $pc_cflags " " -D_GLIBCXX_USE_CXX11_ABI=$abi_n "
else
	check_lacks "pkg-config --cflags (ABI unknown)" "$pc_cflags" "_GLIBCXX_USE_CXX11_ABI"
fi
pkg-config --libs torch >/dev/null 2>&1 && ok "pkg-config --libs torch" || fail "pkg-config --libs torch failed"

# ---- the flags compile against the fixture's own version.h ---------------
IFS=. read -r h_maj h_min h_pat <<<"$(vh_version "$vh_file")"
cat >"$tmp/v.cpp" <<CPP
#include <torch/version.h>
static_assert(TORCH_VERSION_MAJOR == $h_maj, "major");
static_assert(TORCH_VERSION_MINOR == $h_min, "minor");
static_assert(TORCH_VERSION_PATCH == $h_pat, "patch");
#if __cplusplus < 20${std}00L && $std > 11
#error "standard not applied"
#endif
int main() { return 0; }
CPP
# shellcheck disable=SC2086
g++ $pc_cflags -fsyntax-only "$tmp/v.cpp" 2>"$tmp/cc.err" && ok "g++ \$(pkg-config --cflags torch) compiles #include <torch/version.h>" || fail "g++ \$(pkg-config --cflags torch) cannot compile #include <torch/version.h>: $(head -5 "$tmp/cc.err")"
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$tmp" -f "$tmp/Makefile" compile >"$tmp/cc.err" 2>&1 && ok "make's \$(CXX) \$(TORCH_CPPFLAGS) \$(TORCH_CXXFLAGS) compiles #include <torch/version.h>" || fail "make's \$(CXX) \$(TORCH_CPPFLAGS) \$(TORCH_CXXFLAGS) cannot compile #include <torch/version.h>: $(head -5 "$tmp/cc.err")"

# ---- verify -----------------------------------------------------------------
v_next=$v_maj.$((v_min + 1))
V() { "$TG" verify --site-packages "$SP" "$@" 2>&1; }
out=$(V --policy=base ">=$v_maj.$v_min")
check "verify --policy=base '>=$v_maj.$v_min' exit status" "$?" 0
check_has "verify --policy=base '>=$v_maj.$v_min' says" "$out" "satisfies"
out=$(V --policy=base "<$v_maj.$v_min")
check "verify --policy=base '<$v_maj.$v_min' exit status" "$?" 1
check_has "verify --policy=base '<$v_maj.$v_min' says" "$out" "newer than this package allows"
out=$(V --policy=base ">=$v_next")
check "verify --policy=base '>=$v_next' exit status" "$?" 1
check_has "verify --policy=base '>=$v_next' says" "$out" "older than this package requires"
if echo "$vpy_ver" | grep -Eq '(a|b|rc|\.dev)[0-9]+'; then want_strict=1; else want_strict=0; fi
V ">=$v_maj.$v_min" >/dev/null
check "verify (strict) '>=$v_maj.$v_min' exit status for $vpy_ver" "$?" "$want_strict"
# a specifier without a local label ignores the version's (+cu130)
V "==${vpy_ver%%+*}" >/dev/null
check "verify (strict) '==${vpy_ver%%+*}' exit status" "$?" 0
V "torch>=$v_maj.$v_min,<$v_next" >/dev/null
check "verify 'torch>=$v_maj.$v_min,<$v_next' exit status" "$?" "$want_strict"

finish
