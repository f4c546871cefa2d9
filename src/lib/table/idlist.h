/* idlist.h - a list of API ids as text (emit's --api-file)
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_IDLIST_H
#define TG_LIB_TABLE_IDLIST_H

#include <stddef.h>

#include "lib/util/err.h"

/* Split text[0..len) into ids: whitespace-separated words, one or more a
 * line, a '#' starting a comment to the end of its line. The text is cut
 * in place (text[len] must be writable, as tg_file_read leaves it); each
 * id found is appended to ids[*n] as a pointer into text. TG_ELIMIT when
 * there would be more than max, with a message naming file. */
int tg_idlist_parse(char *text, size_t len, char **ids, size_t *n, size_t max,
		    const char *file, struct tg_err *err);

#endif
