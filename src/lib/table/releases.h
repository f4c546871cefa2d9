/* releases.h - the final torch releases torchgate knows
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_RELEASES_H
#define TG_LIB_TABLE_RELEASES_H

#include <stddef.h>

#include "lib/pep/version.h"

struct tg_index;

/* Use the final releases of ix (the index torchgate releases cached,
 * read without pre-releases) instead of the embedded list, until called
 * with NULL; ix must outlive that. A setting of the whole process, made
 * by the CLI before it judges anything. */
void tg_releases_use(const struct tg_index *ix);

/* The list in use, for messages: "the embedded release list" or "the
 * cached release list". */
const char *tg_releases_name(void);

/* Whether epoch+release of v is a final torch release torchgate knows. */
int tg_releases_is_known(const struct tg_version *v);

/* The k-th known final release ("X.Y.Z"), oldest first; NULL past the
 * last. */
const char *tg_releases_at(size_t k);

#endif
