/* buf.h - bounded, growable byte buffer (NUL-terminated)
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_buf owns a heap block that always holds a terminating NUL
 * after len bytes. Every buffer has a maximum size (max, default
 * TG_BUF_DEFAULT_MAX); appending past it fails with TG_ELIMIT instead of
 * growing without bound, the way curl's dynbuf does.
 *
 * A buffer remembers its first failure (libgit2's git_str does the same
 * for out of memory): once an append fails, every later append does
 * nothing and returns that code, so output code appends straight through
 * and checks tg_buf_error() once at the end. A failed buffer never holds
 * a truncated answer that looks complete: its contents are what was
 * appended before the failure, and the caller must not print them.
 */
#ifndef TG_LIB_UTIL_BUF_H
#define TG_LIB_UTIL_BUF_H

#include <stddef.h>

#include "lib/util/err.h"

#define TG_BUF_DEFAULT_MAX ((size_t)64 * 1024 * 1024)

struct tg_buf {
	char *data;
	size_t len;
	size_t cap;
	size_t max;
	int err; /* 0, or the first failure (a negative TG_E* code) */
};

#define TG_BUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0, TG_BUF_DEFAULT_MAX, 0                              \
	}

void tg_buf_init(struct tg_buf *b, size_t max);
void tg_buf_release(struct tg_buf *b);
/* Empty b and forget a failure; the block is kept for reuse. */
void tg_buf_clear(struct tg_buf *b);
/* Appends: 0, or the failure (TG_ELIMIT past max, TG_ENOMEM), which b
 * then keeps (see above). */
int tg_buf_add(struct tg_buf *b, const void *data, size_t len);
int tg_buf_adds(struct tg_buf *b, const char *s);
int tg_buf_addc(struct tg_buf *b, char c);
int tg_buf_addf(struct tg_buf *b, const char *fmt, ...) TG_PRINTF(2, 3);
int tg_buf_addu(struct tg_buf *b, size_t v); /* in decimal */
/* tg_buf_room when b must grow first. */
char *tg_buf_room_grow(struct tg_buf *b, size_t n);

/* For a writer that composes its bytes in place: room for up to n more
 * bytes (and the NUL) at the end of b, or NULL when it cannot be had
 * (b keeps the failure, as for an append). The bytes count once
 * tg_buf_commit says how many of them were written (at most n). */
static inline char *
tg_buf_room(struct tg_buf *b, size_t n)
{
	/* the common case inline: room there already */
	if (!b->err && n < b->cap - b->len && b->len <= b->max &&
	    n <= b->max - b->len)
		return b->data + b->len;
	return tg_buf_room_grow(b, n);
}

static inline void
tg_buf_commit(struct tg_buf *b, size_t n)
{
	b->len += n;
	b->data[b->len] = '\0';
}
/* 0, or the first failure of an append since init or clear. */
int tg_buf_error(const struct tg_buf *b);
/* Hand the block to the caller; b is reset. NULL when an append failed
 * (the text would be cut short: it is freed) or out of memory. */
char *tg_buf_detach(struct tg_buf *b);

#endif
