/* cdefine.h - #define lines of a C header, read as text
 * SPDX-License-Identifier: MIT
 *
 * Enough of the C preprocessor to read torch's version.h: a line
 * `#  define NAME replacement`, with backslash-newline continuations
 * joined and comments left out of the replacement. Nothing is expanded.
 */
#ifndef TG_LIB_TORCH_CDEFINE_H
#define TG_LIB_TORCH_CDEFINE_H

#include <stddef.h>

#include "lib/util/err.h"

/* The replacement text of the first `#define name` in s[0..len) (a new
 * string, blanks trimmed), or NULL when there is none. *found says which;
 * on out-of-memory NULL is returned with *found 1. */
char *tg_cdefine_get(const char *s, size_t len, const char *name, int *found);

/* The replacement as a decimal integer (an optional U/L suffix allowed).
 * 0 on success, -1 when absent or not a plain number, TG_ENOMEM. */
int tg_cdefine_int(const char *s, size_t len, const char *name, long *out);

/* The replacement as one plain string literal ("..."), without quotes, or
 * NULL when absent or not one (errno 0) or out of memory (errno ENOMEM). */
char *tg_cdefine_string(const char *s, size_t len, const char *name);

/* 0 when s[0..len) is a header the compiler could read at all: no NUL
 * byte and no comment left open at the end of the file (the compiler
 * rejects both; without this check the #defines before the open comment
 * would be read as if the rest were not there). Else TG_EINVAL with
 * "cannot parse 'file': line N: ..." in err. */
int tg_cdefine_check(const char *s, size_t len, const char *file,
		     struct tg_err *err);

#endif
