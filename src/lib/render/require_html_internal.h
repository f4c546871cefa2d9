/* require_html_internal.h - what the parts of require's HTML page share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: only require_html.c (the prose and the entry
 * point), require_html_model.c (columns, rows, cells) and
 * require_html_svg.c (the picture) include it; it includes none of
 * them, so that no include cycle forms. The calls go one way:
 * require_html.c builds the model, draws the picture and releases the
 * model; the picture reads the model; the model calls neither. The
 * functions are named after the file that defines them; the public
 * entry point is in require_html.h, the escaping in html.h.
 */
#ifndef TG_LIB_RENDER_REQUIRE_HTML_INTERNAL_H
#define TG_LIB_RENDER_REQUIRE_HTML_INTERNAL_H

#include <stddef.h>

#include "lib/pep/version.h"
#include "lib/render/require_format.h"
#include "lib/table/table.h"
#include "lib/util/buf.h"

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

/* An entry's state in a release (tg_api_status), as drawn. */
enum state { S_NOT_YET, S_AVAILABLE, S_DEPRECATED, S_REMOVED, S_N };

/* A column: a release of the list in use. */
struct col {
	const char *rel; /* "2.1.2", from the release list */
	struct tg_version v;
	int x;	  /* left edge */
	int past; /* past what the table knows */
};

/* A row: an entry the code uses; ranked by tg_require_html_model_build(). */
struct row {
	const struct tg_require_api *ua;
	int floor, ceiling; /* sets the code's floor, its ceiling */
	int rank;	    /* floor, ceiling, removed, deprecated, private */
	int drawn;	    /* has a row in the picture */
};

/* The page being written: the model and the buffer it goes to. */
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

/* An entry's state in a release, with the status of the fact behind it. */
struct cell {
	enum state st;
	enum tg_fact status;
	/* the release may lie past an event known only at or before a
	 * later one: the state that follows, with its status */
	int split;
	enum state next;
	enum tg_fact next_status;
};

/* Whether an event's bound makes it "V or earlier". */
static inline int
inexact(enum tg_bound bd)
{
	return bd == TG_BOUND_AT_OR_BEFORE || bd == TG_BOUND_BETWEEN;
}

/* require_html_model.c */

/* Fill pg's columns (a release each) and rows (an entry used each,
 * ranked, those drawn first) and its layout from pg->rq; pg zeroed but
 * for b, rq and rep. Returns 0 or TG_ENOMEM; release pg either way. */
int tg_require_html_model_build(struct page *pg);

/* Free what tg_require_html_model_build() allocated. */
void tg_require_html_model_release(struct page *pg);

/* The state of a in release v, with its status and split, into *c. */
void tg_require_html_model_cell(const struct tg_api *a,
				const struct tg_version *v, struct cell *c);

/* Append the details line of row r to t, plain text (escaped when
 * written): the bounds it sets, private, its events, its replacement. */
void tg_require_html_model_details(struct tg_buf *t,
				   const struct tg_require *rq,
				   const struct row *r);

/* require_html_svg.c */

/* Append the picture of pg to pg->b: one <svg> with the bands, a row per
 * entry drawn, the guides and the legend. Returns 0 or TG_ENOMEM. */
int tg_require_html_svg(struct page *pg);

#endif
