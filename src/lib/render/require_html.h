/* require_html.h - torchgate require --format=html: the package's torch
 * range as one self-contained page
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_OUT_REQUIRE_HTML_H
#define TG_LIB_OUT_REQUIRE_HTML_H

#include <stddef.h>

#include "lib/audit/require.h"
#include "lib/render/require_format.h"
#include "lib/util/buf.h"

/* Append the page of rq to out: the same struct tg_require and report
 * the text and JSON forms print (require_format.h), drawn against the
 * known releases (table/releases) and the table's facts; paths[0..n)
 * are the operands, for the title. Returns tg_buf_error(out), or
 * TG_ENOMEM. */
int tg_require_html(struct tg_buf *out, const struct tg_require *rq,
		    const struct tg_require_report *rep,
		    const char *const *paths, size_t npaths);

#endif
