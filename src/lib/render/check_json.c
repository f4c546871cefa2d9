/* check_json.c - torchgate check's report as JSON
 * SPDX-License-Identifier: MIT
 *
 * {"schema_version": 1, "torch": {version, from, table_newest,
 * extrapolated}, "apis": [{id, status, private, introduced, deprecated,
 * removed, replacement, warning, evidence}]}, one API a line; and
 * --which-table's {schema_version, source, path, table_version,
 * builtin_table_version}.
 */
#include "lib/render/check_format.h"

#include "lib/util/jsonw.h"

static void
event(struct tg_jsonw *w, const char *key, const struct tg_event *e)
{
	tg_jsonw_key(w, key);
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "version", e->version);
	tg_jsonw_kstr(w, "status", tg_api_fact_name(e->status));
	tg_jsonw_end(w);
}

static void
row(struct tg_jsonw *w, const struct tg_check_row *r)
{
	const struct tg_api *a = r->api;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->id);
	tg_jsonw_kstr(w, "status", tg_api_status_name(r->status));
	tg_jsonw_kbool(w, "private", a->is_private);
	event(w, "introduced", &a->introduced);
	event(w, "deprecated", &a->deprecated);
	event(w, "removed", &a->removed);
	tg_jsonw_key(w, "replacement");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->repl_id);
	tg_jsonw_kstr(w, "text", a->repl_text);
	tg_jsonw_kstr(w, "since", a->repl_since);
	tg_jsonw_key(w, "exists");
	tg_jsonw_tristate(w, a->repl_since ? r->repl_exists : -1);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "warning");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "category", a->warn_category);
	tg_jsonw_kstr(w, "since", a->warn_since);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "evidence");
	if (r->checked) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "verdict", tg_evidence_name(r->ev.verdict));
		tg_jsonw_kstr(w, "detail",
			      r->ev.detail[0] ? r->ev.detail : NULL);
		tg_jsonw_end(w);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_end(w);
}

int
tg_check_json_write(const struct tg_check_report *r, struct tg_buf *out)
{
	const struct tg_torch *t = r->torch;
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_CHECK_SCHEMA_VERSION);
	tg_jsonw_key(&w, "torch");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "version", t ? t->version : r->torch_version);
	tg_jsonw_kstr(&w, "from", t ? "install" : "--torch-version");
	tg_jsonw_kstr(&w, "table_newest", r->newest);
	tg_jsonw_kbool(&w, "extrapolated", r->past);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "apis");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < r->n; k++)
		row(&w, &r->rows[k]);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}

int
tg_check_json_which(const struct tg_check_which *wt, struct tg_buf *out)
{
	struct tg_jsonw w;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_CHECK_SCHEMA_VERSION);
	tg_jsonw_kstr(&w, "source", wt->source);
	tg_jsonw_kstr(&w, "path", wt->path);
	tg_jsonw_kstr(&w, "table_version", wt->table_version);
	tg_jsonw_kstr(&w, "builtin_table_version", wt->builtin_table_version);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}
