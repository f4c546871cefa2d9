/* buf.h - bounded, growable byte buffer (NUL-terminated)
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_buf owns a heap block that always holds a terminating NUL
 * after len bytes. Every buffer has a maximum size (max, default
 * TG_BUF_DEFAULT_MAX); appending past it fails with TG_ELIMIT instead of
 * growing without bound, the way curl's dynbuf does.
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
};

#define TG_BUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0, TG_BUF_DEFAULT_MAX                                 \
	}

void tg_buf_init(struct tg_buf *b, size_t max);
void tg_buf_release(struct tg_buf *b);
void tg_buf_clear(struct tg_buf *b);
int tg_buf_add(struct tg_buf *b, const void *data, size_t len);
int tg_buf_adds(struct tg_buf *b, const char *s);
int tg_buf_addc(struct tg_buf *b, char c);
int tg_buf_addf(struct tg_buf *b, const char *fmt, ...) TG_PRINTF(2, 3);
/* Append s (len bytes) as a JSON string literal, quotes included. */
int tg_buf_add_json_str(struct tg_buf *b, const char *s, size_t len);
/* Hand the block to the caller (never NULL on success); b is reset. */
char *tg_buf_detach(struct tg_buf *b);

#endif
