/* jsonw.h - the JSON writer every command's output goes through
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_jsonw appends one JSON document to a struct tg_buf. Each
 * object or array is opened as a block (one member a line, indented two
 * spaces a level) or as flow (on one line: {"a": 1, "b": [2, 3]});
 * inside flow everything is flow. An empty container is {} or []. The
 * writer never fails on its own: appends go to the buffer, which keeps
 * its first failure (buf.h), so callers write straight through and check
 * tg_jsonw_finish() once. Strings are escaped as JSON requires (", \,
 * control characters); well-formed UTF-8 passes through byte for byte,
 * and a byte of invalid UTF-8 (a file name's \xff) becomes \udcXX, the
 * lone surrogate Python's surrogateescape decodes it to (U+DC80 + byte):
 * every document is valid JSON, and json.loads() then os.fsencode() give
 * the bytes back.
 */
#ifndef TG_LIB_UTIL_JSONW_H
#define TG_LIB_UTIL_JSONW_H

#include <stddef.h>

#include "lib/util/buf.h"

/* Deepest nesting written; deeper is a programming error (assert). */
#define TG_JSONW_DEPTH 32

enum tg_jsonw_style { TG_JSONW_BLOCK, TG_JSONW_FLOW };

struct tg_jsonw {
	struct tg_buf *out;
	int depth;
	int key_pending; /* a key was written; its value comes next */
	struct tg_jsonw_level {
		char close;	    /* '}' or ']' */
		unsigned char flow; /* on one line */
		size_t n;	    /* members or elements so far */
	} level[TG_JSONW_DEPTH];
};

void tg_jsonw_init(struct tg_jsonw *w, struct tg_buf *out);

void tg_jsonw_object(struct tg_jsonw *w, enum tg_jsonw_style style);
void tg_jsonw_array(struct tg_jsonw *w, enum tg_jsonw_style style);
/* Close the innermost object or array. */
void tg_jsonw_end(struct tg_jsonw *w);

/* The key of the next member of the current object. */
void tg_jsonw_key(struct tg_jsonw *w, const char *key);

/* Values; a NULL string is null. */
void tg_jsonw_str(struct tg_jsonw *w, const char *s);
void tg_jsonw_strn(struct tg_jsonw *w, const char *s, size_t len);
void tg_jsonw_int(struct tg_jsonw *w, long long v);
void tg_jsonw_bool(struct tg_jsonw *w, int v);
/* v < 0: null, else a boolean. */
void tg_jsonw_tristate(struct tg_jsonw *w, int v);
void tg_jsonw_null(struct tg_jsonw *w);

/* key and value in one call. */
void tg_jsonw_kstr(struct tg_jsonw *w, const char *key, const char *s);
void tg_jsonw_kint(struct tg_jsonw *w, const char *key, long long v);
void tg_jsonw_kbool(struct tg_jsonw *w, const char *key, int v);

/* After the root value: a newline, then the buffer's first failure (0
 * when the document is whole). */
int tg_jsonw_finish(struct tg_jsonw *w);

/* Append s[0..len) to b as a JSON string literal, quotes included. */
int tg_jsonw_quote(struct tg_buf *b, const char *s, size_t len);

#endif
