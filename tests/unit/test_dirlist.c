/* test_dirlist.c - util/dirlist: a directory listed once, then asked
 * SPDX-License-Identifier: MIT
 *
 * A listing holds readdir's names and types ("." and ".." too) or
 * opendir's errno; a second asking is the first's listing, unchanged by
 * what happened to the directory since; without a cache, or with a full
 * one, the listing is the caller's to free.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/util/dirlist.h"

static char dir[] = "/tmp/test_dirlist.XXXXXX";

static void
touch(const char *name)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f)
		fclose(f);
}

/* Whether d holds name. */
static int
has(const struct tg_dirlist_dir *d, const char *name)
{
	size_t k;

	for (k = 0; k < d->n; k++)
		if (strcmp(tg_dirlist_name(d, k), name) == 0)
			return 1;
	return 0;
}

int
main(void)
{
	struct tg_dirlist dl = TG_DIRLIST_INIT;
	const struct tg_dirlist_dir *d = NULL, *again = NULL;
	struct tg_dirlist_dir *own = NULL;
	char p[256];
	size_t k;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	touch("a.pth");
	snprintf(p, sizeof(p), "%s/torch", dir);
	mkdir(p, 0700);

	CHECK(tg_dirlist_get(&dl, dir, &d, &own) == 0, "listing '%s'", dir);
	CHECK(own == NULL, "a cached listing is not the caller's");
	CHECK(d && d->error == 0 && d->n == 4, "4 names, got %zu",
	      d ? d->n : 0);
	CHECK(d && has(d, ".") && has(d, ".."),
	      "'.' and '..' as readdir gives them");
	CHECK(d && has(d, "a.pth") && has(d, "torch"), "a.pth and torch");
	CHECK(d && strcmp(d->path, dir) == 0, "the path kept");

	/* asked again after a change: the first listing */
	touch("b.pth");
	CHECK(tg_dirlist_get(&dl, dir, &again, &own) == 0 && again == d &&
		  own == NULL,
	      "the second asking is the first listing");
	CHECK(again && !has(again, "b.pth"),
	      "a name made after the listing is not in it");
	CHECK(dl.n == 1, "one directory kept, got %zu", dl.n);

	/* what opendir said */
	snprintf(p, sizeof(p), "%s/missing", dir);
	CHECK(tg_dirlist_get(&dl, p, &d, &own) == 0 && d->error == ENOENT &&
		  d->n == 0,
	      "a missing directory: ENOENT");
	snprintf(p, sizeof(p), "%s/a.pth", dir);
	CHECK(tg_dirlist_get(&dl, p, &d, &own) == 0 && d->error == ENOTDIR,
	      "a file: ENOTDIR");
	CHECK(dl.n == 3, "errors are kept too, got %zu", dl.n);

	/* no cache: the caller's own listing, with the new name */
	CHECK(tg_dirlist_get(NULL, dir, &d, &own) == 0 && own && d == own &&
		  has(d, "b.pth"),
	      "without a cache the listing is the caller's");
	tg_dirlist_dir_free(own);
	tg_dirlist_dir_free(NULL);

	/* a full cache hands the listing to the caller */
	for (k = dl.n; k < TG_DIRLIST_MAX; k++) {
		snprintf(p, sizeof(p), "%s/missing%zu", dir, k);
		if (tg_dirlist_get(&dl, p, &d, &own) || own)
			break;
	}
	CHECK(dl.n == TG_DIRLIST_MAX, "%d kept, got %zu", TG_DIRLIST_MAX, dl.n);
	CHECK(tg_dirlist_get(&dl, "/", &d, &own) == 0 && own && d == own,
	      "past TG_DIRLIST_MAX the listing is the caller's");
	tg_dirlist_dir_free(own);
	tg_dirlist_release(&dl);
	CHECK(dl.n == 0 && dl.v == NULL, "released");

	snprintf(p, sizeof(p), "rm -rf %s", dir);
	if (system(p) != 0)
		return 1;
	return check_result("test_dirlist");
}
