/* direct_url.h - PEP 610 direct_url.json: where a distribution came from
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_PYENV_DIRECT_URL_H
#define TG_LIB_PYENV_DIRECT_URL_H

#include <stddef.h>

#include "lib/util/err.h"

/* The url, and its kind: "editable" (dir_info with editable true),
 * "directory", "vcs", "archive" or "unknown". Both new strings; file
 * names the document in messages. */
int tg_direct_url_parse(const char *text, size_t len, const char *file,
			char **url, char **kind, struct tg_err *err);

#endif
