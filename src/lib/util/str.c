/* str.c - byte-string helpers: UTF-8 validity, NUL bytes, bounded copies,
 * edit distance
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/str.h"

#include <stdarg.h>
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
	if (len > SIZE_MAX - 1 - TG_STR_PAD ||
	    !(c = malloc(len + 1 + TG_STR_PAD)))
		return TG_ENOMEM;
	memcpy(c, s, len);
	memset(c + len, 0, 1 + TG_STR_PAD);
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

size_t
tg_str_utf8_seq(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	if ((unsigned char)s[0] < 0x80)
		return 1;
	return utf8_seq((const unsigned char *)s, len);
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
 * on a character boundary, *cut set) or when out is full. The input
 * bytes consumed. */
static size_t
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
			return i;
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
			return i;
		}
		i += n;
	}
	return i;
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

int
tg_str_escape(char *out, size_t cap, size_t *at, const char *s, size_t len)
{
	int cut;

	if (cap == 0)
		return len > 0;
	if (*at >= cap)
		*at = cap - 1;
	out[*at] = '\0';
	escape(out, cap, at, s, len, SIZE_MAX, &cut);
	return cut;
}

/* Whether each of the eight bytes at s is in 0x20..0x7e: none has its
 * high bit, none is below 0x20 (v - 0x20.. borrows into a high bit not
 * v's), none is 0x7f (+1 sets one). */
static inline int
printable8(const char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	return !((v | (v + UINT64_C(0x0101010101010101)) |
		  ((v - UINT64_C(0x2020202020202020)) & ~v)) &
		 UINT64_C(0x8080808080808080));
}

int
tg_str_add_escaped(struct tg_buf *b, const char *s, size_t len)
{
	size_t done = 0;
	int cut;

	/* the common case, nothing to escape: one append */
	if (len < 4096) {
		size_t i = 0;

		while (len - i >= 8 && printable8(s + i))
			i += 8;
		for (; i < len; i++) {
			unsigned char c = (unsigned char)s[i];

			if (c < 0x20 || c >= 0x7f)
				break;
		}
		if (i == len)
			return tg_buf_add(b, s, len);
	}
	while (done < len) {
		char tmp[1024];
		size_t at = 0;

		done += escape(tmp, sizeof(tmp), &at, s + done, len - done,
			       SIZE_MAX, &cut);
		tg_buf_add(b, tmp, at);
	}
	return tg_buf_error(b);
}

int
tg_str_adds_escaped(struct tg_buf *b, const char *s)
{
	return tg_str_add_escaped(b, s, strlen(s));
}

/* One conversion of tg_str_vaddf other than %s, its width and precision
 * already in spec: the argument of its type taken from ap. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
add_conv(struct tg_buf *b, const char *spec, const char *len, char conv,
	 va_list *ap)
{
	switch (conv) {
	case 'c':
		tg_buf_addf(b, spec, va_arg(*ap, int));
		return;
	case 'd':
	case 'i':
		if (strcmp(len, "l") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, long));
		else if (strcmp(len, "ll") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, long long));
		else if (strcmp(len, "z") == 0 || strcmp(len, "t") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, ptrdiff_t));
		else if (strcmp(len, "j") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, intmax_t));
		else
			tg_buf_addf(b, spec, va_arg(*ap, int));
		return;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		if (strcmp(len, "l") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, unsigned long));
		else if (strcmp(len, "ll") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, unsigned long long));
		else if (strcmp(len, "z") == 0 || strcmp(len, "t") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, size_t));
		else if (strcmp(len, "j") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, uintmax_t));
		else
			tg_buf_addf(b, spec, va_arg(*ap, unsigned));
		return;
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
		if (strcmp(len, "L") == 0)
			tg_buf_addf(b, spec, va_arg(*ap, long double));
		else
			tg_buf_addf(b, spec, va_arg(*ap, double));
		return;
	case 'p':
		tg_buf_addf(b, spec, va_arg(*ap, void *));
		return;
	default:
		/* a conversion this printf does not know: a programming
		 * error that -Wformat would not catch */
		b->err = b->err ? b->err : TG_EINVAL;
		return;
	}
}
#pragma GCC diagnostic pop

int
tg_str_vaddf(struct tg_buf *b, const char *fmt, va_list ap0)
{
	const char *p = fmt;
	va_list ap;

	va_copy(ap, ap0);
	while (*p) {
		const char *q = strchr(p, '%'), *r;
		char spec[64], len[3] = "";
		size_t sl = 1, ll = 0;
		int width = -1, prec = -1, left = 0;

		if (!q) {
			tg_buf_adds(b, p);
			break;
		}
		tg_buf_add(b, p, (size_t)(q - p));
		r = q + 1;
		if (*r == '%') {
			tg_buf_addc(b, '%');
			p = r + 1;
			continue;
		}
		spec[0] = '%';
		for (; *r && strchr("-+ #0", *r); r++) {
			left |= *r == '-';
			if (sl < 8)
				spec[sl++] = *r;
		}
		if (*r == '*') {
			width = va_arg(ap, int);
			if (width < 0)
				left = 1, width = -width;
			r++;
		} else if (*r >= '1' && *r <= '9') {
			width = (int)strtol(r, (char **)&r, 10);
		}
		if (*r == '.') {
			r++;
			if (*r == '*') {
				prec = va_arg(ap, int);
				r++;
			} else {
				prec = (int)strtol(r, (char **)&r, 10);
			}
		}
		while (*r && strchr("hlzjtL", *r) && ll < 2)
			len[ll++] = *r++;
		len[ll] = '\0';
		if (*r != 's') {
			if (width >= 0)
				sl += (size_t)snprintf(spec + sl, 12, "%s%d",
						       left ? "-" : "", width);
			if (prec >= 0)
				sl += (size_t)snprintf(spec + sl, 13, ".%d",
						       prec);
			memcpy(spec + sl, len, ll);
			sl += ll;
			spec[sl++] = *r;
			spec[sl] = '\0';
			if (*r)
				add_conv(b, spec, len, *r, &ap);
		} else {
			const char *s = va_arg(ap, const char *);
			size_t n, at;

			if (!s)
				s = "(null)";
			n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
			if (width > 0 && !left) {
				struct tg_buf t = TG_BUF_INIT;

				tg_str_add_escaped(&t, s, n);
				for (at = t.len; at < (size_t)width; at++)
					tg_buf_addc(b, ' ');
				if (t.err)
					b->err = b->err ? b->err : t.err;
				else
					tg_buf_add(b, t.data ? t.data : "",
						   t.len);
				tg_buf_release(&t);
			} else {
				at = b->len;
				tg_str_add_escaped(b, s, n);
				for (at = b->len - at;
				     width > 0 && at < (size_t)width; at++)
					tg_buf_addc(b, ' ');
			}
		}
		p = *r ? r + 1 : r;
	}
	va_end(ap);
	return tg_buf_error(b);
}

int
tg_str_addf(struct tg_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = tg_str_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
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

int
tg_str_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
