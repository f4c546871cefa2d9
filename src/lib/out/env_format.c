/* env_format.c - torchgate env's report: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * Text: one heading per section with its counts, then one line per item
 * ("ok", "BROKEN", "unknown"; the requirements whose marker is false
 * only counted unless verbose), the evidence's file on the next line and
 * the details (missing symbols) under it; a last line sums up. JSON
 * (schema_version 1): {"schema_version", "broken", "torch_libraries",
 * "extension_objects", "sections": {NAME: [item...]}}, each item
 * {"status", "distribution", "requirement", "file", "message",
 * "details", "details_left_out"}.
 */
#include "lib/out/env_format.h"

#include "lib/util/jsonw.h"

static const char *const heading[TG_ENVCHECK_NSECTIONS] = {
    "torch on the path", "who depends on torch",       "what torch requires",
    "the torch family",	 "extensions built for torch",
};

static const char *
label(enum tg_envcheck_status s)
{
	switch (s) {
	case TG_ENVCHECK_OK:
		return "ok";
	case TG_ENVCHECK_BROKEN:
		return "BROKEN";
	case TG_ENVCHECK_INACTIVE:
		return "n/a";
	case TG_ENVCHECK_UNKNOWN:
		break;
	}
	return "unknown";
}

int
tg_env_format_text(const struct tg_envcheck *ec, int verbose,
		   struct tg_buf *out, struct tg_err *err)
{
	size_t s, i, k, broken, inactive;
	int rc;

	for (s = 0; s < TG_ENVCHECK_NSECTIONS; s++) {
		broken = inactive = 0;
		for (i = 0; i < ec->n; i++) {
			if (ec->v[i].section != s)
				continue;
			broken += ec->v[i].status == TG_ENVCHECK_BROKEN;
			inactive += ec->v[i].status == TG_ENVCHECK_INACTIVE;
		}
		if (s)
			tg_buf_addc(out, '\n');
		tg_buf_addf(out, "%s: %zu", heading[s],
			    ec->count[s] - inactive);
		if (broken)
			tg_buf_addf(out, ", %zu broken", broken);
		if (inactive)
			tg_buf_addf(out,
				    " (%zu more whose marker is false here)",
				    inactive);
		if (s == TG_ENVCHECK_EXTENSIONS)
			tg_buf_addf(out,
				    " (%zu shared objects checked against "
				    "%zu of torch's libraries)",
				    ec->elf_objects, ec->torch_libraries);
		tg_buf_addc(out, '\n');
		for (i = 0; i < ec->n; i++) {
			const struct tg_envcheck_item *it = &ec->v[i];

			if (it->section != s ||
			    (it->status == TG_ENVCHECK_INACTIVE && !verbose))
				continue;
			tg_buf_addf(out, "  %-7s ", label(it->status));
			if (it->dist)
				tg_buf_addf(out, "%s: ", it->dist);
			if (it->requirement)
				tg_buf_addf(out, "'%s': ", it->requirement);
			tg_buf_addf(out, "%s\n", it->message);
			if (it->file && s != TG_ENVCHECK_COPIES)
				tg_buf_addf(out, "          in %s\n", it->file);
			for (k = 0; k < it->ndetails; k++)
				tg_buf_addf(out, "          %s\n",
					    it->details[k]);
			if (it->more)
				tg_buf_addf(out, "          and %zu more\n",
					    it->more);
		}
	}
	if (ec->nbroken)
		tg_buf_addf(out, "\n%zu broken\n", ec->nbroken);
	else
		tg_buf_adds(out, "\nnothing broken\n");
	rc = tg_buf_error(out);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}

int
tg_env_format_json(const struct tg_envcheck *ec,
		   const struct tg_advisory_report *adv, struct tg_buf *out,
		   struct tg_err *err)
{
	struct tg_jsonw w;
	size_t s, i, k;
	int rc;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_ENV_SCHEMA_VERSION);
	tg_jsonw_kint(&w, "broken", (long long)ec->nbroken);
	tg_jsonw_kint(&w, "torch_libraries", (long long)ec->torch_libraries);
	tg_jsonw_kint(&w, "extension_objects", (long long)ec->elf_objects);
	tg_jsonw_key(&w, "sections");
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	for (s = 0; s < TG_ENVCHECK_NSECTIONS; s++) {
		tg_jsonw_key(&w, tg_envcheck_section_name(s));
		tg_jsonw_array(&w, TG_JSONW_BLOCK);
		for (i = 0; i < ec->n; i++) {
			const struct tg_envcheck_item *it = &ec->v[i];

			if (it->section != s)
				continue;
			tg_jsonw_object(&w, TG_JSONW_BLOCK);
			tg_jsonw_kstr(&w, "status",
				      tg_envcheck_status_name(it->status));
			tg_jsonw_kstr(&w, "distribution", it->dist);
			tg_jsonw_kstr(&w, "requirement", it->requirement);
			tg_jsonw_kstr(&w, "file", it->file);
			tg_jsonw_kstr(&w, "message", it->message);
			tg_jsonw_key(&w, "details");
			tg_jsonw_array(&w, TG_JSONW_FLOW);
			for (k = 0; k < it->ndetails; k++)
				tg_jsonw_str(&w, it->details[k]);
			tg_jsonw_end(&w);
			tg_jsonw_kint(&w, "details_left_out",
				      (long long)it->more);
			tg_jsonw_end(&w);
		}
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	if (adv)
		tg_advisory_format_json(&w, adv);
	tg_jsonw_end(&w);
	rc = tg_jsonw_finish(&w);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}
