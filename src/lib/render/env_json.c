/* env_json.c - torchgate env's report as JSON
 * SPDX-License-Identifier: MIT
 *
 * schema_version 1: {"schema_version", "broken", "torch_libraries",
 * "extension_objects", "sections": {NAME: [item...]}}, each item
 * {"status", "distribution", "requirement", "file", "message",
 * "details", "details_left_out"}; with advisories, an "advisories"
 * member (render/advisory_format).
 */
#include "lib/render/env_format.h"

#include "lib/util/jsonw.h"

int
tg_env_json_write(const struct tg_envcheck *ec,
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
