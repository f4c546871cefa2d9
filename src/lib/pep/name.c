/* name.c - PEP 503 project name normalisation
 * SPDX-License-Identifier: MIT
 */
#include "lib/pep/name.h"

#include <stdlib.h>
#include <string.h>

char *
tg_name_canonicalize_to(char *out, const char *name)
{
	size_t i, o = 0;

	for (i = 0; name[i]; i++) {
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

char *
tg_name_canonicalize(const char *name)
{
	char *out = malloc(strlen(name) + 1);

	return out ? tg_name_canonicalize_to(out, name) : NULL;
}
