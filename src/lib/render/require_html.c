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
 * This file writes the page around the picture: the head and its CSS,
 * the requirement and its reasons, the declarations and the problems,
 * the uses by entry; the columns, rows and cells are the page model's
 * (require_html_model.c), the picture is require_html_svg.c's, and
 * the escaping and links are html.c's (require_html_internal.h says
 * how the parts call each other).
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
#include <string.h>

#include "lib/render/html.h"
#include "lib/render/require_html.h"
#include "lib/render/require_html_internal.h"
#include "lib/table/releases.h"

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
		tg_html_esc(b, paths[k]);
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
	tg_html_esc(b, r->api->id);
	tg_buf_adds(b, "</code> is ");
	if (strcmp(r->fact, "introduced") == 0)
		tg_buf_addf(b, "introduced in %s%s", r->version,
			    inexact(r->bound) ? " or earlier" : "");
	else if (strcmp(r->fact, "replacement") == 0) {
		tg_buf_addf(b, "exists since %s, as the replacement of ",
			    r->version);
		tg_buf_adds(b, "<code>");
		tg_html_esc(b, r->repl_of->id);
		tg_buf_adds(b, "</code>");
	} else if (strcmp(r->fact, "removed") == 0)
		tg_buf_addf(b, "removed in %s", r->version);
	else {
		tg_buf_adds(b, "private, present up to ");
		tg_html_esc(b, tg_table_newest(rq->table));
	}
	tg_buf_addf(b, " (%s), %zu use%s, first ", tg_api_fact_name(r->status),
		    r->nuses, r->nuses == 1 ? "" : "s");
	tg_html_use_link(b, r->uses[0].path, r->uses[0].line);
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
	tg_html_esc(b, rq->table->table_version ? rq->table->table_version
						: "without a version");
	tg_buf_adds(b, ", its facts up to torch ");
	tg_html_esc(b, newest ? newest : "none");
	tg_buf_addf(b, " \xc2\xb7 %zu releases from %s", pg->ncols,
		    tg_releases_name());
	if (pg->ncols)
		tg_buf_addf(b, " (%s to %s)", pg->cols[0].rel,
			    pg->cols[pg->ncols - 1].rel);
	if (rq->strict_private)
		tg_buf_adds(b, " \xc2\xb7 --strict-private");
	tg_buf_adds(b, " \xc2\xb7 torchgate ");
	tg_html_esc(b, rep->tool_version);
	tg_buf_adds(b, "</p>\n<p class=\"need\">The code needs <code "
		       "class=\"requirement\">");
	tg_html_esc(b, rq->requirement);
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
			tg_html_use_link(b, d->path, d->line);
			tg_buf_adds(b, " (");
			tg_html_esc(b, d->field);
			tg_buf_adds(b, "): <code>");
			tg_html_esc(b, d->text);
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
		tg_html_esc(b, c->floor->api->id);
		tg_buf_addf(b, "</code> needs &gt;=%s (", c->floor->version);
		tg_html_use_link(b, c->floor->uses[0].path,
				 c->floor->uses[0].line);
		tg_buf_adds(b, "), <code>");
		tg_html_esc(b, c->ceiling->api->id);
		tg_buf_addf(b, "</code> needs &lt;%s (", c->ceiling->version);
		tg_html_use_link(b, c->ceiling->uses[0].path,
				 c->ceiling->uses[0].line);
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
			tg_html_use_link(b, p->decl->path, p->decl->line);
			tg_buf_adds(b, ": ");
		} else if (!p->decl && p->path) {
			tg_html_use_link(b, p->path, p->line);
			tg_buf_adds(b, ": ");
		}
		tg_html_esc(b, p->message);
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
		tg_html_esc(b, ua->api->id);
		tg_buf_adds(b, "\">\n<h3><code>");
		tg_html_esc(b, ua->api->id);
		tg_buf_addf(b,
			    "</code> <span class=\"n\">%zu use%s</span></h3>\n",
			    ua->nuses, ua->nuses == 1 ? "" : "s");
		tg_buf_clear(&t);
		tg_require_html_model_details(&t, pg->rq, r);
		if (t.len && !tg_buf_error(&t)) {
			tg_buf_adds(b, "<p class=\"facts\">");
			tg_html_esc(b, t.data);
			tg_buf_adds(b, "</p>\n");
		}
		tg_buf_adds(b, "<ol class=\"uses\">\n");
		for (j = 0; j < ua->nuses; j++) {
			tg_buf_adds(b, "<li>");
			tg_html_use_link(b, ua->uses[j].path, ua->uses[j].line);
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
	rc = tg_require_html_model_build(&pg);
	if (rc)
		goto out;
	tg_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			 "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
			 "content=\"width=device-width, initial-scale=1\">\n"
			 "<meta name=\"generator\" content=\"torchgate ");
	tg_html_esc(out, rep->tool_version);
	tg_buf_adds(out, "\">\n<title>torch range: ");
	title_paths(out, paths, npaths);
	tg_buf_adds(out, " (torchgate require)</title>\n<style>\n");
	tg_buf_adds(out, css);
	tg_buf_adds(out, "</style>\n</head>\n<body>\n");
	summary(&pg, paths, npaths);
	problems(&pg);
	tg_buf_adds(out, "<section id=\"picture\">\n<h2>The APIs across torch "
			 "releases</h2>\n<figure>\n");
	rc = tg_require_html_svg(&pg);
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
	tg_require_html_model_release(&pg);
	return rc;
}
