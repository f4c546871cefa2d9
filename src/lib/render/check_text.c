/* check_text.c - torchgate check's report as text
 * SPDX-License-Identifier: MIT
 *
 * A heading with the torch judged, then one line per API: its status
 * and what goes with it (since when, the replacement, the version it
 * came in), [private], and the evidence in brackets when checked.
 */
#include "lib/render/check_format.h"

#include "lib/util/str.h"

static void
row(struct tg_buf *out, const struct tg_check_row *r)
{
	const struct tg_api *a = r->api;

	tg_str_addf(out, "%s: %s", a->id, tg_api_status_name(r->status));
	switch (r->status) {
	case TG_API_DEPRECATED:
		tg_str_addf(out, " since %s", a->deprecated.version);
		if (a->repl_text && a->repl_since)
			tg_str_addf(out, "; use %s (%s in this torch)",
				    a->repl_text,
				    r->repl_exists ? "present" : "not yet");
		else if (a->repl_text)
			tg_str_addf(out, "; use %s", a->repl_text);
		if (a->deprecated.announced_by)
			tg_str_addf(out,
				    " (its removal in %s was announced and did "
				    "not happen)",
				    a->deprecated.announced_by);
		break;
	case TG_API_REMOVED:
		tg_str_addf(out, " in %s", a->removed.version);
		if (a->repl_text)
			tg_str_addf(out, "; use %s", a->repl_text);
		break;
	case TG_API_NOT_YET:
		tg_str_addf(out, " (introduced in %s)", a->introduced.version);
		break;
	default:
		break;
	}
	if (a->is_private)
		tg_buf_adds(out, " [private]");
	if (r->checked)
		tg_str_addf(out, " [%s%s%s]", tg_evidence_name(r->ev.verdict),
			    r->ev.detail[0] ? ": " : "", r->ev.detail);
	tg_buf_addc(out, '\n');
}

int
tg_check_text_write(const struct tg_check_report *r, struct tg_buf *out)
{
	const struct tg_torch *t = r->torch;
	size_t k;

	tg_str_addf(out, "torch %s (%s)\n", t ? t->version : r->torch_version,
		    t ? t->dir : "--torch-version, no install");
	for (k = 0; k < r->n; k++)
		row(out, &r->rows[k]);
	return tg_buf_error(out);
}

int
tg_check_text_which(const struct tg_check_which *w, struct tg_buf *out)
{
	tg_str_addf(out, "%s %s, table_version %s\n", w->source,
		    w->path ? w->path : "(in the binary)",
		    w->table_version ? w->table_version : "none");
	return tg_buf_error(out);
}
