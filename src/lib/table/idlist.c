/* idlist.c - a list of API ids as text (emit's --api-file)
 * SPDX-License-Identifier: MIT
 *
 * One pass over the text, no allocation: ids are cut in place with NUL
 * bytes, so they live as long as the text. A NUL byte in the text ends
 * the id it is in, as whitespace does. Worst case: linear in len, at most
 * max ids.
 */
#include "lib/table/idlist.h"

#include <string.h>

int
tg_idlist_parse(char *s, size_t len, char **ids, size_t *n, size_t max,
		const char *file, struct tg_err *err)
{
	size_t i = 0;

	while (i < len) {
		size_t e = i, b;

		while (e < len && s[e] != '\n')
			e++;
		s[e] = '\0';
		b = i;
		/* whitespace-separated ids up to a '#' */
		while (b < e && s[b] != '#') {
			size_t t;

			while (b < e && strchr(" \t\r", s[b]))
				b++;
			t = b;
			while (t < e && !strchr(" \t\r#", s[t]))
				t++;
			if (t == b)
				break;
			if (*n >= max)
				return tg_err_set(err, TG_ELIMIT,
						  "'%s': more than %zu APIs",
						  file, max);
			ids[(*n)++] = s + b;
			b = t;
			if (b < e && s[b] != '#')
				s[b++] = '\0';
			else if (b < e) {
				s[b] = '\0';
				break;
			}
		}
		i = e + 1;
	}
	return 0;
}
