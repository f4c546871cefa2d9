/* name.c - PEP 503 project name normalisation
 * SPDX-License-Identifier: MIT
 */
#include "lib/pep/name.h"

#include <stdlib.h>
#include <string.h>

char *
tg_name_canonicalize(const char *name)
{
	size_t n = strlen(name), i, o = 0;
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (c == '-' || c == '_' || c == '.') {
			if (o == 0 || out[o - 1] != '-')
				out[o++] = '-';
			continue;
		}
		out[o++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	out[o] = '\0';
	return out;
}
