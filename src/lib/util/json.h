/* json.h - reading JSON documents: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 *
 * A parsed document is a tree of struct tg_json values, owned by its
 * root (tg_json_free). Values are read through the getters below, so no
 * caller sees cJSON's types; a getter given NULL or a value of another
 * type answers "absent" (NULL, 0, or false), so chains need no checks in
 * between. Input is bounded by the caller; nesting is bounded by cJSON
 * (CJSON_NESTING_LIMIT, 1000).
 */
#ifndef TG_LIB_UTIL_JSON_H
#define TG_LIB_UTIL_JSON_H

#include <stddef.h>

#include "lib/util/err.h"

struct tg_json;

/* Parse text[0..len) as one JSON value; whitespace may follow it, nothing
 * else. On failure returns TG_EINVAL (TG_ENOMEM when out of memory is
 * the cause cJSON can tell) with *errpos the byte offset of the problem;
 * the caller words the message. */
int tg_json_parse(struct tg_json **out, const char *text, size_t len,
		  size_t *errpos);
/* NULL-safe; frees a root and everything below it. */
void tg_json_free(struct tg_json *root);

int tg_json_is_null(const struct tg_json *v);
int tg_json_is_bool(const struct tg_json *v);
int tg_json_is_true(const struct tg_json *v);
int tg_json_is_number(const struct tg_json *v);
int tg_json_is_string(const struct tg_json *v);
int tg_json_is_array(const struct tg_json *v);
int tg_json_is_object(const struct tg_json *v);

/* The member key of an object (the first when it appears twice), or NULL. */
const struct tg_json *tg_json_get(const struct tg_json *obj, const char *key);
/* The first element of an array or member of an object, then the next:
 * for (it = tg_json_child(v); it; it = tg_json_next(it)). */
const struct tg_json *tg_json_child(const struct tg_json *v);
const struct tg_json *tg_json_next(const struct tg_json *v);
/* Elements or members in an array or object; 0 for anything else. */
size_t tg_json_size(const struct tg_json *v);

/* The key of an object member, or NULL. */
const char *tg_json_key(const struct tg_json *member);
/* The text of a string value (NUL-terminated), or NULL. */
const char *tg_json_string(const struct tg_json *v);
/* The value of a number, or 0. */
double tg_json_number(const struct tg_json *v);

/* 1-based line and column of byte pos in text[0..len). */
void tg_json_line_col(const char *text, size_t len, size_t pos, size_t *line,
		      size_t *col);

#endif
