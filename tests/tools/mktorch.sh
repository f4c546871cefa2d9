#!/bin/bash
# mktorch.sh - make a fake torch installation for tests (files only)
# SPDX-License-Identifier: MIT
#
# usage: mktorch.sh SITEDIR [options]
#   --version V      torch/version.py __version__ (default 2.11.0+cu130);
#                    "none": no version.py
#   --meta V         dist-info METADATA Version (default: V without its
#                    local label); "none": no metadata directory
#   --egg-info       egg-info/PKG-INFO instead of dist-info/METADATA
#   --headers V      version.h MAJOR.MINOR.PATCH (default: V's release);
#                    "none": no torch/include
#   --headeronly     macros in torch/headeronly/version.h, csrc/api's
#                    version.h only includes it (torch 2.9 on)
#   --cmake V        TorchConfigVersion.cmake PACKAGE_VERSION (default: V's
#                    release); "none": no torch/share/cmake
#   --abi 0|1        TorchConfig.cmake sets TORCH_CXX_FLAGS (default: not)
#   --cxx-std N      TorchConfig.cmake CXX_STANDARD (default 17)
#   --cuda X, --hip X, --rocm X, --xpu X, --git SHA, --debug True|False
#   --installer NAME, --tag TAG, --direct-url JSON
#   --old-style      untyped version.py (torch 1.x)
set -eu
site=$1; shift
version=2.11.0+cu130 meta='' headers='' cmake='' abi='' std=17 egg=0 honly=0
cuda=None hip=None rocm=None xpu=None git=70d99e998b4955e0049d13a98d77ae1b14db1f45
debug=False installer='' tag='' durl='' old=0
q() { [ "$1" = None ] && echo None || echo "'$1'"; }
while [ $# -gt 0 ]; do
	case $1 in
	--version) version=$2; shift ;;
	--meta) meta=$2; shift ;;
	--egg-info) egg=1 ;;
	--headers) headers=$2; shift ;;
	--headeronly) honly=1 ;;
	--cmake) cmake=$2; shift ;;
	--abi) abi=$2; shift ;;
	--cxx-std) std=$2; shift ;;
	--cuda) cuda=$2; shift ;;
	--hip) hip=$2; shift ;;
	--rocm) rocm=$2; shift ;;
	--xpu) xpu=$2; shift ;;
	--git) git=$2; shift ;;
	--debug) debug=$2; shift ;;
	--installer) installer=$2; shift ;;
	--tag) tag=$2; shift ;;
	--direct-url) durl=$2; shift ;;
	--old-style) old=1 ;;
	*) echo "mktorch.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
release=${version%%+*}
release=$(echo "$release" | sed -E 's/^([0-9]+\.[0-9]+(\.[0-9]+)?).*/\1/')
case $release in *.*.*) ;; *) release=$release.0 ;; esac
[ -n "$meta" ] || meta=${version%%+*}
[ -n "$headers" ] || headers=$release
[ -n "$cmake" ] || cmake=$release
t=$site/torch
mkdir -p "$t"
: >"$t/__init__.py"
if [ "$version" != none ]; then
	if [ $old = 1 ]; then
		cat >"$t/version.py" <<PY
__version__ = '$version'
debug = $debug
cuda = $(q "$cuda")
git_version = '$git'
hip = $(q "$hip")
PY
	else
		cat >"$t/version.py" <<PY
from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']
__version__ = '$version'
debug = $debug
cuda: Optional[str] = $(q "$cuda")
git_version = '$git'
hip: Optional[str] = $(q "$hip")
rocm: Optional[str] = $(q "$rocm")
xpu: Optional[str] = $(q "$xpu")
PY
	fi
fi
if [ "$meta" != none ]; then
	if [ $egg = 1 ]; then
		d=$site/torch-$meta.egg-info
		mkdir -p "$d"
		printf 'Metadata-Version: 2.1\nName: torch\nVersion: %s\nSummary: Tensors\n\nbody\n' "$meta" >"$d/PKG-INFO"
	else
		d=$site/torch-${meta%%+*}.dist-info
		mkdir -p "$d"
		printf 'Metadata-Version: 2.4\nName: torch\nVersion: %s\nRequires-Python: >=3.10\n' "$meta" >"$d/METADATA"
		printf 'Wheel-Version: 1.0\nGenerator: setuptools\nRoot-Is-Purelib: false\n' >"$d/WHEEL"
		[ -z "$tag" ] || printf 'Tag: %s\n' "$tag" >>"$d/WHEEL"
		[ -z "$installer" ] || printf '%s\n' "$installer" >"$d/INSTALLER"
		[ -z "$durl" ] || printf '%s\n' "$durl" >"$d/direct_url.json"
		: >"$d/RECORD"
	fi
fi
if [ "$headers" != none ]; then
	IFS=. read -r maj min pat <<<"$headers"
	api=$t/include/torch/csrc/api/include/torch
	mkdir -p "$api"
	macros="#pragma once

#define TORCH_VERSION_MAJOR $maj
#define TORCH_VERSION_MINOR $min
#define TORCH_VERSION_PATCH $pat
#define TORCH_VERSION \\
  \"$headers\""
	if [ $honly = 1 ]; then
		mkdir -p "$t/include/torch/headeronly"
		macros="$macros
#define TORCH_VERSION_ABI_TAG 0
#define TORCH_ABI_VERSION ( \\
  ((0ULL + TORCH_VERSION_MAJOR) << 56) | \\
  ((0ULL + TORCH_VERSION_MINOR) << 48) | \\
  ((0ULL + TORCH_VERSION_PATCH) << 40) | \\
  ((0ULL + TORCH_VERSION_ABI_TAG) << 0))"
		printf '%s\n' "$macros" >"$t/include/torch/headeronly/version.h"
		printf '#include <torch/headeronly/version.h>\n' >"$api/version.h"
	else
		printf '%s\n' "$macros" >"$api/version.h"
	fi
fi
if [ "$cmake" != none ]; then
	c=$t/share/cmake/Torch
	mkdir -p "$c"
	printf 'set(PACKAGE_VERSION "%s")\n' "$cmake" >"$c/TorchConfigVersion.cmake"
	{
		[ -z "$abi" ] || printf 'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=%s")\n' "$abi"
		printf 'set_target_properties(torch PROPERTIES\n    CXX_STANDARD %s\n)\n' "$std"
	} >"$c/TorchConfig.cmake"
fi
