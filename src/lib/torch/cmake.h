/* cmakefile.h - facts from torch's CMake package files, read as text
 * SPDX-License-Identifier: MIT
 *
 * TorchConfigVersion.cmake: `set(PACKAGE_VERSION "2.11.0")`.
 * TorchConfig.cmake: `set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=1")`
 * (absent from torch 2.7 on) and `CXX_STANDARD 17`. Nothing is evaluated;
 * the first occurrence counts.
 */
#ifndef TG_LIB_TORCH_CMAKE_H
#define TG_LIB_TORCH_CMAKE_H

#include <stddef.h>

#include "lib/util/err.h"

/* The quoted value of the first `set(var "value")` (a new string), or
 * NULL: errno is then 0 (none) or ENOMEM. Blanks and case of `set`
 * follow CMake: `SET ( var "v" )`. */
char *tg_cmake_set_value(const char *s, size_t len, const char *var);

/* N of the first `CXX_STANDARD N`, or 0. */
int tg_cmake_cxx_standard(const char *s, size_t len);

/* The value of -D_GLIBCXX_USE_CXX11_ABI=N in flags: 0 or 1, or -1. */
int tg_cmake_cxx11_abi(const char *flags);

/* 0 when s[0..len) is a file CMake could read at all: no NUL byte and
 * no bracket comment (#[[ ... ]]) left open at the end. Else TG_EINVAL
 * with "cannot parse 'file': line N: ..." in err. */
int tg_cmake_check(const char *s, size_t len, const char *file,
		   struct tg_err *err);

#endif
