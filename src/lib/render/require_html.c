/* require_html.c - torchgate require --format=html: the package's torch
 * range as one self-contained page
 * SPDX-License-Identifier: MIT
 *
 * A third renderer over the struct tg_require that the text and JSON
 * forms print (require_format.c): above, the requirement, the conflicts
 * and what --check-declared found, in words; then one inline SVG picture,
 * a row per entry the code relies on for a bound or uses although it is
 * deprecated, removed or private, a column per release of the list in
 * use (table/releases: the embedded one, or the one torchgate releases
 * cached), each cell the entry's state in that release
 * (tg_api_status) coloured, the verification status of the fact that
 * makes that state drawn (solid verified, hatched inferred, lighter
 * hatching unverified), a release that lies in the window of an event
 * known only "at or before" split with the state that follows, a private
 * entry dotted; over the rows the bands of what is declared and of what
 * the code needs, with their floor and ceiling written; below, the uses
 * of every entry as relative links path:line, and a legend.
 *
 * The page is self-contained and inert: CSS in one <style>, the picture
 * inline, no script, no font, no image, no URL but the fragments of the
 * page itself and the relative links to the package's files (every byte
 * of a path outside [A-Za-z0-9._~/-] percent-encoded, so a path cannot
 * spell a scheme, and runs of '/' made one, so it cannot spell a host).
 * Every text from outside (ids, paths, messages, the table's texts) is
 * escaped (& < > " '), and a byte that is not UTF-8 shows as U+FFFD.
 * Deterministic: no clock, no locale, the order of the struct; text
 * widths are estimated from character counts (monospace ids), never
 * measured. Memory: the page in out, a column per release and a row per
 * entry used.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/render/require_html.h"
#include "lib/pep/spec.h"
#include "lib/table/releases.h"

/* Geometry of the picture, in px. */
#define PAD 20
#define NOTE_H 18     /* the "past what the table knows" bracket */
#define HEAD_H 48     /* the rotated release labels */
#define BAND_H 30     /* one band */
#define ROW_H 40      /* one row */
#define CELL_W 14     /* a cell; columns are COL_W apart */
#define COL_W 17      /* a column */
#define MAJOR_GAP 10  /* between 1.x and 2.x */
#define CELL_H 26     /* a cell's height inside its row */
#define COUNT_W 72    /* the use counts, right of the grid */
#define ID_PX 76      /* an id's character, tenths of a px (12.5px mono) */
#define SUB_PX 58     /* a detail's character, tenths of a px (11px) */
#define LABEL_MIN 300 /* the label column */
#define LABEL_MAX 450
#define BANDS_MAX 4 /* declared bands drawn (distinct specifier sets) */

enum state { S_NOT_YET, S_AVAILABLE, S_DEPRECATED, S_REMOVED, S_N };

static const char *const state_class[S_N] = {"notyet", "available",
					     "deprecated", "removed"};
static const char *const state_words[S_N] = {"not yet there", "available",
					     "deprecated", "removed"};
static const char *const state_fill[S_N] = {"#d1d5db", "#16a34a", "#f59e0b",
					    "#dc2626"};
static const char *const state_tint[S_N] = {"#f3f4f6", "#dcfce7", "#fef3c7",
					    "#fee2e2"};

struct col {
	const char *rel; /* "2.1.2", from the release list */
	struct tg_version v;
	int x;	  /* left edge */
	int past; /* past what the table knows */
};

struct row {
	const struct tg_require_api *ua;
	int floor, ceiling; /* sets the code's floor, its ceiling */
	int rank;	    /* floor, ceiling, removed, deprecated, private */
	int drawn;	    /* has a row in the picture */
};

struct page {
	struct tg_buf *b;
	const struct tg_require *rq;
	const struct tg_require_report *rep;
	struct col *cols;
	size_t ncols;
	struct row *rows;
	size_t nrows, ndrawn;
	int label_w, grid_x, grid_w, width;
};

/* ---- escaping ---- */

/* Length of the UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, k;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (k = 2; k < len; k++)
		if (s[k] < 0x80 || s[k] > 0xbf)
			return 0;
	return len;
}

/* Characters of s (a byte that is not UTF-8 counts as one). */
static size_t
chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k = 0, c = 0, l;

	while (k < n) {
		l = utf8_len(p + k, n - k);
		k += l ? l : 1;
		c++;
	}
	return c;
}

/* s escaped for a text or an attribute value, at most max characters
 * (then cut with an ellipsis); invalid UTF-8 and control characters as
 * U+FFFD. */
static void
esc_max(struct tg_buf *b, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k = 0, c = 0, l;
	int cut = chars(s) > max;

	while (k < n) {
		if (cut && c + 1 >= max) {
			tg_buf_adds(b, "\xe2\x80\xa6");
			return;
		}
		l = utf8_len(p + k, n - k);
		c++;
		if (!l || p[k] == 0x7f || (p[k] < 0x20 && p[k] != '\t')) {
			tg_buf_adds(b, "\xef\xbf\xbd");
			k++;
			continue;
		}
		switch (p[k]) {
		case '&':
			tg_buf_adds(b, "&amp;");
			break;
		case '<':
			tg_buf_adds(b, "&lt;");
			break;
		case '>':
			tg_buf_adds(b, "&gt;");
			break;
		case '"':
			tg_buf_adds(b, "&quot;");
			break;
		case '\'':
			tg_buf_adds(b, "&#39;");
			break;
		default:
			tg_buf_add(b, s + k, l);
		}
		k += l;
	}
}

static void
esc(struct tg_buf *b, const char *s)
{
	esc_max(b, s, (size_t)-1);
}

/* A relative link to path: bytes outside [A-Za-z0-9._~/-] percent-
 * encoded (no scheme can be spelt: ':' is encoded), a run of '/' one
 * (no "//host"). */
