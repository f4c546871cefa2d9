/* releases_text.c - torchgate releases' list as text: a version a line
 * SPDX-License-Identifier: MIT
 */
#include "lib/render/releases_format.h"

#include "lib/table/releases.h"
#include "lib/util/str.h"

int
tg_releases_text_write(const struct tg_index *ix, struct tg_buf *out)
{
	const char *r;
	size_t k;

	if (ix)
		for (k = 0; k < ix->n; k++)
			tg_str_addf(out, "%s\n", ix->v[k].str);
	else
		for (k = 0; (r = tg_releases_at(k)); k++)
			tg_str_addf(out, "%s\n", r);
	return tg_buf_error(out);
}
