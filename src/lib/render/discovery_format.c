/* discovery_format.c - what discover's text and JSON writers share
 * SPDX-License-Identifier: MIT
 */
#include "lib/render/discovery_format.h"

#include <string.h>

#define SPILL_AT ((size_t)1 << 20)

const char *
tg_discovery_format_shown(const struct tg_discovery_report *r, const char *file)
{
	size_t nbase = r->base ? strlen(r->base) : 0;

	if (!nbase || strncmp(file, r->base, nbase) != 0)
		return file;
	if (r->base[nbase - 1] == '/')
		return file + nbase;
	return file[nbase] == '/' ? file + nbase + 1 : file;
}

/* A failed buffer is kept as it is, for the caller's one check at the
 * end. */
void
tg_discovery_format_spill(const struct tg_discovery_report *r,
			  struct tg_buf *out)
{
	if (r->spill && out->len > SPILL_AT && !tg_buf_error(out))
		r->spill(out, r->arg);
}