static void
href(struct tg_buf *b, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;
	size_t k;

	for (k = 0; p[k]; k++) {
		unsigned char c = p[k];

		if (c == '/' && k && p[k - 1] == '/')
			continue;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("._~/-", c)) {
			tg_buf_addc(b, (char)c);
		} else {
			tg_buf_addc(b, '%');
			tg_buf_addc(b, hex[c >> 4]);
			tg_buf_addc(b, hex[c & 15]);
		}
	}
}

/* <a href="PATH">PATH:LINE</a>; PATH alone, no link, without a line
 * (what --declared judges is no file) */
static void
use_link(struct tg_buf *b, const char *path, size_t line)
{
	if (!line) {
		esc(b, path);
		return;
	}
	tg_buf_adds(b, "<a href=\"");
	href(b, path);
	tg_buf_adds(b, "\">");
	esc(b, path);
	tg_buf_addf(b, ":%zu</a>", line);
}

/* ---- facts ---- */

static int
vcmp_event(const struct tg_version *v, const struct tg_event *e)
{
	return tg_version_cmp(v, &e->ver);
}

static int
inexact(enum tg_bound bd)
{
	return bd == TG_BOUND_AT_OR_BEFORE || bd == TG_BOUND_BETWEEN;
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

struct cell {
	enum state st;
	enum tg_fact status;
	/* the release may lie past an event known only at or before a
	 * later one: the state that follows, with its status */
	int split;
	enum state next;
	enum tg_fact next_status;
};

static void
cell_of(const struct tg_api *a, const struct tg_version *v, struct cell *c)
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
static void
row_details(struct tg_buf *t, const struct tg_require *rq, const struct row *r)
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

static int
build(struct page *pg)
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
		row_details(&t, rq, &pg->rows[k]);
		if (tg_buf_error(&t)) {
			tg_buf_release(&t);
			return TG_ENOMEM;
		}
		c = t.len ? chars(t.data) : 0;
		tg_buf_release(&t);
		if (c > maxsub)
			maxsub = c;
		c = chars(pg->rows[k].ua->api->id);
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

static void
release(struct page *pg)
{
	size_t k;

	for (k = 0; pg->cols && k < pg->ncols; k++)
		tg_version_release(&pg->cols[k].v);
	free(pg->cols);
	free(pg->rows);
}

/* ---- the picture ---- */

static void
patterns(struct tg_buf *b)
{
	int s;

	tg_buf_adds(b, "<defs>\n");
	for (s = 0; s < S_N; s++) {
		tg_buf_addf(b,
			    "<pattern id=\"inf-%s\" width=\"5\" height=\"5\" "
			    "patternUnits=\"userSpaceOnUse\" "
			    "patternTransform=\"rotate(45)\">"
			    "<rect width=\"5\" height=\"5\" fill=\"%s\"/>"
			    "<rect width=\"2.6\" height=\"5\" fill=\"%s\"/>"
			    "</pattern>\n",
			    state_class[s], state_tint[s], state_fill[s]);
		tg_buf_addf(b,
			    "<pattern id=\"unv-%s\" width=\"6\" height=\"6\" "
			    "patternUnits=\"userSpaceOnUse\" "
			    "patternTransform=\"rotate(45)\">"
			    "<rect width=\"6\" height=\"6\" fill=\"%s\"/>"
			    "<rect width=\"1.4\" height=\"6\" fill=\"%s\"/>"
			    "</pattern>\n",
			    state_class[s], state_tint[s], state_fill[s]);
	}
	tg_buf_adds(b, "<pattern id=\"private\" width=\"6\" height=\"6\" "
		       "patternUnits=\"userSpaceOnUse\">"
		       "<circle cx=\"3\" cy=\"3\" r=\"1.3\" fill=\"#111827\" "
		       "fill-opacity=\"0.55\"/></pattern>\n"
		       "</defs>\n");
}

static void
fill_of(struct tg_buf *b, enum state s, enum tg_fact f)
{
	if (f == TG_FACT_VERIFIED)
		tg_buf_adds(b, state_fill[s]);
	else
		tg_buf_addf(b, "url(#%s-%s)",
			    f == TG_FACT_INFERRED ? "inf" : "unv",
			    state_class[s]);
}

static void
header(struct page *pg, int y)
{
	struct tg_buf *b = pg->b;
	const char *newest = tg_table_newest(pg->rq->table);
	size_t k, first_past = pg->ncols;

	for (k = 0; k < pg->ncols; k++)
		if (pg->cols[k].past) {
			first_past = k;
			break;
		}
	if (first_past < pg->ncols) {
		int x0 = pg->grid_x + pg->cols[first_past].x;
		int x1 = pg->grid_x + pg->cols[pg->ncols - 1].x + CELL_W;

		tg_buf_addf(b,
			    "<g class=\"past-note\"><path d=\"M%d %d v-5 H%d "
			    "v5\" fill=\"none\" stroke=\"#9ca3af\"/>"
			    "<text x=\"%d\" y=\"%d\" class=\"note\" "
			    "text-anchor=\"end\">past what the table knows "
			    "(",
			    x0, y + 14, x1, x1, y + 6);
		esc(b, newest ? newest : "?");
		tg_buf_adds(b, ")</text></g>\n");
	}
	y += NOTE_H + HEAD_H;
	tg_buf_adds(b, "<g class=\"releases\">\n");
	for (k = 0; k < pg->ncols; k++) {
		const struct col *c = &pg->cols[k];
		int x = pg->grid_x + c->x + CELL_W / 2 + 4;
		size_t l = strlen(c->rel);
		int minor = l > 2 && strcmp(c->rel + l - 2, ".0") == 0;

		tg_buf_addf(b,
			    "<text class=\"release%s%s\" data-release=\"%s\" "
			    "x=\"%d\" y=\"%d\" transform=\"rotate(-60 %d "
			    "%d)\">",
			    minor ? " minor" : "", c->past ? " past" : "",
			    c->rel, x, y - 4, x, y - 4);
		/* "2.1" for 2.1.0, the patches in full */
		if (minor)
			tg_buf_add(b, c->rel, l - 2);
		else
			tg_buf_adds(b, c->rel);
		tg_buf_adds(b, "</text>\n");
	}
	tg_buf_adds(b, "</g>\n");
}

/* What a band covers: a declaration's specifier set, the code's range,
 * or nothing (no declaration, or none judged). */
enum band_of { BAND_DECLARED, BAND_CODE, BAND_NONE };

static int
covers(const struct page *pg, enum band_of of, const struct tg_declaration *d,
       const struct col *c)
{
	const struct tg_require *rq = pg->rq;

	if (of == BAND_DECLARED)
		return tg_spec_set_contains(&d->req.spec, c->v.str,
					    strlen(c->v.str), &c->v,
					    TG_PRE_AUTO) == 1;
	if (of == BAND_NONE || rq->nconflicts)
		return 0;
	return (!rq->floor || tg_version_cmp(&c->v, &rq->floor->ver) >= 0) &&
	       (!rq->ceiling || tg_version_cmp(&c->v, &rq->ceiling->ver) < 0);
}

/* The upper bounds of d as written ("<2.0", "~=1.10"), or nothing. */
static void
declared_ceiling(struct tg_buf *t, const struct tg_declaration *d)
{
	size_t k;
	const char *sep = "";

	for (k = 0; k < d->req.spec.n; k++) {
		const struct tg_spec *s = &d->req.spec.specs[k];

		if (s->op != TG_OP_LT && s->op != TG_OP_LE &&
		    s->op != TG_OP_EQ && s->op != TG_OP_COMPATIBLE &&
		    s->op != TG_OP_ARBITRARY)
			continue;
		tg_buf_addf(t, "%s%s", sep, s->text);
		sep = ",";
	}
}

struct band_text {
	const char *kind;	     /* "declared", "code" */
	const char *title;	     /* "declared", "the code needs" */
	const char *spec;	     /* the requirement, or why there is none */
	const char *floor, *ceiling; /* as written on the bar */
	const char *where;	     /* path:line of a declaration, or NULL */
};

/* One band: its label left, its bar over the columns it covers (a rect
 * per run), the floor written at its start and the ceiling at its end. */
static void
band(struct page *pg, int y, enum band_of of, const struct tg_declaration *d,
     const struct band_text *bt)
{
	struct tg_buf *b = pg->b;
	size_t k, first = pg->ncols, last = 0, start = 0, runs = 0;
	int prev = 0, ty = y + BAND_H / 2 + 4;

	tg_buf_addf(b, "<g class=\"band band-%s\" data-band=\"%s\" ", bt->kind,
		    bt->kind);
	tg_buf_adds(b, "data-floor=\"");
	esc(b, bt->floor);
	tg_buf_adds(b, "\" data-ceiling=\"");
	esc(b, bt->ceiling);
	tg_buf_addf(b, "\">\n<text class=\"band-label\" x=\"%d\" y=\"%d\">",
		    PAD, y + 12);
	esc(b, bt->title);
	tg_buf_addf(b, "</text>\n<text class=\"band-spec\" x=\"%d\" y=\"%d\">",
		    PAD, y + 25);
	esc_max(b, bt->spec, (size_t)(pg->label_w - 24) * 10 / SUB_PX);
	tg_buf_adds(b, "</text>\n");
	if (bt->where) {
		tg_buf_addf(b,
			    "<text class=\"band-where\" x=\"%d\" y=\"%d\" "
			    "text-anchor=\"end\">",
			    pg->grid_x - 10, y + 12);
		esc_max(b, bt->where, 40);
		tg_buf_adds(b, "</text>\n");
	}
	for (k = 0; k <= pg->ncols; k++) {
		int in = k < pg->ncols && covers(pg, of, d, &pg->cols[k]);

		if (in && !prev)
			start = k;
		if (in) {
			if (first == pg->ncols)
				first = k;
			last = k;
		}
		if (!in && prev) {
			int x0 = pg->grid_x + pg->cols[start].x;
			int x1 = pg->grid_x + pg->cols[k - 1].x + CELL_W;

			tg_buf_addf(b,
				    "<rect class=\"bar\" x=\"%d\" y=\"%d\" "
				    "width=\"%d\" height=\"%d\" rx=\"5\"/>\n",
				    x0, y + 4, x1 - x0, BAND_H - 8);
			runs++;
		}
		prev = in;
	}
	if (!runs) {
		tg_buf_addf(b, "<text class=\"band-none\" x=\"%d\" y=\"%d\">",
			    pg->grid_x + 4, ty);
		esc(b, of == BAND_NONE ? bt->spec
				       : "no torch release the list knows is "
					 "in this range");
		tg_buf_adds(b, "</text>\n");
	} else {
		int x0 = pg->grid_x + pg->cols[first].x;
		int x1 = pg->grid_x + pg->cols[last].x + CELL_W;
		int fw = 7 * (int)chars(bt->floor),
		    cw = 7 * (int)chars(bt->ceiling);

		if (x1 - x0 >= fw + cw + 24) { /* both inside */
			tg_buf_addf(b,
				    "<text class=\"bound in\" x=\"%d\" "
				    "y=\"%d\">",
				    x0 + 6, ty);
			esc(b, bt->floor);
			tg_buf_addf(b,
				    "</text>\n<text class=\"bound in\" "
				    "x=\"%d\" y=\"%d\" text-anchor=\"end\">",
				    x1 - 6, ty);
			esc(b, bt->ceiling);
		} else if (x0 - pg->grid_x >= fw + 8) { /* around the bar */
			tg_buf_addf(b,
				    "<text class=\"bound out\" x=\"%d\" "
				    "y=\"%d\" text-anchor=\"end\">",
				    x0 - 5, ty);
			esc(b, bt->floor);
			tg_buf_addf(b,
				    "</text>\n<text class=\"bound out\" "
				    "x=\"%d\" y=\"%d\">",
				    x1 + 5, ty);
			esc(b, bt->ceiling);
		} else { /* both after it */
			tg_buf_addf(b,
				    "<text class=\"bound out\" x=\"%d\" "
				    "y=\"%d\">",
				    x1 + 5, ty);
			esc(b, bt->floor);
			tg_buf_adds(b, " ");
			esc(b, bt->ceiling);
		}
		tg_buf_adds(b, "</text>\n");
	}
	tg_buf_adds(b, "</g>\n");
}

/* The declared bands (one per distinct specifier set, at most
 * BANDS_MAX, or one that says why there is none) and the code's; the
 * number of bands through *n. */
static int
bands(struct page *pg, int y, int *n)
{
	const struct tg_require *rq = pg->rq;
	const struct tg_declared_list *l = pg->rep->l;
	struct tg_buf f = TG_BUF_INIT, c = TG_BUF_INIT, w = TG_BUF_INIT;
	struct band_text bt;
	size_t k, j;
	int rc;

	*n = 0;
	if (!l || !l->n) {
		memset(&bt, 0, sizeof(bt));
		bt.kind = "declared";
		bt.title = "declared";
		bt.spec = l ? "no torch requirement declared"
			    : "not judged: --check-declared or --declared";
		bt.floor = bt.ceiling = "";
		band(pg, y, BAND_NONE, NULL, &bt);
		y += BAND_H;
		(*n)++;
	}
	for (k = 0; l && k < l->n && *n < BANDS_MAX; k++) {
		const struct tg_declaration *d = &l->v[k];

		for (j = 0; j < k; j++)
			if (strcmp(l->v[j].spec, d->spec) == 0)
				break;
		if (j < k)
			continue;
		tg_buf_clear(&f);
		tg_buf_clear(&c);
		tg_buf_clear(&w);
		if (d->has_floor)
			tg_buf_addf(&f, "\xe2\x89\xa5%s", d->floor.str);
		else
			tg_buf_adds(&f, "no floor");
		declared_ceiling(&c, d);
		if (!c.len)
			tg_buf_adds(&c, "no ceiling");
		tg_buf_adds(&w, d->path);
		if (d->line)
			tg_buf_addf(&w, ":%zu", d->line);
		if (tg_buf_error(&f) || tg_buf_error(&c) || tg_buf_error(&w))
			break;
		bt.kind = "declared";
		bt.title = "declared";
		bt.spec = d->text;
		bt.floor = f.data;
		bt.ceiling = c.data;
		bt.where = w.data;
		band(pg, y, BAND_DECLARED, d, &bt);
		y += BAND_H;
		(*n)++;
	}
	tg_buf_clear(&f);
	tg_buf_clear(&c);
	if (rq->floor)
		tg_buf_addf(&f, "\xe2\x89\xa5%s", rq->floor->version);
	else
		tg_buf_adds(&f, "no floor");
	if (rq->ceiling)
		tg_buf_addf(&c, "<%s", rq->ceiling->version);
	else
		tg_buf_adds(&c, "no ceiling");
	rc = tg_buf_error(&f) || tg_buf_error(&c) || tg_buf_error(&w);
	if (!rc) {
		bt.kind = "code";
		bt.title = "the code needs";
		bt.spec = rq->nconflicts
			      ? "no torch: floor and ceiling conflict"
			      : rq->requirement;
		bt.floor = f.data;
		bt.ceiling = c.data;
		bt.where = NULL;
		band(pg, y, BAND_CODE, NULL, &bt);
		(*n)++;
	}
	tg_buf_release(&f);
	tg_buf_release(&c);
	tg_buf_release(&w);
	return rc ? TG_ENOMEM : 0;
}

static const char *const rank_name[] = {"floor",      "ceiling", "removed",
					"deprecated", "private", "other"};

/* One cell: its state's fill, its split, its private dots, its title. */
static void
cell(struct page *pg, const struct tg_api *a, const struct col *c, int y)
{
	struct tg_buf *b = pg->b;
	struct cell ce;
	int x = pg->grid_x + c->x, y0 = y + (ROW_H - CELL_H) / 2;

	cell_of(a, &c->v, &ce);
	tg_buf_addf(b,
		    "<g class=\"cell\" data-release=\"%s\" "
		    "data-state=\"%s\" data-status=\"%s\"",
		    c->rel, state_class[ce.st], tg_api_fact_name(ce.status));
	if (ce.split)
		tg_buf_addf(b, " data-split=\"%s\"", state_class[ce.next]);
	if (c->past)
		tg_buf_adds(b, " opacity=\"0.42\"");
	tg_buf_addf(b,
		    "><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "rx=\"2\" fill=\"",
		    x, y0, CELL_W, CELL_H);
	fill_of(b, ce.st, ce.status);
	tg_buf_adds(b, "\"/>");
	if (ce.split) {
		tg_buf_addf(b,
			    "<path d=\"M%d %dH%dV%dZ\" fill-opacity=\"0.6\" "
			    "fill=\"",
			    x + 1, y0, x + CELL_W, y0 + CELL_H - 1);
		fill_of(b, ce.next, ce.next_status);
		tg_buf_adds(b, "\"/>");
	}
	if (a->is_private && (ce.st == S_AVAILABLE || ce.st == S_DEPRECATED))
		tg_buf_addf(b,
			    "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			    "height=\"%d\" fill=\"url(#private)\"/>",
			    x, y0, CELL_W, CELL_H);
	tg_buf_addf(b, "<title>torch %s: %s (%s)%s%s%s</title></g>\n", c->rel,
		    state_words[ce.st], tg_api_fact_name(ce.status),
		    ce.split ? "; perhaps already " : "",
		    ce.split ? state_words[ce.next] : "",
		    c->past ? "; past what the table knows" : "");
}

static int
rows(struct page *pg, int y)
{
	struct tg_buf *b = pg->b;
	struct tg_buf t = TG_BUF_INIT;
	size_t k, j, i = 0;
	size_t idmax = (size_t)(pg->label_w - 24) * 10 / ID_PX;
	size_t submax = (size_t)(pg->label_w - 24) * 10 / SUB_PX;

	for (k = 0; k < pg->nrows; k++) {
		const struct row *r = &pg->rows[k];
		const struct tg_api *a = r->ua->api;

		if (!r->drawn)
			continue;
		tg_buf_clear(&t);
		row_details(&t, pg->rq, r);
		if (tg_buf_error(&t))
			break;
		tg_buf_adds(b, "<g class=\"row\" data-api=\"");
		esc(b, a->id);
		tg_buf_addf(b, "\" data-rank=\"%s\" data-uses=\"%zu\">\n",
			    rank_name[r->rank], r->ua->nuses);
		if (i++ % 2 == 0)
			tg_buf_addf(b,
				    "<rect class=\"zebra\" x=\"%d\" y=\"%d\" "
				    "width=\"%d\" height=\"%d\"/>\n",
				    PAD - 8, y, pg->width - 2 * PAD + 16,
				    ROW_H);
		tg_buf_addf(b,
			    "<a href=\"#api-%zu\"><text class=\"id\" "
			    "x=\"%d\" y=\"%d\">",
			    k + 1, PAD, y + 17);
		esc_max(b, a->id, idmax);
		tg_buf_adds(b, "<title>");
		esc(b, a->id);
		tg_buf_adds(b, "</title></text></a>\n");
		tg_buf_addf(b, "<text class=\"sub\" x=\"%d\" y=\"%d\">", PAD,
			    y + 32);
		esc_max(b, t.len ? t.data : "", submax);
		tg_buf_adds(b, "<title>");
		esc(b, t.len ? t.data : "");
		tg_buf_adds(b, "</title></text>\n");
		for (j = 0; j < pg->ncols; j++)
			cell(pg, a, &pg->cols[j], y);
		tg_buf_addf(b,
			    "<a href=\"#api-%zu\"><text class=\"count\" "
			    "x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu "
			    "use%s</text></a>\n</g>\n",
			    k + 1, pg->width - PAD, y + ROW_H / 2 + 4,
			    r->ua->nuses, r->ua->nuses == 1 ? "" : "s");
		y += ROW_H;
	}
	k = tg_buf_error(&t);
	tg_buf_release(&t);
	return k ? TG_ENOMEM : 0;
}

/* A dashed line down the grid at the left edge of the first column v
 * does not precede: the code's floor and ceiling. */
static void
guide(struct page *pg, const struct tg_version *v, const char *what, int y0,
      int y1)
{
	size_t k;

	for (k = 0; k < pg->ncols; k++)
		if (tg_version_cmp(&pg->cols[k].v, v) >= 0)
			break;
	if (k == pg->ncols)
		return;
	tg_buf_addf(pg->b,
		    "<line class=\"guide\" data-guide=\"%s\" x1=\"%d\" "
		    "y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		    what, pg->grid_x + pg->cols[k].x - 1, y0,
		    pg->grid_x + pg->cols[k].x - 1, y1);
}

/* A legend item: a swatch drawn by the caller's fill, then its words;
 * returns the x after it. */
static int
legend_item(struct tg_buf *b, int x, int y, const char *swatch,
	    const char *words)
{
	tg_buf_addf(b, "<g class=\"key\" transform=\"translate(%d %d)\">%s", x,
		    y, swatch);
	tg_buf_addf(b, "<text x=\"20\" y=\"12\">%s</text></g>\n", words);
	return x + 20 + (int)(chars(words) * SUB_PX / 10) + 22;
}

static int
legend(struct page *pg, int y)
{
	struct tg_buf *b = pg->b;
	struct tg_buf sw = TG_BUF_INIT;
	int x, s, rc;
	static const char *const fact_words[] = {"verified fact",
						 "inferred fact (hatched)",
						 "unverified fact (lighter)"};

	tg_buf_addf(b,
		    "<g class=\"legend\">\n<text class=\"legend-head\" "
		    "x=\"%d\" y=\"%d\">Each cell: the API in that torch "
		    "release</text>\n",
		    PAD, y);
	y += 10;
	x = PAD;
	for (s = 0; s < S_N; s++) {
		tg_buf_clear(&sw);
		tg_buf_addf(&sw,
			    "<rect width=\"14\" height=\"14\" rx=\"2\" "
			    "fill=\"%s\"/>",
			    state_fill[s]);
		if (tg_buf_error(&sw))
			break;
		x = legend_item(b, x, y, sw.data, state_words[s]);
	}
	x = legend_item(b, x, y,
			"<rect width=\"14\" height=\"14\" rx=\"2\" "
			"fill=\"#16a34a\"/><rect width=\"14\" height=\"14\" "
			"fill=\"url(#private)\"/>",
			"private API (dotted)");
	y += 24;
	x = PAD;
	for (s = 0; s < 3; s++) {
		tg_buf_clear(&sw);
		tg_buf_adds(&sw, "<rect width=\"14\" height=\"14\" rx=\"2\" "
				 "fill=\"");
		fill_of(&sw, S_AVAILABLE, (enum tg_fact)s);
		tg_buf_adds(&sw, "\"/>");
		if (tg_buf_error(&sw))
			break;
		x = legend_item(b, x, y, sw.data, fact_words[s]);
	}
	x = legend_item(b, x, y,
			"<rect width=\"14\" height=\"14\" rx=\"2\" "
			"fill=\"#d1d5db\"/><path d=\"M1 0H14V13Z\" "
			"fill=\"#16a34a\" fill-opacity=\"0.6\"/>",
			"split: it happened here or earlier (the table knows "
			"only by when)");
	y += 24;
	x = PAD;
	x = legend_item(b, x, y,
			"<rect y=\"2\" width=\"14\" height=\"10\" rx=\"3\" "
			"class=\"bar-declared\"/>",
			"the range declared");
	x = legend_item(b, x, y,
			"<rect y=\"2\" width=\"14\" height=\"10\" rx=\"3\" "
			"class=\"bar-code\"/>",
			"the range the code needs");
	x = legend_item(b, x, y,
			"<line x1=\"7\" y1=\"0\" x2=\"7\" y2=\"14\" "
			"class=\"guide\"/>",
			"the code's floor and ceiling");
	(void)legend_item(b, x, y,
			  "<rect width=\"14\" height=\"14\" rx=\"2\" "
			  "fill=\"#16a34a\" opacity=\"0.42\"/>",
			  "faded: past what the table knows");
	tg_buf_adds(b, "</g>\n");
	rc = tg_buf_error(&sw);
	tg_buf_release(&sw);
	return rc ? TG_ENOMEM : 0;
}

#define LEGEND_H 86

static int
picture(struct page *pg)
{
	struct tg_buf *b = pg->b;
	const struct tg_declared_list *l = pg->rep->l;
	int y, y_bands, y_rows, height, nbands, n, rc;
	size_t k, j;

	/* the bands bands() draws: one per distinct declared set (at most
	 * BANDS_MAX), or one saying there is none, and the code's */
	nbands = l && l->n ? 0 : 1;
	for (k = 0; l && k < l->n && nbands < BANDS_MAX; k++) {
		for (j = 0; j < k; j++)
			if (strcmp(l->v[j].spec, l->v[k].spec) == 0)
				break;
		nbands += j == k;
	}
	nbands++;
	y_bands = PAD + NOTE_H + HEAD_H + 6;
	y_rows = y_bands + nbands * BAND_H + 10;
	height = y_rows + (int)(pg->ndrawn ? pg->ndrawn : 1) * ROW_H + 30 +
		 LEGEND_H + PAD;
	tg_buf_addf(b,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "class=\"range\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-labelledby=\"picture-title\">\n"
		    "<title id=\"picture-title\">",
		    pg->width, height, pg->width, height);
	tg_buf_addf(b,
		    "%zu APIs the code uses across %zu torch releases, the "
		    "range declared and the range the code needs",
		    pg->ndrawn, pg->ncols);
	tg_buf_adds(b, "</title>\n");
	patterns(b);
	header(pg, PAD);
	rc = bands(pg, y_bands, &n);
	if (rc)
		return rc;
	if (!pg->ndrawn)
		tg_buf_addf(b,
			    "<text class=\"band-none\" x=\"%d\" y=\"%d\">No "
			    "API the code uses sets a bound or is deprecated, "
			    "removed or private.</text>\n",
			    PAD, y_rows + 24);
	rc = rows(pg, y_rows);
	if (rc)
		return rc;
	y = y_rows + (int)(pg->ndrawn ? pg->ndrawn : 1) * ROW_H;
	if (!pg->rq->nconflicts) {
		int top = y_bands + (nbands - 1) * BAND_H;

		if (pg->rq->floor)
			guide(pg, &pg->rq->floor->ver, "floor", top, y);
		if (pg->rq->ceiling)
			guide(pg, &pg->rq->ceiling->ver, "ceiling", top, y);
	}
	rc = legend(pg, y + 30);
	tg_buf_adds(b, "</svg>\n");
	return rc;
}

/* ---- the page ---- */

static const char css[] =
    ":root{color-scheme:light;--ink:#111827;--muted:#4b5563;--line:#e5e7eb;"
    "--declared:#2563eb;--code:#7c3aed}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;padding:24px 24px 40px;background:#fff;color:var(--ink);"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica "
    "Neue',Arial,sans-serif}\n"
    "code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
    "'DejaVu Sans Mono','Liberation Mono',monospace;font-size:.92em}\n"
    "h1{font-size:22px;margin:0 0 4px}\n"
    "h2{font-size:16px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px "
    "solid var(--line)}\n"
    "h3{font-size:14px;margin:18px 0 4px}\n"
    ".meta{color:var(--muted);margin:0 0 14px}\n"
    ".need{font-size:18px;margin:10px 0}\n"
    ".need code{background:#f5f3ff;color:#5b21b6;padding:2px 8px;"
    "border-radius:6px;font-size:17px}\n"
    ".reasons{margin:4px 0 0;padding-left:20px;color:var(--muted)}\n"
    "ul.problems{list-style:none;padding:0;margin:8px 0}\n"
    ".problem{border-left:4px solid #dc2626;background:#fef2f2;"
    "padding:6px 10px;margin:6px 0;border-radius:0 6px 6px 0}\n"
    ".problem.info{border-color:#2563eb;background:#eff6ff}\n"
    ".problem.conflict{border-color:#7f1d1d;background:#fee2e2}\n"
    ".kind{font-weight:600;margin-right:6px}\n"
    ".ok{border-left:4px solid #16a34a;background:#f0fdf4;padding:6px 10px;"
    "border-radius:0 6px 6px 0}\n"
    ".declared-list{color:var(--muted);margin:4px 0;padding-left:20px}\n"
    "figure{margin:8px 0 0;overflow-x:auto}\n"
    "svg.range{display:block}\n"
    "svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,"
    "sans-serif;font-size:11px;fill:var(--muted)}\n"
    "svg text.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
    "'DejaVu Sans Mono','Liberation Mono',monospace;font-size:12.5px;"
    "font-weight:600;fill:var(--ink)}\n"
    "svg a text.id:hover,svg a text.count:hover{text-decoration:underline}\n"
    "svg text.release{font-size:10.5px;fill:#9ca3af}\n"
    "svg text.release.minor{fill:var(--ink);font-weight:600}\n"
    "svg text.count{fill:var(--ink)}\n"
    "svg text.band-label{font-weight:600;fill:var(--ink);font-size:12px}\n"
    "svg text.band-spec{font-family:ui-monospace,Menlo,Consolas,'DejaVu Sans "
    "Mono',monospace}\n"
    "svg text.bound{font-weight:700;font-size:12px}\n"
    "svg .band-declared .bar,svg .bar-declared{fill:var(--declared)}\n"
    "svg .band-code .bar,svg .bar-code{fill:var(--code)}\n"
    "svg .band-declared text.bound.out{fill:var(--declared)}\n"
    "svg .band-code text.bound.out{fill:var(--code)}\n"
    "svg text.bound.in{fill:#fff}\n"
    "svg text.band-none{font-style:italic}\n"
    "svg text.legend-head{font-weight:600;fill:var(--ink)}\n"
    "svg .zebra{fill:#f9fafb}\n"
    "svg .guide{stroke:var(--code);stroke-width:1.5;stroke-dasharray:4 3}\n"
    "ol.uses{columns:2 420px;column-gap:32px;margin:4px 0;padding-left:28px;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans "
    "Mono',monospace;font-size:12.5px}\n"
    "ol.uses a{color:#1d4ed8;text-decoration:none;word-break:break-all}\n"
    "ol.uses a:hover{text-decoration:underline}\n"
    ".facts{color:var(--muted);margin:0 0 2px;font-size:13px}\n"
    ".n{color:var(--muted);font-weight:400}\n"
    "footer{margin-top:32px;color:var(--muted);font-size:12px}\n";

static void
title_paths(struct tg_buf *b, const char *const *paths, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (k)
			tg_buf_adds(b, ", ");
		esc(b, paths[k]);
	}
}

