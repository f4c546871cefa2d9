/* diag.c - diagnostics: every warning, note and finding, one record type
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/diag.h"
#include "lib/util/grow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
tg_diag_addv(struct tg_diag_list *l, enum tg_severity severity, int code,
	     const char *path, size_t line, size_t column, const char *rule,
	     const char *snippet, const char *fmt, va_list ap)
{
	struct tg_diag *d;
	va_list aq;
	int n;

	if (l->n == TG_DIAG_MAX) {
		l->dropped++;
		return 0;
	}
	if (TG_GROW(l->v, l->n + 1, l->cap))
		return TG_ENOMEM;
	d = &l->v[l->n];
	memset(d, 0, sizeof(*d));
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return TG_EINVAL;
	if ((size_t)n > TG_DIAG_MESSAGE_MAX)
		n = TG_DIAG_MESSAGE_MAX;
	d->message = malloc((size_t)n + 1);
	if (d->message)
		vsnprintf(d->message, (size_t)n + 1, fmt, ap);
	d->severity = severity;
	d->code = code;
	d->line = line;
	d->column = column;
	d->rule = rule;
	d->path = path ? strdup(path) : NULL;
	d->snippet = snippet ? strdup(snippet) : NULL;
	if (!d->message || (path && !d->path) || (snippet && !d->snippet)) {
		free(d->message);
		free(d->path);
		free(d->snippet);
		return TG_ENOMEM;
	}
	l->n++;
	return 0;
}

int
tg_diag_add(struct tg_diag_list *l, enum tg_severity severity, int code,
	    const char *path, size_t line, size_t column, const char *rule,
	    const char *snippet, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = tg_diag_addv(l, severity, code, path, line, column, rule, snippet,
			  fmt, ap);
	va_end(ap);
	return rc;
}

const struct tg_diag *
tg_diag_first_error(const struct tg_diag_list *l)
{
	size_t k;

	for (k = 0; k < l->n; k++)
		if (l->v[k].severity == TG_SEV_ERROR)
			return &l->v[k];
	return NULL;
}

void
tg_diag_list_release(struct tg_diag_list *l)
{
	size_t k;

	for (k = 0; k < l->n; k++) {
		free(l->v[k].path);
		free(l->v[k].message);
		free(l->v[k].snippet);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const char *
tg_diag_severity_name(enum tg_severity s)
{
	return s == TG_SEV_ERROR     ? "error"
	       : s == TG_SEV_WARNING ? "warning"
				     : "note";
}
