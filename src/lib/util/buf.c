/* buf.c - bounded, growable byte buffer
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
tg_buf_init(struct tg_buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void
tg_buf_release(struct tg_buf *b)
{
	free(b->data);
	tg_buf_init(b, b->max);
}

void
tg_buf_clear(struct tg_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

static int
grow(struct tg_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > b->max || b->len > b->max - extra)
		return TG_ELIMIT;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (!p)
		return TG_ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int
tg_buf_add(struct tg_buf *b, const void *data, size_t len)
{
	int rc = grow(b, len);

	if (rc)
		return rc;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int
tg_buf_adds(struct tg_buf *b, const char *s)
{
	return tg_buf_add(b, s, strlen(s));
}

int
tg_buf_addc(struct tg_buf *b, char c)
{
	return tg_buf_add(b, &c, 1);
}

int
tg_buf_addf(struct tg_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return TG_EINVAL;
	rc = grow(b, (size_t)n);
	if (rc)
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

int
tg_buf_add_json_str(struct tg_buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	int rc = tg_buf_addc(b, '"');
	size_t i;

	for (i = 0; !rc && i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			rc = tg_buf_add(b, esc, 2);
		} else if (c == '\n') {
			rc = tg_buf_add(b, "\\n", 2);
		} else if (c == '\t') {
			rc = tg_buf_add(b, "\\t", 2);
		} else if (c < 0x20 || c == 0x7f) {
			rc = tg_buf_add(b, esc, 6);
		} else {
			rc = tg_buf_addc(b, (char)c);
		}
	}
	return rc ? rc : tg_buf_addc(b, '"');
}

char *
tg_buf_detach(struct tg_buf *b)
{
	char *p = b->data;

	if (!p) {
		p = calloc(1, 1);
		if (!p)
			return NULL;
	}
	tg_buf_init(b, b->max);
	return p;
}
