/* dists.h - the distributions installed on a sys.path, from their
 * metadata
 * SPDX-License-Identifier: MIT
 *
 * What importlib.metadata.distributions() finds: every *.dist-info and
 * *.egg-info directory directly in a sys.path entry, with its name,
 * version, Requires-Dist lines and the top-level names it installed
 * (top_level.txt's; RECORD's when asked).
 * Where two entries hold the same project (PEP 503 name), the first on
 * the path wins, as importlib.metadata.distribution(name) picks it.
 */
#ifndef TG_LIB_PYENV_DISTS_H
#define TG_LIB_PYENV_DISTS_H

#include <stddef.h>

#include "lib/util/diag.h"
#include "lib/util/err.h"
#include "lib/pyenv/syspath.h"

/* Most distributions kept: the first in name order of each directory,
 * then in path order; what is left out is a warning in problems.
 * Requires-Dist lines have no count of their
 * own: the metadata's header block (TG_META_HEAD_MAX bytes, at most
 * 100000 fields) and requires.txt's size bound them, and every one is
 * checked (a count cap once dropped the 4,097th without a word). */
#define TG_DISTS_MAX 20000

struct tg_dist {
	char *name;	 /* Name: as written */
	char *canon;	 /* PEP 503 normalised */
	char *version;	 /* Version: as written */
	char *dir;	 /* the .dist-info / .egg-info directory */
	char *metadata;	 /* its METADATA or PKG-INFO file */
	size_t entry;	 /* index of its sys.path entry */
	char **requires; /* Requires-Dist values, in file order */
	size_t nrequires, caprequires;
	char *requires_block; /* when set, requires[] point into it */
	char *requires_file;  /* where they came from: metadata or
				requires.txt */
	/* the top-level names of its top_level.txt, each one path
	 * component, never "." or ".."; without one (top_level 0),
	 * tg_dists_record_tops reads them from RECORD when asked (75 of
	 * the 197 distributions of pip's torch 2.11 venv have none, and
	 * reading every such RECORD at load time was a third of env's
	 * work there) */
	char **top;
	size_t ntop, captop;
	int top_level; /* it has a top_level.txt */
};

struct tg_dists {
	struct tg_dist *v; /* sorted by canon */
	size_t n, cap;
	struct tg_diag_list problems; /* unreadable or malformed metadata */
};

#define TG_DISTS_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

/* Find every distribution on sp. Only allocation failure is an error:
 * a directory or metadata file that cannot be read or parsed becomes a
 * warning in ds->problems and the distribution is left out. */
int tg_dists_load(struct tg_dists *ds, const struct tg_syspath *sp,
		  struct tg_err *err);
void tg_dists_release(struct tg_dists *ds);

/* The top-level names RECORD gives d (the first component of each path
 * it lists, a module file's name up to its first dot; its .dist-info,
 * .egg-info, .data, __pycache__ and .pth entries are none), for a
 * distribution without top_level.txt, into a new array of new strings
 * (*n of them, at most 4,096; tg_dists_names_free frees them); none
 * when it has no RECORD. TG_ENOMEM only: an unreadable RECORD is an
 * absent one. */
int tg_dists_record_tops(const struct tg_dist *d, char ***out, size_t *n,
			 struct tg_err *err);
/* Free the n strings of v and v. */
void tg_dists_names_free(char **v, size_t n);

/* The files RECORD lists for d whose name is a shared object (*.so,
 * *.so.N) or a *.py with "torch" in it, as paths relative to the
 * sys.path entry (entries that leave it, "../x" or "/x", left out), in
 * RECORD's order, into a new array of new strings (*n of them), at most
 * TG_DISTS_MAX (*cut, when not NULL, is set when RECORD lists more).
 * *absent is set when d has no RECORD. TG_ENOMEM only: an unreadable
 * RECORD is an absent one. */
int tg_dists_record_objects(const struct tg_dist *d, char ***out, size_t *n,
			    int *absent, int *cut, struct tg_err *err);

/* *yes when d's RECORD lists the file name (a path relative to the
 * sys.path entry, as RECORD writes it). TG_ENOMEM only: an unreadable
 * or absent RECORD lists nothing. */
int tg_dists_record_lists(const struct tg_dist *d, const char *name, int *yes,
			  struct tg_err *err);

/* The distribution whose canonical name is canon, or NULL. */
const struct tg_dist *tg_dists_find(const struct tg_dists *ds,
				    const char *canon);

#endif