/* One reason in words, for the summary: "torch.cuda.MemPool:
 * introduced in 2.6 (unverified), 7 uses". */
static void
reason_words(struct tg_buf *b, const struct tg_require *rq, const char *what,
	     const struct tg_require_reason *r)
{
	tg_buf_addf(b,
		    "<li class=\"bound-reason\"><strong>%s%s</strong> "
		    "because <code>",
		    what, r->version);
	esc(b, r->api->id);
	tg_buf_adds(b, "</code> is ");
	if (strcmp(r->fact, "introduced") == 0)
		tg_buf_addf(b, "introduced in %s%s", r->version,
			    inexact(r->bound) ? " or earlier" : "");
	else if (strcmp(r->fact, "replacement") == 0) {
		tg_buf_addf(b, "exists since %s, as the replacement of ",
			    r->version);
		tg_buf_adds(b, "<code>");
		esc(b, r->repl_of->id);
		tg_buf_adds(b, "</code>");
	} else if (strcmp(r->fact, "removed") == 0)
		tg_buf_addf(b, "removed in %s", r->version);
	else {
		tg_buf_adds(b, "private, present up to ");
		esc(b, tg_table_newest(rq->table));
	}
	tg_buf_addf(b, " (%s), %zu use%s, first ", tg_api_fact_name(r->status),
		    r->nuses, r->nuses == 1 ? "" : "s");
	use_link(b, r->uses[0].path, r->uses[0].line);
	tg_buf_adds(b, "</li>\n");
}

