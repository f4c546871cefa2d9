/* check_format.h - torchgate check's report: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * The lifecycle status of each API asked about, for the torch judged,
 * with the installed files' evidence when there is an install; and the
 * answer of --which-table. Text in check_text.c, JSON (schema_version 1,
 * documented in torchgate-check(1)) in check_json.c. Output is a
 * function of the report only.
 */
#ifndef TG_LIB_RENDER_CHECK_FORMAT_H
#define TG_LIB_RENDER_CHECK_FORMAT_H

#include <stddef.h>

#include "lib/table/evidence.h"
#include "lib/table/table.h"
#include "lib/torch/probe.h"
#include "lib/util/buf.h"

#define TG_CHECK_SCHEMA_VERSION 1

/* One API: its status in the torch judged, whether its replacement
 * exists there, and (checked) what the installed files say. */
struct tg_check_row {
	const struct tg_api *api;
	enum tg_api_status status;
	int repl_exists;
	int checked;
	struct tg_evidence ev;
};

struct tg_check_report {
	const struct tg_torch *torch; /* the install, or NULL */
	const char *torch_version;    /* without an install: the V given */
	const char *newest;	      /* the newest torch the table knows */
	int past;		      /* the torch is past it */
	const struct tg_check_row *rows;
	size_t n;
};

/* Where the table came from (--which-table). */
struct tg_check_which {
	const char *source;	   /* tg_cache_source_name() */
	const char *path;	   /* its file, NULL when built in */
	const char *table_version; /* or NULL */
	const char *builtin_table_version;
};

/* Each appends to out and returns out's first failure (TG_ENOMEM,
 * TG_ELIMIT) or 0. */
int tg_check_text_write(const struct tg_check_report *r, struct tg_buf *out);
int tg_check_text_which(const struct tg_check_which *w, struct tg_buf *out);
int tg_check_json_write(const struct tg_check_report *r, struct tg_buf *out);
int tg_check_json_which(const struct tg_check_which *w, struct tg_buf *out);

#endif
