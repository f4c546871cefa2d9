/* str.h - byte-string helpers: UTF-8 validity, NUL bytes, bounded copies
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_UTIL_STR_H
#define TG_LIB_UTIL_STR_H

#include <stdarg.h>
#include <stddef.h>

#include "lib/util/buf.h"

/* 1 when s[0..len) is well-formed UTF-8 (no surrogates, no overlongs);
 * otherwise 0 and *bad is the offset of the first bad byte. */
int tg_str_utf8_valid(const char *s, size_t len, size_t *bad);

/* 1 when s[0..len) holds a NUL byte. */
int tg_str_has_nul(const char *s, size_t len);

/* Duplicate len bytes of s, NUL-terminated. */
char *tg_str_ndup(const char *s, size_t len);

/* The zero bytes after a file's bytes and their NUL as tg_file_read
 * gives them, and after a copy of tg_str_lone_cr: vector code (PCRE2's
 * JIT) may read past the end without touching undefined bytes. */
#define TG_STR_PAD 64

/* Line ends as Python's tokenizer and the C preprocessor take them: LF,
 * CRLF and a lone CR (a CR not followed by LF) each end a line. When
 * s[0..len) holds a lone CR, *copy is a malloc'd copy of its len bytes
 * with each lone CR made LF (the same offsets, so a position in the copy
 * is one in s), for readers that end lines at LF only, NUL-terminated
 * and padded as a file's bytes are (TG_STR_PAD); else *copy is NULL. 0,
 * or TG_ENOMEM. */
int tg_str_lone_cr(const char *s, size_t len, char **copy);

/* Messages quote at most this many bytes of the text they are about. */
#define TG_STR_QUOTE_MAX 200
/* The room one quoted text needs: every byte escaped (\xNN), "...", NUL. */
#define TG_STR_QUOTE_SIZE (TG_STR_QUOTE_MAX * 4 + 4)

/* s[0..len) made fit to quote in a message, written to out (of
 * TG_STR_QUOTE_SIZE bytes), which is returned: at most TG_STR_QUOTE_MAX
 * bytes of s, cut on a UTF-8 character boundary and ended with "..."
 * when cut; a control byte (below 0x20, 0x7f) is escaped as \a \b \t
 * \n \v \f \r \e or \xNN, a byte of invalid UTF-8 as \xNN. Nothing
 * else is changed (a backslash stays one), so the result is for people,
 * not for parsing back. */
char *tg_str_quote(char *out, const char *s, size_t len);

/* tg_str_quote of a NUL-terminated string (NULL gives "(null)") into a
 * buffer that lives until the end of the enclosing block: for message
 * arguments, tg_err_set(err, c, "invalid version '%s'", TG_QUOTE(v)). */
#define TG_QUOTE(s) tg_str_quote_cstr((char[TG_STR_QUOTE_SIZE]){0}, (s))
char *tg_str_quote_cstr(char *out, const char *s);

/* As tg_str_quote with no length bound: a control byte or invalid UTF-8
 * in s[0..len) escaped, the result appended to out[0..cap) from *at,
 * never past cap - 1 (NUL-terminated; what does not fit is dropped, on
 * a character's boundary, and 1 returned, else 0).
 * The last writer of every message line uses it, so that no raw control
 * byte or newline reaches a terminal whatever a caller passed. */
int tg_str_escape(char *out, size_t cap, size_t *at, const char *s, size_t len);

/* The value of the hex digit c (0-9, a-f, A-F), or -1. */
int tg_str_hexval(char c);

/* The length of the UTF-8 character at s[0..len): 1 for ASCII, 2 to 4
 * for a well-formed sequence, 0 for a byte that starts none (invalid
 * UTF-8) or len == 0. */
size_t tg_str_utf8_seq(const char *s, size_t len);

/* Text outputs: s[0..len) escaped as tg_str_escape does, appended to b;
 * b's first failure (buf.h). Every string a text report takes from
 * what it inspected (a path, a name, a version string, a table's text)
 * goes out through these, so that a control byte, a newline or invalid
 * UTF-8 in it can neither drive a terminal nor forge a line. */
int tg_str_add_escaped(struct tg_buf *b, const char *s, size_t len);
int tg_str_adds_escaped(struct tg_buf *b, const char *s);
/* tg_buf_addf with every %s argument escaped (the format's own text,
 * newlines included, goes out as it is). Knows the conversions
 * c d i u x X o e E f F g G p s with flags, width, precision (also *)
 * and the length modifiers hh h l ll z j t L; another marks b failed. */
int tg_str_addf(struct tg_buf *b, const char *fmt, ...) TG_PRINTF(2, 3);
int tg_str_vaddf(struct tg_buf *b, const char *fmt, va_list ap);

/* Longest string tg_str_distance compares. */
#define TG_STR_DISTANCE_MAX 256

/* The edit distance of a and b for "did you mean": the optimal string
 * alignment distance (an insertion, a deletion, a substitution or a
 * swap of two neighbours is one edit; "--quite" is 1 from "--quiet").
 * SIZE_MAX when their lengths alone put it over limit, or when either is
 * longer than TG_STR_DISTANCE_MAX bytes. Three rows on the stack, time
 * in the product of the lengths. */
size_t tg_str_distance(const char *a, const char *b, size_t limit);

#endif