static int
same_version(const struct tg_require_reason *a,
	     const struct tg_require_reason *b)
{
	return tg_version_cmp(&a->ver, &b->ver) == 0;
}

static void
summary(struct page *pg, const char *const *paths, size_t npaths)
{
	struct tg_buf *b = pg->b;
	const struct tg_require *rq = pg->rq;
	const struct tg_require_report *rep = pg->rep;
	const char *newest = tg_table_newest(rq->table);
	size_t k;

	tg_buf_adds(b, "<header>\n<h1>The torch range of ");
	title_paths(b, paths, npaths);
	tg_buf_addf(b,
		    "</h1>\n<p class=\"meta\">%zu file%s read \xc2\xb7 "
		    "table ",
		    rep->files, rep->files == 1 ? "" : "s");
	esc(b, rq->table->table_version ? rq->table->table_version
					: "without a version");
	tg_buf_adds(b, ", its facts up to torch ");
	esc(b, newest ? newest : "none");
	tg_buf_addf(b, " \xc2\xb7 %zu releases from %s", pg->ncols,
		    tg_releases_name());
	if (pg->ncols)
		tg_buf_addf(b, " (%s to %s)", pg->cols[0].rel,
			    pg->cols[pg->ncols - 1].rel);
	if (rq->strict_private)
		tg_buf_adds(b, " \xc2\xb7 --strict-private");
	tg_buf_adds(b, " \xc2\xb7 torchgate ");
	esc(b, rep->tool_version);
	tg_buf_adds(b, "</p>\n<p class=\"need\">The code needs <code "
		       "class=\"requirement\">");
	esc(b, rq->requirement);
	tg_buf_adds(b, "</code></p>\n<ul class=\"reasons\">\n");
	if (!rq->floor)
		tg_buf_adds(b, "<li>no floor: no API the code uses needs "
			       "one</li>\n");
	for (k = 0; rq->floor && k < rq->nfloors; k++)
		if (same_version(&rq->floors[k], rq->floor)) {
			reason_words(b, rq, "floor &gt;=", &rq->floors[k]);
		}
	if (!rq->ceiling)
		tg_buf_addf(b,
			    "<li>no ceiling: no API the code uses is "
			    "removed%s</li>\n",
			    rq->strict_private ? " or private" : "");
	for (k = 0; rq->ceiling && k < rq->nceilings; k++)
		if (rq->ceilings[k].caps &&
		    same_version(&rq->ceilings[k], rq->ceiling)) {
			reason_words(b, rq, "ceiling &lt;", &rq->ceilings[k]);
		}
	tg_buf_adds(b, "</ul>\n</header>\n");
}

