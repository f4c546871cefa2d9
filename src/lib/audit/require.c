/* require.c - the torch range a package's code needs, and its declarations
 * judged
 * SPDX-License-Identifier: MIT
 *
 * Keeps one floor reason and one ceiling reason per table entry the code
 * uses (unguarded, in code, not suppressed), each with every use's
 * path:line in the order added; tg_require_finish picks the highest
 * floor and the lowest ceiling among them, and tg_require_check judges
 * each declaration (declared.h) against them. Every entry used is also
 * kept with its uses, whatever bound it puts (rq->apis: what the HTML
 * page draws a row for). Memory: a reason per used entry and bound, a
 * record per entry used, and a record per use in each. See require.h for
 * how each bound is derived.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/require.h"
#include "lib/table/releases.h"
#include "lib/util/buf.h"
#include "lib/util/grow.h"

void
tg_require_init(struct tg_require *rq, const struct tg_table *t,
		int strict_private)
{
	memset(rq, 0, sizeof(*rq));
	rq->table = t;
	rq->strict_private = strict_private;
}

static void
uses_release(struct tg_require_use *uses, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		free(uses[k].path);
	free(uses);
}

static void
reason_release(struct tg_require_reason *r)
{
	uses_release(r->uses, r->nuses);
	free(r->version);
	tg_version_release(&r->ver);
}

void
tg_require_release(struct tg_require *rq)
{
	size_t k;

	for (k = 0; k < rq->nfloors; k++)
		reason_release(&rq->floors[k]);
	for (k = 0; k < rq->nceilings; k++)
		reason_release(&rq->ceilings[k]);
	for (k = 0; k < rq->napis; k++)
		uses_release(rq->apis[k].uses, rq->apis[k].nuses);
	free(rq->floors);
	free(rq->ceilings);
	free(rq->apis);
	free(rq->conflicts);
	for (k = 0; k < rq->nproblems; k++) {
		free(rq->problems[k].message);
		free(rq->problems[k].path);
	}
	free(rq->problems);
	free(rq->requirement);
	for (k = 0; k < rq->nsetups; k++) {
		free(rq->setups[k].path);
		free(rq->setups[k].condition);
		free(rq->setups[k].floor);
		tg_version_release(&rq->setups[k].ver);
	}
	free(rq->setups);
	memset(rq, 0, sizeof(*rq));
}

/* The minor after v: "2.11" -> "2.12", a new string. */
static char *
next_minor(const struct tg_version *v)
{
	struct tg_buf b = TG_BUF_INIT;
	unsigned long minor = 0;
	size_t k;

	if (v->nrelease > 1)
		for (k = 0; k < v->release[1].n; k++)
			minor = minor * 10 +
				(unsigned long)(v->release[1].p[k] - '0');
	tg_buf_add(&b, v->release[0].p, v->release[0].n);
	tg_buf_addf(&b, ".%lu", minor + 1);
	if (tg_buf_error(&b)) {
		tg_buf_release(&b);
		return NULL;
	}
	return tg_buf_detach(&b);
}

/* The floor fact of a: its introduced version, or, when a replaces an
 * entry, that replacement's since where it is higher. 0 when a needs no
 * floor. */
static int
floor_fact(const struct tg_table *t, const struct tg_api *a,
	   struct tg_require_reason *r)
{
	size_t k;
	int have = 0;

	if (a->introduced.version && a->introduced.bound != TG_BOUND_BEFORE) {
		r->fact = "introduced";
		r->version = a->introduced.version;
		r->status = a->introduced.status;
		r->bound = a->introduced.bound;
		r->ver = a->introduced.ver;
		have = 1;
	}
	for (k = 0; k < t->n; k++) {
		const struct tg_api *o = &t->apis[k];

		if (!o->repl_id || strcmp(o->repl_id, a->id) != 0 ||
		    !o->repl_since)
			continue;
		if (have && tg_version_cmp(&o->repl_since_ver, &r->ver) <= 0)
			continue;
		r->fact = "replacement";
		r->repl_of = o;
		r->version = o->repl_since;
		r->status = o->repl_status;
		r->bound = TG_BOUND_EXACT;
		r->ver = o->repl_since_ver;
		have = 1;
	}
	return have;
}

