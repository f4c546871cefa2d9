/* toml.h - an exact reader for TOML 1.0 documents
 * SPDX-License-Identifier: MIT
 *
 * What torchgate reads of pyproject.toml, read exactly: tables ([a.b])
 * and arrays of tables ([[a]]), bare, quoted and dotted keys, strings of
 * all four kinds with every escape, arrays over lines with comments and
 * a trailing comma, inline tables. Integers, floats, booleans and dates
 * are checked against TOML 1.0's grammar (underscores between digits, no
 * leading zeros, a day that exists in its month) and kept as their text
 * (nothing here needs their value). A document that is not TOML is refused with the line,
 * column and reason, never guessed at: duplicate keys, a table defined
 * twice, an unterminated string, a bad escape, invalid UTF-8.
 */
#ifndef TG_LIB_UTIL_TOML_H
#define TG_LIB_UTIL_TOML_H

#include <stddef.h>

#include "lib/util/err.h"

/* Deepest nesting of arrays and inline tables read. */
#define TG_TOML_DEPTH_MAX 64

enum tg_toml_type {
	TG_TOML_STRING, /* str: the decoded string (UTF-8, may hold NUL) */
	TG_TOML_OTHER,	/* str: the text of an integer, float, bool, date */
	TG_TOML_ARRAY,	/* items */
	TG_TOML_TABLE,	/* keys and items */
};

struct tg_toml_value {
	enum tg_toml_type type;
	size_t line; /* where the value (or table header) starts, 1-based */
	char *str;
	size_t len;
	char **keys; /* TABLE: keys[k] names items[k], in document order */
	struct tg_toml_value **items;
	size_t n, cap;
	unsigned flags; /* the reader's bookkeeping */
	size_t *index;	/* TABLE of many keys: k + 1 by key hash, or 0 */
	size_t index_cap;
};

/* Parse src[0..len) into a new root table *out. name is used in
 * messages: "cannot parse 'NAME': line L, column C: REASON". TG_EINVAL
 * for what is not TOML, TG_ELIMIT past TG_TOML_DEPTH_MAX, TG_ENOMEM. */
int tg_toml_parse(struct tg_toml_value **out, const char *src, size_t len,
		  const char *name, struct tg_err *err);
void tg_toml_free(struct tg_toml_value *v); /* NULL-safe */

/* The value of key in table t (one key, not dotted), or NULL when t is
 * NULL, not a table or has no such key. Borrowed. */
const struct tg_toml_value *tg_toml_get(const struct tg_toml_value *t,
					const char *key);

#endif
