/* editable.h - setuptools' editable finders, read as text
 * SPDX-License-Identifier: MIT
 *
 * `pip install -e` with setuptools >= 64 may write a .pth line
 * `import __editable___NAME_finder; __editable___NAME_finder.install()`
 * and a module __editable___NAME_finder.py beside it whose MAPPING dict
 * maps top-level packages to directories. That finder sits after
 * Python's path finder, so a package it maps is imported from there only
 * when no sys.path entry has it. This module reads the MAPPING literal;
 * it never runs the finder.
 */
#ifndef TG_LIB_PYENV_EDITABLE_H
#define TG_LIB_PYENV_EDITABLE_H

#include "lib/util/err.h"

/* For a skipped .pth import line (text) of pth_file: when it installs an
 * editable finder whose MAPPING maps package, *dir is that directory and
 * *finder the finder module's path (new strings); else both NULL. Errors
 * only for a finder module that cannot be read or parsed. */
int tg_editable_lookup(const char *pth_file, const char *text,
		       const char *package, char **dir, char **finder,
		       struct tg_err *err);

#endif
