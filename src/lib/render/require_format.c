/* require_format.c - what torchgate require writes: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * Two renderers over the same struct tg_require. Text: the PEP 508
 * requirement alone on the first line (what a script takes), then the
 * floor's and the ceiling's reasons, each with its fact, the fact's
 * verification status and the first TEXT_USES uses (path:line), the
 * private uses that cap nothing without --strict-private, the
 * conflicts, the declarations read and the problems found. JSON: the
 * same with every use. Deterministic: everything in the order the
 * command added it (the walk's).
 */
#include <string.h>

#include "lib/render/require_format.h"
#include "lib/util/jsonw.h"
#include "lib/util/str.h"

/* Uses listed per reason in text. */
#define TEXT_USES 3

static void
text_fact(struct tg_buf *b, const struct tg_require *rq,
	  const struct tg_require_reason *r)
{
	if (strcmp(r->fact, "introduced") == 0)
		tg_str_addf(&*b, "introduced in %s%s", r->version,
			    r->bound == TG_BOUND_AT_OR_BEFORE ||
				    r->bound == TG_BOUND_BETWEEN
				? " or earlier"
				: "");
	else if (strcmp(r->fact, "replacement") == 0)
		tg_str_addf(b, "exists since %s, as the replacement of %s",
			    r->version, r->repl_of->id);
	else if (strcmp(r->fact, "removed") == 0)
		tg_str_addf(b, "removed in %s", r->version);
	else
		tg_str_addf(b,
			    "private, present up to %s, the newest torch "
			    "the table knows",
			    tg_table_newest(rq->table));
	tg_str_addf(b, " (%s)", tg_api_fact_name(r->status));
}

static void
text_reason(struct tg_buf *b, const struct tg_require *rq, const char *what,
	    const struct tg_require_reason *r)
{
	size_t k;

	if (strcmp(what, "floor") == 0)
		tg_str_addf(b, "floor >=%s: ", r->version);
	else if (strcmp(what, "ceiling") == 0)
		tg_str_addf(b, "ceiling <%s: ", r->version);
	else
		tg_str_addf(b, "%s: ", what);
	tg_str_addf(b, "%s ", r->api->id);
	text_fact(b, rq, r);
	tg_buf_adds(b, ":");
	for (k = 0; k < r->nuses && k < TEXT_USES; k++)
		tg_str_addf(b, "%s %s:%zu", k ? "," : "", r->uses[k].path,
			    r->uses[k].line);
	if (r->nuses > TEXT_USES)
		tg_str_addf(b, " and %zu more", r->nuses - TEXT_USES);
	tg_buf_addc(b, '\n');
}

static int
same_bound(const struct tg_require_reason *a, const struct tg_require_reason *b)
{
	return tg_version_cmp(&a->ver, &b->ver) == 0;
}

static void
text(struct tg_buf *b, const struct tg_require *rq,
     const struct tg_require_report *rep)
{
	size_t k;

	tg_str_addf(b, "%s\n", rq->requirement);
	if (!rq->floor)
		tg_buf_adds(b, "floor: none: no API the code uses needs one\n");
	for (k = 0; rq->floor && k < rq->nfloors; k++)
		if (same_bound(&rq->floors[k], rq->floor))
			text_reason(b, rq, "floor", &rq->floors[k]);
	if (!rq->ceiling)
		tg_str_addf(b,
			    "ceiling: none: no API the code uses is "
			    "removed%s\n",
			    rq->strict_private ? " or private" : "");
	for (k = 0; rq->ceiling && k < rq->nceilings; k++)
		if (rq->ceilings[k].caps &&
		    same_bound(&rq->ceilings[k], rq->ceiling))
			text_reason(b, rq, "ceiling", &rq->ceilings[k]);
	for (k = 0; k < rq->nceilings; k++)
		if (!rq->ceilings[k].caps)
			text_reason(b, rq,
				    "private (a ceiling only with "
				    "--strict-private)",
				    &rq->ceilings[k]);
	for (k = 0; k < rq->nconflicts; k++) {
		const struct tg_require_conflict *c = &rq->conflicts[k];

		tg_str_addf(b,
			    "conflict: %s needs >=%s (%s:%zu), %s needs <%s "
			    "(%s:%zu): no torch satisfies both\n",
			    c->floor->api->id, c->floor->version,
			    c->floor->uses[0].path, c->floor->uses[0].line,
			    c->ceiling->api->id, c->ceiling->version,
			    c->ceiling->uses[0].path, c->ceiling->uses[0].line);
	}
	for (k = 0; rep->l && k < rep->l->n; k++) {
		const struct tg_declaration *d = &rep->l->v[k];

		if (d->line)
			tg_str_addf(b, "declared: %s:%zu: %s: %s\n", d->path,
				    d->line, d->field, d->text);
		else
			tg_str_addf(b, "declared: %s: %s\n", d->path, d->text);
	}
	for (k = 0; k < rq->nproblems; k++) {
		const struct tg_require_problem *p = &rq->problems[k];

		tg_buf_adds(b, tg_require_problem_fails(p) ? "problem: "
							   : "info: ");
		if (p->decl && p->kind != TG_REQUIRE_DISAGREE && p->decl->line)
			tg_str_addf(b, "%s:%zu: ", p->decl->path,
				    p->decl->line);
		else if (!p->decl && p->path)
			tg_str_addf(b, "%s:%zu: ", p->path, p->line);
		tg_str_addf(b, "%s\n", p->message);
	}
}

