/* audit.c - what the analyzers append to: findings, version branches,
 * suppression comments
 * SPDX-License-Identifier: MIT
 */
#include "lib/audit/audit.h"

#include <stdlib.h>
#include <string.h>

/* Make room for one more element of size sz in *v (n used, *cap held). */
static int
grow(void **v, size_t n, size_t *cap, size_t sz)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if (nc > ((size_t)-1) / sz)
		return TG_ENOMEM;
	p = realloc(*v, nc * sz);
	if (!p)
		return TG_ENOMEM;
	*v = p;
	*cap = nc;
	return 0;
}

/* A copy of s[0..n), NULL-safe: NULL in, NULL out (*ok kept). */
static char *
dup_n(const char *s, size_t n, int *ok)
{
	char *c;

	if (!s)
		return NULL;
	c = malloc(n + 1);
	if (!c) {
		*ok = 0;
		return NULL;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

int
tg_audit_result_add_finding(struct tg_audit_result *r,
			    const struct tg_audit_finding *f)
{
	struct tg_audit_finding *d;
	int ok = 1;

	if (grow((void **)&r->findings, r->nfindings, &r->capfindings,
		 sizeof(*r->findings)))
		return TG_ENOMEM;
	d = &r->findings[r->nfindings];
	*d = *f;
	d->guard_text = dup_n(f->guard_text,
			      f->guard_text ? strlen(f->guard_text) : 0, &ok);
	d->text = dup_n(f->text, f->text ? strlen(f->text) : 0, &ok);
	if (!ok) {
		free(d->guard_text);
		free(d->text);
		return TG_ENOMEM;
	}
	r->nfindings++;
	return 0;
}

int
tg_audit_result_add_branch(struct tg_audit_result *r, size_t first_line,
			   size_t last_line, const char *condition,
			   const char *requires)
{
	struct tg_audit_branch *b;
	int ok = 1;

	if (grow((void **)&r->branches, r->nbranches, &r->capbranches,
		 sizeof(*r->branches)))
		return TG_ENOMEM;
	b = &r->branches[r->nbranches];
	b->first_line = first_line;
	b->last_line = last_line;
	b->condition = dup_n(condition, strlen(condition), &ok);
	b->requires = dup_n(requires, strlen(requires), &ok);
	if (!ok) {
		free(b->condition);
		free(b->requires);
		return TG_ENOMEM;
	}
	r->nbranches++;
	return 0;
}

int
tg_audit_result_add_suppression(struct tg_audit_result *r, size_t line,
				const char *const *ids, size_t nids)
{
	struct tg_audit_suppression *s;
	size_t k;

	if (grow((void **)&r->suppressions, r->nsuppressions,
		 &r->capsuppressions, sizeof(*r->suppressions)))
		return TG_ENOMEM;
	s = &r->suppressions[r->nsuppressions];
	memset(s, 0, sizeof(*s));
	s->line = line;
	if (nids) {
		s->ids = calloc(nids, sizeof(*s->ids));
		if (!s->ids)
			return TG_ENOMEM;
		for (k = 0; k < nids; k++) {
			s->ids[k] = strdup(ids[k]);
			if (!s->ids[k]) {
				while (k--)
					free(s->ids[k]);
				free(s->ids);
				return TG_ENOMEM;
			}
		}
		s->nids = nids;
	}
	r->nsuppressions++;
	return 0;
}

void
tg_audit_result_release(struct tg_audit_result *r)
{
	size_t k, j;

	for (k = 0; k < r->nfindings; k++) {
		free(r->findings[k].guard_text);
		free(r->findings[k].text);
	}
	free(r->findings);
	for (k = 0; k < r->nbranches; k++) {
		free(r->branches[k].condition);
		free(r->branches[k].requires);
	}
	free(r->branches);
	for (k = 0; k < r->nsuppressions; k++) {
		for (j = 0; j < r->suppressions[k].nids; j++)
			free(r->suppressions[k].ids[j]);
		free(r->suppressions[k].ids);
	}
	free(r->suppressions);
	tg_diag_list_release(&r->notes);
	memset(r, 0, sizeof(*r));
}
