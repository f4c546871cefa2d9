/* index.h - the torch releases a package index lists
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_INDEX_H
#define TG_LIB_TABLE_INDEX_H

#include <stddef.h>

#include "lib/pep/version.h"
#include "lib/util/err.h"

/* Largest index document read, and most versions kept. */
#define TG_INDEX_MAX ((size_t)64 * 1024 * 1024)
#define TG_INDEX_VERSIONS_MAX ((size_t)100000)

struct tg_index {
	struct tg_version *v; /* PEP 440 order, no two equal */
	size_t n;
	size_t skipped; /* versions that did not parse as PEP 440 */
	int pep691;	/* 0: PyPI JSON API, 1: PEP 691 simple JSON */
};

#define TG_INDEX_INIT                                                          \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

/* The released versions of torch in an index document: a PyPI JSON API
 * document (/pypi/torch/json: "releases", a version to its files) or a
 * PEP 691 simple JSON page ("files", each with "filename" and "yanked";
 * a file's version read from its wheel or sdist name, torch's files
 * only). A version is released when at least one of its files is not
 * yanked: a version with no file, or only yanked ones, is left out, and
 * so are pre and dev releases unless pre. Messages name name. TG_EINVAL
 * for a document of neither shape, TG_ELIMIT past
 * TG_INDEX_VERSIONS_MAX. */
int tg_index_parse(struct tg_index *ix, const char *text, size_t len,
		   const char *name, int pre, struct tg_err *err);
void tg_index_release(struct tg_index *ix);

/* Whether the index lists a final release with v's epoch and release
 * (2.4.0a0+3bcc3cd: 2.4.0, 2.4). */
int tg_index_has_release(const struct tg_index *ix, const struct tg_version *v);

#endif
