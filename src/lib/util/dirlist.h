/* dirlist.h - the names in a directory, listed once a run
 * SPDX-License-Identifier: MIT
 *
 * Several modules list the same directories of one environment: the
 * interpreter's (pyenv/interp: _sysconfigdata_*.py), the site
 * directories' (pyenv/syspath: *.pth) and every sys.path entry's
 * (torch/probe: torch, torch*.so, torch-*.dist-info). A struct
 * tg_dirlist, owned by the caller and handed to each of them, keeps what
 * one listing said so that the next asks the cache, not the kernel.
 *
 * What it keeps is what opendir and readdir said at the first asking:
 * the error of opendir or readdir (errno; not kept when it is EMFILE or
 * ENFILE, which the next asking may not meet), or every name (in
 * readdir's order, "." and ".." included, so that a caller sees what
 * readdir would show it). A listing is a snapshot: a directory that
 * changes later in the run is not listed again, which is right for a
 * tool that answers for one moment. Memory grows with the names of the
 * directories asked for, which their callers would read with readdir
 * anyway; a cache holds at most TG_DIRLIST_MAX directories (the most
 * sys.path entries), after which a listing is not kept but handed to the caller
 * alone (tg_dirlist_get's *owned).
 */
#ifndef TG_LIB_UTIL_DIRLIST_H
#define TG_LIB_UTIL_DIRLIST_H

#include <stddef.h>

/* One directory's listing: n names, in readdir's order, each
 * tg_dirlist_name(d, k). The names lie in one block (a name each would
 * be an allocation each: a listing of 200 names took more instructions
 * than the probe it serves). */
struct tg_dirlist_dir {
	char *path;
	int error; /* the errno of opendir or readdir (no names), or 0 */
	size_t n;
	/* private to dirlist.c */
	size_t *at; /* where each name starts in text */
	char *text; /* the names, each ended by a NUL */
	size_t len, cap, ncap;
};

/* The k-th name of d (k < d->n). */
static inline const char *
tg_dirlist_name(const struct tg_dirlist_dir *d, size_t k)
{
	return d->text + d->at[k];
}

struct tg_dirlist {
	struct tg_dirlist_dir **v;
	size_t n, cap;
};

#define TG_DIRLIST_INIT                                                        \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

#define TG_DIRLIST_MAX 4096

/* The listing of path into *out: dl's (listed on the first asking),
 * borrowed until dl is released, *owned NULL; or, dl NULL or full, one
 * made for this caller alone, *owned the same, which the caller frees
 * with tg_dirlist_dir_free (NULL-safe, so a caller always may). 0, or
 * TG_ENOMEM (also when opendir said ENOMEM). */
int tg_dirlist_get(struct tg_dirlist *dl, const char *path,
		   const struct tg_dirlist_dir **out,
		   struct tg_dirlist_dir **owned);

void tg_dirlist_dir_free(struct tg_dirlist_dir *d);
void tg_dirlist_release(struct tg_dirlist *dl);

#endif
