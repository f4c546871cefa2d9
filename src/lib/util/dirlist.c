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
	if (!d)
		return;
	free(d->at);
	free(d->text);
	free(d->path);
	free(d);
}

/* A new listing of path into *out: its names, or the errno of opendir
 * or of a readdir that failed (no names then: a listing cut short is
 * not one). */
static int
list(const char *path, struct tg_dirlist_dir **out)
{
	struct tg_dirlist_dir *d = calloc(1, sizeof(*d));
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
	/* room for a site directory's names at once: growing from 8 bytes
	 * would be a dozen reallocs */
	if (TG_GROW(d->at, 64, d->ncap) || TG_GROW(d->text, 2048, d->cap)) {
		rc = TG_ENOMEM;
		goto out;
	}
	for (;;) {
		size_t l;

		errno = 0;
		if (!(de = readdir(dp)))
			break;
		l = strlen(de->d_name) + 1;
		/* the capacities looked at here: a call to grow each name
		 * would cost more than the copy */
		if ((d->n == d->ncap && TG_GROW(d->at, d->n + 1, d->ncap)) ||
		    (d->len + l > d->cap &&
		     TG_GROW(d->text, d->len + l, d->cap))) {
			rc = TG_ENOMEM;
			goto out;
		}
		memcpy(d->text + d->len, de->d_name, l);
		d->at[d->n++] = d->len;
		d->len += l;
	}
	if (errno) {
		d->error = errno;
		d->n = 0;
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
	/* out of descriptors is of the moment: asked again next time */
	if (d->error != EMFILE && d->error != ENFILE && dl &&
	    dl->n < TG_DIRLIST_MAX && TG_GROW(dl->v, dl->n + 1, dl->cap) == 0) {
		dl->v[dl->n++] = d;
	} else {
		/* not kept (no cache, a full one, no memory to keep it, or
		 * an error of the moment): the caller's alone */
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