static void
json_reason(struct tg_jsonw *w, const struct tg_require_reason *r)
{
	size_t k;

	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "api", r->api->id);
	tg_jsonw_kstr(w, "fact", r->fact);
	tg_jsonw_kstr(w, "version", r->version);
	tg_jsonw_kstr(w, "status", tg_api_fact_name(r->status));
	tg_jsonw_kstr(w, "bound",
		      r->bound == TG_BOUND_AT_OR_BEFORE ||
			      r->bound == TG_BOUND_BETWEEN
			  ? "at-or-before"
			  : "exact");
	tg_jsonw_key(w, "replaces");
	if (r->repl_of)
		tg_jsonw_str(w, r->repl_of->id);
	else
		tg_jsonw_null(w);
	tg_jsonw_kbool(w, "private", r->api->is_private);
	tg_jsonw_key(w, "uses");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < r->nuses; k++) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "path", r->uses[k].path);
		tg_jsonw_kint(w, "line", (long long)r->uses[k].line);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

static void
json_bound(struct tg_jsonw *w, const char *key, const struct tg_require *rq,
	   int ceiling)
{
	const struct tg_require_reason *best =
	    ceiling ? rq->ceiling : rq->floor;
	const struct tg_require_reason *v = ceiling ? rq->ceilings : rq->floors;
	size_t k, n = ceiling ? rq->nceilings : rq->nfloors;

	tg_jsonw_key(w, key);
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_key(w, "version");
	if (best)
		tg_jsonw_str(w, best->version);
	else
		tg_jsonw_null(w);
	tg_jsonw_key(w, "because");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; best && k < n; k++)
		if ((!ceiling || v[k].caps) && same_bound(&v[k], best))
			json_reason(w, &v[k]);
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

static void
json(struct tg_buf *b, const struct tg_require *rq,
     const struct tg_require_report *rep)
{
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", 1);
	tg_jsonw_kstr(&w, "tool_version", rep->tool_version);
	tg_jsonw_kstr(&w, "requirement", rq->requirement);
	tg_jsonw_kbool(&w, "strict_private", rq->strict_private);
	tg_jsonw_kstr(&w, "releases", "embedded");
	tg_jsonw_kint(&w, "files", (long long)rep->files);
	json_bound(&w, "floor", rq, 0);
	json_bound(&w, "ceiling", rq, 1);
	tg_jsonw_key(&w, "private");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < rq->nceilings; k++)
		if (strcmp(rq->ceilings[k].fact, "private") == 0)
			json_reason(&w, &rq->ceilings[k]);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "conflicts");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < rq->nconflicts; k++) {
		tg_jsonw_object(&w, TG_JSONW_BLOCK);
		tg_jsonw_key(&w, "floor");
		json_reason(&w, rq->conflicts[k].floor);
		tg_jsonw_key(&w, "ceiling");
		json_reason(&w, rq->conflicts[k].ceiling);
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "declared");
	if (!rep->l) {
		tg_jsonw_null(&w);
	} else {
		tg_jsonw_array(&w, TG_JSONW_BLOCK);
		for (k = 0; k < rep->l->n; k++) {
			const struct tg_declaration *d = &rep->l->v[k];

			tg_jsonw_object(&w, TG_JSONW_FLOW);
			tg_jsonw_kstr(&w, "path", d->path);
			tg_jsonw_kint(&w, "line", (long long)d->line);
			tg_jsonw_kstr(&w, "field", d->field);
			tg_jsonw_kstr(&w, "requirement", d->text);
			tg_jsonw_end(&w);
		}
		tg_jsonw_end(&w);
	}
	tg_jsonw_key(&w, "problems");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < rq->nproblems; k++) {
		const struct tg_require_problem *p = &rq->problems[k];

		tg_jsonw_object(&w, TG_JSONW_FLOW);
		tg_jsonw_kstr(&w, "kind", tg_require_problem_name(p->kind));
		tg_jsonw_kstr(&w, "severity",
			      tg_require_problem_fails(p) ? "error" : "info");
		tg_jsonw_key(&w, "path");
		if (p->decl || p->path)
			tg_jsonw_str(&w, p->decl ? p->decl->path : p->path);
		else
			tg_jsonw_null(&w);
		tg_jsonw_kint(&w, "line",
			      p->decl	? (long long)p->decl->line
			      : p->path ? (long long)p->line
					: 0);
		tg_jsonw_kstr(&w, "message", p->message);
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	tg_jsonw_finish(&w);
	tg_buf_addc(b, '\n');
}

int
tg_require_format(struct tg_buf *out, const struct tg_require *rq,
		  const struct tg_require_report *rep, int as_json)
{
	if (as_json)
		json(out, rq, rep);
	else
		text(out, rq, rep);
	return tg_buf_error(out);
}
