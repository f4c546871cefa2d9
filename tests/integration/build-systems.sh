#!/bin/bash
# build-systems.sh - torchgate's .pc and cmake_prefix_path in real build systems
# SPDX-License-Identifier: MIT
#
# usage: build-systems.sh TORCHGATE SRCDIR
#
# Against Debian's torch (python3-torch + libtorch-dev), a small C++
# program that includes torch's headers and links libc10 is configured,
# built and run four ways: with real pkg-config and g++; with CMake's
# pkg_check_modules(... IMPORTED_TARGET torch>=X.Y) and CXX_STANDARD 17;
# with Meson's dependency('torch', method: 'pkg-config') and
# cpp_std=c++17; and with CMake's find_package(Torch) given
# -DCMAKE_PREFIX_PATH="$(torchgate probe --field cmake_prefix_path)". In
# the CMake and Meson builds the compile command must hold the
# project's -std (c++17) and not torch's (Debian's says c++14): the .pc
# must not force its standard. The program prints torch's version.h
# version, which must be the release pkg-config reports. It fails, never
# skips, when python3-torch, libtorch-dev, pkg-config, cmake, ninja,
# meson or g++ is missing.
# Exit status: 0 all passed, 1 something failed, 2 usage.
set -u
export LC_ALL=C

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
PY=/usr/bin/python3

need_deb python3-torch libtorch-dev
need_cmd pkg-config cmake ninja meson g++

mkdir -p "$tmp/pc" "$tmp/src"
"$TG" probe --quiet --python "$PY" --format=pc >"$tmp/pc/torch.pc" || die "torchgate probe --format=pc failed"
export PKG_CONFIG_PATH=$tmp/pc
rel=$(pkg-config --modversion torch) || die "pkg-config cannot read torchgate's torch.pc"
full=$("$TG" probe --quiet --python "$PY" --field version)
std=$("$TG" probe --quiet --python "$PY" --field cxx_standard)
check "pkg-config --variable=torch_version" "$(pkg-config --variable=torch_version torch)" "$full"
check "pkg-config --variable=cxx_std_flag" "$(pkg-config --variable=cxx_std_flag torch)" "-std=c++$std"
check_lacks "pkg-config --cflags" "$(pkg-config --cflags torch)" "-std="
case $full in
"$rel"*) ok "Version: $rel is the release of $full" ;;
*) fail "Version: $rel is not the release of $full" ;;
esac
IFS=. read -r maj min _ <<<"$rel"

cat >"$tmp/src/main.cpp" <<'CPP'
#include <c10/core/Device.h>
#include <torch/version.h>
#include <iostream>
int main() {
	std::cout << c10::Device("cpu").str() << " " << TORCH_VERSION_MAJOR << "."
		  << TORCH_VERSION_MINOR << "." << TORCH_VERSION_PATCH << " "
		  << __cplusplus << "\n";
}
CPP

# ---- plain pkg-config and g++ ---------------------------------------------
eval "set -- $(pkg-config --cflags --libs torch)"
if nice g++ -std=c++17 -o "$tmp/plain" "$tmp/src/main.cpp" "$@" 2>"$tmp/plain.err"; then
	check "g++ -std=c++17 \$(pkg-config --cflags --libs torch): the program" "$("$tmp/plain")" "cpu $rel 201703"
else
	fail "g++ with pkg-config's flags failed: $(head -5 "$tmp/plain.err")"
fi

# std_of DIR: the -std= words of the compile command of main.cpp
std_of() {
	"$PY" -c '
import json, sys
for c in json.load(open(sys.argv[1])):
    if c["file"].endswith("main.cpp"):
        print(" ".join(sorted(set(w for w in c["command"].split() if w.startswith("-std=")))))' "$1/compile_commands.json"
}

