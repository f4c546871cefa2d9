/* require_html_svg.c - the picture of require's HTML page: one inline
 * SVG
 * SPDX-License-Identifier: MIT
 *
 * Draws the page model (require_html_model.c) as one <svg>: the
 * patterns of the hatchings and the dots, the release labels (the
 * releases past what the table knows bracketed and faded), the bands of
 * what is declared (one per distinct specifier set, at most BANDS_MAX)
 * and of what the code needs with their floor and ceiling written, a row
 * per entry drawn with a cell per release (the state's colour, solid
 * verified, hatched inferred, lighter hatching unverified, split when
 * the state that follows may already hold, dotted when private), the
 * dashed guides of the code's floor and ceiling, and the legend. Every
 * text from outside is escaped (html.c); ids and details are cut to the
 * label column. Output: a cell per release per row drawn, appended to
 * the page's buffer, whose first failure is checked by the caller.
 */
#include <string.h>

#include "lib/pep/spec.h"
#include "lib/render/html.h"
#include "lib/render/require_html_internal.h"

static const char *const state_class[S_N] = {"notyet", "available",
					     "deprecated", "removed"};
static const char *const state_words[S_N] = {"not yet there", "available",
					     "deprecated", "removed"};
static const char *const state_fill[S_N] = {"#d1d5db", "#16a34a", "#f59e0b",
					    "#dc2626"};
static const char *const state_tint[S_N] = {"#f3f4f6", "#dcfce7", "#fef3c7",
					    "#fee2e2"};

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
		tg_html_esc(b, newest ? newest : "?");
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
	tg_html_esc(b, bt->floor);
	tg_buf_adds(b, "\" data-ceiling=\"");
	tg_html_esc(b, bt->ceiling);
	tg_buf_addf(b, "\">\n<text class=\"band-label\" x=\"%d\" y=\"%d\">",
		    PAD, y + 12);
	tg_html_esc(b, bt->title);
	tg_buf_addf(b, "</text>\n<text class=\"band-spec\" x=\"%d\" y=\"%d\">",
		    PAD, y + 25);
	tg_html_esc_max(b, bt->spec, (size_t)(pg->label_w - 24) * 10 / SUB_PX);
	tg_buf_adds(b, "</text>\n");
	if (bt->where) {
		tg_buf_addf(b,
			    "<text class=\"band-where\" x=\"%d\" y=\"%d\" "
			    "text-anchor=\"end\">",
			    pg->grid_x - 10, y + 12);
		tg_html_esc_max(b, bt->where, 40);
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
		tg_html_esc(b, of == BAND_NONE
				   ? bt->spec
				   : "no torch release the list knows is "
				     "in this range");
		tg_buf_adds(b, "</text>\n");
	} else {
		int x0 = pg->grid_x + pg->cols[first].x;
		int x1 = pg->grid_x + pg->cols[last].x + CELL_W;
		int fw = 7 * (int)tg_html_chars(bt->floor),
		    cw = 7 * (int)tg_html_chars(bt->ceiling);

		if (x1 - x0 >= fw + cw + 24) { /* both inside */
			tg_buf_addf(b,
				    "<text class=\"bound in\" x=\"%d\" "
				    "y=\"%d\">",
				    x0 + 6, ty);
			tg_html_esc(b, bt->floor);
			tg_buf_addf(b,
				    "</text>\n<text class=\"bound in\" "
				    "x=\"%d\" y=\"%d\" text-anchor=\"end\">",
				    x1 - 6, ty);
			tg_html_esc(b, bt->ceiling);
		} else if (x0 - pg->grid_x >= fw + 8) { /* around the bar */
			tg_buf_addf(b,
				    "<text class=\"bound out\" x=\"%d\" "
				    "y=\"%d\" text-anchor=\"end\">",
				    x0 - 5, ty);
			tg_html_esc(b, bt->floor);
			tg_buf_addf(b,
				    "</text>\n<text class=\"bound out\" "
				    "x=\"%d\" y=\"%d\">",
				    x1 + 5, ty);
			tg_html_esc(b, bt->ceiling);
		} else { /* both after it */
			tg_buf_addf(b,
				    "<text class=\"bound out\" x=\"%d\" "
				    "y=\"%d\">",
				    x1 + 5, ty);
			tg_html_esc(b, bt->floor);
			tg_buf_adds(b, " ");
			tg_html_esc(b, bt->ceiling);
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

	tg_require_html_model_cell(a, &c->v, &ce);
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
		tg_require_html_model_details(&t, pg->rq, r);
		if (tg_buf_error(&t))
			break;
		tg_buf_adds(b, "<g class=\"row\" data-api=\"");
		tg_html_esc(b, a->id);
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
		tg_html_esc_max(b, a->id, idmax);
		tg_buf_adds(b, "<title>");
		tg_html_esc(b, a->id);
		tg_buf_adds(b, "</title></text></a>\n");
		tg_buf_addf(b, "<text class=\"sub\" x=\"%d\" y=\"%d\">", PAD,
			    y + 32);
		tg_html_esc_max(b, t.len ? t.data : "", submax);
		tg_buf_adds(b, "<title>");
		tg_html_esc(b, t.len ? t.data : "");
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
	return x + 20 + (int)(tg_html_chars(words) * SUB_PX / 10) + 22;
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

int
tg_require_html_svg(struct page *pg)
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
