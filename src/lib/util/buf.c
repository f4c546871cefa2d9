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
	b->err = 0;
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
	b->err = 0;
	if (b->data)
		b->data[0] = '\0';
}

int
tg_buf_error(const struct tg_buf *b)
{
	return b->err;
}

/* Remember the first failure; every later append returns it. */
static int
fail(struct tg_buf *b, int rc)
{
	if (!b->err)
		b->err = rc;
	return b->err;
}

static int
grow(struct tg_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->err)
		return b->err;
	if (extra > b->max || b->len > b->max - extra)
		return fail(b, TG_ELIMIT);
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (!p)
		return fail(b, TG_ENOMEM);
	b->data = p;
	b->cap = cap;
	return 0;
}

int
tg_buf_add(struct tg_buf *b, const void *data, size_t len)
{
	int rc;

	/* the common case, without grow's checks */
	if (len && !b->err && len < b->cap - b->len && b->len <= b->max &&
	    len <= b->max - b->len) {
		memcpy(b->data + b->len, data, len);
		b->len += len;
		b->data[b->len] = '\0';
		return 0;
	}
	rc = grow(b, len);

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
	/* the common case, without grow's checks */
	if (!b->err && b->len + 2 <= b->cap && b->len < b->max) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
		return 0;
	}
	return tg_buf_add(b, &c, 1);
}

char *
tg_buf_room_grow(struct tg_buf *b, size_t n)
{
	if (grow(b, n))
		return NULL;
	return b->data + b->len;
}

int
tg_buf_addu(struct tg_buf *b, size_t v)
{
	char d[24];
	size_t n = sizeof(d);

	do
		d[--n] = (char)('0' + v % 10);
	while (v /= 10);
	return tg_buf_add(b, d + n, sizeof(d) - n);
}

int
tg_buf_addf(struct tg_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->data ? b->cap - b->len : 0;
	int n, rc;

	if (b->err)
		return b->err;
	/* formatted straight into the room left when it fits (the common
	 * case: one pass), else measured and formatted again */
	va_start(ap, fmt);
	n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room && b->len <= b->max &&
	    (size_t)n <= b->max - b->len) {
		b->len += (size_t)n; /* its NUL written too */
		return 0;
	}
	if (room)
		b->data[b->len] = '\0'; /* what did not fit, undone */
	if (n < 0)
		return fail(b, TG_EINVAL);
	rc = grow(b, (size_t)n);
	if (rc)
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

char *
tg_buf_detach(struct tg_buf *b)
{
	char *p = b->data;

	/* a failed append left the text cut short: never handed out */
	if (b->err) {
		tg_buf_release(b);
		return NULL;
	}
	if (!p) {
		p = calloc(1, 1);
		if (!p)
			return NULL;
	}
	tg_buf_init(b, b->max);
	return p;
}
