/* require_html_model.c - the page model of require's HTML page: its
 * columns, rows and cells
 * SPDX-License-Identifier: MIT
 *
 * What the picture and the prose of the page (require_html_svg.c,
 * require_html.c) draw from: a column per release of the list in use
 * (table/releases), parsed once, with its x and whether it lies past
 * what the table knows; a row per entry the code uses, ranked (floor,
 * ceiling, removed, deprecated, private, then the others, which are not
 * drawn) in the order first used within a rank; an entry's state in a
 * release (tg_api_status) with the verification status of the fact
 * behind it, and the state that may already follow when the release
 * lies in the window of an event known only "at or before"; a row's
 * details line; the width of the label column, estimated from character
 * counts. Memory: a column per release and a row per entry used; the
 * rows are ranked by a stable insertion sort, quadratic in the entries
 * used.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/render/html.h"
#include "lib/render/require_html_internal.h"
#include "lib/table/releases.h"

/* ---- facts ---- */

static int
vcmp_event(const struct tg_version *v, const struct tg_event *e)
{
	return tg_version_cmp(v, &e->ver);
}

/* Whether v lies where e, known only at or before its version (after
 * its "after" release, for between), may already have happened. */
static int
in_window(const struct tg_event *e, const struct tg_version *v)
{
	if (!e->version || !inexact(e->bound) || vcmp_event(v, e) >= 0)
		return 0;
	return e->bound != TG_BOUND_BETWEEN || !e->after ||
	       tg_version_cmp(v, &e->after_ver) > 0;
}

void
tg_require_html_model_cell(const struct tg_api *a, const struct tg_version *v,
			   struct cell *c)
{
	const struct tg_event *e = NULL;

	memset(c, 0, sizeof(*c));
	switch (tg_api_status(a, v)) {
	case TG_API_NOT_YET:
		c->st = S_NOT_YET;
		c->status = a->introduced.status;
		e = &a->introduced;
		c->next = S_AVAILABLE;
		break;
	case TG_API_AVAILABLE:
		c->st = S_AVAILABLE;
		c->status = a->introduced.status;
		if (a->deprecated.version &&
		    (!a->removed.version ||
		     tg_version_cmp(&a->deprecated.ver, &a->removed.ver) < 0)) {
			e = &a->deprecated;
			c->next = S_DEPRECATED;
		} else {
			e = &a->removed;
			c->next = S_REMOVED;
		}
		break;
	case TG_API_DEPRECATED:
		c->st = S_DEPRECATED;
		c->status = a->deprecated.status;
		e = &a->removed;
		c->next = S_REMOVED;
		break;
	case TG_API_REMOVED:
		c->st = S_REMOVED;
		c->status = a->removed.status;
		break;
	}
	if (e && in_window(e, v)) {
		c->split = 1;
		c->next_status = e->status;
	}
}

/* The reason of api among v[0..n) that is bound itself, or NULL. */
static const struct tg_require_reason *
bound_reason(const struct tg_require_reason *v, size_t n,
	     const struct tg_require_reason *bound, const struct tg_api *api,
	     int ceiling)
{
	size_t k;

	for (k = 0; bound && k < n; k++)
		if (v[k].api == api && (!ceiling || v[k].caps) &&
		    tg_version_cmp(&v[k].ver, &bound->ver) == 0)
			return &v[k];
	return NULL;
}

static int
in_conflict(const struct tg_require *rq, const struct tg_api *api, int ceiling)
{
	size_t k;

	for (k = 0; k < rq->nconflicts; k++)
		if ((ceiling ? rq->conflicts[k].ceiling
			     : rq->conflicts[k].floor)
			->api == api)
			return 1;
	return 0;
}

/* "at-or-before" and "between" events read "V or earlier". */
static void
event_text(struct tg_buf *b, const char *what, const struct tg_event *e)
{
	tg_buf_addf(b, "%s %s%s", what, e->version,
		    inexact(e->bound) ? " or earlier" : "");
}

