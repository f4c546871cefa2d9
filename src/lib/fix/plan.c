/* plan.c - audit --fix for one buffer
 * SPDX-License-Identifier: MIT
 *
 * Owns a buffer's analysis, the decision for each of its findings, the
 * edits of the fixes kept and the fixed buffer with its analysis. The
 * decision for a finding, in order: a mention or a guarded use is left
 * as written; an entry without a fix, or a language without rewrite
 * hooks, is left; a replacement not available at the floor is left (no
 * guard form exists yet); an unsafe fix without unsafe is hidden (only
 * one that unsafe would apply counts); then the language's hook makes
 * the edits or says why it cannot (a hidden fix's shape is not asked). Fixes whose
 * edits conflict with one kept before are left. Offsets are the
 * original's throughout (fix/edit applies them in one pass).
 *
 * The check after fixing: the fixed buffer must decode, hold no more
 * lexical errors than the original (the hook counts them), and hold no
 * more uses of each fixed entry than the original's less those fixed;
 * else every fix is dropped and the reason kept. Worst case: two
 * analyses of the buffer, and edits in proportion to its findings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fix/plan.h"
#include "lib/util/grow.h"

/* The edits one finding's hook made, before they are kept. */
struct pending {
	struct tg_plan *p;
	size_t first; /* the finding's first edit in p->edits */
};

static int
add_edit(void *ctx, size_t start, size_t end, const char *text, size_t len)
{
	struct pending *pd = ctx;
	struct tg_plan *p = pd->p;
	char *copy = malloc(len + 1);
	int rc;

	if (!copy)
		return TG_ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	rc = TG_GROW(p->edits, p->nedits + 1, p->capedits);
	if (rc) {
		free(copy);
		return rc;
	}
	p->edits[p->nedits].start = start;
	p->edits[p->nedits].end = end;
	p->edits[p->nedits].text = copy;
	p->edits[p->nedits].len = len;
	p->nedits++;
	return 0;
}

/* Drop the edits from first on. */
static void
drop_edits(struct tg_plan *p, size_t first)
{
	while (p->nedits > first)
		free((char *)p->edits[--p->nedits].text);
}

static int set_why(struct tg_plan_use *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
set_why(struct tg_plan_use *u, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(u->why_owned = malloc((size_t)n + 1)))
		return TG_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(u->why_owned, (size_t)n + 1, fmt, ap);
	va_end(ap);
	u->why = u->why_owned;
	return 0;
}

/* Whether edit k (of the finding's, from first) conflicts with a kept
 * one (before first). */
static int
conflicts(const struct tg_plan *p, size_t first)
{
	size_t i, k;

	for (k = first; k < p->nedits; k++)
		for (i = 0; i < first; i++)
			if (tg_edit_conflict(&p->edits[i], &p->edits[k]))
				return 1;
	return 0;
}

/* Decide finding k. */
static int
plan_use(struct tg_plan *p, const struct tg_plan_opts *o,
	 const struct tg_lang *L, const char *src, size_t len, size_t k)
{
	const struct tg_audit_finding *f = &p->before.r.findings[k];
	const struct tg_api_fix *x = &f->api->fix;
	struct tg_plan_use *u = &p->uses[k];
	const struct tg_api *repl;
	struct pending pd;
	const char *why = NULL;
	int rc;

	u->outcome = TG_PLAN_LEFT;
	if (f->in != TG_AUDIT_IN_CODE) {
		u->why = "a mention in a comment or string: never rewritten";
		return 0;
	}
	if (f->guard != TG_AUDIT_UNGUARDED) {
		u->why = "guarded: left as written";
		return 0;
	}
	if (!x->has) {
		u->why = "no fix in the table";
		return 0;
	}
	if (!L->fix) {
		u->why = "no rewrites for this language yet";
		return 0;
	}
	repl = x->to ? tg_table_find(o->table, x->to) : f->api;
	if (!repl) {
		u->why = "the replacement is not in the table";
		return 0;
	}
	if (o->floor) {
		enum tg_api_status st = tg_api_status(repl, o->floor);

		if (st == TG_API_NOT_YET)
			return set_why(u,
				       "the replacement is newer than the "
				       "floor (%s > %s) and no guard form "
				       "exists yet",
				       repl->introduced.version
					   ? repl->introduced.version
					   : "?",
				       o->floor->str);
		if (st == TG_API_REMOVED)
			return set_why(u,
				       "the replacement is removed at the "
				       "floor (%s <= %s)",
				       repl->removed.version, o->floor->str);
	}
	if (x->unsafe && !o->unsafe) {
		u->outcome = TG_PLAN_HIDDEN;
		u->why = "unsafe: pass --unsafe-fixes";
		return 0;
	}
	pd.p = p;
	pd.first = p->nedits;
	rc = L->fix->use(src, len, f, repl->id, add_edit, &pd, &why);
	if (rc) {
		drop_edits(p, pd.first);
		return rc;
	}
	if (why) {
		drop_edits(p, pd.first);
		u->why = why;
		return 0;
	}
	if (conflicts(p, pd.first)) {
		drop_edits(p, pd.first);
		u->why = "overlaps another fix";
		return 0;
	}
	u->outcome = TG_PLAN_FIXED;
	u->to = x->replace_to ? x->replace_to : repl->id;
	return 0;
}

