/* releases.h - the final torch releases torchgate knows
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_RELEASES_H
#define TG_LIB_TABLE_RELEASES_H

#include <stddef.h>

#include "lib/pep/version.h"

/* Whether epoch+release of v is a final torch release torchgate knows. */
int tg_releases_is_known(const struct tg_version *v);

/* The k-th known final release ("X.Y.Z"), oldest first; NULL past the
 * last. */
const char *tg_releases_at(size_t k);

#endif