/* The ceiling fact of a; 0 when it has none. */
static int
ceiling_fact(const struct tg_require *rq, const struct tg_api *a,
	     struct tg_require_reason *r)
{
	if (a->removed.version) {
		r->fact = "removed";
		r->version = a->removed.version;
		r->status = a->removed.status;
		r->bound = a->removed.bound;
		r->ver = a->removed.ver;
		return 1;
	}
	if (a->is_private && tg_table_newest(rq->table)) {
		r->fact = "private";
		r->status = a->removed.status;
		r->bound = TG_BOUND_EXACT;
		return 2; /* its version is made by the caller */
	}
	return 0;
}

/* The reason of a in v[0..*n), or a new one; NULL when out of memory or
 * (with *none set) when a puts no such bound. */
static struct tg_require_reason *
reason_for(struct tg_require *rq, const struct tg_api *a, int ceiling,
	   int *none)
{
	struct tg_require_reason **v = ceiling ? &rq->ceilings : &rq->floors;
	size_t *n = ceiling ? &rq->nceilings : &rq->nfloors;
	size_t *cap = ceiling ? &rq->capceilings : &rq->capfloors;
	struct tg_require_reason r;
	size_t k;
	int kind;

	*none = 0;
	for (k = 0; k < *n; k++)
		if ((*v)[k].api == a)
			return &(*v)[k];
	memset(&r, 0, sizeof(r));
	kind = ceiling ? ceiling_fact(rq, a, &r) : floor_fact(rq->table, a, &r);
	if (!kind) {
		*none = 1;
		return NULL;
	}
	r.api = a;
	r.caps = kind == 1 || rq->strict_private;
	/* own the version text and its parse: the reason may outlive no
	 * table, but private ceilings have none of their own */
	if (kind == 2) {
		struct tg_version newest = TG_VERSION_INIT;
		const char *nt = tg_table_newest(rq->table);

		if (tg_version_parse(&newest, nt, strlen(nt), NULL))
			return NULL;
		r.version = next_minor(&newest);
		tg_version_release(&newest);
	} else {
		r.version = strdup(r.version);
	}
	memset(&r.ver, 0, sizeof(r.ver));
	if (!r.version ||
	    tg_version_parse(&r.ver, r.version, strlen(r.version), NULL)) {
		free(r.version);
		return NULL;
	}
	if (TG_GROW(*v, *n + 1, *cap)) {
		reason_release(&r);
		return NULL;
	}
	(*v)[*n] = r;
	return &(*v)[(*n)++];
}

static int
add_use(struct tg_require_use **uses, size_t *n, size_t *cap, const char *path,
	size_t line)
{
	if (*n && (*uses)[*n - 1].line == line &&
	    strcmp((*uses)[*n - 1].path, path) == 0)
		return 0; /* one line, one use */
	if (TG_GROW(*uses, *n + 1, *cap))
		return TG_ENOMEM;
	(*uses)[*n].path = strdup(path);
	if (!(*uses)[*n].path)
		return TG_ENOMEM;
	(*uses)[(*n)++].line = line;
	return 0;
}

/* The record of a in rq->apis, or a new one; NULL when out of memory. */
static struct tg_require_api *
api_for(struct tg_require *rq, const struct tg_api *a)
{
	size_t k;

	for (k = 0; k < rq->napis; k++)
		if (rq->apis[k].api == a)
			return &rq->apis[k];
	if (TG_GROW(rq->apis, rq->napis + 1, rq->capapis))
		return NULL;
	memset(&rq->apis[rq->napis], 0, sizeof(*rq->apis));
	rq->apis[rq->napis].api = a;
	return &rq->apis[rq->napis++];
}

int
tg_require_add(struct tg_require *rq, const char *path,
	       struct tg_audit_result *r)
{
	size_t k;
	int c;

