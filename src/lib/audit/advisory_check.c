/* advisory_check.c - declared torch floors against the advisories
 * SPDX-License-Identifier: MIT
 *
 * One pass over the findings a file gives (advisories x findings, both
 * small); one message a declaration and advisory that count. A floor
 * admits an advisory when some version at or above it lies in one of
 * the advisory's ranges (table/advisory: tg_advisory_admits); a
 * declaration without a floor admits every one.
 */
#include "lib/audit/advisory_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/buf.h"

int
tg_advisory_check_init(struct tg_advisory_check *ac,
		       const struct tg_advisories *a, const char *const *ignore,
		       size_t nignore)
{
	memset(ac, 0, sizeof(*ac));
	ac->a = a;
	ac->ignore = ignore;
	ac->nignore = nignore;
	ac->first = calloc(a->n + 1, sizeof(*ac->first));
	return ac->first ? 0 : TG_ENOMEM;
}

void
tg_advisory_check_release(struct tg_advisory_check *ac)
{
	size_t k;

	for (k = 0; ac->first && k < ac->a->n; k++)
		free(ac->first[k].path);
	free(ac->first);
	memset(ac, 0, sizeof(*ac));
}

/* Whether the table entry id is api or one of its aspects (api.x). */
static int
concerns(const char *api, const char *id)
{
	size_t n = strlen(api);

	return strncmp(id, api, n) == 0 && (id[n] == '\0' || id[n] == '.');
}

int
tg_advisory_check_add(struct tg_advisory_check *ac, const char *path,
		      struct tg_audit_result *r)
{
	size_t i, k, j;

	for (i = 0; i < r->nfindings; i++) {
		const struct tg_audit_finding *f = &r->findings[i];

		if (f->in != TG_AUDIT_IN_CODE || tg_audit_suppressed(r, f))
			continue;
		for (k = 0; k < ac->a->n; k++) {
			const struct tg_advisory *adv = &ac->a->v[k];
			struct tg_advisory_check_use *u = &ac->first[k];

			if (u->api)
				continue;
			for (j = 0; j < adv->napis; j++)
				if (concerns(adv->apis[j], f->api->id))
					break;
			if (j == adv->napis)
				continue;
			if (!(u->path = strdup(path)))
				return TG_ENOMEM;
			u->api = f->api->id;
			u->line = f->line;
		}
	}
	return 0;
}

static int
ignored(const struct tg_advisory_check *ac, const struct tg_advisory *adv)
{
	size_t k;

	for (k = 0; k < ac->nignore; k++)
		if (tg_advisory_has_id(adv, ac->ignore[k]))
			return 1;
	return 0;
}

/* "PYSEC-2025-41 (CVE-2025-32434, GHSA-53q9-r3pm-6pq6)" */
static void
ids(struct tg_buf *b, const struct tg_advisory *adv)
{
	size_t k;

	tg_buf_adds(b, adv->id);
	for (k = 0; k < adv->naliases; k++)
		tg_buf_addf(b, "%s%s", k ? ", " : " (", adv->aliases[k]);
	if (adv->naliases)
		tg_buf_adds(b, ")");
}

static int
judge_one(struct tg_advisory_check *ac, struct tg_require *rq,
	  const struct tg_declaration *d, size_t k)
{
	const struct tg_advisory *adv = &ac->a->v[k];
	const struct tg_advisory_check_use *u = &ac->first[k];
	struct tg_buf b = TG_BUF_INIT;
	const char *floor;
	int strict, rc;

	tg_buf_adds(&b, "advisory ");
	ids(&b, adv);
	if (adv->severity)
		tg_buf_addf(&b, " [%s]", adv->severity);
	tg_buf_addf(&b, ": '%s' admits torch releases it affects", d->text);
	if (adv->fixed)
		tg_buf_addf(&b, " (fixed in %s)", adv->fixed);
	tg_buf_addf(&b, ": %s; ", adv->summary);
	if (u->api)
		tg_buf_addf(&b, "the code uses %s at %s:%zu; ", u->api, u->path,
			    u->line);
	else
		tg_buf_adds(&b, "critical whatever the code calls; ");
	if (tg_advisory_floor(adv, &floor, &strict))
		tg_buf_addf(&b, "torch%s%s excludes it",
			    strict ? ">" : ">=", floor);
	else
		tg_buf_adds(&b, "no floor excludes it (no fixed release)");
	if (tg_buf_error(&b)) {
		tg_buf_release(&b);
		return TG_ENOMEM;
	}
	rc = tg_require_add_problem(
	    rq, u->api ? TG_REQUIRE_ADVISORY : TG_REQUIRE_ADVISORY_SEVERE, d,
	    b.data);
	tg_buf_release(&b);
	return rc;
}

int
tg_advisory_check_judge(struct tg_advisory_check *ac, struct tg_require *rq,
			const struct tg_declared_list *l, struct tg_err *err)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < l->n && !rc; i++) {
		const struct tg_declaration *d = &l->v[i];

		for (k = 0; k < ac->a->n && !rc; k++) {
			const struct tg_advisory *adv = &ac->a->v[k];
			int counts =
			    ac->first[k].api || tg_advisory_is_severe(adv);

			if (!counts || ignored(ac, adv) ||
			    !tg_advisory_admits(
				adv, d->has_floor ? &d->floor : NULL, NULL))
				continue;
			rc = judge_one(ac, rq, d, k);
		}
	}
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}
