/* cmakefile.c - facts from torch's CMake package files, read as text
 * SPDX-License-Identifier: MIT
 *
 * Commands are matched after a line's leading blanks only; text after
 * '#' on a line is a comment and skipped. A value with an unexpanded
 * ${...} or @...@ is returned as is: the caller decides.
 */
#include "lib/torch/cmake.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/util/str.h"

/* tg_str_ndup that says ENOMEM in errno */
static char *
ndup(const char *s, size_t len)
{
	char *p = tg_str_ndup(s, len);

	if (!p)
		errno = ENOMEM;
	return p;
}

static size_t
skip_ws(const char *s, size_t i, size_t len)
{
	while (i < len &&
	       (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

char *
tg_cmake_set_value(const char *s, size_t len, const char *var)
{
	size_t i = 0, n = strlen(var);

	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - s) : len, j = i;

		while (j < e && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (e - j > 3 && strncasecmp(s + j, "set", 3) == 0) {
			j = skip_ws(s, j + 3, len);
			if (j < len && s[j] == '(') {
				j = skip_ws(s, j + 1, len);
				if (len - j > n && memcmp(s + j, var, n) == 0 &&
				    (s[j + n] == ' ' || s[j + n] == '\t' ||
				     s[j + n] == '\n')) {
					size_t q;

					j = skip_ws(s, j + n, len);
					if (j < len && s[j] == '"') {
						q = j + 1;
						while (q < len && s[q] != '"' &&
						       s[q] != '\\')
							q++;
						if (q < len && s[q] == '"')
							return ndup(s + j + 1,
								    q - j - 1);
					}
				}
			}
		}
		i = e + 1;
	}
	errno = 0;
	return NULL;
}

/* Each CXX_STANDARD in order (memmem), kept when it is a word of its
 * line's code (no '#' before it on the line) followed by blanks and a
 * number from 1 to 99. The bytes between two hits are looked at once
 * (the line's start and whether a '#' came), so many hits on one long
 * line stay linear. */
int
tg_cmake_cxx_standard(const char *s, size_t len)
{
	static const char key[] = "CXX_STANDARD";
	size_t n = sizeof(key) - 1, j, at, seen = 0;
	const char *p;
	int comment = 0;

	for (j = 0; j < len && (p = memmem(s + j, len - j, key, n)) != NULL;
	     j = at + 1) {
		const char *nl;
		size_t k;
		int v = 0;

		at = (size_t)(p - s);
		k = at + n;
		/* the bytes seen..at: a new line, a comment on this one */
		nl = memrchr(s + seen, '\n', at - seen);
		if (nl)
			comment = memchr(nl + 1, '#',
					 (size_t)(s + at - nl - 1)) != NULL;
		else
			comment = comment || memchr(s + seen, '#', at - seen);
		seen = at;
		if (comment || k >= len || (s[k] != ' ' && s[k] != '\t') ||
		    (at > 0 && (s[at - 1] == '_' ||
				(s[at - 1] >= 'A' && s[at - 1] <= 'Z'))))
			continue;
		while (k < len && (s[k] == ' ' || s[k] == '\t'))
			k++;
		while (k < len && s[k] >= '0' && s[k] <= '9' && v < 1000)
			v = v * 10 + (s[k++] - '0');
		if (v > 0 && v < 100)
			return v;
	}
	return 0;
}

int
tg_cmake_cxx11_abi(const char *flags)
{
	static const char key[] = "-D_GLIBCXX_USE_CXX11_ABI=";
	const char *p = strstr(flags, key);

	if (!p)
		return -1;
	p += sizeof(key) - 1;
	if ((p[0] == '0' || p[0] == '1') &&
	    (p[1] == '\0' || p[1] == ' ' || p[1] == ';'))
		return p[0] - '0';
	return -1;
}

static size_t
line_of(const char *s, size_t at)
{
	size_t k, line = 1;

	for (k = 0; k < at; k++)
		line += s[k] == '\n';
	return line;
}

int
tg_cmake_check(const char *s, size_t len, const char *file, struct tg_err *err)
{
	const char *nul = memchr(s, '\0', len);
	size_t i;

	if (nul)
		return tg_err_set_at(err, TG_EINVAL, (size_t)(nul - s),
				     "cannot parse '%s': line %zu: a NUL byte "
				     "(at byte %zu)",
				     file, line_of(s, (size_t)(nul - s)),
				     (size_t)(nul - s));
	for (i = 0; i + 2 < len; i++) {
		size_t eq = 0, j, k;

		if (s[i] != '#' || s[i + 1] != '[')
			continue;
		for (j = i + 2; j < len && s[j] == '='; j++)
			eq++;
		if (j >= len || s[j] != '[')
			continue;
		/* a bracket comment: it ends at ']' eq*'=' ']' */
		for (k = j + 1; k < len; k++) {
			size_t m = 0;

			if (s[k] != ']')
				continue;
			while (k + 1 + m < len && s[k + 1 + m] == '=')
				m++;
			if (m == eq && k + 1 + m < len && s[k + 1 + m] == ']')
				break;
		}
		if (k >= len)
			return tg_err_set(err, TG_EINVAL,
					  "cannot parse '%s': line %zu: a "
					  "bracket comment that is never "
					  "closed",
					  file, line_of(s, i));
		i = k;
	}
	return 0;
}
