/* plan_check.c - the check after fixing, for fix/plan
 * SPDX-License-Identifier: MIT
 *
 * The check after fixing: the fixed buffer must decode, hold no more
 * lexical errors than the original (the analyses count them where
 * they read the whole buffer, else the language's hook), and each
 * fixed use must read back where the edits moved it (the language's
 * check), and the buffer must hold no more uses of each fixed entry
 * than the original's less those fixed; else plan.c drops every fix
 * and keeps the reason. Reads the plan only: its edits (normalized),
 * its fixed buffer and both analyses. Worst case: O(n log n) for n
 * findings to count uses and to find where each fixed use now starts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/fix/plan.h"
#include "lib/fix/plan_internal.h"

/* Entries' pointers, sorted, to count uses by entry in O(log n). */
static int
cmp_api(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const struct tg_api *const *)a;
	uintptr_t y = (uintptr_t) * (const struct tg_api *const *)b;

	return x < y ? -1 : x > y;
}

/* How many of v[0..n) (sorted) are a. */
static size_t
count_of(const struct tg_api **v, size_t n, const struct tg_api *a)
{
	size_t lo = 0, hi = n, first;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)v[mid] < (uintptr_t)a)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	for (hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)v[mid] <= (uintptr_t)a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - first;
}

/* The entries of r's unguarded findings in code (fixed: those of
 * before's fixed uses only), sorted, into *v (owned), their count into
 * *n. A guarded use is never fixed: the old name a compat block holds
 * under its guard is no use left. */
static int
sorted_apis(const struct tg_plan *p, const struct tg_audit_result *r, int fixed,
	    const struct tg_api ***v, size_t *n)
{
	size_t k;

	*n = 0;
	*v = malloc((r->nfindings + 1) * sizeof(**v));
	if (!*v)
		return TG_ENOMEM;
	for (k = 0; k < r->nfindings; k++)
		if (fixed ? p->uses[k].outcome == TG_PLAN_FIXED
			  : r->findings[k].in == TG_AUDIT_IN_CODE &&
				r->findings[k].guard == TG_AUDIT_UNGUARDED)
			(*v)[(*n)++] = r->findings[k].api;
	qsort(*v, *n, sizeof(**v), cmp_api);
	return 0;
}

/* The language's check of each use fixed, where the use now starts in
 * the fixed text: its offset less the bytes removed and plus those
 * added by the edits that end at or before it (the normalized edits
 * are sorted by end too: they do not overlap), found by binary search
 * over running sums. *why: NULL, or the first use's reason. */
static int
check_uses(struct tg_plan *p, const struct tg_lang *L, const char *src,
	   size_t len, const char **why)
{
	const struct tg_audit_result *b = &p->before.r;
	size_t *add, *rem, k, n = p->nedits;

	*why = NULL;
	if (!L->fix->check)
		return 0;
	add = malloc((n + 1) * sizeof(*add));
	rem = malloc((n + 1) * sizeof(*rem));
	if (!add || !rem) {
		free(add);
		free(rem);
		return TG_ENOMEM;
	}
	add[0] = rem[0] = 0;
	for (k = 0; k < n; k++) {
		add[k + 1] = add[k] + p->edits[k].len;
		rem[k + 1] = rem[k] + (p->edits[k].end - p->edits[k].start);
	}
	for (k = 0; k < b->nfindings && !*why; k++) {
		const struct tg_audit_finding *f = &b->findings[k];
		size_t lo = 0, hi = n, e;

		if (p->uses[k].outcome != TG_PLAN_FIXED || p->uses[k].by_file ||
		    p->uses[k].guarded)
			continue;
		while (lo < hi) { /* how many edits end at or before f */
			size_t mid = lo + (hi - lo) / 2;

			if (p->edits[mid].end <= f->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* its end: after the edits that start inside the use (its
		 * name's replacement), before those that start at its end
		 * (a bare decorator's ')') */
		for (e = lo, hi = n; e < hi;) {
			size_t mid = e + (hi - e) / 2;

			if (p->edits[mid].start < f->end)
				e = mid + 1;
			else
				hi = mid;
		}
		*why = L->fix->check(src, len, f, p->fixed.data, p->fixed.len,
				     f->start + add[lo] - rem[lo],
				     f->end + add[e] - rem[e]);
	}
	free(add);
	free(rem);
	return 0;
}

/* The lexical errors of src[0..len), which r is the analysis of: as the
 * analyzer counted them where it read the whole buffer, else from the
 * language's tokenizer. */
static size_t
lex_errors(const struct tg_lang *L, const struct tg_audit_result *r,
	   const char *src, size_t len)
{
	return r->lexed ? r->lex_errors : L->fix->lex_errors(src, len);
}

/* The check after fixing: NULL, or why the fixes are dropped (static or
 * into *owned). Each fixed entry's uses are counted in sorted arrays:
 * O(n log n) for n findings. */
int
tg_plan_check_fixed(struct tg_plan *p, const struct tg_lang *L, const char *src,
		    size_t len, const char **why, char **owned)
{
	const struct tg_audit_result *b = &p->before.r, *a = &p->after.r;
	const struct tg_api **vb = NULL, **va = NULL, **vf = NULL;
	size_t k, nb, na, nf;
	int rc;

	*why = NULL;
	if (p->after.what != TG_ENGINE_ANALYZED) {
		*why = "the fixed text cannot be decoded";
		return 0;
	}
	if (lex_errors(L, &p->after.r, p->fixed.data, p->fixed.len) >
	    lex_errors(L, &p->before.r, src, len)) {
		*why = "the fixed text does not tokenize cleanly";
		return 0;
	}
	if ((rc = check_uses(p, L, src, len, why)) || *why)
		return rc;
	if ((rc = sorted_apis(p, b, 0, &vb, &nb)) ||
	    (rc = sorted_apis(p, a, 0, &va, &na)) ||
	    (rc = sorted_apis(p, b, 1, &vf, &nf)))
		goto out;
	for (k = 0; k < b->nfindings; k++) {
		const struct tg_api *api = b->findings[k].api;

		if (p->uses[k].outcome != TG_PLAN_FIXED)
			continue;
		if (count_of(va, na, api) + count_of(vf, nf, api) >
		    count_of(vb, nb, api)) {
			int n = snprintf(
			    NULL, 0, "the fixed text still uses %s", api->id);

			*owned = malloc((size_t)n + 1);
			if (!*owned) {
				rc = TG_ENOMEM;
				goto out;
			}
			snprintf(*owned, (size_t)n + 1,
				 "the fixed text still uses %s", api->id);
			*why = *owned;
			break;
		}
	}
out:
	free(vb);
	free(va);
	free(vf);
	return rc;
}
