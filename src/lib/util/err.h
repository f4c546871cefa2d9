/* err.h - error codes and caller-owned error detail for the library
 * SPDX-License-Identifier: MIT
 *
 * Every fallible library function returns 0 or a negative TG_E* code and,
 * when the caller passes a struct tg_err, a one-line message in git's
 * grammar ("cannot parse 'x': ..."). The library never prints.
 */
#ifndef TG_LIB_UTIL_ERR_H
#define TG_LIB_UTIL_ERR_H

#include <stddef.h>

enum tg_errcode {
	TG_OK = 0,
	TG_EINVAL = -1, /* malformed input: a version, specifier, marker */
	TG_ENOMEM = -2, /* allocation failed */
	TG_EIO = -3,	/* a file could not be read or written */
	TG_ELIMIT = -4, /* input exceeds a documented limit */
	TG_EUNDEF = -5, /* undefined comparison or missing variable */
	TG_ENOENT = -6, /* no interpreter or no torch where one was needed */
};

#define TG_ERR_MSG_MAX 512

struct tg_err {
	int code;
	size_t pos; /* byte offset of the problem, when has_pos */
	int has_pos;
	char msg[TG_ERR_MSG_MAX];
};

#define TG_ERR_INIT                                                            \
	{                                                                      \
		0, 0, 0, ""                                                    \
	}

#if defined(__GNUC__)
#define TG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TG_PRINTF(f, a)
#endif

/* Record code and message in err (NULL allowed); returns code. */
int tg_err_set(struct tg_err *err, int code, const char *fmt, ...)
    TG_PRINTF(3, 4);

/* As tg_err_set, and remember the byte offset of the problem. */
int tg_err_set_at(struct tg_err *err, int code, size_t pos, const char *fmt,
		  ...) TG_PRINTF(4, 5);

#endif
