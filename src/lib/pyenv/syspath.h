/* syspath.h - Python's sys.path, worked out from files
 * SPDX-License-Identifier: MIT
 *
 * What `python -c "import sys; print(sys.path[1:])"` would print for an
 * interpreter described by struct tg_interp: PYTHONPATH, the standard
 * library, the venv's site-packages, the user site, the global site
 * directories (Debian's dist-packages where site.py says so), and the
 * directories that .pth files add, in that order, without duplicates and
 * keeping only directories that exist where site.py does. .pth lines that
 * start with "import" are code: they are not run, and are recorded.
 */
#ifndef TG_LIB_PYENV_SYSPATH_H
#define TG_LIB_PYENV_SYSPATH_H

#include <stddef.h>

#include "lib/util/diag.h"
#include "lib/util/err.h"
#include "lib/pyenv/interp.h"

enum tg_path_origin {
	TG_ORIGIN_PYTHONPATH,
	TG_ORIGIN_STDLIB,
	TG_ORIGIN_SITE, /* a site-packages or dist-packages directory */
	TG_ORIGIN_USER, /* the user site */
	TG_ORIGIN_PTH,	/* a line of a .pth file */
	TG_ORIGIN_ARG,	/* --site-packages */
};

struct tg_path_entry {
	char *dir;
	enum tg_path_origin origin;
	char *pth; /* the .pth file that added it (TG_ORIGIN_PTH) */
	size_t pth_line;
};

struct tg_syspath {
	struct tg_path_entry *e;
	size_t n, cap;
	/* .pth import lines not run: notes, rule "pth-import", the line
	 * (at most 200 bytes) as the snippet */
	struct tg_diag_list skipped;
};

#define TG_SYSPATH_INIT                                                        \
	{                                                                      \
		0                                                              \
	}

/* The environment variables site.py and getpath read (NULL: unset). */
struct tg_syspath_env {
	const char *pythonpath;
	const char *nousersite; /* PYTHONNOUSERSITE */
	const char *userbase;	/* PYTHONUSERBASE */
	const char *home;
	const char *cwd;
	/* the listings the run shares (util/dirlist); NULL: none kept */
	struct tg_dirlist *dirs;
};

/* Most entries one path holds, and most .pth lines followed. */
#define TG_SYSPATH_MAX 4096

int tg_syspath_for_interp(struct tg_syspath *sp, const struct tg_interp *in,
			  const struct tg_syspath_env *env, struct tg_err *err);

/* Append dir (absolute, or relative to cwd) as site.addsitedir does: the
 * directory, then what its .pth files add. minor is Python's 3.minor
 * (3.13 on skips hidden .pth files). */
int tg_syspath_add_sitedir(struct tg_syspath *sp, const char *dir,
			   enum tg_path_origin origin, const char *cwd,
			   int minor, struct tg_err *err);

void tg_syspath_release(struct tg_syspath *sp);

const char *tg_syspath_origin_name(enum tg_path_origin o);

#endif
