/* shim.h - a pyenv shim resolved to the program it would exec
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_PYENV_SHIM_H
#define TG_LIB_PYENV_SHIM_H

#include "lib/util/err.h"

/* The pyenv root named by the shim script at path, a new string in
 * *root; NULL when path is no shim (or cannot be read: it is then read
 * as an interpreter, which says why). path must have been found a
 * regular file a moment ago (tg_path_is_executable): it is opened
 * without a stat first (the descriptor's fstat still refuses anything
 * else). TG_ENOMEM only. */
int tg_shim_root(const char *path, char **root, struct tg_err *err);

/* Resolve the shim (under root) to the program it would exec, in *exe,
 * and how, in *via ("pyenv shim '...' -> version '3.11' (set by ...)"),
 * from the environment's PYENV_VERSION, PATH and working directory
 * (pyenv_version and pathvar NULL when unset). TG_ENOENT when no version
 * nor the system provides the program, TG_ENOMEM. */
int tg_shim_resolve(const char *shim, const char *root,
		    const char *pyenv_version, const char *pathvar,
		    const char *cwd, char **exe, char **via,
		    struct tg_err *err);

#endif
