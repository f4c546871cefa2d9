/* meta.h - core-metadata headers (METADATA, PKG-INFO, WHEEL) as Python
 * reads them
 * SPDX-License-Identifier: MIT
 *
 * The header block of an RFC 822 message, split the way Python's
 * email.parser does with the compat32 policy (what importlib.metadata
 * uses): lines end at \n, \r\n or \r; a line starting with a space or tab
 * continues the previous value; a blank line, or a line that is not a
 * header, ends the block. The body is never looked at.
 */
#ifndef TG_LIB_PYENV_META_H
#define TG_LIB_PYENV_META_H

#include <stddef.h>

#include "lib/util/err.h"

/* Largest header block read from a metadata file. */
#define TG_META_HEAD_MAX ((size_t)1 << 20)

struct tg_meta_field {
	char *name;  /* as written */
	char *value; /* leading blanks and the final newline stripped */
};

struct tg_meta {
	struct tg_meta_field *fields;
	size_t n;
	char *store; /* the names and values point into it */
};

#define TG_META_INIT                                                           \
	{                                                                      \
		NULL, 0, NULL                                                  \
	}

/* Parse the header block of text (len bytes; text may be only the first
 * part of the file when truncated is set, and then the block must end
 * inside it). file names the source in messages. */
int tg_meta_parse(struct tg_meta *m, const char *text, size_t len,
		  int truncated, const char *file, struct tg_err *err);

/* Read and parse path: a missing file sets *absent (when not NULL). */
int tg_meta_load(struct tg_meta *m, const char *path, int *absent,
		 struct tg_err *err);

void tg_meta_release(struct tg_meta *m);

/* First value of the field name (ASCII case-insensitive), or NULL. */
const char *tg_meta_get(const struct tg_meta *m, const char *name);

/* Index of the next field called name at or after *pos, or NULL; for
 * repeated fields: for (i = 0; (v = tg_meta_next(m, "Tag", &i)); i++) */
const char *tg_meta_next(const struct tg_meta *m, const char *name,
			 size_t *pos);

#endif
