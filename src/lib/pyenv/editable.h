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

#include <stddef.h>

#include "lib/util/diag.h"
#include "lib/util/err.h"
#include "lib/pyenv/dists.h"
#include "lib/pyenv/syspath.h"

/* For a skipped .pth import line (text) of pth_file: when it installs an
 * editable finder whose MAPPING maps package, *dir is that directory and
 * *finder the finder module's path (new strings); else both NULL. Errors
 * only for a finder module that cannot be read or parsed. */
int tg_editable_lookup(const char *pth_file, const char *text,
		       const char *package, char **dir, char **finder,
		       struct tg_err *err);

/* What editable installs put on the path without a RECORD listing it:
 * the directories (or module files) where a source tree's packages are
 * imported from, each with the distribution it belongs to. Found are:
 *
 *  - each MAPPING value of an editable finder (a `__editable__*.pth`
 *    import line, the module beside it read as text);
 *  - for a .pth path line, the directory it adds, but only the
 *    distribution's own top-level names in it: dir/NAME (a package
 *    directory) and dir/NAME.*.so (an extension module built in place).
 *
 * Either only when the .pth file is listed in the RECORD of a
 * distribution in the same directory whose direct_url.json says
 * editable (PEP 610), and only for what lies inside the project
 * directory that direct_url.json names (real paths): a .pth that no
 * editable distribution installed, and the path entries of the
 * environment itself, are not looked into. A root that is, holds or
 * lies inside a standard library, site-packages or user site entry of
 * sp is left out, as is one that leaves its .pth directory through a
 * link; the reasons go to notes. Nothing is run. At most
 * TG_EDITABLE_ROOTS_MAX roots (more: a note). */
#define TG_EDITABLE_ROOTS_MAX 1024

struct tg_editable_root {
	size_t dist; /* index in ds->v of the editable distribution */
	char *path;  /* real path: a directory, or a module file */
	char *via;   /* the .pth file or finder module that maps it */
};

struct tg_editable_roots {
	struct tg_editable_root *v;
	size_t n, cap;
	struct tg_diag_list notes; /* what was left out, and why */
};

#define TG_EDITABLE_ROOTS_INIT                                                 \
	{                                                                      \
		0                                                              \
	}

/* Only allocation failure is an error (TG_ENOMEM). */
int tg_editable_roots(struct tg_editable_roots *r, const struct tg_syspath *sp,
		      const struct tg_dists *ds, struct tg_err *err);
void tg_editable_roots_release(struct tg_editable_roots *r);

#endif
