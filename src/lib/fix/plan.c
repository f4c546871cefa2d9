/* plan.c - audit --fix for one buffer
 * SPDX-License-Identifier: MIT
 *
 * Owns a buffer's analysis, the decision for each of its findings, the
 * edits of the fixes kept and the fixed buffer with its analysis. The
 * decision for a finding, in order: a mention or a guarded use is left
 * as written; an entry without a fix, or a language without rewrite
 * hooks, is left (the import of a removed module right under torch
 * goes to the file-level step: removed_module_import); a replacement not available at the floor takes the
 * language's guarded form (plan_guarded), else is left; an unsafe fix without unsafe is hidden (only
 * one that unsafe would apply counts); then the language's hook makes
 * the edits or says why it cannot (a hidden fix's shape is not asked). Fixes whose
 * edits conflict with one kept before are left. Offsets are the
 * original's throughout (fix/edit applies them in one pass).
 *
 * The check after fixing lives in fix/plan_check.c (tg_plan_check_fixed,
 * shared through fix/plan_internal.h): the fixed buffer must decode,
 * hold no more lexical errors than the original (the analyses count
 * them where they read the whole buffer, else the language's hook), and
 * hold no more uses of each fixed entry than the original's less those
 * fixed; else every fix is dropped and the reason kept. Then the fixed buffer
 * is planned again, from the analysis the check made, to a fixed point
 * of at most TG_PLAN_PASSES passes; each pass's edits are composed with
 * those before (fix/edit), its fixes mapped back to the findings of the
 * original where they were one of them. Worst case: one analysis of
 * the buffer (none for tg_plan_bytes, given the run's) and one per pass
 * that changed it, edits in proportion to its findings, and O(n log n)
 * for n findings to find conflicts, count uses and map fixes back.
 * tg_plan_analyzed plans a file none of whose findings has a fix from
 * the run's analysis: no analysis at all. A use written as a compat
 * name points at its guarded form's name, so each guarded form is a
 * block of its own (the array of them grows), and a later pass's move
 * to the plan with the uses it fixed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fix/plan.h"
#include "lib/fix/plan_internal.h"
#include "lib/util/grow.h"
#include "lib/util/str.h"

/* The edits one finding's hook made, before they are kept. */
struct pending {
	struct tg_plan *p;
	size_t first; /* the finding's first edit in p->edits */
};

#define DUP_WINDOW 16