/* How many findings of r in code name entry a. */
static size_t
count_uses(const struct tg_audit_result *r, const struct tg_api *a)
{
	size_t k, n = 0;

	for (k = 0; k < r->nfindings; k++)
		n += r->findings[k].api == a &&
		     r->findings[k].in == TG_AUDIT_IN_CODE;
	return n;
}

/* The check after fixing: NULL, or why the fixes are dropped (static or
 * into *owned). */
static int
check_fixed(struct tg_plan *p, const struct tg_lang *L, const char *src,
	    size_t len, const char **why, char **owned)
{
	const struct tg_audit_result *b = &p->before.r, *a = &p->after.r;
	size_t k, i;

	*why = NULL;
	if (p->after.what != TG_ENGINE_ANALYZED) {
		*why = "the fixed text cannot be decoded";
		return 0;
	}
	if (L->fix->lex_errors(p->fixed.data, p->fixed.len) >
	    L->fix->lex_errors(src, len)) {
		*why = "the fixed text does not tokenize cleanly";
		return 0;
	}
	for (k = 0; k < b->nfindings; k++) {
		const struct tg_api *api = b->findings[k].api;
		size_t fixed = 0;

		if (p->uses[k].outcome != TG_PLAN_FIXED)
			continue;
		for (i = 0; i < b->nfindings; i++)
			fixed += b->findings[i].api == api &&
				 p->uses[i].outcome == TG_PLAN_FIXED;
		if (count_uses(a, api) + fixed > count_uses(b, api)) {
			int n = snprintf(
			    NULL, 0, "the fixed text still uses %s", api->id);

			*owned = malloc((size_t)n + 1);
			if (!*owned)
				return TG_ENOMEM;
			snprintf(*owned, (size_t)n + 1,
				 "the fixed text still uses %s", api->id);
			*why = *owned;
			return 0;
		}
	}
	return 0;
}

int
tg_plan_file(struct tg_plan *p, const struct tg_plan_opts *o,
	     const struct tg_lang *L, const char *src, size_t len,
	     const char *path, struct tg_err *err)
{
	const struct tg_engine_file none = TG_ENGINE_FILE_INIT;
	const char *why;
	char *owned = NULL;
	size_t k, n;
	int rc;

	rc = tg_engine_buffer(o->engine, L, src, len, path, &p->before, err);
	if (rc || p->before.what != TG_ENGINE_ANALYZED)
		return rc;
	n = p->before.r.nfindings;
	if (n && !(p->uses = calloc(n, sizeof(*p->uses))))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		rc = plan_use(p, o, L, src, len, k);
		if (rc)
			return tg_err_set(err, rc, "out of memory");
	}
	if (p->nedits) {
		n = p->nedits;
		rc = tg_edit_normalize(p->edits, &n, len, err);
		if (rc)
			return rc; /* conflicts were dropped: a bug */
		p->nedits = n;
		rc = tg_edit_apply(src, len, p->edits, p->nedits, &p->fixed);
		if (!rc)
			rc = tg_engine_buffer(o->engine, L, p->fixed.data,
					      p->fixed.len, path, &p->after,
					      err);
		if (!rc)
			rc = check_fixed(p, L, src, len, &why, &owned);
		if (rc)
			return tg_err_set(err, rc, "out of memory");
		if (why) {
			p->reverted = owned ? owned : strdup(why);
			if (!p->reverted)
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
			drop_edits(p, 0);
			tg_buf_clear(&p->fixed);
			tg_engine_file_release(&p->after);
			p->after = none;
			for (k = 0; k < p->before.r.nfindings; k++)
				if (p->uses[k].outcome == TG_PLAN_FIXED) {
					p->uses[k].outcome = TG_PLAN_LEFT;
					p->uses[k].why = p->reverted;
				}
		}
	}
	for (k = 0; k < p->before.r.nfindings; k++) {
		p->nfixed += p->uses[k].outcome == TG_PLAN_FIXED;
		p->nleft += p->uses[k].outcome == TG_PLAN_LEFT;
		p->nhidden += p->uses[k].outcome == TG_PLAN_HIDDEN;
	}
	return 0;
}

void
tg_plan_release(struct tg_plan *p)
{
	size_t k;

	if (p->uses)
		for (k = 0; k < p->before.r.nfindings; k++)
			free(p->uses[k].why_owned);
	free(p->uses);
	drop_edits(p, 0);
	free(p->edits);
	tg_buf_release(&p->fixed);
	tg_engine_file_release(&p->before);
	tg_engine_file_release(&p->after);
	free(p->reverted);
	memset(p, 0, sizeof(*p));
}
