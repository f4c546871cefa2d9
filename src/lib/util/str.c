/* str.c - byte-string helpers: UTF-8 validity, NUL bytes, bounded copies,
 * edit distance
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/str.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/err.h"

int
tg_str_utf8_valid(const char *s, size_t len, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned c = u[i];
		size_t k, n;
		unsigned long cp;
		uint64_t w;

		/* eight ASCII bytes at a time */
		if (len - i >= 8 && (memcpy(&w, u + i, 8),
				     !(w & UINT64_C(0x8080808080808080)))) {
			i += 8;
			continue;
		}
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

/* The first lone CR (a CR not followed by LF) of s[0..len), or NULL. */
static const char *
lone_cr(const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	while (p < end && (p = memchr(p, '\r', (size_t)(end - p)))) {
		if (p + 1 == end || p[1] != '\n')
			return p;
		p += 2;
	}
	return NULL;
}

int
tg_str_lone_cr(const char *s, size_t len, char **copy)
{
	const char *p = lone_cr(s, len);
	char *c;

	*copy = NULL;
	if (!p)
		return 0;
	if (!(c = malloc(len ? len : 1)))
		return TG_ENOMEM;
	memcpy(c, s, len);
	for (; p; p = lone_cr(p + 1, len - (size_t)(p + 1 - s)))
		c[p - s] = '\n';
	*copy = c;
	return 0;
}

/* Length of the well-formed UTF-8 sequence at s[0..len), or 0. */
static size_t
utf8_seq(const unsigned char *s, size_t len)
{
	size_t n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;

	if (s[0] < 0xc2 || s[0] > 0xf4 || len < n)
		return 0;
	return tg_str_utf8_valid((const char *)s, n, NULL) ? n : 0;
}

/* Append one escaped byte or sequence; 0 when it does not fit. */
static int
put(char *out, size_t cap, size_t *at, const char *s, size_t n)
{
	if (*at + n >= cap)
		return 0;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = '\0';
	return 1;
}

/* Escape s[0..len) into out from *at; stops at in_max input bytes (cut
 * on a character boundary, *cut set) or when out is full. */
static void
escape(char *out, size_t cap, size_t *at, const char *s, size_t len,
       size_t in_max, int *cut)
{
	static const char names[] = "0000000abtnvfr";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	*cut = 0;
	while (i < len) {
		unsigned c = u[i];
		char e[5];
		size_t n = 1, w;

		if (c >= 0x80 && (n = utf8_seq(u + i, len - i)) == 0)
			n = 1;
		/* C1 controls (U+0080..U+009F: CSI, OSC...) are valid UTF-8
		 * that terminals obey: escaped byte by byte like C0 ones */
		if (n == 2 && c == 0xc2 && u[i + 1] < 0xa0)
			n = 1;
		if (i + n > in_max) {
			*cut = 1;
			return;
		}
		if (c >= 0x20 && c != 0x7f && (c < 0x80 || n > 1)) {
			memcpy(e, s + i, n);
			w = n;
		} else if (c >= 7 && c <= 13) {
			e[0] = '\\', e[1] = names[c], w = 2;
		} else if (c == 27) {
			e[0] = '\\', e[1] = 'e', w = 2;
		} else {
			w = (size_t)snprintf(e, sizeof(e), "\\x%02x", c);
		}
		if (!put(out, cap, at, e, w)) {
			*cut = 1;
			return;
		}
		i += n;
	}
}

char *
tg_str_quote(char *out, const char *s, size_t len)
{
	size_t at = 0;
	int cut;

	out[0] = '\0';
	escape(out, TG_STR_QUOTE_SIZE, &at, s, len, TG_STR_QUOTE_MAX, &cut);
	if (cut)
		put(out, TG_STR_QUOTE_SIZE, &at, "...", 3);
	return out;
}

char *
tg_str_quote_cstr(char *out, const char *s)
{
	return s ? tg_str_quote(out, s, strlen(s))
		 : tg_str_quote(out, "(null)", 6);
}

void
tg_str_escape(char *out, size_t cap, size_t *at, const char *s, size_t len)
{
	int cut;

	if (cap == 0)
		return;
	if (*at >= cap)
		*at = cap - 1;
	out[*at] = '\0';
	escape(out, cap, at, s, len, SIZE_MAX, &cut);
}

size_t
tg_str_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t rows[3][TG_STR_DISTANCE_MAX + 1];
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2], *t;

	if (la > TG_STR_DISTANCE_MAX || lb > TG_STR_DISTANCE_MAX ||
	    (la > lb ? la - lb : lb - la) > limit)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}
