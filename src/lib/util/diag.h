/* diag.h - diagnostics: every warning, note and finding, one record type
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_diag says how bad (severity, and the TG_E* code of a
 * failure), where (path, line, column: 1-based, 0 when not known), under
 * which rule (a stable id such as "pth-import", or NULL) and what
 * (message, and the source text it is about when there is one). The
 * probe's problems, the .pth lines not followed and discover's notes are
 * lists of these; text, JSON and SARIF output are renderers over them.
 * A list holds at most TG_DIAG_MAX records; past that, adds are counted
 * in dropped and not stored. A message is kept whole up to
 * TG_DIAG_MESSAGE_MAX bytes.
 */
#ifndef TG_LIB_UTIL_DIAG_H
#define TG_LIB_UTIL_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "lib/util/err.h"

#define TG_DIAG_MAX 100000
/* The longest message kept, in bytes; a longer one is cut there. */
#define TG_DIAG_MESSAGE_MAX 16384

enum tg_severity { TG_SEV_ERROR, TG_SEV_WARNING, TG_SEV_NOTE };

struct tg_diag {
	enum tg_severity severity;
	int code;   /* TG_E* of a failure; 0 for a warning or note */
	char *path; /* the file it is about, or NULL */
	size_t line, column;
	const char *rule; /* a static string, or NULL */
	char *message;
	char *snippet; /* the text it is about, or NULL */
};

struct tg_diag_list {
	struct tg_diag *v;
	size_t n, cap;
	size_t dropped; /* adds past TG_DIAG_MAX */
};

#define TG_DIAG_LIST_INIT                                                      \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

/* Append a record (strings copied; path and snippet may be NULL).
 * TG_ENOMEM when out of memory. */
int tg_diag_add(struct tg_diag_list *l, enum tg_severity severity, int code,
		const char *path, size_t line, size_t column, const char *rule,
		const char *snippet, const char *fmt, ...) TG_PRINTF(9, 10);

/* As tg_diag_add, with the arguments of fmt in ap. */
int tg_diag_addv(struct tg_diag_list *l, enum tg_severity severity, int code,
		 const char *path, size_t line, size_t column, const char *rule,
		 const char *snippet, const char *fmt, va_list ap);

/* The first record of severity error, or NULL. */
const struct tg_diag *tg_diag_first_error(const struct tg_diag_list *l);

void tg_diag_list_release(struct tg_diag_list *l);

/* "error", "warning" or "note". */
const char *tg_diag_severity_name(enum tg_severity s);

#endif
