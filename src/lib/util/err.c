/* err.c - error detail for library callers
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/err.h"

#include <stdarg.h>
#include <stdio.h>

static int
vset(struct tg_err *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return code;
}

int
tg_err_set(struct tg_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(err, code, fmt, ap);
	va_end(ap);
	if (err)
		err->has_pos = 0;
	return code;
}

int
tg_err_set_at(struct tg_err *err, int code, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(err, code, fmt, ap);
	va_end(ap);
	if (err) {
		err->has_pos = 1;
		err->pos = pos;
	}
	return code;
}