static void
problems(struct page *pg)
{
	struct tg_buf *b = pg->b;
	const struct tg_require *rq = pg->rq;
	const struct tg_declared_list *l = pg->rep->l;
	size_t k;

	tg_buf_adds(b, "<section id=\"declarations\">\n<h2>What the package "
		       "declares</h2>\n");
	if (!l) {
		tg_buf_adds(b, "<p>Not judged: run <code>torchgate require "
			       "--check-declared</code> (or "
			       "<code>--declared SPEC</code>) to judge the "
			       "torch requirements the package "
			       "declares.</p>\n");
	} else if (l->n) {
		tg_buf_adds(b, "<ul class=\"declared-list\">\n");
		for (k = 0; k < l->n; k++) {
			const struct tg_declaration *d = &l->v[k];

			tg_buf_adds(b, "<li>");
			use_link(b, d->path, d->line);
			tg_buf_adds(b, " (");
			esc(b, d->field);
			tg_buf_adds(b, "): <code>");
			esc(b, d->text);
			tg_buf_adds(b, "</code></li>\n");
		}
		tg_buf_adds(b, "</ul>\n");
	}
	tg_buf_adds(b, "<ul class=\"problems\">\n");
	for (k = 0; k < rq->nconflicts; k++) {
		const struct tg_require_conflict *c = &rq->conflicts[k];

		tg_buf_adds(b, "<li class=\"problem conflict\" "
			       "data-kind=\"conflict\"><span "
			       "class=\"kind\">conflict</span><code>");
		esc(b, c->floor->api->id);
		tg_buf_addf(b, "</code> needs &gt;=%s (", c->floor->version);
		use_link(b, c->floor->uses[0].path, c->floor->uses[0].line);
		tg_buf_adds(b, "), <code>");
		esc(b, c->ceiling->api->id);
		tg_buf_addf(b, "</code> needs &lt;%s (", c->ceiling->version);
		use_link(b, c->ceiling->uses[0].path, c->ceiling->uses[0].line);
		tg_buf_adds(b, "): no torch satisfies both</li>\n");
	}
	for (k = 0; k < rq->nproblems; k++) {
		const struct tg_require_problem *p = &rq->problems[k];
		const char *name = tg_require_problem_name(p->kind);

		tg_buf_addf(b,
			    "<li class=\"problem %s\" data-kind=\"%s\"><span "
			    "class=\"kind\">",
			    tg_require_problem_fails(p) ? "error" : "info",
			    name);
		tg_buf_adds(b,
			    tg_require_problem_fails(p) ? "problem" : "info");
		tg_buf_addf(b, " (%s)</span>", name);
		if (p->decl && p->kind != TG_REQUIRE_DISAGREE &&
		    p->decl->line) {
			use_link(b, p->decl->path, p->decl->line);
			tg_buf_adds(b, ": ");
		}
		esc(b, p->message);
		tg_buf_adds(b, "</li>\n");
	}
	tg_buf_adds(b, "</ul>\n");
	if (l && !rq->nproblems && !rq->nconflicts)
		tg_buf_adds(b, "<p class=\"ok\">No problem: what the package "
			       "declares allows the torch the code needs and "
			       "excludes none it supports.</p>\n");
	tg_buf_adds(b, "</section>\n");
}

