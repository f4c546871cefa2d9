/* judge.c - what an audit reports of one file's findings for the torch
 * judged: ranks, suppressions, dead branches
 * SPDX-License-Identifier: MIT
 *
 * The policy between the analyzers (which find every use of every entry
 * of their language) and a report: an entry's rank for the torch judged
 * (tg_audit_rank) is computed once per run, for every entry; a finding
 * whose entry ranks NONE, or that a suppression comment names, is
 * dropped; a suppression that matched nothing is a warning; a version
 * branch is kept only when no torch at or above the floor runs it.
 * Read-only once made, so one judge serves every worker thread.
 */
#include "lib/audit/judge.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"

int
tg_judge_init(struct tg_judge *j, const struct tg_table *table,
	      const struct tg_version *torch, int all, enum tg_audit_rank min,
	      const struct tg_version *floor, struct tg_err *err)
{
	size_t k;

	j->table = table;
	j->min = min;
	j->floor = floor;
	j->ranks = malloc(table->n + 1);
	if (!j->ranks)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (k = 0; k < table->n; k++)
		j->ranks[k] =
		    (signed char)tg_audit_rank(&table->apis[k], torch, all);
	return 0;
}

void
tg_judge_release(struct tg_judge *j)
{
	free(j->ranks);
	j->ranks = NULL;
}

enum tg_audit_rank
tg_judge_rank(const struct tg_judge *j, const struct tg_api *a)
{
	return (enum tg_audit_rank)j->ranks[a - j->table->apis];
}

int
tg_judge_matters(const struct tg_api *a, void *ctx)
{
	return tg_judge_rank(ctx, a) != TG_AUDIT_RANK_NONE;
}

int
tg_judge_fails(const struct tg_judge *j, const struct tg_audit_finding *f)
{
	enum tg_audit_rank rank = tg_judge_rank(j, f->api);

	return f->in == TG_AUDIT_IN_CODE && f->guard != TG_AUDIT_GUARDED &&
	       rank != TG_AUDIT_RANK_BOUND && rank >= j->min;
}

/* "the suppression ignore[a,b] matched no finding" */
static int
unused_suppression(struct tg_diag_list *notes, const char *path,
		   const struct tg_audit_suppression *sp)
{
	struct tg_buf ids = TG_BUF_INIT;
	size_t k;
	int rc;

	for (k = 0; k < sp->nids; k++)
		tg_buf_addf(&ids, "%s%s", k ? "," : "[", sp->ids[k]);
	if (sp->nids)
		tg_buf_addc(&ids, ']');
	rc = tg_buf_error(&ids)
		 ? TG_ENOMEM
		 : tg_diag_add(notes, TG_SEV_WARNING, 0, path, sp->line, 0,
			       "unused-suppression", NULL,
			       "the suppression ignore%s matched no finding",
			       ids.data ? ids.data : "");
	tg_buf_release(&ids);
	return rc ? TG_ENOMEM : 0;
}

int
tg_judge_result(const struct tg_judge *j, const char *path,
		struct tg_audit_result *r, struct tg_diag_list *notes)
{
	size_t k, w = 0;

	tg_audit_result_sort(r);
	for (k = 0; k < r->nfindings; k++) {
		struct tg_audit_finding *f = &r->findings[k];

		if (tg_audit_suppressed(r, f) ||
		    tg_judge_rank(j, f->api) == TG_AUDIT_RANK_NONE) {
			free(f->guard_text);
			free(f->text);
			continue;
		}
		r->findings[w++] = *f;
	}
	r->nfindings = w;
	for (k = 0; k < r->nsuppressions; k++)
		if (!r->suppressions[k].used &&
		    unused_suppression(notes, path, &r->suppressions[k]))
			return TG_ENOMEM;
	for (k = 0; k < r->notes.n; k++) {
		const struct tg_diag *d = &r->notes.v[k];

		if (tg_diag_add(notes, d->severity, d->code, path, d->line,
				d->column, d->rule, d->snippet, "%s",
				d->message))
			return TG_ENOMEM;
	}
	for (k = w = 0; k < r->nbranches; k++) {
		struct tg_audit_branch *b = &r->branches[k];
		int dead = j->floor ? tg_audit_branch_dead(b, j->floor) : 0;

		if (dead < 0) {
			/* out of memory: the result keeps the rest, to free */
			while (k < r->nbranches)
				r->branches[w++] = r->branches[k++];
			r->nbranches = w;
			return dead;
		}
		if (dead) {
			r->branches[w++] = *b;
			continue;
		}
		free(b->condition);
		free(b->requires);
	}
	r->nbranches = w;
	return 0;
}