# ---- CMake pkg_check_modules ----------------------------------------------
mkdir "$tmp/cm"
cp "$tmp/src/main.cpp" "$tmp/cm/"
cat >"$tmp/cm/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(tgpc CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
find_package(PkgConfig REQUIRED)
pkg_check_modules(TORCH REQUIRED IMPORTED_TARGET torch>=$maj.$min)
message(STATUS "torch from pkg-config: \${TORCH_VERSION}")
add_executable(tgpc main.cpp)
target_link_libraries(tgpc PkgConfig::TORCH)
CMAKE
if cmake -S "$tmp/cm" -B "$tmp/cm/b" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$tmp/cm.log" 2>&1 &&
	nice cmake --build "$tmp/cm/b" >>"$tmp/cm.log" 2>&1; then
	ok "CMake pkg_check_modules(torch>=$maj.$min) configures and builds"
	check_has "CMake's log" "$(cat "$tmp/cm.log")" "torch from pkg-config: $rel"
	check "CMake's -std for main.cpp" "$(std_of "$tmp/cm/b")" "-std=c++17"
	check "the CMake-built program" "$("$tmp/cm/b/tgpc")" "cpu $rel 201703"
else
	fail "CMake with pkg_check_modules failed"
	sed 's/^/      | /' "$tmp/cm.log" | tail -n 20
fi

# ---- Meson dependency('torch', method: 'pkg-config') -----------------------
mkdir "$tmp/me"
cp "$tmp/src/main.cpp" "$tmp/me/"
cat >"$tmp/me/meson.build" <<MESON
project('tgme', 'cpp', default_options: ['cpp_std=c++17'])
torch = dependency('torch', method: 'pkg-config', version: '>=$maj.$min')
executable('tgme', 'main.cpp', dependencies: torch)
MESON
if (cd "$tmp/me" && meson setup b >"$tmp/me.log" 2>&1 && nice ninja -C b >>"$tmp/me.log" 2>&1); then
	ok "Meson dependency('torch', method: 'pkg-config') configures and builds"
	check "Meson's -std for main.cpp" "$(std_of "$tmp/me/b")" "-std=c++17"
	check "the Meson-built program" "$("$tmp/me/b/tgme")" "cpu $rel 201703"
else
	fail "Meson failed"
	sed 's/^/      | /' "$tmp/me.log" | tail -n 20
fi

# ---- CMake find_package(Torch) with cmake_prefix_path ----------------------
cpp=$("$TG" probe --quiet --python "$PY" --field cmake_prefix_path)
check "cmake_prefix_path holds Torch/TorchConfig.cmake" "$([ -f "$cpp/Torch/TorchConfig.cmake" ] && echo yes)" yes
mkdir "$tmp/fp"
cp "$tmp/src/main.cpp" "$tmp/fp/"
cat >"$tmp/fp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(tgfp CXX)
find_package(Torch REQUIRED)
message(STATUS "Torch_DIR=${Torch_DIR}")
add_executable(tgfp main.cpp)
target_link_libraries(tgfp "${TORCH_LIBRARIES}")
set_property(TARGET tgfp PROPERTY CXX_STANDARD 17)
CMAKE
if cmake -S "$tmp/fp" -B "$tmp/fp/b" -G Ninja -DCMAKE_PREFIX_PATH="$cpp" >"$tmp/fp.log" 2>&1 &&
	nice cmake --build "$tmp/fp/b" >>"$tmp/fp.log" 2>&1; then
	ok "find_package(Torch) with -DCMAKE_PREFIX_PATH=\$(torchgate probe --field cmake_prefix_path)"
	check_has "CMake's log" "$(cat "$tmp/fp.log")" "Torch_DIR=$cpp/Torch"
	check "the find_package-built program" "$("$tmp/fp/b/tgfp")" "cpu $rel 201703"
else
	fail "CMake find_package(Torch) failed"
	sed 's/^/      | /' "$tmp/fp.log" | tail -n 20
fi
# without it, find_package(Torch) must not find torch in the wrong place:
# the prefix path is what makes it work for a wheel (Debian's is also on
# CMake's default search path, so that is not asserted here)
finish
