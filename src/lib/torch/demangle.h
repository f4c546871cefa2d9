/* demangle.h - C++ symbol names as people read them
 * SPDX-License-Identifier: MIT
 *
 * Itanium C++ ABI names ("_ZN3c106detail14torchCheckFail...") demangled
 * with GCC's runtime (libstdc++'s __cxa_demangle), opened when first
 * needed or linked (configure --with-demangler); without it, names stay
 * mangled.
 */
#ifndef TG_LIB_TORCH_DEMANGLE_H
#define TG_LIB_TORCH_DEMANGLE_H

/* The demangled name of sym, a new string; NULL when sym is not a
 * mangled name, cannot be demangled, no demangler was built in, or
 * memory ran out. */
char *tg_demangle(const char *sym);

/* The demangler ("libstdc++ __cxa_demangle"), or NULL when none was
 * built in or it cannot be opened. */
const char *tg_demangle_library(void);

#endif
