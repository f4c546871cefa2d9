/* elf.h - the libstdc++ ABI of a shared library, from its symbols
 * SPDX-License-Identifier: MIT
 *
 * A library built with _GLIBCXX_USE_CXX11_ABI=1 exports names mangled
 * with std::__cxx11 ("St7__cxx11") wherever a std::string or std::list
 * crosses its interface; one built with the old ABI has none. This reads
 * only the ELF section headers and the dynamic string table.
 */
#ifndef TG_LIB_TORCH_ELF_H
#define TG_LIB_TORCH_ELF_H

#include "lib/util/err.h"

/* 1 when the dynamic symbols of the ELF file path use std::__cxx11, 0
 * when they do not (which proves nothing), or a negative TG_E* code when
 * path is not a readable 64-bit little-endian ELF file. */
int tg_elf_uses_cxx11_abi(const char *path, struct tg_err *err);

#endif
