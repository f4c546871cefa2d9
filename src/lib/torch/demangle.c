/* demangle.c - C++ symbol names as people read them
 * SPDX-License-Identifier: MIT
 *
 * A thin wrapper over __cxa_demangle, the demangler GCC ships in
 * libstdc++ (the same cp-demangle code as libiberty's cplus_demangle,
 * kept by the GCC project). It is declared here with C linkage, as
 * <cxxabi.h> declares it, because this is C. Only names starting with
 * "_Z" are handed to it; it allocates its result with malloc.
 *
 * Built --with-demangler=dlopen (the default), libstdc++.so.6 is opened
 * the first time a name is demangled, once per process (pthread_once),
 * and never closed: only env demangles, and no other command loads
 * libstdc++ at start-up. Where it cannot be opened, names stay mangled.
 * --with-demangler=link links it (the wheel, statically).
 */
#include "lib/torch/demangle.h"

#include <stddef.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len,
				 int *status);

#if defined(TG_DEMANGLE_DLOPEN)
#include <dlfcn.h>
#include <pthread.h>

static cxa_demangle_fn cxa_demangle;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
load(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	void *f = h ? dlsym(h, "__cxa_demangle") : NULL;

	/* POSIX's way from dlsym's object pointer to a function pointer */
	if (f)
		*(void **)&cxa_demangle = f;
}

static cxa_demangle_fn
demangler(void)
{
	pthread_once(&once, load);
	return cxa_demangle;
}
#elif defined(HAVE_CXA_DEMANGLE)
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static cxa_demangle_fn
demangler(void)
{
	return __cxa_demangle;
}
#else
static cxa_demangle_fn
demangler(void)
{
	return NULL;
}
#endif

char *
tg_demangle(const char *sym)
{
	cxa_demangle_fn fn;
	int status = -1;
	char *s;

	if (sym[0] != '_' || sym[1] != 'Z' || !(fn = demangler()))
		return NULL;
	s = fn(sym, NULL, NULL, &status);
	return status == 0 ? s : NULL;
}

const char *
tg_demangle_library(void)
{
	return demangler() ? "libstdc++ __cxa_demangle" : NULL;
}
