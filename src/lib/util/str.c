/* str.c - byte-string helpers: UTF-8 validity, NUL bytes, bounded copies
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/str.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
tg_str_utf8_valid(const char *s, size_t len, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned c = u[i];
		size_t k, n;
		unsigned long cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			goto fail;
		if (len - i <= n)
			goto fail;
		for (k = 1; k <= n; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				goto fail;
			cp = (cp << 6) | (u[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			goto fail;
		i += n + 1;
	}
	return 1;
fail:
	if (bad)
		*bad = i;
	return 0;
}

int
tg_str_has_nul(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

char *
tg_str_ndup(const char *s, size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
