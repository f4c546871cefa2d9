/* tablediff.h - the deprecations a torch declares against the table
 * SPDX-License-Identifier: MIT
 *
 * Compares what tg_discover harvested with the table both ways: which
 * entry each declaration matches (or which exclusion names it), and the
 * Python entries the table calls deprecated in this torch whose files
 * exist but declare nothing. A declaration matches an entry when the
 * symbol is the entry's id or, the declaration sitting in one of the
 * entry's evidence files, when their last names agree
 * (torch.cuda.amp.autocast_mode.custom_fwd is torch.cuda.amp.custom_fwd)
 * or one names the other's parent (a warning in torch.distributed.
 * launch.main declares torch.distributed.launch; one in a function, the
 * entry for its parameter); the best match wins. The torch is read only
 * for the evidence files' paths and whether they exist.
 */
#ifndef TG_LIB_DISCOVER_TABLEDIFF_H
#define TG_LIB_DISCOVER_TABLEDIFF_H

#include <stddef.h>

#include "lib/discover/discover.h"
#include "lib/pep/version.h"
#include "lib/table/excluded.h"
#include "lib/table/table.h"

struct tg_torch;

struct tg_tablediff {
	const struct tg_api **api;   /* per declaration, or NULL */
	const struct tg_excl **excl; /* per declaration without an entry */
	char *hit;		     /* per table entry */
	char ***paths; /* per table entry, its evidence files (nfiles) */
	const struct tg_api *apis; /* the table's: paths[a - apis] */
	size_t napis;
	const struct tg_api **missing; /* deprecated, not declared */
	const struct tg_excl **mexcl;  /* per missing entry, or NULL */
	size_t nmissing;
	size_t nunknown;  /* declarations without an entry */
	size_t nexcluded; /* of those, the ones an exclusion names */
	size_t nexcused;  /* missing entries an exclusion names */
};

/* Compare d with table for torch t at version v, x the exclusion list.
 * 0 or TG_ENOMEM; tg_tablediff_release() either way. */
int tg_tablediff_run(struct tg_tablediff *df, const struct tg_decls *d,
		     const struct tg_table *table, const struct tg_excluded *x,
		     const struct tg_torch *t, const struct tg_version *v);
void tg_tablediff_release(struct tg_tablediff *df);

#endif
