/* decl.c - a harvested declaration recorded, within its file's budget
 * SPDX-License-Identifier: MIT
 *
 * What a harvester's site calls (internal.h): the budget of bytes the
 * sites of one file may re-read (WORK_PER_BYTE per byte, at least
 * WORK_MIN), and the declarations, at most DECLS_PER_FILE_MAX per file,
 * each with the replacement its message names (message.c) and a copy of
 * its file's name. A limit reached stops the file, which discover.c
 * then notes; only memory is an error. The list grows by doubling.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/discover/discover.h"
#include "lib/discover/internal.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

/* Append a declaration; takes symbol, message and repl, copies file. */
static int
decl_add(struct tg_decls *d, char *symbol, const char *file, size_t line,
	 char *message, char *repl, const char *kind, struct tg_err *err)
{
	struct tg_decl *x;

	if (TG_GROW(d->v, d->n + 1, d->cap))
		goto nomem;
	x = &d->v[d->n];
	x->file = tg_str_ndup(file, strlen(file));
	if (!x->file)
		goto nomem;
	x->symbol = symbol;
	x->line = line;
	x->message = message;
	x->replacement = repl;
	x->kind = kind;
	d->n++;
	return 0;
nomem:
	free(symbol);
	free(message);
	free(repl);
	return tg_err_set(err, TG_ENOMEM, "out of memory");
}

int
tg_decl_spend(struct run *r, size_t cost, size_t line)
{
	r->work += cost;
	if (r->work <= r->work_max)
		return 0;
	r->stopped = line + 1;
	r->why = "more to read than 32 bytes per byte of the file";
	return 1;
}

/* What tg_message_split_args looked at for the call opening at open. */
size_t
tg_decl_call_cost(const struct src *x, size_t open, int found, size_t close)
{
	if (found)
		return close - open + 1;
	return x->len - open > SPAN_MAX ? SPAN_MAX : x->len - open;
}

int
tg_decl_emit(struct run *r, char *symbol, size_t line, char *message,
	     const char *kind)
{
	char *repl = NULL;
	int rc;

	if (!symbol) {
		free(message);
		return tg_err_set(r->err, TG_ENOMEM, "out of memory");
	}
	if (++r->ndecls > DECLS_PER_FILE_MAX) {
		free(symbol);
		free(message);
		r->stopped = line + 1;
		r->why = "more than 10000 declarations";
		return 1;
	}
	if (message) {
		rc = tg_message_replacement(r->cx, message, &repl, r->err);
		if (rc) {
			free(symbol);
			free(message);
			return rc;
		}
	}
	return decl_add(r->out, symbol, r->file, line + 1, message, repl, kind,
			r->err);
}
