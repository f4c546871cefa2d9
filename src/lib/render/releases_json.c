/* releases_json.c - torchgate releases' list as JSON
 * SPDX-License-Identifier: MIT
 *
 * {"schema_version": 1, "source", "from", "releases": [...]}, the
 * versions on one line.
 */
#include "lib/render/releases_format.h"

#include "lib/table/releases.h"
#include "lib/util/jsonw.h"

int
tg_releases_json_write(const struct tg_index *ix, const char *source,
		       const char *from, struct tg_buf *out)
{
	struct tg_jsonw w;
	const char *r;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_RELEASES_SCHEMA_VERSION);
	tg_jsonw_kstr(&w, "source", source);
	tg_jsonw_kstr(&w, "from", from);
	tg_jsonw_key(&w, "releases");
	tg_jsonw_array(&w, TG_JSONW_FLOW);
	if (ix)
		for (k = 0; k < ix->n; k++)
			tg_jsonw_str(&w, ix->v[k].str);
	else
		for (k = 0; (r = tg_releases_at(k)); k++)
			tg_jsonw_str(&w, r);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}
