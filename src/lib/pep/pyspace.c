/* pyspace.c - Python's notion of whitespace, on UTF-8 text
 * SPDX-License-Identifier: MIT
 */
#include "lib/pep/pyspace.h"

static int
ascii_space(unsigned char c)
{
	return c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
}

/* Whether the code point encoded in n (2 or 3) bytes at u is a space.
 * Every byte is compared with a continuation byte's value (0x80-0xbf),
 * so that an ASCII byte after a cut sequence ("\xe2\x80;") is never
 * taken into a space. */
static int
wide_space(const unsigned char *u, size_t n)
{
	if (n == 2)
		return u[0] == 0xc2 && (u[1] == 0x85 || u[1] == 0xa0);
	if (u[0] == 0xe1)
		return u[1] == 0x9a && u[2] == 0x80; /* U+1680 */
	if (u[0] == 0xe2 && u[1] == 0x80) /* U+2000-200A, 2028/9, 202F */
		return (u[2] >= 0x80 && u[2] <= 0x8a) || u[2] == 0xa8 ||
		       u[2] == 0xa9 || u[2] == 0xaf;
	if (u[0] == 0xe2 && u[1] == 0x81)
		return u[2] == 0x9f; /* U+205F */
	if (u[0] == 0xe3)
		return u[1] == 0x80 && u[2] == 0x80; /* U+3000 */
	return 0;
}

size_t
tg_pyspace_at(const char *s, size_t i, size_t len)
{
	const unsigned char *u = (const unsigned char *)s + i;

	if (i >= len)
		return 0;
	if (ascii_space(u[0]))
		return 1;
	if (len - i >= 2 && u[0] == 0xc2 && wide_space(u, 2))
		return 2;
	if (len - i >= 3 && (u[0] == 0xe1 || u[0] == 0xe2 || u[0] == 0xe3) &&
	    wide_space(u, 3))
		return 3;
	return 0;
}

size_t
tg_pyspace_lstrip(const char *s, size_t i, size_t len)
{
	size_t n;

	while ((n = tg_pyspace_at(s, i, len)) != 0)
		i += n;
	return i;
}

size_t
tg_pyspace_rstrip(const char *s, size_t b, size_t e)
{
	const unsigned char *u = (const unsigned char *)s;

	for (;;) {
		if (e > b && ascii_space(u[e - 1]))
			e--;
		else if (e >= b + 2 && wide_space(u + e - 2, 2))
			e -= 2;
		else if (e >= b + 3 && (u[e - 3] & 0xf0) == 0xe0 &&
			 wide_space(u + e - 3, 3))
			e -= 3;
		else
			return e;
	}
}
