/* discovery_text.c - torchgate discover's report as text
 * SPDX-License-Identifier: MIT
 *
 * The torch, then each list under a heading with its count: every
 * declaration (file:line, kind, symbol; its message, replacement and
 * table entry indented under it), the excluded ones with their category
 * and reason, the unaccounted ones, and the entries torch does not
 * declare with the evidence files that exist.
 */
#include "lib/render/discovery_format.h"

#include "lib/util/path.h"
#include "lib/util/str.h"

int
tg_discovery_text_write(const struct tg_discovery_report *r, struct tg_buf *out)
{
	const struct tg_decls *d = r->decls;
	const struct tg_tablediff *df = r->diff;
	const struct tg_torch *t = r->torch;
	size_t k, j;

	tg_str_addf(out, "torch %s (%s)\n", t->version ? t->version : "unknown",
		    t->dir);
	tg_str_addf(out, "declarations: %zu\n", d->n);
	for (k = 0; k < d->n; k++) {
		const struct tg_decl *x = &d->v[k];

		tg_str_addf(out, "  %s:%zu: %s %s\n",
			    tg_discovery_format_shown(r, x->file), x->line,
			    x->kind, x->symbol);
		if (x->message)
			tg_str_addf(out, "      message: %s\n", x->message);
		if (x->replacement)
			tg_str_addf(out, "      replacement: %s\n",
				    x->replacement);
		if (df->api[k])
			tg_str_addf(out, "      table: %s\n", df->api[k]->id);
		tg_discovery_format_spill(r, out);
	}
	tg_str_addf(out, "not in the table: %zu\n", df->nunknown);
	tg_str_addf(out, "excluded: %zu\n", df->nexcluded);
	for (k = 0; k < d->n; k++) {
		const struct tg_excl *e = df->excl[k];

		if (!e)
			continue;
		tg_str_addf(out, "  %s:%zu: %s %s\n",
			    tg_discovery_format_shown(r, d->v[k].file),
			    d->v[k].line, d->v[k].kind, d->v[k].symbol);
		tg_str_addf(out, "      %s%s%s: %s\n",
			    tg_excluded_category_name(e->category),
			    e->see ? ", see " : "", e->see ? e->see : "",
			    e->reason);
		tg_discovery_format_spill(r, out);
	}
	tg_str_addf(out, "unaccounted: %zu\n", df->nunknown - df->nexcluded);
	for (k = 0; k < d->n; k++) {
		if (!df->api[k] && !df->excl[k])
			tg_str_addf(out, "  %s:%zu: %s %s\n",
				    tg_discovery_format_shown(r, d->v[k].file),
				    d->v[k].line, d->v[k].kind, d->v[k].symbol);
		tg_discovery_format_spill(r, out);
	}
	tg_str_addf(
	    out,
	    "the table says deprecated, torch does not declare it here: "
	    "%zu\n",
	    df->nmissing);
	for (k = 0; k < df->nmissing; k++) {
		const struct tg_api *a = df->missing[k];
		char **paths = df->paths[a - df->apis];
		const char *sep = " (";

		tg_str_addf(out, "  %s: deprecated since %s", a->id,
			    a->deprecated.version);
		for (j = 0; j < a->nfiles; j++)
			if (tg_path_is_file(paths[j])) {
				tg_str_addf(
				    out, "%s%s", sep,
				    tg_discovery_format_shown(r, paths[j]));
				sep = ", ";
			}
		tg_buf_adds(out, *sep == ',' ? ")\n" : "\n");
		if (df->mexcl[k])
			tg_str_addf(
			    out, "      excluded, %s: %s\n",
			    tg_excluded_category_name(df->mexcl[k]->category),
			    df->mexcl[k]->reason);
	}
	return tg_buf_error(out);
}
