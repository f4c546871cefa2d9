/* advisory_format.c - the advisories that affect a torch: text and JSON
 * SPDX-License-Identifier: MIT
 */
#include "lib/render/advisory_format.h"

#include "lib/util/str.h"

#include <stdio.h>
#include <string.h>

static void
json_ids(struct tg_jsonw *w, const struct tg_advisory *a)
{
	size_t k;

	tg_jsonw_key(w, "aliases");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < a->naliases; k++)
		tg_jsonw_str(w, a->aliases[k]);
	tg_jsonw_end(w);
}

static void
json_list(struct tg_jsonw *w, const char *key,
	  const struct tg_advisory *const *v, size_t n)
{
	size_t k, j;

	tg_jsonw_key(w, key);
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < n; k++) {
		const struct tg_advisory *a = v[k];

		tg_jsonw_object(w, TG_JSONW_BLOCK);
		tg_jsonw_kstr(w, "id", a->id);
		json_ids(w, a);
		tg_jsonw_kstr(w, "summary", a->summary);
		tg_jsonw_kstr(w, "fixed", a->fixed);
		tg_jsonw_kstr(w, "severity", a->severity);
		tg_jsonw_kbool(w, "disputed", a->disputed);
		tg_jsonw_key(w, "apis");
		tg_jsonw_array(w, TG_JSONW_FLOW);
		for (j = 0; j < a->napis; j++)
			tg_jsonw_str(w, a->apis[j]);
		tg_jsonw_end(w);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
}

void
tg_advisory_format_json(struct tg_jsonw *w, const struct tg_advisory_report *r)
{
	tg_jsonw_key(w, "advisories");
	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "torch", r->torch);
	tg_jsonw_kstr(w, "matched_version", r->matched);
	tg_jsonw_kstr(w, "source", r->source);
	tg_jsonw_kstr(w, "path", r->from);
	tg_jsonw_kstr(w, "advisories_version", r->version);
	tg_jsonw_kstr(w, "dpkg_version", r->dpkg);
	json_list(w, "affecting", r->m->hits, r->m->nhits);
	json_list(w, "ignored", r->m->ignored, r->m->nignored);
	tg_jsonw_end(w);
}

static void
text_one(struct tg_buf *out, const struct tg_advisory *a, int ignored)
{
	size_t k;

	tg_str_addf(out, "  %s %s", ignored ? "ignored" : "VULNERABLE", a->id);
	for (k = 0; k < a->naliases; k++)
		tg_str_addf(out, "%s%s", k ? ", " : " (", a->aliases[k]);
	tg_buf_adds(out, a->naliases ? ")" : "");
	if (a->severity)
		tg_str_addf(out, " [%s]", a->severity);
	if (a->disputed)
		tg_buf_adds(out, " [disputed]");
	tg_str_addf(out, "\n    %s\n", a->summary);
	if (a->fixed)
		tg_str_addf(out, "    fixed in %s\n", a->fixed);
	else
		tg_buf_adds(out, "    no fixed release named\n");
}

void
tg_advisory_format_text(struct tg_buf *out, const struct tg_advisory_report *r)
{
	size_t k;

	if (!r->m->nhits && !r->m->nignored) {
		tg_str_addf(out,
			    "\nadvisories: none of the %s advisories (%s) "
			    "affects torch %s\n",
			    r->source, r->version, r->matched);
		return;
	}
	tg_str_addf(out, "\nadvisories: %zu affect%s torch %s (", r->m->nhits,
		    r->m->nhits == 1 ? "s" : "", r->torch);
	if (strcmp(r->torch, r->matched) != 0)
		tg_str_addf(out, "matched as %s; ", r->matched);
	tg_str_addf(out, "the %s advisories, %s)\n", r->source, r->version);
	if (r->dpkg)
		tg_str_addf(out,
			    "  note: the Debian package is %s, newer than "
			    "%s: Debian may carry\n"
			    "  fixes the torch's own version does not show; "
			    "see its changelog\n",
			    r->dpkg, r->matched);
	for (k = 0; k < r->m->nhits; k++)
		text_one(out, r->m->hits[k], 0);
	for (k = 0; k < r->m->nignored; k++)
		text_one(out, r->m->ignored[k], 1);
}