static int
uses(struct page *pg)
{
	struct tg_buf *b = pg->b;
	struct tg_buf t = TG_BUF_INIT;
	size_t k, j;
	int other = 0;

	tg_buf_adds(b, "<section id=\"uses\">\n<h2>The uses, by API</h2>\n");
	if (!pg->nrows)
		tg_buf_adds(b, "<p>No use of an API of the table counts "
			       "(unguarded, in code, not "
			       "suppressed).</p>\n");
	for (k = 0; k < pg->nrows; k++) {
		const struct row *r = &pg->rows[k];
		const struct tg_require_api *ua = r->ua;

		if (!r->drawn && !other) {
			tg_buf_adds(b, "<h3 class=\"others\">Other APIs used "
				       "(no bound of the range, not "
				       "deprecated, removed or "
				       "private)</h3>\n");
			other = 1;
		}
		tg_buf_addf(b,
			    "<section class=\"api\" id=\"api-%zu\" "
			    "data-api=\"",
			    k + 1);
		esc(b, ua->api->id);
		tg_buf_adds(b, "\">\n<h3><code>");
		esc(b, ua->api->id);
		tg_buf_addf(b,
			    "</code> <span class=\"n\">%zu use%s</span></h3>\n",
			    ua->nuses, ua->nuses == 1 ? "" : "s");
		tg_buf_clear(&t);
		row_details(&t, pg->rq, r);
		if (t.len && !tg_buf_error(&t)) {
			tg_buf_adds(b, "<p class=\"facts\">");
			esc(b, t.data);
			tg_buf_adds(b, "</p>\n");
		}
		tg_buf_adds(b, "<ol class=\"uses\">\n");
		for (j = 0; j < ua->nuses; j++) {
			tg_buf_adds(b, "<li>");
			use_link(b, ua->uses[j].path, ua->uses[j].line);
			tg_buf_adds(b, "</li>\n");
		}
		tg_buf_adds(b, "</ol>\n</section>\n");
	}
	tg_buf_adds(b, "</section>\n");
	j = tg_buf_error(&t) != 0;
	tg_buf_release(&t);
	return j ? TG_ENOMEM : 0;
}

