/* jsonio.h - the JSON edge: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_JSONIO_H
#define TG_LIB_JSONIO_H

#include <stddef.h>

#include "lib/err.h"
#include "lib/marker.h"

/* Fill env from a JSON object of marker variables: each value a string,
 * or for "extras" and "dependency_groups" an array of strings. */
int tg_json_marker_env(struct tg_marker_env *env, const char *text, size_t len,
		       struct tg_err *err);

/* PEP 610 direct_url.json: the url, and its kind: "editable" (dir_info
 * with editable true), "directory", "vcs" or "archive". Both new strings. */
int tg_json_direct_url(const char *text, size_t len, const char *file,
		       char **url, char **kind, struct tg_err *err);

struct tg_table;
/* The API table document (see table.h); used by tg_table_parse.
 * patterns: compile every PCRE2 pattern to check it (0 only for the
 * built-in table, whose patterns make check compiles). */
int tg_json_table(struct tg_table *t, const char *text, size_t len,
		  const char *name, int patterns, struct tg_err *err);

#endif