static int
add_edit(void *ctx, size_t start, size_t end, const char *text, size_t len)
{
	struct pending *pd = ctx;
	struct tg_plan *p = pd->p;
	char *copy;
	size_t k;
	int rc;

	/* an edit identical to one kept (the keyword two behaviours of one
	 * call insert) is kept once: tg_edit_normalize would drop the copy
	 * and its text would be lost. Such findings are neighbours (one
	 * call, findings in source order): the last DUP_WINDOW edits are
	 * looked at, so that planning stays O(n log n) */
	for (k = pd->first; k-- > 0 && pd->first - k <= DUP_WINDOW;)
		if (p->edits[k].start == start && p->edits[k].end == end &&
		    p->edits[k].len == len &&
		    memcmp(p->edits[k].text, text, len) == 0)
			return 0;
	copy = malloc(len + 1);
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
	char text[256];
	va_list ap;
	int n;

	/* formatted once where it fits the stack's copy (every reason
	 * of the table's versions does), else twice */
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0 || !(u->why_owned = malloc((size_t)n + 1)))
		return TG_ENOMEM;
	if ((size_t)n < sizeof(text)) {
		memcpy(u->why_owned, text, (size_t)n + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(u->why_owned, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	u->why = u->why_owned;
	return 0;
}

/* Why u is left when its replacement repl is removed at the floor, or
 * newer than it with no guarded form: a reason of repl and the floor
 * alone, formatted once per plan and entry and lent to each such use (a
 * file that uses one entry a thousand times formats it once). */
static int
floor_why(struct tg_plan *p, struct tg_plan_use *u,
	  const struct tg_plan_opts *o, const struct tg_api *repl, int removed)
{
	struct tg_plan_use made;
	size_t k;
	int rc;

	for (k = 0; k < p->nwhys; k++)
		if (p->whys[k].repl == repl && p->whys[k].removed == removed) {
			u->why = p->whys[k].why;
			return 0;
		}
	if (TG_GROW(p->whys, p->nwhys + 1, p->capwhys))
		return TG_ENOMEM;
	memset(&made, 0, sizeof(made));
	rc = removed
		 ? set_why(&made,
			   "the replacement is removed at the floor (%s "
			   "<= %s)",
			   repl->removed.version, o->floor->str)
		 : set_why(&made,
			   "the replacement is newer than the floor (%s > "
			   "%s) and no guard form exists yet",
			   repl->introduced.version ? repl->introduced.version
						    : "?",
			   o->floor->str);
	if (rc)
		return rc;
	p->whys[p->nwhys].repl = repl;
	p->whys[p->nwhys].removed = removed;
	p->whys[p->nwhys++].why = made.why_owned;
	u->why = made.why_owned;
	return 0;
}

/* Which fixes' edits conflict with those of a fix kept before, in
 * O(n log n) for n edits: the edits' starts, sorted and unique, index
 * two Fenwick trees: the largest end of a kept replacement starting
 * at or before each start (prefix maximum), and how many kept
 * insertions sit at each (prefix sum). Kept edits are never taken
 * back. */
struct kept {
	size_t *at;	       /* the starts, sorted, unique */
	size_t *maxend, *nins; /* 1-based trees over at */
	size_t n;
};

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int
kept_init(struct kept *kp, const struct tg_edit *e, size_t n)
{
	size_t k, w = 0;

	memset(kp, 0, sizeof(*kp));
	if (!n)
		return 0;
	kp->at = malloc(n * sizeof(*kp->at));
	kp->maxend = calloc(n + 1, sizeof(*kp->maxend));
	kp->nins = calloc(n + 1, sizeof(*kp->nins));
	if (!kp->at || !kp->maxend || !kp->nins)
		return TG_ENOMEM;
	for (k = 0; k < n; k++)
		kp->at[k] = e[k].start;
	qsort(kp->at, n, sizeof(*kp->at), cmp_size);
	for (k = 0; k < n; k++)
		if (!w || kp->at[w - 1] != kp->at[k])
			kp->at[w++] = kp->at[k];
	kp->n = w;
	return 0;
}

static void
kept_release(struct kept *kp)
{
	free(kp->at);
	free(kp->maxend);
	free(kp->nins);
}

/* How many starts are below v (or at most v, with eq). */
static size_t
kept_rank(const struct kept *kp, size_t v, int eq)
{
	size_t lo = 0, hi = kp->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kp->at[mid] < v || (eq && kp->at[mid] == v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The largest end of a kept replacement among the first i starts. */
static size_t
kept_maxend(const struct kept *kp, size_t i)
{
	size_t m = 0;

	for (; i; i -= i & -i)
		if (kp->maxend[i] > m)
			m = kp->maxend[i];
	return m;
}

/* How many kept insertions among the first i starts. */
static size_t
kept_nins(const struct kept *kp, size_t i)
{
	size_t c = 0;

	for (; i; i -= i & -i)
		c += kp->nins[i];
	return c;
}

static void
kept_add(struct kept *kp, const struct tg_edit *e)
{
	size_t i = kept_rank(kp, e->start, 0) + 1;

	for (; i <= kp->n; i += i & -i)
		if (e->start == e->end)
			kp->nins[i]++;
		else if (e->end > kp->maxend[i])
			kp->maxend[i] = e->end;
}

/* Whether e conflicts with a kept edit, as tg_edit_conflict says: an
 * insertion with a replacement that starts before it and ends after
 * it; a replacement [s, e) with a replacement that starts before e and
 * ends after s, or with an insertion strictly inside it. */
static int
kept_conflict(const struct kept *kp, const struct tg_edit *e)
{
	if (e->start == e->end)
		return kept_maxend(kp, kept_rank(kp, e->start, 0)) > e->start;
	return kept_maxend(kp, kept_rank(kp, e->end, 0)) > e->start ||
	       kept_nins(kp, kept_rank(kp, e->end, 0)) >
		   kept_nins(kp, kept_rank(kp, e->start, 1));
}

/* What a fix that keeps the name needs at the floor: the entry of the
 * keyword it inserts, named after the entry's id or its callee's
 * (torch.load.weights_only for the behaviour
 * torch.load.weights_only_futurewarning inserting weights_only=False)
 * where the table has one; else the entry itself. */
static const struct tg_api *
keyword_entry(const struct tg_table *t, const struct tg_api *a)
{
	const struct tg_api_fix *x = &a->fix;
	const struct tg_api *found = NULL;
	const char *eq, *dot = strrchr(a->id, '.');
	char name[256];
	int n;

	if (!x->insert || !x->insert_kw || !(eq = strchr(x->insert, '=')))
		return a;
	n = snprintf(name, sizeof(name), "%s.%.*s", a->id,
		     (int)(eq - x->insert), x->insert);
	if (n > 0 && (size_t)n < sizeof(name))
		found = tg_table_find(t, name);
	if (!found && dot) {
		n = snprintf(name, sizeof(name), "%.*s.%.*s",
			     (int)(dot - a->id), a->id, (int)(eq - x->insert),
			     x->insert);
		if (n > 0 && (size_t)n < sizeof(name))
			found = tg_table_find(t, name);
	}
	return found ? found : a;
}

/* Entry a's guarded form in this file, asked of the language once. */
static int
guard_of(struct tg_plan *p, const struct tg_lang *L, const char *src,
	 size_t len, const struct tg_api *a, const struct tg_api *repl,
	 struct tg_plan_guard **out)
{
	struct tg_plan_guard *g;
	size_t k;
	int rc;

	for (k = 0; k < p->nguards; k++)
		if (p->guards[k]->api == a) {
			*out = p->guards[k];
			return 0;
		}
	if ((rc = TG_GROW(p->guards, p->nguards + 1, p->capguards)))
		return rc;
	/* a block of its own, which the array's growth does not move */
	if (!(g = calloc(1, sizeof(*g))))
		return TG_ENOMEM;
	p->guards[p->nguards++] = g;
	g->api = a;
	g->repl = repl;
	rc = L->fix->guard(src, len, a, repl, &g->g, &g->why);
	/* two entries of one last name would bind one compat name */
	for (k = 0; !rc && !g->why && k + 1 < p->nguards; k++)
		if (strcmp(p->guards[k]->g.name, g->g.name) == 0)
			g->why = "another entry's compat block has its name";
	*out = g;
	return rc;
}

/* Why a use is left in the guarded form (u->why, owned). */
static int
guard_why(struct tg_plan_use *u, const struct tg_plan_opts *o,
	  const struct tg_api *repl, const char *why)
{
	free(u->why_owned);
	u->why_owned = NULL;
	return set_why(u,
		       "the replacement is newer than the floor (%s > "
		       "%s) and its guarded form cannot be written: %s",
		       repl->introduced.version ? repl->introduced.version
						: "?",
		       o->floor->str, why);
}

/* Finding k, whose replacement repl the floor lacks, in the language's
 * guarded form: its use written as the compat name, the block added
 * once per file after every use was decided (plan_blocks). */
static int
plan_guarded(struct tg_plan *p, const struct tg_plan_opts *o,
	     const struct tg_lang *L, const char *src, size_t len, size_t k,
	     const struct tg_api *repl)
{
	const struct tg_audit_finding *f = &p->before.r.findings[k];
	struct tg_plan_use *u = &p->uses[k];
	struct tg_plan_guard *g;
	struct pending pd;
	const char *why = NULL;
	int rc;

	if ((rc = guard_of(p, L, src, len, f->api, repl, &g)))
		return rc;
	if (!g->why && f->api->fix.unsafe && !o->unsafe) {
		u->outcome = TG_PLAN_HIDDEN;
		u->why = "unsafe: pass --unsafe-fixes";
		u->guard_repl = repl->id;
		return 0;
	}
	pd.p = p;
	pd.first = p->nedits;
	why = g->why;
	if (!why && (rc = L->fix->guard_use(src, len, f, g->g.name, add_edit,
					    &pd, &why))) {
		drop_edits(p, pd.first);
		return rc;
	}
	if (why) {
		drop_edits(p, pd.first);
		/* a use through a name an import binds, or the import: the
		 * file-level step may write it as the compat name */
		if (!g->why) {
			u->refused_to = g->g.name;
			u->guard_refused = 1;
			u->guard_repl = repl->id;
		}
		return guard_why(u, o, repl, why);
	}
	u->outcome = TG_PLAN_FIXED;
	u->to = g->g.name;
	u->guarded = 1;
	u->guard_repl = repl->id;
	return 0;
}

/* Whether f is the import of a module right under torch (torch.X)
 * that torch removed: no fix of its own, but once every use through it
 * is rewritten, the import binds no more than `import torch`. */
static int
removed_module_import(const struct tg_audit_finding *f)
{
	const char *id = f->api->id;

	return strcmp(f->kind, "import") == 0 && f->api->kind &&
	       strcmp(f->api->kind, "module") == 0 && f->api->removed.version &&
	       strncmp(id, "torch.", 6) == 0 && id[6] && !strchr(id + 6, '.');
}

/* Entry a's replacement (its fix's to, or the entry of the keyword it
 * inserts) into *repl (NULL: not in the table), and, with a floor, that
 * replacement's status there into *st: looked up once per entry among
 * the last ones planned (p->memo, round robin). */
static void
replacement(struct tg_plan *p, const struct tg_plan_opts *o,
	    const struct tg_api *a, const struct tg_api **repl,
	    enum tg_api_status *st)
{
	const size_t nm = sizeof(p->memo) / sizeof(p->memo[0]);
	struct tg_plan_memo *m;
	size_t k;

	for (k = 0; k < nm && k < p->nmemo; k++)
		if (p->memo[k].api == a) {
			*repl = p->memo[k].repl;
			*st = p->memo[k].st;
			return;
		}
	*repl = a->fix.to ? tg_table_find(o->table, a->fix.to)
			  : keyword_entry(o->table, a);
	*st = *repl && o->floor ? tg_api_status(*repl, o->floor)
				: TG_API_AVAILABLE;
	m = &p->memo[p->nmemo++ % nm];
	m->api = a;
	m->repl = *repl;
	m->st = *st;
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
	enum tg_api_status st;
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
		/* the import of a removed module right under torch (import
		 * torch._six): the file-level step may rewrite it to
		 * `import torch` once no use through it is left */
		if (removed_module_import(f) && L->fix && L->fix->file)
			u->refused_to = "torch";
		return 0;
	}
	if (!L->fix) {
		u->why = "no rewrites for this language yet";
		return 0;
	}
	replacement(p, o, f->api, &repl, &st);
	if (!repl) {
		u->why = "the replacement is not in the table";
		return 0;
	}
	if (o->floor) {

		if (st == TG_API_NOT_YET && x->to && !x->replace_from &&
		    L->fix->guard && L->fix->guard_use)
			return plan_guarded(p, o, L, src, len, k, repl);
		if (st == TG_API_NOT_YET || st == TG_API_REMOVED)
			return floor_why(p, u, o, repl, st == TG_API_REMOVED);
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
		u->refused_to = repl->id;
		return 0;
	}
	/* FIXED until an edit conflicts with one kept before
	 * (drop_conflicts) */
	u->outcome = TG_PLAN_FIXED;
	u->to = x->replace_to ? x->replace_to : repl->id;
	return 0;
}

/* The fixes in finding order, each kept unless one of its edits
 * conflicts with an edit of a fix kept before ("overlaps another
 * fix"); the edits of those left are dropped. nth[k]: finding k's
 * first edit (nth[n]: nedits). */
static int
drop_conflicts(struct tg_plan *p, const size_t *nth)
{
	struct kept kp;
	size_t k, i, w = 0, n = p->before.r.nfindings;
	int rc = kept_init(&kp, p->edits, p->nedits);

	for (k = 0; !rc && k < n; k++) {
		int bad = 0;

		if (p->uses[k].outcome != TG_PLAN_FIXED)
			continue;
		for (i = nth[k]; i < nth[k + 1] && !bad; i++)
			bad = kept_conflict(&kp, &p->edits[i]);
		if (bad) {
			p->uses[k].outcome = TG_PLAN_LEFT;
			p->uses[k].why = "overlaps another fix";
			p->uses[k].to = NULL;
			for (i = nth[k]; i < nth[k + 1]; i++) {
				free((char *)p->edits[i].text);
				p->edits[i].text = NULL;
			}
			continue;
		}
		for (i = nth[k]; i < nth[k + 1]; i++)
			kept_add(&kp, &p->edits[i]);
	}
	kept_release(&kp);
	if (rc)
		return rc;
	for (i = 0; i < p->nedits; i++)
		if (p->edits[i].text)
			p->edits[w++] = p->edits[i];
	p->nedits = w;
	return 0;
}

/* Drop the fixes made in the guarded form, with why; when one is the
 * file-level step's, every fix of that step (its edits are one fix). */
static void
drop_guarded(struct tg_plan *p, const char *why)
{
	size_t k, i, j, w = 0;
	int by_file = 0;

	for (k = 0; k < p->before.r.nfindings; k++)
		by_file |= p->uses[k].outcome == TG_PLAN_FIXED &&
			   p->uses[k].guarded && p->uses[k].by_file;
	if (by_file) {
		for (i = 0; i < p->nedits; i++)
			for (j = 0; j < p->nshared && p->edits[i].text; j++)
				if (p->edits[i].start == p->shared[j].start &&
				    p->edits[i].end == p->shared[j].end &&
				    p->edits[i].len == p->shared[j].len &&
				    memcmp(p->edits[i].text, p->shared[j].text,
					   p->shared[j].len) == 0) {
					free((char *)p->edits[i].text);
					p->edits[i].text = NULL;
				}
		while (p->nshared)
			free((char *)p->shared[--p->nshared].text);
		for (k = 0; k < p->before.r.nfindings; k++)
			if (p->uses[k].outcome == TG_PLAN_FIXED &&
			    p->uses[k].by_file) {
				p->uses[k].outcome = TG_PLAN_LEFT;
				p->uses[k].why = why;
				p->uses[k].to = NULL;
				p->uses[k].guarded = 0;
				p->uses[k].by_file = 0;
			}
	}

	for (k = 0; k < p->before.r.nfindings; k++) {
		struct tg_plan_use *u = &p->uses[k];
		const struct tg_audit_finding *f = &p->before.r.findings[k];

		if (u->outcome != TG_PLAN_FIXED || !u->guarded)
			continue;
		/* its one edit: the use's name, written as u->to (the
		 * file-level step's fixes are dropped above) */
		for (i = 0; i < p->nedits; i++)
			if (p->edits[i].text && p->edits[i].start == f->start &&
			    p->edits[i].end == f->end &&
			    strcmp(p->edits[i].text, u->to) == 0) {
				free((char *)p->edits[i].text);
				p->edits[i].text = NULL;
				break;
			}
		u->outcome = TG_PLAN_LEFT;
		u->why = why;
		u->to = NULL;
		u->guarded = 0;
	}
	for (i = 0; i < p->nedits; i++)
		if (p->edits[i].text)
			p->edits[w++] = p->edits[i];
	p->nedits = w;
}

/* The compat blocks of the guarded forms a fix kept uses, those the file
 * lacks, as one insertion (in the order the entries were first used),
 * kept in p->block too for the reports. */
static int
plan_blocks(struct tg_plan *p)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t k, at = 0;
	struct kept kp;
	int rc = 0, bad = 0;

	for (k = 0; k < p->before.r.nfindings; k++) {
		const struct tg_plan_use *u = &p->uses[k];
		size_t i;

		if (u->outcome != TG_PLAN_FIXED || !u->guarded)
			continue;
		for (i = 0; i < p->nguards; i++)
			if (strcmp(p->guards[i]->g.name, u->to) == 0 &&
			    !p->guards[i]->used) {
				p->guards[i]->used = 1;
				if (p->guards[i]->g.block) {
					at = p->guards[i]->g.at;
					tg_buf_add(&b, p->guards[i]->g.block,
						   p->guards[i]->g.len);
				}
			}
	}
	if (tg_buf_error(&b)) {
		tg_buf_release(&b);
		return TG_ENOMEM;
	}
	if (!b.len)
		return 0;
	p->block.start = p->block.end = at;
	p->block.len = b.len;
	p->block.text = tg_buf_detach(&b);
	if (!p->block.text)
		return TG_ENOMEM;
	/* an insertion after the imports conflicts with no use's name; the
	 * test keeps that so */
	if ((rc = kept_init(&kp, p->edits, p->nedits)))
		goto out;
	for (k = 0; k < p->nedits; k++)
		kept_add(&kp, &p->edits[k]);
	bad = kept_conflict(&kp, &p->block);
out:
	kept_release(&kp);
	if (rc)
		return rc;
	if (bad) {
		drop_guarded(p, "the compat block overlaps another fix");
		free((char *)p->block.text);
		memset(&p->block, 0, sizeof(p->block));
		return 0;
	}
	return add_edit(&(struct pending){p, p->nedits}, p->block.start,
			p->block.end, p->block.text, p->block.len);
}

/* A copy of the file-level step's edits, from first on, into
 * p->shared. */
static int
keep_shared(struct tg_plan *p, size_t first)
{
	size_t k, n = p->nedits - first;

	if (!(p->shared = calloc(n, sizeof(*p->shared))))
		return TG_ENOMEM;
	for (k = 0; k < n; k++) {
		const struct tg_edit *e = &p->edits[first + k];
		char *copy = malloc(e->len + 1);

		if (!copy)
			return TG_ENOMEM;
		memcpy(copy, e->text, e->len + 1);
		p->shared[p->nshared++] = *e;
		p->shared[k].text = copy;
	}
	return 0;
}

/* The language's file-level step (issue 27's import forms, in
 * audit/py/fix_import.c for Python): it is told what became of each
 * finding and may fix those the use hook refused. Its edits are checked
 * together against the ones kept before (and each other), and kept or
 * dropped together. */
static int
plan_file_step(struct tg_plan *p, const struct tg_plan_opts *o,
	       const struct tg_lang *L, const char *src, size_t len,
	       const char *path)
{
	size_t k, i, n = p->before.r.nfindings;
	struct tg_lang_fix_use *fu;
	struct pending pd;
	struct kept kp;
	int rc, any = 0, bad = 0;

	for (k = 0; k < n && !any; k++)
		any = p->uses[k].refused_to != NULL;
	if (!L->fix->file || !any)
		return 0;
	if (!(fu = calloc(n, sizeof(*fu))))
		return TG_ENOMEM;
	for (k = 0; k < n; k++) {
		const struct tg_plan_use *u = &p->uses[k];

		fu[k].state = u->outcome == TG_PLAN_FIXED ? TG_LANG_FIX_DONE
			      : u->refused_to		  ? TG_LANG_FIX_REFUSED
							  : TG_LANG_FIX_KEPT;
		fu[k].to = u->refused_to;
		fu[k].why = u->why;
		fu[k].guarded = u->guard_refused;
	}
	pd.p = p;
	pd.first = p->nedits;
	rc = L->fix->file(src, len, path, p->before.r.findings, fu, n, add_edit,
			  &pd);
	if (!rc && p->nedits > pd.first) {
		rc = kept_init(&kp, p->edits, p->nedits);
		for (i = 0; !rc && i < pd.first; i++)
			kept_add(&kp, &p->edits[i]);
		for (i = pd.first; !rc && i < p->nedits && !bad; i++) {
			bad = kept_conflict(&kp, &p->edits[i]);
			kept_add(&kp, &p->edits[i]);
		}
		kept_release(&kp);
	}
	if (rc || bad)
		drop_edits(p, pd.first);
	else if (p->nedits > pd.first)
		rc = keep_shared(p, pd.first);
	for (k = 0; !rc && k < n; k++) {
		struct tg_plan_use *u = &p->uses[k];

		if (!u->refused_to)
			continue;
		if (fu[k].state == TG_LANG_FIX_DONE && bad)
			u->why = "overlaps another fix";
		else if (fu[k].state == TG_LANG_FIX_DONE) {
			u->outcome = TG_PLAN_FIXED;
			u->to = u->refused_to;
			u->why = NULL;
			u->by_file = 1;
			u->guarded = u->guard_refused;
		} else if (u->guard_refused && fu[k].why != u->why) {
			/* the step's reason, said as plan_guarded says one */
			for (i = 0; i < p->nguards; i++)
				if (strcmp(p->guards[i]->g.name,
					   u->refused_to) == 0)
					break;
			if (i < p->nguards)
				rc = guard_why(u, o, p->guards[i]->repl,
					       fu[k].why);
			else
				u->why = fu[k].why;
		} else
			u->why = fu[k].why;
	}
	free(fu);
	return rc;
}

/* One pass: plan src[0..len), analyzed here, or, when analyzed, as
 * p->before says already (the analysis of these very bytes). src ends
 * its lines at LF or CRLF (plan_pass). */
static int
plan_lf_pass(struct tg_plan *p, const struct tg_plan_opts *o,
	     const struct tg_lang *L, const char *src, size_t len,
	     const char *path, int analyzed, struct tg_err *err)
{
	const struct tg_engine_file none = TG_ENGINE_FILE_INIT;
	const char *why;
	char *owned = NULL;
	size_t k, n, *nth = NULL;
	int rc = 0;

	if (!analyzed)
		rc = tg_engine_buffer(o->engine, L, src, len, path, &p->before,
				      err);
	if (rc || p->before.what != TG_ENGINE_ANALYZED)
		return rc;
	n = p->before.r.nfindings;
	if (n && !(p->uses = calloc(n, sizeof(*p->uses))))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	p->nuses = n;
	if (!(nth = malloc((n + 1) * sizeof(*nth))))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		nth[k] = p->nedits;
		rc = plan_use(p, o, L, src, len, k);
		if (rc)
			goto oom;
	}
	nth[n] = p->nedits;
	rc = drop_conflicts(p, nth);
	free(nth);
	nth = NULL;
	if (rc)
		goto oom;
	/* the file-level step before the blocks: its uses may be written
	 * as compat names too */
	if (L->fix && (rc = plan_file_step(p, o, L, src, len, path)))
		goto oom;
	if (p->nguards && (rc = plan_blocks(p)))
		goto oom;
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
			rc = tg_plan_check_fixed(p, L, src, len, &why, &owned);
		if (rc)
			return tg_err_set(err, rc, "out of memory");
		if (why) {
			p->reverted = owned ? owned : strdup(why);
			if (!p->reverted)
				return tg_err_set(err, TG_ENOMEM,
						  "out of memory");
			drop_edits(p, 0);
			free((char *)p->block.text);
			memset(&p->block, 0, sizeof(p->block));
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
oom:
	free(nth);
	return tg_err_set(err, rc, "out of memory");
}

/* One pass over src[0..len). A lone CR ends a line (as for Python and
 * the C preprocessor), which the hooks do not know: a buffer with one is
 * planned as a copy with each made LF (the same offsets), and the edits'
 * texts then end their lines as the buffer does where they go
 * (tg_edit_eol) before they are applied to the buffer itself: a fix
 * keeps a CR-only file CR-only. given, the analysis of src, moves into
 * p->before before anything can fail. */
static int
plan_pass(struct tg_plan *p, const struct tg_plan_opts *o,
	  const struct tg_lang *L, const char *src, size_t len,
	  const char *path, struct tg_engine_file *given, struct tg_err *err)
{
	const struct tg_engine_file none = TG_ENGINE_FILE_INIT;
	char *lf = NULL;
	size_t k;
	int rc;

	if (given) {
		/* taken first, whatever happens next: what it owns moves;
		 * its borrowed path and language stay the caller's */
		p->before = *given;
		given->r = none.r;
		given->notes = none.notes;
	}
	if (tg_str_lone_cr(src, len, &lf))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	rc =
	    plan_lf_pass(p, o, L, lf ? lf : src, len, path, given != NULL, err);
	if (!rc && lf && p->nedits) {
		for (k = 0; k < p->nedits; k++)
			tg_edit_eol(src, lf, len, p->edits[k].start,
				    (char *)p->edits[k].text, p->edits[k].len);
		for (k = 0; k < p->nshared; k++)
			tg_edit_eol(src, lf, len, p->shared[k].start,
				    (char *)p->shared[k].text,
				    p->shared[k].len);
		if (p->block.text)
			tg_edit_eol(src, lf, len, p->block.start,
				    (char *)p->block.text, p->block.len);
		tg_buf_clear(&p->fixed);
		if (tg_edit_apply(src, len, p->edits, p->nedits, &p->fixed))
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	free(lf);
	return rc;
}

/* Where offset y of the text p's edits wrote was in p's source, or
 * SIZE_MAX when y is inside a text an edit wrote (no offset of the
 * source). O(log n) over the normalized edits. */
static size_t
source_offset(const struct tg_plan *p, const size_t *mid, size_t y)
{
	size_t lo = 0, hi = p->nedits, k;

	/* k: how many edits start, in the fixed text, at or before y */
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (mid[2 * m] <= y)
			lo = m + 1;
		else
			hi = m;
	}
	k = lo;
	if (k == 0)
		return y;
	k--;
	if (y < mid[2 * k] + p->edits[k].len)
		return SIZE_MAX; /* in the text it wrote */
	/* after edit k: its end in the source, plus the bytes copied */
	return p->edits[k].end + (y - mid[2 * k] - p->edits[k].len);
}

/* The first finding of before (sorted by position) at offset x of
 * entry api, or SIZE_MAX. */
static size_t
finding_at(const struct tg_plan *p, size_t x, const struct tg_api *api)
{
	const struct tg_audit_result *r = &p->before.r;
	size_t lo = 0, hi = r->nfindings;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (r->findings[m].start < x)
			lo = m + 1;
		else
			hi = m;
	}
	for (; lo < r->nfindings && r->findings[lo].start == x; lo++)
		if (r->findings[lo].api == api)
			return lo;
	return SIZE_MAX;
}

/* Pass q (of p's fixed text) taken into p: its fixes into p's uses
 * (later) where the finding was one of p's source, its edits composed
 * with p's, its fixed text and analysis p's. */
static int
take_pass(struct tg_plan *p, struct tg_plan *q)
{
	struct tg_edit *c = NULL;
	size_t *mid = NULL, k, nc = 0, at = 0;
	int rc;

	if (q->nguards &&
	    TG_GROW(p->guards, p->nguards + q->nguards, p->capguards))
		return TG_ENOMEM;
	/* where each of p's edits starts and ends in p's fixed text */
	if (!(mid = malloc((2 * p->nedits + 1) * sizeof(*mid))))
		return TG_ENOMEM;
	for (k = 0; k < p->nedits; k++) {
		size_t copied =
		    p->edits[k].start - (k ? p->edits[k - 1].end : 0);

		at += copied;
		mid[2 * k] = at;
		at += p->edits[k].len;
		mid[2 * k + 1] = at;
	}
	for (k = 0; k < q->before.r.nfindings; k++) {
		const struct tg_audit_finding *g = &q->before.r.findings[k];
		size_t x, i;

		if (q->uses[k].outcome != TG_PLAN_FIXED)
			continue;
		x = source_offset(p, mid, g->start);
		i = x == SIZE_MAX ? SIZE_MAX : finding_at(p, x, g->api);
		if (i == SIZE_MAX || p->uses[i].outcome == TG_PLAN_FIXED) {
			p->nexposed++;
			continue;
		}
		free(p->uses[i].why_owned);
		p->uses[i].why_owned = NULL;
		p->uses[i].why = NULL;
		p->uses[i].outcome = TG_PLAN_FIXED;
		p->uses[i].to = q->uses[k].to;
		p->uses[i].later = 1;
	}
	free(mid);
	rc = tg_edit_compose(p->edits, p->nedits, q->edits, q->nedits,
			     q->fixed.data, q->fixed.len, &c, &nc);
	if (rc)
		return rc;
	drop_edits(p, 0);
	for (k = 0; k < nc && !rc; k++) {
		struct pending pd = {p, p->nedits};

		rc = add_edit(&pd, c[k].start, c[k].end, c[k].text, c[k].len);
	}
	free(c);
	if (rc)
		return rc;
	/* q's guarded forms move to p (room was made first): the uses
	 * taken may be written as their names (to), which outlive q */
	for (k = 0; k < q->nguards; k++)
		p->guards[p->nguards++] = q->guards[k];
	q->nguards = 0;
	tg_buf_release(&p->fixed);
	p->fixed = q->fixed;
	q->fixed = (struct tg_buf)TG_BUF_INIT;
	tg_engine_file_release(&p->after);
	p->after = q->after;
	q->after = (struct tg_engine_file)TG_ENGINE_FILE_INIT;
	return 0;
}

static int set_unsettled(struct tg_plan *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
set_unsettled(struct tg_plan *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(p->unsettled = malloc((size_t)n + 1)))
		return TG_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(p->unsettled, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return 0;
}

/* tg_plan_file, with the first pass's analysis given or made. */
static int
plan_file(struct tg_plan *p, const struct tg_plan_opts *o,
	  const struct tg_lang *L, const char *src, size_t len,
	  const char *path, struct tg_engine_file *given, struct tg_err *err)
{
	const struct tg_engine_file none = TG_ENGINE_FILE_INIT;
	int rc = plan_pass(p, o, L, src, len, path, given, err);
	size_t k;

	p->passes = p->nedits > 0;
	while (!rc && p->nedits && !p->reverted && !p->unsettled) {
		struct tg_plan q = TG_PLAN_INIT;
		struct tg_engine_file after = p->after;
		int taken = 0, more;

		/* the next pass reads what the check read: p->after, the
		 * analysis of p->fixed, moved into q.before */
		p->after = none;
		rc = plan_pass(&q, o, L, p->fixed.data, p->fixed.len, path,
			       &after, err);
		tg_engine_file_release(&after);
		more = !rc && q.nedits;
		if (more && q.reverted)
			rc =
			    set_unsettled(p,
					  "pass %zu reverted (%s): left as "
					  "after pass %zu",
					  p->passes + 1, q.reverted, p->passes);
		else if (more && p->passes == TG_PLAN_PASSES)
			rc = set_unsettled(p,
					   "still changing after %d passes: "
					   "left as after pass %d (run --fix "
					   "again)",
					   TG_PLAN_PASSES, TG_PLAN_PASSES);
		else if (more) {
			rc = take_pass(p, &q);
			taken = !rc;
			p->passes += taken;
		}
		if (!taken) {
			/* p->fixed's analysis back */
			tg_engine_file_release(&p->after);
			p->after = q.before;
			q.before = none;
		}
		tg_plan_release(&q);
		if (rc)
			return tg_err_set(err, rc, "out of memory");
		if (!more)
			break;
	}
	if (rc)
		return rc;
	p->nfixed = p->nleft = p->nhidden = 0;
	for (k = 0; k < p->before.r.nfindings; k++) {
		p->nfixed += p->uses[k].outcome == TG_PLAN_FIXED;
		p->nleft += p->uses[k].outcome == TG_PLAN_LEFT;
		p->nhidden += p->uses[k].outcome == TG_PLAN_HIDDEN;
	}
	p->nfixed += p->nexposed;
	return 0;
}

int
tg_plan_file(struct tg_plan *p, const struct tg_plan_opts *o,
	     const struct tg_lang *L, const char *src, size_t len,
	     const char *path, struct tg_err *err)
{
	return plan_file(p, o, L, src, len, path, NULL, err);
}

int
tg_plan_bytes(struct tg_plan *p, const struct tg_plan_opts *o,
	      const struct tg_lang *L, const char *src, size_t len,
	      struct tg_engine_file *f, struct tg_err *err)
{
	return plan_file(p, o, L, src, len, f->path, f, err);
}

int
tg_plan_analyzed(struct tg_plan *p, const struct tg_plan_opts *o,
		 const struct tg_lang *L, struct tg_engine_file *f,
		 struct tg_err *err)
{
	size_t k;

	for (k = 0; f->what == TG_ENGINE_ANALYZED && k < f->r.nfindings; k++)
		if (f->r.findings[k].in == TG_AUDIT_IN_CODE &&
		    f->r.findings[k].guard == TG_AUDIT_UNGUARDED &&
		    f->r.findings[k].api->fix.has && L->fix)
			return tg_err_set(err, TG_EINVAL,
					  "'%s' has a finding with a fix: its "
					  "bytes are needed",
					  f->path);
	/* no hook is asked: no byte is read */
	return plan_pass(p, o, L, NULL, 0, f->path, f, err);
}

void
tg_plan_release(struct tg_plan *p)
{
	size_t k;

	for (k = 0; k < p->nuses; k++)
		free(p->uses[k].why_owned);
	free(p->uses);
	drop_edits(p, 0);
	free(p->edits);
	tg_buf_release(&p->fixed);
	tg_engine_file_release(&p->before);
	tg_engine_file_release(&p->after);
	free(p->reverted);
	for (k = 0; k < p->nguards; k++) {
		free(p->guards[k]->g.block);
		free(p->guards[k]);
	}
	free(p->guards);
	free((char *)p->block.text);
	free(p->unsettled);
	for (k = 0; k < p->nwhys; k++)
		free(p->whys[k].why);
	free(p->whys);
	while (p->nshared)
		free((char *)p->shared[--p->nshared].text);
	free(p->shared);
	memset(p, 0, sizeof(*p));
}