int
tg_require_html(struct tg_buf *out, const struct tg_require *rq,
		const struct tg_require_report *rep, const char *const *paths,
		size_t npaths)
{
	struct page pg;
	int rc;

	memset(&pg, 0, sizeof(pg));
	pg.b = out;
	pg.rq = rq;
	pg.rep = rep;
	rc = build(&pg);
	if (rc)
		goto out;
	tg_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			 "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
			 "content=\"width=device-width, initial-scale=1\">\n"
			 "<meta name=\"generator\" content=\"torchgate ");
	esc(out, rep->tool_version);
	tg_buf_adds(out, "\">\n<title>torch range: ");
	title_paths(out, paths, npaths);
	tg_buf_adds(out, " (torchgate require)</title>\n<style>\n");
	tg_buf_adds(out, css);
	tg_buf_adds(out, "</style>\n</head>\n<body>\n");
	summary(&pg, paths, npaths);
	problems(&pg);
	tg_buf_adds(out, "<section id=\"picture\">\n<h2>The APIs across torch "
			 "releases</h2>\n<figure>\n");
	rc = picture(&pg);
	if (rc)
		goto out;
	tg_buf_adds(out, "</figure>\n</section>\n");
	rc = uses(&pg);
	if (rc)
		goto out;
	tg_buf_adds(out, "<footer>Written by <code>torchgate require "
			 "--format=html</code>; the same data as "
			 "<code>--format=json</code>, with the table's facts "
			 "for each release.</footer>\n</body>\n</html>\n");
	rc = tg_buf_error(out);
out:
	release(&pg);
	return rc;
}