/* The details line of a row, plain text (escaped when written). */
void
tg_require_html_model_details(struct tg_buf *t, const struct tg_require *rq,
			      const struct row *r)
{
	const struct tg_api *a = r->ua->api;
	const char *sep = "";

	if (r->floor && rq->floor) {
		tg_buf_addf(t, "floor \xe2\x89\xa5%s", rq->floor->version);
		sep = " \xc2\xb7 ";
	}
	if (r->ceiling && rq->ceiling) {
		tg_buf_addf(t, "%sceiling <%s", sep, rq->ceiling->version);
		sep = " \xc2\xb7 ";
	}
	if (a->is_private) {
		tg_buf_addf(t, "%sprivate", sep);
		sep = " \xc2\xb7 ";
	}
	if (a->introduced.version && a->introduced.bound != TG_BOUND_BEFORE &&
	    (r->floor || (!a->deprecated.version && !a->removed.version))) {
		tg_buf_adds(t, sep);
		event_text(t, "introduced", &a->introduced);
		sep = " \xc2\xb7 ";
	}
	if (a->deprecated.version) {
		tg_buf_adds(t, sep);
		event_text(t, "deprecated", &a->deprecated);
		if (a->deprecated.withdrawn)
			tg_buf_addf(t, " (withdrawn %s)",
				    a->deprecated.withdrawn);
		sep = " \xc2\xb7 ";
	}
	if (a->removed.version) {
		tg_buf_adds(t, sep);
		event_text(t, "removed", &a->removed);
		sep = " \xc2\xb7 ";
	}
	if (a->repl_id || a->repl_text) {
		tg_buf_addf(t, "%s\xe2\x86\x92 %s", sep,
			    a->repl_id ? a->repl_id : a->repl_text);
		if (a->repl_since)
			tg_buf_addf(t, " since %s", a->repl_since);
	} else if (a->deprecated.version || a->removed.version) {
		tg_buf_addf(t, "%sno replacement", sep);
	}
}

/* ---- the model: columns and rows ---- */

static int
major_of(const char *rel)
{
	return atoi(rel);
}

int
tg_require_html_model_build(struct page *pg)
{
	const struct tg_require *rq = pg->rq;
	const char *rel;
	size_t k, n = 0, j, maxid = 0, maxsub = 0;
	int x = 0, w;

	while (tg_releases_at(n))
		n++;
	pg->cols = calloc(n + 1, sizeof(*pg->cols));
	pg->rows = calloc(rq->napis + 1, sizeof(*pg->rows));
	if (!pg->cols || !pg->rows)
		return TG_ENOMEM;
	for (k = 0; k < n && (rel = tg_releases_at(k)) != NULL; k++) {
		struct col *c = &pg->cols[k];

		if (tg_version_parse(&c->v, rel, strlen(rel), NULL))
			return TG_ENOMEM;
		pg->ncols++;
		c->rel = rel;
		if (k && major_of(rel) != major_of(pg->cols[k - 1].rel))
			x += MAJOR_GAP;
		c->x = x;
		x += COL_W;
		c->past = tg_table_is_past(rq->table, &c->v);
	}
	pg->grid_w = x;
	/* rows: the bound setters first, then removed, deprecated, private,
	 * each in the order first used */
	for (k = 0; k < rq->napis; k++) {
		struct row *r = &pg->rows[k];
		const struct tg_api *a = rq->apis[k].api;

		r->ua = &rq->apis[k];
		r->floor = bound_reason(rq->floors, rq->nfloors, rq->floor, a,
					0) != NULL ||
			   in_conflict(rq, a, 0);
		r->ceiling = bound_reason(rq->ceilings, rq->nceilings,
					  rq->ceiling, a, 1) != NULL ||
			     in_conflict(rq, a, 1);
		r->rank = r->floor		  ? 0
			  : r->ceiling		  ? 1
			  : a->removed.version	  ? 2
			  : a->deprecated.version ? 3
			  : a->is_private	  ? 4
						  : 5;
		r->drawn = r->rank < 5;
		pg->ndrawn += (size_t)r->drawn;
	}
	pg->nrows = rq->napis;
	for (k = 1; k < pg->nrows; k++) { /* stable insertion by rank */
		struct row t = pg->rows[k];

		for (j = k; j > 0 && pg->rows[j - 1].rank > t.rank; j--)
			pg->rows[j] = pg->rows[j - 1];
		pg->rows[j] = t;
	}
	for (k = 0; k < pg->nrows; k++) {
		struct tg_buf t = TG_BUF_INIT;
		size_t c;

		if (!pg->rows[k].drawn)
			continue;
		tg_require_html_model_details(&t, rq, &pg->rows[k]);
		if (tg_buf_error(&t)) {
			tg_buf_release(&t);
			return TG_ENOMEM;
		}
		c = t.len ? tg_html_chars(t.data) : 0;
		tg_buf_release(&t);
		if (c > maxsub)
			maxsub = c;
		c = tg_html_chars(pg->rows[k].ua->api->id);
		if (c > maxid)
			maxid = c;
	}
	w = (int)((maxid * ID_PX > maxsub * SUB_PX ? maxid * ID_PX
						   : maxsub * SUB_PX) /
		  10) +
	    24;
	pg->label_w = w < LABEL_MIN ? LABEL_MIN : w > LABEL_MAX ? LABEL_MAX : w;
	pg->grid_x = PAD + pg->label_w;
	pg->width = pg->grid_x + pg->grid_w + 14 + COUNT_W + PAD;
	return 0;
}

void
tg_require_html_model_release(struct page *pg)
{
	size_t k;

	for (k = 0; pg->cols && k < pg->ncols; k++)
		tg_version_release(&pg->cols[k].v);
	free(pg->cols);
	free(pg->rows);
}
