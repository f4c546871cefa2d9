#!/bin/bash
# contents.sh - what the sdist and the wheel of the fixture "wheel" hold
# SPDX-License-Identifier: MIT
#
# usage: TG_WHEEL_DIR=DIR contents.sh TORCHGATE SRCDIR
#
# The sdist carries a generated configure and no build outputs; the
# wheel's version is configure.ac's AC_INIT version; it is tagged
# py3-none-<platform>, not pure, and the platform tag is the one the
# files themselves call for: manylinux_2_XX_<arch> with 2.XX the highest
# GLIBC_ symbol version any ELF file in it needs (objdump -T, counted
# here independently of setup.py). Every ELF file's NEEDED libraries are
# the C/C++ runtime or in the wheel, run paths are $ORIGIN-relative
# only, and the binary has none: it names libcjson.so.1 by its path,
# $ORIGIN/../libexec/torchgate/libcjson.so.1, where the wheel's data
# puts it. The package has py.typed.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/../integration/lib.bash"
W=${TG_WHEEL_DIR:?TG_WHEEL_DIR is not set (tests/CTestTestfile.cmake sets it)}
PY=/usr/bin/python3
need_cmd objdump
whl=$(ls "$W"/wheel/torchgate-*.whl 2>/dev/null | head -n 1)
sdist=$(ls "$W"/dist/torchgate-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$whl" ] && [ -n "$sdist" ] || die "no wheel or sdist in '$W' (the fixture wheel-build failed?)"
version=$(sed -n 's/^AC_INIT(\[torchgate\], *\[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
[ -n "$version" ] || die "no AC_INIT version in $SRCDIR/configure.ac"

# ---- the sdist ----------------------------------------------------------
list=$(tar -tzf "$sdist")
top=torchgate-$version
for f in configure Makefile.in config.h.in aclocal.m4 build-aux/install-sh \
	configure.ac setup.py pyproject.toml PKG-INFO python/torchgate/__init__.py \
	python/torchgate/py.typed src/cli/main.c data/apis.json doc/torchgate.1; do
	check_has "the sdist" "$list" "$top/$f"
done
check "build outputs in the sdist (.o, .a, embed, apis_data.c)" \
	"$(printf '%s\n' "$list" | grep -cE '\.(o|a)$|src/tools/embed$|apis_data\.c$|autom4te')" 0

# ---- the wheel ------------------------------------------------------------
name=$(basename "$whl")
X=$tmp/x
"$PY" -m zipfile -e "$whl" "$X" || die "cannot unpack $name"
mapfile -t elves < <(cd "$X" && find . -type f | sort | while read -r f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "${f#./}"
done)
check "the ELF files in the wheel" "${elves[*]}" \
	"torchgate-$version.data/data/libexec/torchgate/libcjson.so.1 torchgate-$version.data/scripts/torchgate"
glibc=$(for f in "${elves[@]}"; do objdump -T "$X/$f"; done |
	grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2,2n -u | tail -n 1)
[ -n "$glibc" ] || die "no GLIBC_ symbol versions in the wheel's ELF files"
arch=$(uname -m)
check "the wheel's name" "$name" "torchgate-$version-py3-none-manylinux_2_${glibc#GLIBC_2.}_$arch.whl"
check "C++ runtime symbol versions needed" \
	"$(for f in "${elves[@]}"; do objdump -T "$X/$f"; done | grep -cE '\((GLIBCXX|CXXABI|GCC)_')" 0
wheelmeta=$(cat "$X/torchgate-$version.dist-info/WHEEL")
check_has "WHEEL" "$wheelmeta" "Root-Is-Purelib: false"
check_has "WHEEL" "$wheelmeta" "Tag: py3-none-manylinux_2_${glibc#GLIBC_2.}_$arch"
check "METADATA Version" "$(sed -n 's/^Version: //p' "$X/torchgate-$version.dist-info/METADATA")" "$version"
for f in torchgate/__init__.py torchgate/__main__.py torchgate/py.typed; do
	expect "the package at the wheel's root: $f" test -f "$X/$f"
done
runtime='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|librt\.so\.1|libpthread\.so\.0|libgcc_s\.so\.1|libstdc\+\+\.so\.6|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1)$'
for f in "${elves[@]}"; do
	p=$(objdump -p "$X/$f")
	for n in $(printf '%s\n' "$p" | awk '$1 == "NEEDED" {print $2}'); do
		if [[ $n =~ $runtime ]]; then
			ok "$f needs $n (the C/C++ runtime)"
		elif [[ $n == '$ORIGIN/../libexec/torchgate/'* ]]; then
			expect "$f needs $n (in the wheel, beside scripts/)" \
				test "$f" = "torchgate-$version.data/scripts/torchgate" -a \
				-f "$X/torchgate-$version.data/data/libexec/torchgate/${n##*/}"
		elif [ -n "$(cd "$X" && find . -name "$n" -type f)" ]; then
			ok "$f needs $n (in the wheel)"
		else
			fail "$f needs $n, which is neither the C/C++ runtime nor in the wheel"
		fi
	done
	for r in $(printf '%s\n' "$p" | awk '$1 == "RPATH" || $1 == "RUNPATH" {print $2}' | tr ':' ' '); do
		case $r in
		'$ORIGIN' | '$ORIGIN/'*) ok "$f: run path $r" ;;
		*) fail "$f: run path '$r' is not \$ORIGIN-relative" ;;
		esac
	done
done
p=$(objdump -p "$X/torchgate-$version.data/scripts/torchgate")
check "the binary's run path (none)" \
	"$(printf '%s\n' "$p" | awk '$1 == "RUNPATH" || $1 == "RPATH" {print $2}')" ''
check "the binary's libraries" "$(printf '%s\n' "$p" | awk '$1 == "NEEDED" {print $2}' | sort | tr '\n' ' ')" \
	'$ORIGIN/../libexec/torchgate/libcjson.so.1 libc.so.6 '
check "libcurl or torchgate-fetch in the wheel" "$(cd "$X" && find . -name 'libcurl*' -o -name 'torchgate-fetch' | wc -l)" 0
finish