	tg_audit_result_sort(r);
	for (k = 0; k < r->nfindings; k++) {
		const struct tg_audit_finding *f = &r->findings[k];
		struct tg_require_api *ua;

		/* a behaviour entry (torch.load's default) says how a call
		 * acts, not whether it exists: it bounds nothing */
		if (tg_audit_suppressed(r, f) || f->in != TG_AUDIT_IN_CODE ||
		    f->guard == TG_AUDIT_GUARDED ||
		    (f->api->kind && strcmp(f->api->kind, "behavior") == 0))
			continue;
		ua = api_for(rq, f->api);
		if (!ua ||
		    add_use(&ua->uses, &ua->nuses, &ua->capuses, path, f->line))
			return TG_ENOMEM;
		for (c = 0; c < 2; c++) {
			int none;
			struct tg_require_reason *rs =
			    reason_for(rq, f->api, c, &none);

			if (none)
				continue;
			if (!rs || add_use(&rs->uses, &rs->nuses, &rs->capuses,
					   path, f->line))
				return TG_ENOMEM;
		}
	}
	return 0;
}

int
tg_require_finish(struct tg_require *rq, struct tg_err *err)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t i, j, n = 0;

	rq->floor = rq->ceiling = NULL;
	for (i = 0; i < rq->nfloors; i++)
		if (!rq->floor ||
		    tg_version_cmp(&rq->floors[i].ver, &rq->floor->ver) > 0)
			rq->floor = &rq->floors[i];
	for (i = 0; i < rq->nceilings; i++)
		if (!rq->ceilings[i].caps)
			continue;
		else if (!rq->ceiling || tg_version_cmp(&rq->ceilings[i].ver,
							&rq->ceiling->ver) < 0)
			rq->ceiling = &rq->ceilings[i];
	if (rq->floor && rq->ceiling &&
	    tg_version_cmp(&rq->floor->ver, &rq->ceiling->ver) >= 0) {
		rq->conflicts = calloc(rq->nfloors * rq->nceilings + 1,
				       sizeof(*rq->conflicts));
		if (!rq->conflicts)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		for (i = 0; i < rq->nfloors; i++)
			for (j = 0; j < rq->nceilings; j++)
				if (rq->ceilings[j].caps &&
				    tg_version_cmp(&rq->floors[i].ver,
						   &rq->ceilings[j].ver) >= 0) {
					rq->conflicts[n].floor = &rq->floors[i];
					rq->conflicts[n].ceiling =
					    &rq->ceilings[j];
					n++;
				}
		rq->nconflicts = n;
	}
	tg_buf_adds(&b, "torch");
	if (rq->floor)
		tg_buf_addf(&b, ">=%s", rq->floor->version);
	if (rq->ceiling)
		tg_buf_addf(&b, "%s<%s", rq->floor ? "," : "",
			    rq->ceiling->version);
	rq->requirement = tg_buf_error(&b) ? NULL : tg_buf_detach(&b);
	tg_buf_release(&b);
	if (!rq->requirement)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

