/* analyze.c - the C/C++/CUDA analyzer: the driver
 * SPDX-License-Identifier: MIT
 *
 * Owns tg_audit_cxx and tg_audit_cxx_indexed. Per file: the prefilter
 * (prefilter.c) says which patterns can match; a file none can is not
 * tokenized. Then the masked copies (mask.c, which follows the
 * conditionals and suppressions as it goes), and each pattern found runs
 * over the code copy (findings in code) and, but for methods, over the
 * mention copy (findings in a comment or string), near the places of its
 * literals (or, when it cannot be known how far before its literal a
 * match starts, or there are too many places, over the bytes between the
 * first and the last); then one finding per place (findings.c).
 *
 * Worst case: one token pass, a search near each place of each pattern
 * found, and a binary search of the newlines per finding; memory about
 * three times the file. Bad input is never an error: pcre2's limits end
 * a match with a note, never the analysis.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"

/* Pattern j's places, where its matches are looked for near them (the
 * places kept, and it has literals whose distance to a match's start is
 * bounded), into *n; else NULL (between its first and last place). */
static const size_t *
near(const struct tg_audit_cxx_index *ix, size_t j, const size_t *at,
     const size_t *by, size_t *n)
{
	const struct pat *p = &ix->pats[j];

	*n = 0;
	if (!at || p->always || p->lits.pre == WIDTH_ANY)
		return NULL;
	*n = by[j + 2] - by[j + 1];
	return at + by[j + 1];
}

int
tg_audit_cxx_indexed(const struct tg_audit_cxx_index *ix, const char *src,
		     size_t len, const char *path, struct tg_audit_result *r,
		     struct tg_err *err)
{
	struct cx x;
	unsigned char *found = NULL;
	size_t *first = NULL, *last, *at = NULL, *by = NULL, k, nat;
	const size_t *near_at;
	struct places pl = {NULL, 0, 0, 0};
	int rc = 0, every;

	memset(&x, 0, sizeof(x));
	x.t = ix->t;
	x.src = src;
	x.len = len;
	x.path = path;
	x.r = r;
	if (!len)
		return 0;
	found = malloc(2 * ix->npats + 1);
	first = malloc(2 * (ix->npats + 1) * sizeof(*first));
	if (!found || !first) {
		free(found);
		free(first);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	/* a file without any pattern's literal or trigger holds nothing to
	 * report: it is not tokenized */
	last = first + ix->npats + 1;
	every = tg_audit_cxx_prefilter(ix, src, len, found, first, last, &pl);
	if (!every) {
		free(found);
		free(first);
		free(pl.v);
		return 0;
	}
	/* pattern k's places in at[by[k + 1] .. by[k + 2]), in order: the
	 * places counted by pattern, by[k + 1] the end of k's, then filled
	 * from the last place back (so by[k + 1] ends at their start) */
	if (!pl.over && !(every & FOUND_SUPPRESSION) &&
	    (at = malloc((pl.n + 1) * sizeof(*at))) &&
	    (by = calloc(ix->npats + 2, sizeof(*by)))) {
		for (k = 0; k < pl.n; k++)
			by[pl.v[k].pat + 1]++;
		for (k = 0; k < ix->npats; k++)
			by[k + 1] += by[k];
		for (k = pl.n; k-- > 0;)
			at[--by[pl.v[k].pat + 1]] = pl.v[k].at;
		by[ix->npats + 1] = pl.n;
	} else {
		free(at);
		at = NULL;
	}
	/* where pattern k's matches can start, first[k] to last[k]: a
	 * match holds one of its literals (the masked copies hold one only
	 * where the source does), at most lits.pre bytes after its start;
	 * anywhere when it runs without them (no literals, a suppression) */
	for (k = 0; k < ix->npats; k++) {
		size_t pre = ix->pats[k].lits.pre;

		if (every & FOUND_SUPPRESSION || ix->pats[k].always) {
			first[k] = 0;
			last[k] = SIZE_MAX;
		} else if (found[k]) {
			first[k] = pre == WIDTH_ANY || first[k] < pre
				       ? 0
				       : first[k] - pre;
		}
	}
	/* the patterns are JIT-compiled: the copies are padded */
	x.code = malloc(len + 1 + TG_SCAN_PAD);
	x.ment = malloc(len + 1 + TG_SCAN_PAD);
	x.strbits = calloc(len / 8 + 1, 1);
	if (!x.code || !x.ment || !x.strbits) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	memcpy(x.code, src, len);
	memset(x.code + len, 0, 1 + TG_SCAN_PAD);
	memset(x.ment, ' ', len);
	memset(x.ment + len, 0, 1 + TG_SCAN_PAD);
	if (tg_audit_cxx_newlines(&x, x.ment) || tg_audit_cxx_mask(&x)) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	every = every & FOUND_SUPPRESSION;
	/* an entry's patterns in order, code first, then its mentions */
	for (k = 0; k < ix->npats && !rc && !x.full;) {
		const struct tg_api *a = ix->pats[k].a;
		int method = ix->pats[k].method;
		size_t e = k, j;

		while (e < ix->npats && ix->pats[e].a == a)
			e++;
		if (!every && !ix->pats[k].wanted) {
			k = e;
			continue;
		}
		x.dedupe = 0;
		for (j = k; j < e && !rc && !x.full; j++)
			if (found[j]) {
				near_at = near(ix, j, at, by, &nat);
				rc = tg_audit_cxx_run_pattern(
				    &x, &ix->pats[j], x.code, first[j], last[j],
				    near_at, nat, TG_AUDIT_IN_CODE, err);
				x.dedupe = 1;
			}
		if (method && !rc && !x.full &&
		    (found[ix->npats + k] || ix->read_all))
			rc = tg_audit_cxx_mention_id(&x, a);
		x.dedupe = 0;
		for (j = k; !method && j < e && !rc && !x.full; j++)
			if (found[j]) {
				near_at = near(ix, j, at, by, &nat);
				rc = tg_audit_cxx_run_pattern(
				    &x, &ix->pats[j], x.ment, first[j], last[j],
				    near_at, nat, TG_AUDIT_IN_COMMENT, err);
				x.dedupe = 1;
			}
		k = e;
	}
	if (rc || x.oom || tg_audit_cxx_one_per_span(r, r->nfindings - x.added))
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	free(found);
	free(first);
	free(pl.v);
	free(at);
	free(by);
	free(x.code);
	free(x.ment);
	free(x.strbits);
	free(x.nl);
	free(x.fr);
	free(x.reg);
	return rc;
}

int
tg_audit_cxx(const struct tg_table *t, const char *src, size_t len,
	     const char *path, struct tg_audit_result *r, struct tg_err *err)
{
	struct tg_audit_cxx_index *ix = NULL;
	int rc;

	if ((rc = tg_audit_cxx_index_new(&ix, t, err)))
		return rc;
	rc = tg_audit_cxx_indexed(ix, src, len, path, r, err);
	tg_audit_cxx_index_free(ix);
	return rc;
}
