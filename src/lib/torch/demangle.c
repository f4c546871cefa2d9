/* demangle.c - C++ symbol names as people read them
 * SPDX-License-Identifier: MIT
 *
 * A thin wrapper over __cxa_demangle, the demangler GCC ships in
 * libstdc++ (the same cp-demangle code as libiberty's cplus_demangle,
 * kept by the GCC project). It is declared here with C linkage, as
 * <cxxabi.h> declares it, because this is C. Only names starting with
 * "_Z" are handed to it; it allocates its result with malloc.
 */
#include "lib/torch/demangle.h"

#include <stddef.h>

#ifdef HAVE_CXA_DEMANGLE
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);
#endif

char *
tg_demangle(const char *sym)
{
#ifdef HAVE_CXA_DEMANGLE
	int status = -1;
	char *s;

	if (sym[0] != '_' || sym[1] != 'Z')
		return NULL;
	s = __cxa_demangle(sym, NULL, NULL, &status);
	return status == 0 ? s : NULL;
#else
	(void)sym;
	return NULL;
#endif
}

const char *
tg_demangle_library(void)
{
#ifdef HAVE_CXA_DEMANGLE
	return "libstdc++ __cxa_demangle";
#else
	return NULL;
#endif
}
