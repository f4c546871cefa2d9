#!/bin/bash
# settorch.sh - give a copied torch installation another version (tests)
# SPDX-License-Identifier: MIT
#
# usage: settorch.sh SITEDIR VERSION
# Rewrites what every version source of SITEDIR's torch says, so that a
# real installation (tests/data/pip-fixture) becomes another release:
# torch/version.py __version__ (VERSION as given, local label and all),
# the dist-info's METADATA Version and directory name (VERSION without
# its local label), torch/include's version.h macros and version string
# and TorchConfigVersion.cmake (its release X.Y.Z).
set -eu
site=$1 v=$2
pub=${v%%+*}
rel=$(echo "$pub" | sed 's/^\([0-9]*\.[0-9]*\.[0-9]*\).*/\1/')
IFS=. read -r maj min pat <<<"$rel"
t=$site/torch
sed -i "s/^__version__ = .*/__version__ = '$v'/" "$t/version.py"
for d in "$site"/torch-*.dist-info; do
	sed -i "s/^Version: .*/Version: $pub/" "$d/METADATA"
	[ "$d" = "$site/torch-$pub.dist-info" ] || mv "$d" "$site/torch-$pub.dist-info"
done
for h in "$t/include/torch/headeronly/version.h" "$t/include/torch/csrc/api/include/torch/version.h"; do
	[ -f "$h" ] || continue
	sed -i -e "s/^#define TORCH_VERSION_MAJOR .*/#define TORCH_VERSION_MAJOR $maj/" \
		-e "s/^#define TORCH_VERSION_MINOR .*/#define TORCH_VERSION_MINOR $min/" \
		-e "s/^#define TORCH_VERSION_PATCH .*/#define TORCH_VERSION_PATCH $pat/" \
		-e "s/^  \"[0-9][0-9.]*\"$/  \"$rel\"/" "$h"
done
c=$t/share/cmake/Torch/TorchConfigVersion.cmake
[ -f "$c" ] && sed -i "s/^set(PACKAGE_VERSION \".*\")/set(PACKAGE_VERSION \"$rel\")/" "$c"
exit 0
