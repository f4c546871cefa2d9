/* offer.c - the fixes a plan offers, as audit's reports show them
 * SPDX-License-Identifier: MIT
 *
 * Owns nothing past a call: for each finding the plan fixed or hid, the
 * language's hook is asked again for the finding's edits (the same
 * bytes, finding and name as the plan gave it: the same edits; for one
 * the file-level step fixed, the step's edits the plan kept), which
 * are sorted and turned from byte offsets into lines and columns, and a
 * message is written from the entry's fix. Worst case: one pass over
 * the buffer for the lines' starts (only when a fix is offered), and a
 * hook call and a search of the plan's kept edits per finding.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/fix/edit.h"
#include "lib/fix/offer.h"
#include "lib/util/buf.h"
#include "lib/util/grow.h"
#include "lib/util/str.h"

/* One finding's edits as the hook makes them; texts owned in owned[]
 * (tg_edit_normalize may drop an identical repeat). */
struct collect {
	struct tg_edit *e;
	size_t n, cap;
	char **owned;
	size_t nowned, capowned;
};

static int
collect_add(void *ctx, size_t start, size_t end, const char *text, size_t len)
{
	struct collect *c = ctx;
	char *copy;

	if (TG_GROW(c->e, c->n + 1, c->cap) ||
	    TG_GROW(c->owned, c->nowned + 1, c->capowned) ||
	    !(copy = malloc(len + 1)))
		return TG_ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	c->owned[c->nowned++] = copy;
	c->e[c->n].start = start;
	c->e[c->n].end = end;
	c->e[c->n].text = copy;
	c->e[c->n].len = len;
	c->n++;
	return 0;
}

static void
collect_clear(struct collect *c)
{
	while (c->nowned)
		free(c->owned[--c->nowned]);
	c->n = 0;
}

/* The offsets at which the buffer's lines start (a line ends at '\n',
 * as the analyzers count them), made once per buffer. */
struct lines {
	size_t *start;
	size_t n, cap;
	int made;
};

static int
lines_make(struct lines *l, const char *src, size_t len)
{
	const char *p = src, *e = src + len, *q;

	if (l->made)
		return 0;
	if (TG_GROW(l->start, l->n + 1, l->cap))
		return TG_ENOMEM;
	l->start[l->n++] = 0;
	while (p < e && (q = memchr(p, '\n', (size_t)(e - p)))) {
		if (TG_GROW(l->start, l->n + 1, l->cap))
			return TG_ENOMEM;
		l->start[l->n++] = (size_t)(q + 1 - src);
		p = q + 1;
	}
	l->made = 1;
	return 0;
}

/* Offset off's line and column (1-based, bytes). */
static void
lines_at(const struct lines *l, size_t off, size_t *line, size_t *col)
{
	size_t lo = 0, hi = l->n; /* the last start <= off is in [lo, hi) */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - l->start[lo] + 1;
}

/* "replace ID with TO and insert ARG (NOTE)", or the parts that
 * apply; a removed module's import: "rewrite the import of ID ..."; a
 * guarded fix: "replace ID with NAME, bound by a compat block to REPL
 * where torch has it (ARG passed), else to ID (NOTE)". */
static char *
message(const struct tg_audit_finding *f, const char *to,
	const char *guard_repl)
{
	const struct tg_api_fix *x = &f->api->fix;
	struct tg_buf b = TG_BUF_INIT;

	if (guard_repl) {
		tg_buf_addf(&b,
			    "replace %s with %s, bound by a compat block to "
			    "%s where torch has it",
			    f->api->id, to, guard_repl);
		if (x->insert)
			tg_buf_addf(&b, " (%s passed)", x->insert);
		tg_buf_addf(&b, ", else to %s", f->api->id);
	} else if (!x->has)
		/* a removed module's import (the plan's file-level step) */
		tg_buf_addf(&b,
			    "rewrite the import of %s: every use through it "
			    "is rewritten, and %s stays bound",
			    f->api->id, to);
	else if (x->replace_from)
		tg_buf_addf(&b, "replace %s with %s", x->replace_from,
			    x->replace_to);
	else if (x->to)
		tg_buf_addf(&b, "replace %s with %s", f->api->id, to);
	if (x->insert && !guard_repl)
		tg_buf_addf(&b, "%sinsert %s",
			    x->to || x->replace_from ? " and " : "", x->insert);
	if (x->note)
		tg_buf_addf(&b, " (%s)", x->note);
	return tg_buf_detach(&b);
}

/* Whether one of c's edits conflicts with one the plan kept. */
static int
conflicts(const struct tg_plan *p, const struct collect *c)
{
	size_t i, k;

	for (k = 0; k < c->n; k++)
		for (i = 0; i < p->nedits; i++)
			if (tg_edit_conflict(&p->edits[i], &c->e[k]))
				return 1;
	return 0;
}

/* Finding k's fix into *x from the edits in c; shared: it is the
 * file-level step's, shared with that many other findings. */
static int
offer(struct tg_audit_fix *x, const struct tg_audit_finding *f, const char *to,
      const char *guard_repl, int unsafe, size_t shared, struct collect *c,
      struct lines *l, const char *src, const char *lf, size_t len)
{
	struct tg_err err = TG_ERR_INIT;
	size_t k, n = c->n;
	int rc;

