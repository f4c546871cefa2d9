/* cdefine.c - #define lines of a C header, read as text
 * SPDX-License-Identifier: MIT
 *
 * Lines are found by scanning for '#' at the start of a logical line
 * (after blanks). The logical line is built by joining physical lines
 * that end in a backslash. C comments inside it become one blank, as
 * translation phase 3 says; a comment that does not end on the logical
 * line ends the replacement there.
 */
#include "lib/torch/cdefine.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"

/* Append the logical line starting at *i to out; advance *i past it. */
static int
logical_line(const char *s, size_t len, size_t *i, struct tg_buf *out)
{
	size_t j = *i;
	const char *nl = memchr(s + j, '\n', len - j);
	size_t e = nl ? (size_t)(nl - s) : len;

	tg_buf_clear(out);
	/* most lines: no continuation, no '\r' to drop */
	if (!memchr(s + j, '\\', e - j) && !memchr(s + j, '\r', e - j)) {
		if (e > j && tg_buf_add(out, s + j, e - j))
			return -1;
		*i = e < len ? e + 1 : e;
		return 0;
	}
	while (j < len && s[j] != '\n') {
		if (s[j] == '\\' && j + 1 < len &&
		    (s[j + 1] == '\n' ||
		     (s[j + 1] == '\r' && j + 2 < len && s[j + 2] == '\n'))) {
			j += s[j + 1] == '\n' ? 2 : 3;
			continue;
		}
		if (s[j] != '\r' && tg_buf_addc(out, s[j]))
			return -1;
		j++;
	}
	*i = j < len ? j + 1 : j;
	return 0;
}

/* Remove comments from a logical line, in place. */
static void
strip_comments(char *p)
{
	char *w = p, *r = p;
	char quote = 0;

	while (*r) {
		if (quote) {
			if (*r == '\\' && r[1]) {
				*w++ = *r++;
			} else if (*r == quote) {
				quote = 0;
			}
			*w++ = *r++;
		} else if (*r == '"' || *r == '\'') {
			quote = *r;
			*w++ = *r++;
		} else if (r[0] == '/' && r[1] == '/') {
			break;
		} else if (r[0] == '/' && r[1] == '*') {
			char *end = strstr(r + 2, "*/");

			if (!end)
				break;
			*w++ = ' ';
			r = end + 2;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Whether the logical line at i can be a directive: its first byte
 * other than a blank or '\r' is '#', or a '\\' that may join the next
 * line (logical_line decides). If not, *i moves past the line, its
 * continuations followed, without copying it. */
static int
may_be_directive(const char *s, size_t len, size_t *i)
{
	size_t j = *i;
	const char *q;

	while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r'))
		j++;
	if (j < len && (s[j] == '#' || s[j] == '\\'))
		return 1;
	/* the line's end: a '\n' not after '\\' or "\\\r" */
	while ((q = memchr(s + j, '\n', len - j)) != NULL) {
		size_t e = (size_t)(q - s);

		if (!(e > *i && s[e - 1] == '\\') &&
		    !(e > *i + 1 && s[e - 1] == '\r' && s[e - 2] == '\\'))
			break;
		j = e + 1;
	}
	*i = q ? (size_t)(q - s) + 1 : len;
	return 0;
}

char *
tg_cdefine_get(const char *s, size_t len, const char *name, int *found)
{
	struct tg_buf line = TG_BUF_INIT;
	size_t i = 0, n = strlen(name);
	char *result = NULL;

	*found = 0;
	while (i < len) {
		char *p, *e;

		if (!may_be_directive(s, len, &i))
			continue;
		if (logical_line(s, len, &i, &line)) {
			*found = 1;
			break;
		}
		if (!line.data)
			continue;
		p = line.data;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "define", 6) != 0 ||
		    (p[6] != ' ' && p[6] != '\t'))
			continue;
		p += 6;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, name, n) != 0 ||
		    (p[n] != ' ' && p[n] != '\t' && p[n] != '\0'))
			continue;
		p += n;
		strip_comments(p);
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		*found = 1;
		result = malloc((size_t)(e - p) + 1);
		if (result) {
			memcpy(result, p, (size_t)(e - p));
			result[e - p] = '\0';
		}
		break;
	}
	tg_buf_release(&line);
	return result;
}

int
tg_cdefine_int(const char *s, size_t len, const char *name, long *out)
{
	int found;
	char *v = tg_cdefine_get(s, len, name, &found), *end;
	long x;
	int rc = -1;

	if (!v)
		return found ? TG_ENOMEM : -1;
	if (isdigit((unsigned char)v[0])) {
		errno = 0;
		x = strtol(v, &end, 10);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (errno == 0 && *end == '\0' && x <= INT_MAX) {
			*out = x;
			rc = 0;
		}
	}
	free(v);
	return rc;
}

char *
tg_cdefine_string(const char *s, size_t len, const char *name)
{
	int found;
	char *v = tg_cdefine_get(s, len, name, &found);
	size_t n;

	errno = found && !v ? ENOMEM : 0;
	if (!v)
		return NULL;
	n = strlen(v);
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"' &&
	    !memchr(v + 1, '"', n - 2) && !memchr(v + 1, '\\', n - 2)) {
		memmove(v, v + 1, n - 2);
		v[n - 2] = '\0';
		return v;
	}
	free(v);
	return NULL;
}

int
tg_cdefine_check(const char *s, size_t len, const char *file,
		 struct tg_err *err)
{
	size_t i = 0, line = 1, open_line = 0;
	const char *nul = memchr(s, '\0', len);

	if (nul) {
		for (i = 0; s + i < nul; i++)
			line += s[i] == '\n';
		return tg_err_set_at(err, TG_EINVAL, (size_t)(nul - s),
				     "cannot parse '%s': line %zu: a NUL byte "
				     "(at byte %zu)",
				     file, line, (size_t)(nul - s));
	}
	while (i < len) {
		char c = s[i];

		if (c == '\n') {
			line++;
			i++;
		} else if (c == '"' || c == '\'') {
			/* a literal ends at its quote or, unterminated, at
			 * the end of the line */
			for (i++; i < len && s[i] != c && s[i] != '\n'; i++)
				if (s[i] == '\\' && i + 1 < len &&
				    s[i + 1] != '\n')
					i++;
			if (i < len && s[i] == c)
				i++;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			open_line = line;
			for (i += 2;
			     i + 1 < len && !(s[i] == '*' && s[i + 1] == '/');
			     i++)
				line += s[i] == '\n';
			if (i + 1 >= len)
				return tg_err_set(
				    err, TG_EINVAL,
				    "cannot parse '%s': line %zu: "
				    "a comment that is never "
				    "closed (no */)",
				    file, open_line);
			i += 2;
		} else {
			i++;
		}
	}
	return 0;
}
