/* tablediff.c - the deprecations a torch declares against the table
 * SPDX-License-Identifier: MIT
 *
 * Each declaration is tried against each entry: quadratic, a string
 * compare or two a pair.
 */
#include "lib/discover/tablediff.h"

#include <stdlib.h>
#include <string.h>

#include "lib/table/evidence.h"
#include "lib/util/path.h"

static const char *
last_name(const char *id)
{
	const char *p, *best = id;

	for (p = id; *p; p++)
		if (*p == '.' || (*p == ':' && p[1] == ':'))
			best = p + (*p == '.' ? 1 : 2);
	return best;
}

/* Whether name a is b's parent: b is a, then '.' or "::", then more. */
static int
parent_of(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strncmp(a, b, n) == 0 &&
	       (b[n] == '.' || (b[n] == ':' && b[n + 1] == ':'));
}

/* How well declaration d matches entry a: 3 the same name, 2 the same
 * last name in an evidence file, 1 a parent in an evidence file, 0 no
 * match. */
static int
match_score(const struct tg_decl *d, const struct tg_api *a, char **paths)
{
	size_t k;
	int in_file = 0;

	if (strcmp(a->id, d->symbol) == 0)
		return 3;
	for (k = 0; k < a->nfiles && !in_file; k++)
		in_file = strcmp(paths[k], d->file) == 0;
	if (!in_file)
		return 0;
	if (strcmp(last_name(a->id), last_name(d->symbol)) == 0)
		return 2;
	return parent_of(a->id, d->symbol) || parent_of(d->symbol, a->id);
}

void
tg_tablediff_release(struct tg_tablediff *df)
{
	size_t j, k;

	for (j = 0; df->paths && j < df->napis; j++) {
		for (k = 0; df->paths[j] && k < df->apis[j].nfiles; k++)
			free(df->paths[j][k]);
		free(df->paths[j]);
	}
	free(df->paths);
	free(df->api);
	free(df->excl);
	free(df->hit);
	free(df->missing);
	free(df->mexcl);
}

int
tg_tablediff_run(struct tg_tablediff *df, const struct tg_decls *d,
		 const struct tg_table *table, const struct tg_excluded *x,
		 const struct tg_torch *t, const struct tg_version *v)
{
	size_t j, k;

	memset(df, 0, sizeof(*df));
	df->apis = table->apis;
	df->napis = table->n;
	df->api = calloc(d->n + 1, sizeof(*df->api));
	df->excl = calloc(d->n + 1, sizeof(*df->excl));
	df->hit = calloc(table->n + 1, 1);
	df->paths = calloc(table->n + 1, sizeof(*df->paths));
	df->missing = calloc(table->n + 1, sizeof(*df->missing));
	df->mexcl = calloc(table->n + 1, sizeof(*df->mexcl));
	if (!df->api || !df->excl || !df->hit || !df->paths || !df->missing ||
	    !df->mexcl)
		return TG_ENOMEM;
	for (j = 0; j < table->n; j++) {
		const struct tg_api *a = &table->apis[j];

		df->paths[j] = calloc(a->nfiles + 1, sizeof(char *));
		if (!df->paths[j])
			return TG_ENOMEM;
		for (k = 0; k < a->nfiles; k++)
			if (!(df->paths[j][k] =
				  tg_evidence_path(t, a->files[k])))
				return TG_ENOMEM;
	}
	for (k = 0; k < d->n; k++) {
		int best = 0;

		for (j = 0; j < table->n; j++) {
			int sc = match_score(&d->v[k], &table->apis[j],
					     df->paths[j]);

			if (!sc)
				continue;
			if (sc > best) {
				df->api[k] = &table->apis[j];
				best = sc;
			}
			df->hit[j] = 1;
		}
		if (!df->api[k])
			df->excl[k] = tg_excluded_match(
			    x, d->v[k].symbol, d->v[k].kind, d->v[k].message);
		/* a declaration folded into an entry (see) declares it: a
		 * helper that warns for it, a parameter's warning */
		if (df->excl[k] && df->excl[k]->see) {
			const struct tg_api *a =
			    tg_table_find(table, df->excl[k]->see);

			if (a)
				df->hit[a - table->apis] = 1;
		}
		df->nunknown += !df->api[k];
		df->nexcluded += df->excl[k] != NULL;
	}
	for (j = 0; j < table->n; j++) {
		const struct tg_api *a = &table->apis[j];
		int exists = 0;

		if (a->lang != TG_LANG_PYTHON || df->hit[j] ||
		    tg_api_status(a, v) != TG_API_DEPRECATED)
			continue;
		for (k = 0; k < a->nfiles && !exists; k++)
			exists = tg_path_is_file(df->paths[j][k]);
		if (!exists)
			continue;
		df->mexcl[df->nmissing] =
		    tg_excluded_match(x, a->id, TG_EXCL_NOT_DECLARED, NULL);
		df->nexcused += df->mexcl[df->nmissing] != NULL;
		df->missing[df->nmissing++] = a;
	}
	return 0;
}
