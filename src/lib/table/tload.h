/* tload.h - the strict JSON reader the table's loaders share
 * SPDX-License-Identifier: MIT
 *
 * For table.c and excluded.c: a document read member by member, each
 * getter checking a type and, on a bad value, failing with the file's
 * name, the line and column of that value and the entry being read
 * ("cannot parse 'data/apis.json': line 3, column 14: entry 'x':
 * expected a string for \"since\""). The loader keeps the path to the
 * value it reads: tg_tload_enter pushes a key, L->depth-- pops it.
 */
#ifndef TG_LIB_TABLE_TLOAD_H
#define TG_LIB_TABLE_TLOAD_H

#include <stddef.h>

#include "lib/pep/version.h"
#include "lib/util/err.h"
#include "lib/util/json.h"

#define TG_TLOAD_DEPTH 8

struct tg_tload_step {
	const char *key; /* NULL: an array index */
	long index;
};

struct tg_tload {
	const char *text;
	size_t len;
	const char *name;
	struct tg_err *err;
	struct tg_tload_step path[TG_TLOAD_DEPTH];
	int depth;
	const char *entry; /* id of the entry being read, for messages */
	/* 1: compile every pattern and check every object's keys; 0: the
	 * built-in table, which make check loads strictly from
	 * data/apis.json (table-schema.sh) */
	int strict;
};

/* Fail with the position of the value at L's path: TG_EINVAL. */
int tg_tload_fail(struct tg_tload *L, const char *fmt, ...) TG_PRINTF(2, 3);
/* Push key onto L's path; returns 0. */
int tg_tload_enter(struct tg_tload *L, const char *key);
/* Check that obj is an object with only the allowed keys, each once,
 * and the required ones; what names it in messages (NULL: "it"). */
int tg_tload_check_keys(struct tg_tload *L, const struct tg_json *obj,
			const char *const *allowed, const char *const *required,
			const char *what);
/* A string or (when nullable) null member; *out a new string or NULL. */
int tg_tload_get_str(struct tg_tload *L, const struct tg_json *obj,
		     const char *key, int nullable, char **out);
/* A release version X.Y[.Z] or null: the text in *out, parsed in *ver. */
int tg_tload_get_version(struct tg_tload *L, const struct tg_json *obj,
			 const char *key, char **out, struct tg_version *ver);
/* A string that is one of names (NULL-terminated): its index in *out. */
int tg_tload_get_enum(struct tg_tload *L, const struct tg_json *obj,
		      const char *key, const char *const *names, int *out);
/* An array of non-empty strings, into a new *out of *n (free with
 * tg_tload_strings_free, also after a failure). */
int tg_tload_get_strings(struct tg_tload *L, const struct tg_json *obj,
			 const char *key, char ***out, size_t *n);
void tg_tload_strings_free(char **v, size_t n);
/* 1 when v is a release version X.Y or X.Y.Z. */
int tg_tload_is_release_version(const char *v);
/* 1 when id is a valid table id: identifiers joined by "." or "::". */
int tg_tload_check_id(const char *id);

#endif
