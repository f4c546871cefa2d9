/* dirlist.c - the names in a directory, listed once a run
 * SPDX-License-Identifier: MIT
 *
 * See dirlist.h. A cache is a short array searched from the start: a run
 * asks for a few dozen directories (sys.path's entries and the
 * interpreter's), and at most TG_DIRLIST_MAX are kept.
 */
#include "lib/util/dirlist.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/err.h"
#include "lib/util/grow.h"
#include "lib/util/str.h"

void
tg_dirlist_dir_free(struct tg_dirlist_dir *d)
{
	size_t k;

	if (!d)
		return;
	for (k = 0; k < d->n; k++)
		free(d->names[k]);
	free(d->names);
	free(d->types);
	free(d->path);
	free(d);
}

/* A new listing of path into *out: its names, or opendir's errno. */
static int
list(const char *path, struct tg_dirlist_dir **out)
{
	struct tg_dirlist_dir *d = calloc(1, sizeof(*d));
	size_t cap = 0, tcap = 0;
	struct dirent *de;
	DIR *dp = NULL;
	int rc = 0;

	*out = NULL;
	if (!d || !(d->path = tg_str_ndup(path, strlen(path)))) {
		rc = TG_ENOMEM;
		goto out;
	}
	dp = opendir(path);
	if (!dp) {
		d->error = errno;
		if (errno == ENOMEM)
			rc = TG_ENOMEM;
		goto out;
	}
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);

		if (TG_GROW(d->names, d->n + 1, cap) ||
		    TG_GROW(d->types, d->n + 1, tcap) ||
		    !(d->names[d->n] = tg_str_ndup(de->d_name, l))) {
			rc = TG_ENOMEM;
			goto out;
		}
		d->types[d->n++] = de->d_type;
	}
out:
	if (dp)
		closedir(dp);
	if (rc)
		tg_dirlist_dir_free(d);
	else
		*out = d;
	return rc;
}

int
tg_dirlist_get(struct tg_dirlist *dl, const char *path,
	       const struct tg_dirlist_dir **out, struct tg_dirlist_dir **owned)
{
	struct tg_dirlist_dir *d = NULL;
	size_t k;
	int rc;

	*out = NULL;
	*owned = NULL;
	for (k = 0; dl && k < dl->n; k++)
		if (strcmp(dl->v[k]->path, path) == 0) {
			*out = dl->v[k];
			return 0;
		}
	if ((rc = list(path, &d)))
		return rc;
	if (dl && dl->n < TG_DIRLIST_MAX &&
	    TG_GROW(dl->v, dl->n + 1, dl->cap) == 0) {
		dl->v[dl->n++] = d;
	} else {
		/* not kept (no cache, a full one, or no memory to keep it):
		 * the caller's alone */
		*owned = d;
	}
	*out = d;
	return 0;
}

void
tg_dirlist_release(struct tg_dirlist *dl)
{
	size_t k;

	for (k = 0; k < dl->n; k++)
		tg_dirlist_dir_free(dl->v[k]);
	free(dl->v);
	memset(dl, 0, sizeof(*dl));
}