	if (!n)
		return 0;
	rc = tg_edit_normalize(c->e, &n, len, &err);
	if (rc == TG_ENOMEM)
		return TG_ENOMEM; /* never an offer lost to memory */
	if (rc)
		return 0; /* overlapping edits of one finding: none offered */
	if (lines_make(l, lf, len) ||
	    !(x->edits = calloc(n, sizeof(*x->edits))) ||
	    !(x->message = message(f, to, guard_repl)))
		return TG_ENOMEM;
	if (shared) {
		struct tg_buf b = TG_BUF_INIT;

		tg_buf_addf(&b,
			    "%s, with the import rewrite it shares with "
			    "%zu other finding%s (one fix: the same edits)",
			    x->message, shared, shared == 1 ? "" : "s");
		free(x->message);
		if (!(x->message = tg_buf_detach(&b)))
			return TG_ENOMEM;
	}
	x->unsafe = unsafe;
	for (k = 0; k < n; k++) {
		struct tg_audit_edit *d = &x->edits[x->nedits];

		if (!(d->text = malloc(c->e[k].len + 1)))
			return TG_ENOMEM;
		memcpy(d->text, c->e[k].text, c->e[k].len);
		d->text[c->e[k].len] = '\0';
		d->len = c->e[k].len;
		if (lf != src)
			tg_edit_eol(src, lf, len, c->e[k].start, d->text,
				    d->len);
		lines_at(l, c->e[k].start, &d->line, &d->column);
		lines_at(l, c->e[k].end, &d->end_line, &d->end_column);
		x->nedits++;
	}
	return 0;
}

/* Whether the compat block of guarded use u is one the plan inserts
 * (not one the file held already). */
static int
guard_added(const struct tg_plan *p, const struct tg_plan_use *u)
{
	size_t k;

	for (k = 0; k < p->nguards; k++)
		if (strcmp(p->guards[k]->g.name, u->to) == 0)
			return p->guards[k]->g.block != NULL;
	return 0;
}

int
tg_offer_plan(struct tg_audit_fix *out, const struct tg_plan *p,
	      const struct tg_lang *L, const char *raw, size_t len)
{
	const char *src = raw;
	char *lf = NULL;
	struct collect c;
	struct lines l;
	size_t k, nby_file = 0;
	int rc = 0, by_file_unsafe = 0, by_file_block = 0;

	if (p->reverted || !L->fix || !p->uses)
		return 0;
	/* the hooks read lines as the plan did: lone CRs made LF (the
	 * same offsets), the texts offered ending lines as raw does */
	if (tg_str_lone_cr(raw, len, &lf))
		return TG_ENOMEM;
	if (lf)
		src = lf;
	memset(&c, 0, sizeof(c));
	memset(&l, 0, sizeof(l));
	/* the file-level step's fix: unsafe when one of its fixes is */
	for (k = 0; k < p->before.r.nfindings; k++)
		if (p->uses[k].outcome == TG_PLAN_FIXED && p->uses[k].by_file) {
			nby_file++;
			by_file_unsafe |=
			    p->before.r.findings[k].api->fix.unsafe;
			by_file_block |=
			    p->uses[k].guarded && guard_added(p, &p->uses[k]);
		}
	for (k = 0; !rc && k < p->before.r.nfindings; k++) {
		const struct tg_audit_finding *f = &p->before.r.findings[k];
		const struct tg_plan_use *u = &p->uses[k];
		const struct tg_api_fix *x = &f->api->fix;
		const char *to, *why = NULL;

		/* a later pass's fix: its edits are on text the first
		 * pass wrote (a consumer gets it by auditing again) */
		if (u->outcome == TG_PLAN_LEFT || u->later ||
		    (u->outcome == TG_PLAN_HIDDEN && u->guard_repl))
			continue;
		if (u->guarded && !u->by_file) {
			/* the use's name, and the compat blocks the plan
			 * inserts (one edit, the same for every such use) */
			collect_clear(&c);
			rc = L->fix->guard_use(src, len, f, u->to, collect_add,
					       &c, &why);
			if (!rc && !why && p->block.text && guard_added(p, u))
				rc = collect_add(&c, p->block.start,
						 p->block.end, p->block.text,
						 p->block.len);
			if (!rc && !why)
				rc = offer(&out[k], f, u->to, u->guard_repl,
					   x->unsafe, 0, &c, &l, raw, src, len);
			continue;
		}
		/* the name the plan gave the hook: its replacement's id */
		to = u->outcome == TG_PLAN_FIXED ? u->to
		     : x->to			 ? x->to
						 : f->api->id;
		collect_clear(&c);
		if (u->outcome == TG_PLAN_FIXED && u->by_file) {
			size_t i;

			for (i = 0; !rc && i < p->nshared; i++)
				rc = collect_add(
				    &c, p->shared[i].start, p->shared[i].end,
				    p->shared[i].text, p->shared[i].len);
			/* the compat blocks, where one of the step's fixes
			 * is guarded (the same edit as every guarded fix's) */
			if (!rc && by_file_block && p->block.text)
				rc = collect_add(&c, p->block.start,
						 p->block.end, p->block.text,
						 p->block.len);
			if (!rc)
				rc = offer(&out[k], f, to,
					   u->guarded ? u->guard_repl : NULL,
					   by_file_unsafe, nby_file - 1, &c, &l,
					   raw, src, len);
			continue;
		}
		rc = L->fix->use(src, len, f, to, collect_add, &c, &why);
		if (rc || why)
			continue;
		if (u->outcome == TG_PLAN_HIDDEN && conflicts(p, &c))
			continue;
		rc = offer(&out[k], f, to, NULL, x->unsafe, 0, &c, &l, raw, src,
			   len);
	}
	collect_clear(&c);
	free(c.e);
	free(c.owned);
	free(l.start);
	free(lf);
	return rc;
}
