/* shim.h - a pyenv shim resolved to the program it would exec
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_PYENV_SHIM_H
#define TG_LIB_PYENV_SHIM_H

#include "lib/util/err.h"

/* The pyenv root named by the shim script at path, a new string, or NULL
 * when path is no shim (or out of memory: the file is then read again
 * as an interpreter, which fails as it should). */
char *tg_shim_root(const char *path);

/* Resolve the shim (under root) to the program it would exec, in *exe,
 * and how, in *via ("pyenv shim '...' -> version '3.11' (set by ...)"),
 * from the environment's PYENV_VERSION, PATH and working directory
 * (pyenv_version and pathvar NULL when unset). TG_ENOENT when no version
 * nor the system provides the program. */
int tg_shim_resolve(const char *shim, const char *root,
		    const char *pyenv_version, const char *pathvar,
		    const char *cwd, char **exe, char **via,
		    struct tg_err *err);

#endif
