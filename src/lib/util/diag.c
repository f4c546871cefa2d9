/* diag.c - diagnostics: every warning, note and finding, one record type
 * SPDX-License-Identifier: MIT
 */
#include "lib/util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
tg_diag_add(struct tg_diag_list *l, enum tg_severity severity, int code,
	    const char *path, size_t line, size_t column, const char *rule,
	    const char *snippet, const char *fmt, ...)
{
	char msg[TG_ERR_MSG_MAX];
	struct tg_diag *d;
	va_list ap;

	if (l->n == TG_DIAG_MAX) {
		l->dropped++;
		return 0;
	}
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4;
		void *p = realloc(l->v, nc * sizeof(*l->v));

		if (!p)
			return TG_ENOMEM;
		l->v = p;
		l->cap = nc;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d = &l->v[l->n];
	memset(d, 0, sizeof(*d));
	d->severity = severity;
	d->code = code;
	d->line = line;
	d->column = column;
	d->rule = rule;
	d->message = strdup(msg);
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
