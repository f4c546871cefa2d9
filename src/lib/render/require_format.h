/* require_format.h - what torchgate require writes: text and JSON
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_RENDER_REQUIRE_FORMAT_H
#define TG_LIB_RENDER_REQUIRE_FORMAT_H

#include <stddef.h>

#include "lib/audit/declared.h"
#include "lib/audit/require.h"
#include "lib/util/buf.h"

/* What the report says besides the range. */
struct tg_require_report {
	const char *tool_version;
	size_t files;			  /* files analyzed */
	const struct tg_declared_list *l; /* NULL: declarations not judged */
	const char *declared_from;	  /* "files" or "option" */
};

/* Append the report of rq to out: text (the requirement alone on the
 * first line, then one line per reason, conflict, declaration and
 * problem) or JSON (one object). Returns tg_buf_error(out). */
int tg_require_format(struct tg_buf *out, const struct tg_require *rq,
		      const struct tg_require_report *rep, int json);

#endif
