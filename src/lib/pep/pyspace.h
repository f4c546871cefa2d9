/* pyspace.h - Python's notion of whitespace, on UTF-8 text
 * SPDX-License-Identifier: MIT
 *
 * packaging strips versions and specifiers with Python's str.strip() and
 * regex \s, which accept every character for which str.isspace() is true:
 * ASCII \t\n\v\f\r, 0x1c-0x1f and space, and U+0085, U+00A0, U+1680,
 * U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
 */
#ifndef TG_LIB_PEP_PYSPACE_H
#define TG_LIB_PEP_PYSPACE_H

#include <stddef.h>

/* Length in bytes of the whitespace character at s[i..len), or 0. */
size_t tg_pyspace_at(const char *s, size_t i, size_t len);
/* First index >= i of s[..len) that is not whitespace. */
size_t tg_pyspace_lstrip(const char *s, size_t i, size_t len);
/* End of s[b..e) once trailing whitespace is removed (>= b). */
size_t tg_pyspace_rstrip(const char *s, size_t b, size_t e);

#endif
