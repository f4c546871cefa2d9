/* rewrite.h - a source file replaced by its fixed text, or left alone
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_FIX_REWRITE_H
#define TG_LIB_FIX_REWRITE_H

#include <stddef.h>

#include "lib/util/err.h"

/* Replace the file path, which held was[0..was_len) when it was read,
 * by data[0..len): atomically (util/file's temporary file and rename,
 * mode and owner kept, a symbolic link kept and the file at its end
 * replaced), and only when it still holds exactly was: otherwise
 * TG_EIO, "'PATH' changed since it was read", and the file is left as
 * it is. What util/file refuses (a FIFO, a dangling link) is refused
 * the same way. *replaced (when not NULL) is set to 1 once the rename
 * is done: a failure after it (the directory's fsync) leaves the file
 * replaced, with the new text, and the caller says so differently. */
int tg_rewrite_file(const char *path, const char *was, size_t was_len,
		    const char *data, size_t len, int *replaced,
		    struct tg_err *err);

#endif
