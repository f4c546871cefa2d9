/* files.h - the trees the unit tests make
 * SPDX-License-Identifier: MIT
 *
 * check_put makes dir/rel and the directories above it (dir itself must
 * exist): a file holding text, or a directory when text is NULL (one
 * that exists already is no failure). What it cannot make is a failed
 * CHECK (check.h) naming the path, so a test never goes on silently
 * with a tree it did not get.
 */
#ifndef TG_TESTS_FILES_H
#define TG_TESTS_FILES_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

static inline void
check_put(const char *dir, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;
	int ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    sizeof(path)) {
		CHECK(0, "path too long: %s/%s", dir, rel);
		return;
	}
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		CHECK(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
		*p = '/';
	}
	if (!text) {
		CHECK(mkdir(path, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
		return;
	}
	f = fopen(path, "w");
	CHECK(f != NULL, "fopen %s: %s", path, strerror(errno));
	if (!f)
		return;
	ok = fputs(text, f) >= 0;
	ok = (fclose(f) == 0) && ok;
	CHECK(ok, "write %s", path);
}

#endif
