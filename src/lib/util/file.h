/* file.h - bounded file reads and atomic writes
 * SPDX-License-Identifier: MIT
 *
 * Every file torchgate inspects is read through here: only regular files
 * (a FIFO or a device is refused before it can block), never more than a
 * caller-given maximum, and with one-line messages that name the file.
 */
#ifndef TG_LIB_UTIL_FILE_H
#define TG_LIB_UTIL_FILE_H

#include <stddef.h>

#include "lib/util/err.h"

/* Open path for reading, checked: *fd is a descriptor of a regular file
 * (after following links) of *size bytes, at most max. The open cannot
 * block (O_NONBLOCK until the descriptor is known to be a regular file)
 * and the check is on the opened descriptor (fstat), not on the name.
 * TG_EIO when it cannot be opened or is not a regular file ("cannot read
 * 'path': it is a FIFO, not a regular file"), TG_ELIMIT when it holds
 * more than max bytes ("cannot read 'path': larger than the 64 MiB limit
 * for a dpkg file list", what naming the kind of file; NULL: "larger
 * than N bytes"). absent as in tg_file_read (*fd is then -1). Every read
 * of a file goes through here. */
int tg_file_open(const char *path, size_t max, const char *what, int *fd,
		 size_t *size, int *absent, struct tg_err *err);

/* Read the regular file path whole into a NUL-terminated heap block.
 * TG_ELIMIT when it holds more than max bytes, TG_EIO when it cannot be
 * opened or read ("cannot read 'path': reason"). When absent is not NULL,
 * a missing file (ENOENT, ENOTDIR) is not an error: *absent is set to 1
 * and 0 returned with *out NULL. */
int tg_file_read(const char *path, size_t max, char **out, size_t *len,
		 int *absent, struct tg_err *err);

/* As tg_file_read, naming the kind of file in the message of a file
 * over max ("larger than the 64 KiB limit for pyvenv.cfg"). */
int tg_file_read_as(const char *path, size_t max, const char *what, char **out,
		    size_t *len, int *absent, struct tg_err *err);

/* As tg_file_read, but a file longer than max is not an error: the first
 * max bytes are returned and *truncated set to 1. */
int tg_file_read_head(const char *path, size_t max, char **out, size_t *len,
		      int *truncated, int *absent, struct tg_err *err);

/* Map the regular file path (at most max bytes) read-only: *data (NULL
 * for an empty file) and *len; release with tg_file_unmap. Memory use
 * does not grow with the file: for large files scanned once. */
int tg_file_map(const char *path, size_t max, const char **data, size_t *len,
		int *absent, struct tg_err *err);
void tg_file_unmap(const char *data, size_t len);

/* Write data to path atomically: a temporary file in the same directory,
 * then rename(). When path already holds exactly data it is left alone
 * (mtime kept) and *changed is 0. No partial file is ever left at path
 * or beside it. A symlink is written through; an existing file keeps its
 * permissions, a new one gets 0666 less the umask. A path that names
 * something other than a regular file (a device, a FIFO, a socket, a
 * directory, directly or through a link) is refused with TG_EIO and left
 * as it is. */
int tg_file_write_atomic(const char *path, const char *data, size_t len,
			 int *changed, struct tg_err *err);

#endif
