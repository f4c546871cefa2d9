/* discovery_json.c - torchgate discover's report as JSON
 * SPDX-License-Identifier: MIT
 *
 * {"schema_version": 1, "torch": {version, location, include_dir},
 * "declarations": [...], "not_in_table": [...], "excluded": [...],
 * "unaccounted": [...], "not_declared": [...]}, one item a line.
 */
#include "lib/render/discovery_format.h"

#include "lib/util/jsonw.h"
#include "lib/util/path.h"

static void
decl(struct tg_jsonw *w, const struct tg_decl *d, const char *file,
     const struct tg_api *a, const struct tg_excl *e, int full)
{
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "symbol", d->symbol);
	tg_jsonw_kstr(w, "file", file);
	tg_jsonw_kint(w, "line", (long long)d->line);
	tg_jsonw_kstr(w, "kind", d->kind);
	if (full) {
		tg_jsonw_kstr(w, "message", d->message);
		tg_jsonw_kstr(w, "replacement", d->replacement);
		tg_jsonw_kstr(w, "table_id", a ? a->id : NULL);
		tg_jsonw_kstr(w, "excluded",
			      e ? tg_excluded_category_name(e->category)
				: NULL);
	} else if (e) {
		tg_jsonw_kstr(w, "category",
			      tg_excluded_category_name(e->category));
		tg_jsonw_kstr(w, "see", e->see);
		tg_jsonw_kstr(w, "reason", e->reason);
	}
	tg_jsonw_end(w);
}

static void
missing(struct tg_jsonw *w, const struct tg_discovery_report *r,
	const struct tg_api *a, const struct tg_excl *e)
{
	char **paths = r->diff->paths[a - r->diff->apis];
	size_t k;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->id);
	tg_jsonw_kstr(w, "deprecated", a->deprecated.version);
	tg_jsonw_key(w, "files");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < a->nfiles; k++)
		if (tg_path_is_file(paths[k]))
			tg_jsonw_str(w, tg_discovery_format_shown(r, paths[k]));
	tg_jsonw_end(w);
	tg_jsonw_kstr(w, "excluded",
		      e ? tg_excluded_category_name(e->category) : NULL);
	if (e)
		tg_jsonw_kstr(w, "reason", e->reason);
	tg_jsonw_end(w);
}

int
tg_discovery_json_write(const struct tg_discovery_report *r, struct tg_buf *out)
{
	const struct tg_decls *d = r->decls;
	const struct tg_tablediff *df = r->diff;
	const struct tg_torch *t = r->torch;
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_DISCOVERY_SCHEMA_VERSION);
	tg_jsonw_key(&w, "torch");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "version", t->version);
	tg_jsonw_kstr(&w, "location", t->dir);
	tg_jsonw_kstr(&w, "include_dir", t->include_dir);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "declarations");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		decl(&w, &d->v[k], tg_discovery_format_shown(r, d->v[k].file),
		     df->api[k], df->excl[k], 1);
		tg_discovery_format_spill(r, out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "not_in_table");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (!df->api[k])
			decl(&w, &d->v[k],
			     tg_discovery_format_shown(r, d->v[k].file), NULL,
			     NULL, 0);
		tg_discovery_format_spill(r, out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "excluded");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (df->excl[k])
			decl(&w, &d->v[k],
			     tg_discovery_format_shown(r, d->v[k].file), NULL,
			     df->excl[k], 0);
		tg_discovery_format_spill(r, out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "unaccounted");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < d->n; k++) {
		if (!df->api[k] && !df->excl[k])
			decl(&w, &d->v[k],
			     tg_discovery_format_shown(r, d->v[k].file), NULL,
			     NULL, 0);
		tg_discovery_format_spill(r, out);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "not_declared");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < df->nmissing; k++)
		missing(&w, r, df->missing[k], df->mexcl[k]);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}
