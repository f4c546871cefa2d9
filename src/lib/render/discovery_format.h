/* discovery_format.h - torchgate discover's report: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * What an installed torch declares deprecated (struct tg_decls) and how
 * it compares with the table (struct tg_tablediff): every declaration,
 * those the table has no entry for, the excluded and the unaccounted
 * ones, and the entries the table calls deprecated that torch does not
 * declare. Paths are shown relative to the directory that holds torch/.
 * Text in discovery_text.c, JSON (schema_version 1, documented in
 * torchgate-discover(1)) in discovery_json.c. A report can be large
 * (every declaration of a torch, with its message): the writers hand out
 * to spill each time it passes 1 MiB, so that it streams through a
 * bounded buffer.
 */
#ifndef TG_LIB_RENDER_DISCOVERY_FORMAT_H
#define TG_LIB_RENDER_DISCOVERY_FORMAT_H

#include <stddef.h>

#include "lib/discover/discover.h"
#include "lib/discover/tablediff.h"
#include "lib/torch/probe.h"
#include "lib/util/buf.h"

#define TG_DISCOVERY_SCHEMA_VERSION 1

struct tg_discovery_report {
	const struct tg_torch *torch;
	const struct tg_decls *decls;
	const struct tg_tablediff *diff;
	const char *base; /* the directory that holds torch/ */
	/* called with out once it holds more than 1 MiB (unless it has
	 * failed): write it out and clear it; NULL: never */
	void (*spill)(struct tg_buf *out, void *arg);
	void *arg;
};

/* Each appends to out (spilling as above) and returns out's first
 * failure or 0. */
int tg_discovery_text_write(const struct tg_discovery_report *r,
			    struct tg_buf *out);
int tg_discovery_json_write(const struct tg_discovery_report *r,
			    struct tg_buf *out);

/* What both share: file as shown (relative to r->base when under it),
 * and the spill check. */
const char *tg_discovery_format_shown(const struct tg_discovery_report *r,
				      const char *file);
void tg_discovery_format_spill(const struct tg_discovery_report *r,
			       struct tg_buf *out);

#endif
