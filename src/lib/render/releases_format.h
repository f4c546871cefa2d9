/* releases_format.h - torchgate releases' list: text and JSON
 * SPDX-License-Identifier: MIT
 *
 * The released torch versions in PEP 440 order, from an index read
 * (struct tg_index) or, with none, the list built into torchgate
 * (tg_releases_at). Text in releases_text.c (one version a line), JSON
 * in releases_json.c ({schema_version, source, from, releases}).
 */
#ifndef TG_LIB_RENDER_RELEASES_FORMAT_H
#define TG_LIB_RENDER_RELEASES_FORMAT_H

#include "lib/table/index.h"
#include "lib/util/buf.h"

#define TG_RELEASES_SCHEMA_VERSION 1

/* ix NULL: the built-in list. source ("index", "cache", "built-in") and
 * from (the URL or file, or NULL) say where the list came from. Each
 * appends to out and returns out's first failure or 0. */
int tg_releases_text_write(const struct tg_index *ix, struct tg_buf *out);
int tg_releases_json_write(const struct tg_index *ix, const char *source,
			   const char *from, struct tg_buf *out);

#endif