static int add_problem(struct tg_require *rq, enum tg_require_problem_kind k,
		       const struct tg_declaration *d,
		       const struct tg_declaration *other, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int
add_problem(struct tg_require *rq, enum tg_require_problem_kind kind,
	    const struct tg_declaration *d, const struct tg_declaration *other,
	    const char *fmt, ...)
{
	struct tg_buf b = TG_BUF_INIT;
	struct tg_require_problem *p;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	{
		char tmp[1024];

		vsnprintf(tmp, sizeof(tmp), fmt, ap);
		tg_buf_adds(&b, tmp);
	}
	va_end(ap);
	msg = tg_buf_error(&b) ? NULL : tg_buf_detach(&b);
	tg_buf_release(&b);
	if (!msg)
		return TG_ENOMEM;
	if (TG_GROW(rq->problems, rq->nproblems + 1, rq->capproblems)) {
		free(msg);
		return TG_ENOMEM;
	}
	p = &rq->problems[rq->nproblems++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->decl = d;
	p->other = other;
	p->message = msg;
	return 0;
}

/* "API at path:line" of a reason's first use. */
#define FIRST_USE(r) (r)->api->id, (r)->uses[0].path, (r)->uses[0].line

/* Whether the declaration allows the final release text v. */
static int
allows(const struct tg_declaration *d, const struct tg_version *v)
{
	return tg_spec_set_contains(&d->req.spec, v->str, strlen(v->str), v,
				    TG_PRE_AUTO) == 1;
}

/* The releases the code supports (at or above its floor, below its
 * ceiling, not past what the table knows) that d excludes above its
 * floor: a stale ceiling. *first and *last name them. */
static int
stale(const struct tg_require *rq, const struct tg_declaration *d, char *first,
      char *last, size_t cap, size_t *count)
{
	size_t k;
	const char *r;

	*count = 0;
	for (k = 0; (r = tg_releases_at(k)) != NULL; k++) {
		struct tg_version v = TG_VERSION_INIT;
		int excluded;

		if (tg_version_parse(&v, r, strlen(r), NULL))
			return TG_ENOMEM;
		excluded =
		    (!rq->floor || tg_version_cmp(&v, &rq->floor->ver) >= 0) &&
		    (!rq->ceiling ||
		     tg_version_cmp(&v, &rq->ceiling->ver) < 0) &&
		    !tg_table_is_past(rq->table, &v) &&
		    (!d->has_floor || tg_version_cmp(&v, &d->floor) >= 0) &&
		    !allows(d, &v);
		tg_version_release(&v);
		if (!excluded)
			continue;
		if (!*count)
			snprintf(first, cap, "%s", r);
		snprintf(last, cap, "%s", r);
		(*count)++;
	}
	return 0;
}

/* Whether d admits none of the releases the code runs on (at or above
 * its floor, below its ceiling) while there is at least one, and, where
 * no ceiling bounds the code, none past the release list either (9999 is
 * past it): *first and *last name those releases. -1 on ENOMEM. */
static int
disjoint(const struct tg_require *rq, const struct tg_declaration *d,
	 char *first, char *last, size_t cap)
{
	size_t k, runs = 0, admitted = 0;
	const char *r;

	for (k = 0; (r = tg_releases_at(k)) != NULL || !rq->ceiling; k++) {
		struct tg_version v = TG_VERSION_INIT;
		int past = r == NULL;

		if (past)
			r = "9999";
		if (tg_version_parse(&v, r, strlen(r), NULL))
			return -1;
		if ((!rq->floor || tg_version_cmp(&v, &rq->floor->ver) >= 0) &&
		    (!rq->ceiling ||
		     tg_version_cmp(&v, &rq->ceiling->ver) < 0)) {
			if (!past && !runs++)
				snprintf(first, cap, "%s", r);
			if (!past)
				snprintf(last, cap, "%s", r);
			admitted += allows(d, &v);
		}
		tg_version_release(&v);
		if (past)
			break;
	}
	return runs && !admitted;
}

/* The problem of a declaration disjoint from the code's range, naming
 * the code's bound it misses: the ceiling where it asks for releases at
 * or above it, else the floor. */
static int
add_disjoint(struct tg_require *rq, const struct tg_declaration *d,
	     const char *first, const char *last)
{
	const struct tg_require_reason *b = rq->floor;
	int many = strcmp(first, last) != 0;

	if (rq->ceiling &&
	    (!rq->floor || (d->has_floor &&
			    tg_version_cmp(&d->floor, &rq->ceiling->ver) >= 0)))
		b = rq->ceiling;
	if (!b)
		return add_problem(rq, TG_REQUIRE_DISJOINT, d, NULL,
				   "declared range excludes every torch "
				   "release: '%s' admits none of %s ... %s "
				   "(%s)",
				   d->text, first, last, tg_releases_name());
	return add_problem(rq, TG_REQUIRE_DISJOINT, d, NULL,
			   "declared range excludes every torch the code "
			   "runs on: '%s' admits none of %s%s%s (%s), the "
			   "code needs %s (%s at %s:%zu)",
			   d->text, first, many ? " ... " : "",
			   many ? last : "", tg_releases_name(),
			   rq->requirement, FIRST_USE(b));
}

static int
check_one(struct tg_require *rq, const struct tg_declaration *d)
{
	char first[32], last[32];
	size_t n;
	int rc = 0;

	if (!rq->nconflicts) {
		int none = disjoint(rq, d, first, last, sizeof(first));

		if (none < 0)
			return TG_ENOMEM;
		if (none)
			return add_disjoint(rq, d, first, last);
	}
	if (rq->floor && !d->has_floor)
		rc = add_problem(rq, TG_REQUIRE_FLOOR_MISSING, d, NULL,
				 "no floor: '%s' allows any torch, but the "
				 "code needs >=%s (%s at %s:%zu)",
				 d->text, rq->floor->version,
				 FIRST_USE(rq->floor));
	else if (rq->floor && tg_version_cmp(&d->floor, &rq->floor->ver) < 0)
		rc = add_problem(rq, TG_REQUIRE_FLOOR_LOW, d, NULL,
				 "floor too low: '%s' allows torch %s, but the "
				 "code needs >=%s (%s at %s:%zu)",
				 d->text, d->floor.str, rq->floor->version,
				 FIRST_USE(rq->floor));
	else if (d->has_floor &&
		 (!rq->floor || tg_version_cmp(&d->floor, &rq->floor->ver) > 0))
		rc = add_problem(rq, TG_REQUIRE_FLOOR_TIGHT, d, NULL,
				 "floor above what the code needs: '%s' "
				 "excludes torch below %s, the code needs %s",
				 d->text, d->floor.str,
				 rq->floor ? rq->floor->version : "none");
	if (!rc && rq->ceiling && !rq->nconflicts &&
	    allows(d, &rq->ceiling->ver))
		rc = add_problem(
		    rq, TG_REQUIRE_CEILING_MISSING, d, NULL,
		    "%s: '%s' allows torch %s, but the code needs "
		    "<%s (%s %s at %s:%zu)",
		    d->has_ceiling ? "ceiling too high" : "no ceiling", d->text,
		    rq->ceiling->version, rq->ceiling->version,
		    rq->ceiling->fact, FIRST_USE(rq->ceiling));
	if (!rc && !rq->nconflicts && d->has_ceiling) {
		rc = stale(rq, d, first, last, sizeof(first), &n);
		if (!rc && n)
			rc = add_problem(
			    rq, TG_REQUIRE_CEILING_STALE, d, NULL,
			    "stale ceiling: '%s' excludes torch %s%s%s, "
			    "released (%s) and "
			    "supported by the code, which needs %s",
			    d->text, first, n > 1 ? " ... " : "",
			    n > 1 ? last : "", tg_releases_name(),
			    rq->requirement);
	}
	return rc;
}

int
tg_require_check(struct tg_require *rq, const struct tg_declared_list *l,
		 struct tg_err *err)
{
	size_t k, j;
	int rc = 0;

	if (!l->n)
		rc = add_problem(rq, TG_REQUIRE_NO_DECLARATION, NULL, NULL,
				 "no torch requirement declared%s%s",
				 rq->requirement[5] ? "; the code needs " : "",
				 rq->requirement[5] ? rq->requirement : "");
	for (k = 0; k < l->n && !rc; k++)
		rc = check_one(rq, &l->v[k]);
	/* one disagreement per file that says otherwise than the first */
	for (k = 1; k < l->n && !rc; k++) {
		const struct tg_declaration *d = &l->v[k], *f = &l->v[0];

		if (strcmp(d->path, f->path) == 0 ||
		    strcmp(d->spec, f->spec) == 0)
			continue;
		for (j = 1; j < k; j++)
			if (strcmp(l->v[j].path, d->path) == 0 &&
			    strcmp(l->v[j].spec, f->spec) != 0)
				break;
		if (j < k)
			continue;
		rc = add_problem(rq, TG_REQUIRE_DISAGREE, d, f,
				 "declarations disagree: %s:%zu says '%s', "
				 "%s:%zu says '%s'",
				 f->path, f->line, f->text, d->path, d->line,
				 d->text);
	}
	if (rc)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

int
tg_require_check_enforced(struct tg_require *rq,
			  const struct tg_declared_list *l, struct tg_err *err)
{
	size_t k;

	for (k = 0; k < l->n && !tg_declared_enforced(&l->v[k]); k++)
		;
	if (!l->n || k < l->n)
		return 0;
	if (add_problem(
		rq, TG_REQUIRE_NOT_ENFORCED, &l->v[0], NULL,
		"not enforced: '%s' is read %s, and the package's metadata "
		"([project] dependencies, install_requires, Requires-Dist) "
		"asks no torch: pip installs it beside any torch",
		l->v[0].text,
		strcmp(l->v[0].field, "requirements") == 0
		    ? "only by 'pip install -r'"
		    : "only for the build's environment"))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

/* A new record of rq->setups for path:line, or NULL (out of memory). */
static struct tg_require_setup *
setup_new(struct tg_require *rq, const char *path, size_t line)
{
	struct tg_require_setup *u;

	if (TG_GROW(rq->setups, rq->nsetups + 1, rq->capsetups))
		return NULL;
	u = &rq->setups[rq->nsetups];
	memset(u, 0, sizeof(*u));
	u->path = strdup(path);
	if (!u->path)
		return NULL;
	u->line = line;
	rq->nsetups++;
	return u;
}

int
tg_require_add_setup(struct tg_require *rq, const char *path,
		     const struct tg_audit_result *r)
{
	struct tg_require_setup *u;
	size_t k;
	int rc;

	for (k = 0; k < r->nbranches; k++) {
		const struct tg_audit_branch *b = &r->branches[k];
		const char *v = b->requires + 1;

		/* a gate holding exactly below one version: "<V" */
		if (!b->gate || b->requires[0] != '<' || strchr(v, ',') ||
		    *v == '=' || !*v)
			continue;
		if (!(u = setup_new(rq, path, b->first_line)))
			return TG_ENOMEM;
		u->gate = 1;
		u->condition = strdup(b->condition);
		u->floor = strdup(v);
		if (!u->condition || !u->floor)
			return TG_ENOMEM;
		if ((rc = tg_version_parse(&u->ver, v, strlen(v), NULL))) {
			if (rc == TG_ENOMEM)
				return TG_ENOMEM;
			/* not a version after all: not a gate */
			free(u->path);
			free(u->condition);
			free(u->floor);
			tg_version_release(&u->ver);
			rq->nsetups--;
		}
	}
	if (r->torch_import_line && !setup_new(rq, path, r->torch_import_line))
		return TG_ENOMEM;
	return 0;
}

/* Whether declaration d was read from the directory of setup.py path
 * (dir "/setup.py"). */
static int
same_dir(const struct tg_declaration *d, const char *path)
{
	size_t n = strlen(path) - strlen("setup.py");

	return strncmp(d->path, path, n) == 0 && !strchr(d->path + n, '/');
}

/* The declaration of path's directory a gate is judged against: the
 * first with a floor that pip enforces, else the first with a floor,
 * else the first; NULL when it declares none. */
static const struct tg_declaration *
setup_decl(const struct tg_declared_list *l, const char *path)
{
	const struct tg_declaration *any = NULL, *floor = NULL;
	size_t k;

	for (k = 0; k < l->n; k++) {
		const struct tg_declaration *d = &l->v[k];

		if (!same_dir(d, path))
			continue;
		if (d->has_floor && tg_declared_enforced(d))
			return d;
		if (d->has_floor && !floor)
			floor = d;
		if (!any)
			any = d;
	}
	return floor ? floor : any;
}

/* Whether path's directory lists torch in [build-system] requires. */
static int
builds_with_torch(const struct tg_declared_list *l, const char *path)
{
	size_t k;

	for (k = 0; k < l->n; k++)
		if (same_dir(&l->v[k], path) &&
		    strcmp(l->v[k].field, "[build-system] requires") == 0)
			return 1;
	return 0;
}

int
tg_require_check_setup(struct tg_require *rq, const struct tg_declared_list *l,
		       struct tg_err *err)
{
	size_t k;
	int rc = 0, cmp;

	for (k = 0; k < rq->nsetups && !rc; k++) {
		const struct tg_require_setup *u = &rq->setups[k];
		const struct tg_declaration *d = setup_decl(l, u->path);
		size_t at = rq->nproblems;

		if (!d)
			continue;
		cmp = u->gate && d->has_floor
			  ? tg_version_cmp(&u->ver, &d->floor)
			  : 1;
		if (cmp == 0)
			continue; /* the gate is the floor */
		if (cmp < 0)
			rc = add_problem(
			    rq, TG_REQUIRE_BUILD_GATE_STALE, NULL, NULL,
			    "stale build gate: setup.py raises at build time "
			    "where '%s' holds, a floor of %s, older than '%s' "
			    "(%s:%zu) declares: it never fires",
			    u->condition, u->floor, d->text, d->path, d->line);
		else if (u->gate)
			rc = add_problem(
			    rq, TG_REQUIRE_BUILD_GATE, NULL, NULL,
			    "build gate: setup.py raises at build time where "
			    "'%s' holds, a floor of %s, but '%s' (%s:%zu) "
			    "declares %s%s",
			    u->condition, u->floor, d->text, d->path, d->line,
			    d->has_floor ? ">=" : "no floor",
			    d->has_floor ? d->floor.str : "");
		else if (builds_with_torch(l, u->path))
			rc = add_problem(
			    rq, TG_REQUIRE_BUILD_IMPORT, NULL, NULL,
			    "setup.py imports torch: its build needs torch "
			    "first; [build-system] requires lists it, so an "
			    "isolated build compiles against a torch pip "
			    "picks, not the one installed beside the package "
			    "(pip install --no-build-isolation uses that one)");
		else
			rc = add_problem(
			    rq, TG_REQUIRE_BUILD_IMPORT, NULL, NULL,
			    "setup.py imports torch: its build needs torch "
			    "first, but [build-system] requires lists none, so "
			    "an isolated build (pip's default) fails; listing "
			    "it builds against a torch pip picks, not the one "
			    "installed beside the package (pip install "
			    "--no-build-isolation uses that one)");
		if (!rc) {
			rq->problems[at].path = strdup(u->path);
			rq->problems[at].line = u->line;
			if (!rq->problems[at].path)
				rc = TG_ENOMEM;
		}
	}
	if (rc)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

int
tg_require_add_problem(struct tg_require *rq, enum tg_require_problem_kind k,
		       const struct tg_declaration *d, const char *message)
{
	return add_problem(rq, k, d, NULL, "%s", message);
}

int
tg_require_problem_fails(const struct tg_require_problem *p)
{
	return p->kind != TG_REQUIRE_FLOOR_TIGHT &&
	       p->kind != TG_REQUIRE_ADVISORY_SEVERE &&
	       p->kind != TG_REQUIRE_BUILD_GATE_STALE &&
	       p->kind != TG_REQUIRE_BUILD_IMPORT;
}

const char *
tg_require_problem_name(enum tg_require_problem_kind k)
{
	switch (k) {
	case TG_REQUIRE_NO_DECLARATION:
		return "no-declaration";
	case TG_REQUIRE_FLOOR_MISSING:
		return "floor-missing";
	case TG_REQUIRE_FLOOR_LOW:
		return "floor-too-low";
	case TG_REQUIRE_CEILING_MISSING:
		return "ceiling-missing";
	case TG_REQUIRE_CEILING_STALE:
		return "ceiling-stale";
	case TG_REQUIRE_FLOOR_TIGHT:
		return "floor-over-tight";
	case TG_REQUIRE_DISAGREE:
		return "disagree";
	case TG_REQUIRE_DISJOINT:
		return "disjoint";
	case TG_REQUIRE_NOT_ENFORCED:
		return "not-enforced";
	case TG_REQUIRE_ADVISORY:
		return "advisory";
	case TG_REQUIRE_ADVISORY_SEVERE:
		return "advisory-severe";
	case TG_REQUIRE_BUILD_GATE:
		return "build-gate";
	case TG_REQUIRE_BUILD_GATE_STALE:
		return "build-gate-stale";
	case TG_REQUIRE_BUILD_IMPORT:
		return "build-imports-torch";
	}
	return "?";
}
