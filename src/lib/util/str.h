/* str.h - byte-string helpers: UTF-8 validity, NUL bytes, bounded copies
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_UTIL_STR_H
#define TG_LIB_UTIL_STR_H

#include <stddef.h>

/* 1 when s[0..len) is well-formed UTF-8 (no surrogates, no overlongs);
 * otherwise 0 and *bad is the offset of the first bad byte. */
int tg_str_utf8_valid(const char *s, size_t len, size_t *bad);

/* 1 when s[0..len) holds a NUL byte. */
int tg_str_has_nul(const char *s, size_t len);

/* Duplicate len bytes of s, NUL-terminated. */
char *tg_str_ndup(const char *s, size_t len);

#endif
