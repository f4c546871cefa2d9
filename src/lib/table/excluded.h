/* excluded.h - the exclusion list (data/apis-excluded.json)
 * SPDX-License-Identifier: MIT
 *
 * The declarations torch makes that the table deliberately has no entry
 * for (schema data/apis-excluded.schema.json, loaded as strictly as the
 * table): an internal helper no client calls, a second spelling of an
 * entry, a parameter-level warning folded into its function's entry, a
 * module-level warning, ... discover counts a declaration it matches as
 * accounted for. The build embeds data/apis-excluded.json beside the
 * table.
 */
#ifndef TG_LIB_TABLE_EXCLUDED_H
#define TG_LIB_TABLE_EXCLUDED_H

#include <stddef.h>

#include "lib/util/err.h"

enum tg_excl_category {
	TG_EXCL_INTERNAL,
	TG_EXCL_DUPLICATE,
	TG_EXCL_PARAMETER,
	TG_EXCL_MODULE_LEVEL,
	TG_EXCL_OTHER,
};

/* The kind of an exclusion that is no declaration: a table entry, by its
 * id, deprecated in torch but not declared where discover reads (a
 * TORCH_WARN_ONCE in ATen's compiled sources, a deprecation only the
 * docs state). Its message is always NULL. */
#define TG_EXCL_NOT_DECLARED "not-declared"

struct tg_excl {
	char *symbol;  /* as discover names it; a table id for not-declared */
	char *kind;    /* a declaration kind, as discover spells it */
	char *message; /* NULL, or a substring the declaration's message has */
	char **torch;  /* the installs that declare it ("1.13", "2.11") */
	size_t ntorch;
	enum tg_excl_category category;
	char *see; /* the table id it is folded into, or NULL */
	char *reason;
};

struct tg_excluded {
	struct tg_excl *v; /* sorted by symbol, then kind, as in the file */
	size_t n;
	char *description;
};

#define TG_EXCLUDED_INIT                                                       \
	{                                                                      \
		NULL, 0, NULL                                                  \
	}

/* Parse an exclusion list; name is used in messages, as for the table.
 * Entries must be sorted by symbol, then kind (then message, null
 * first), each once. */
int tg_excluded_parse(struct tg_excluded *x, const char *text, size_t len,
		      const char *name, struct tg_err *err);
/* Read and parse the file path (at most TG_TABLE_MAX bytes). */
int tg_excluded_load(struct tg_excluded *x, const char *path,
		     struct tg_err *err);
/* The exclusion list built into the binary. */
int tg_excluded_default(struct tg_excluded *x, struct tg_err *err);
void tg_excluded_release(struct tg_excluded *x);

/* The entry that excludes a declaration: the same symbol and kind, and
 * a message that is NULL or found in msg (NULL msg matches only a NULL
 * message). The first such entry, or NULL. */
const struct tg_excl *tg_excluded_match(const struct tg_excluded *x,
					const char *symbol, const char *kind,
					const char *msg);

const char *tg_excluded_category_name(enum tg_excl_category c);

#endif
