/* file.h - bounded file reads and atomic writes
 * SPDX-License-Identifier: MIT
 *
 * Every file torchgate inspects is read through here: only regular files
 * (a FIFO or a device is refused before it can block), never more than a
 * caller-given maximum, and with one-line messages that name the file.
 */
#ifndef TG_LIB_UTIL_FILE_H
#define TG_LIB_UTIL_FILE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util/err.h"

/* Open path for reading, checked: *fd is a descriptor of a regular file
 * (after following links) of *size bytes, at most max. The open cannot
 * block (O_NONBLOCK, which stays set: a regular file's reads ignore it)
 * and the check is on the opened descriptor (fstat), not on the name.
 * TG_EIO when it cannot be opened or is not a regular file ("cannot read
 * 'path': it is a FIFO, not a regular file"), TG_ELIMIT when it holds
 * more than max bytes ("cannot read 'path': larger than the 64 MiB limit
 * for a dpkg file list", what naming the kind of file; NULL: "larger
 * than N bytes"). absent as in tg_file_read (*fd is then -1). Every read
 * of a file goes through here. */
int tg_file_open(const char *path, size_t max, const char *what, int *fd,
		 size_t *size, int *absent, struct tg_err *err);

/* As tg_file_open, for a path found to be a regular file a moment ago
 * (a directory walk, an lstat): no stat before the open; the
 * descriptor's fstat still refuses what is not a regular file, with the
 * same messages. One system call fewer. */
int tg_file_open_walked(const char *path, size_t max, const char *what, int *fd,
			size_t *size, struct tg_err *err);

/* Read the regular file path whole into a NUL-terminated heap block,
 * followed by TG_STR_PAD more zero bytes (lib/util/str.h).
 * TG_ELIMIT when it holds more than max bytes, TG_EIO when it cannot be
 * opened or read ("cannot read 'path': reason"). When absent is not NULL,
 * a missing file (ENOENT, ENOTDIR) is not an error: *absent is set to 1
 * and 0 returned with *out NULL. */
int tg_file_read(const char *path, size_t max, char **out, size_t *len,
		 int *absent, struct tg_err *err);

/* As tg_file_read, for a file that tg_path_beneath found inside root:
 * what is opened must still lie inside root's real path
 * (tg_path_fd_inside), or it is not read: TG_EIO, "it changed while it
 * was read". The check of the open itself, after tg_path_beneath's of
 * the path: a link swapped in between cannot lead the read out. */
int tg_file_read_inside(const char *path, const char *root, size_t max,
			char **out, size_t *len, int *absent,
			struct tg_err *err);

/* As tg_file_read, for a path a directory walk found to be a regular
 * file a moment ago: no stat before the open (the descriptor's fstat
 * still refuses what is not a regular file), and the bytes up to the
 * size fstat gave: a file being written is read as it was then. Two
 * to four system calls fewer a file. *size: the size fstat gave, also
 * when that is over max (0 when the file could not be opened). The
 * file opened is name relative to the open directory dfd, path's
 * directory (one component for the kernel to look up instead of every
 * one of path's), or path itself with AT_FDCWD or name NULL; messages
 * name path. */
int tg_file_read_walked_at(int dfd, const char *name, const char *path,
			   size_t max, char **out, size_t *len, uint64_t *size,
			   struct tg_err *err);

/* As tg_file_read, naming the kind of file in the message of a file
 * over max ("larger than the 64 KiB limit for pyvenv.cfg"). */
int tg_file_read_as(const char *path, size_t max, const char *what, char **out,
		    size_t *len, int *absent, struct tg_err *err);

/* As tg_file_read, but a file longer than max is not an error: the first
 * max bytes are returned and *truncated set to 1. */
int tg_file_read_head(const char *path, size_t max, char **out, size_t *len,
		      int *truncated, int *absent, struct tg_err *err);

/* As tg_file_read_head, for a path found to be a regular file a moment
 * ago (tg_path_is_file, tg_path_is_executable): no stat before the open,
 * as tg_file_read_walked_at. */
int tg_file_read_head_walked(const char *path, size_t max, char **out,
			     size_t *len, int *truncated, struct tg_err *err);

/* len bytes of fd at off into buf, pread again after a short read or
 * EINTR: the count read (less than len only at the end of the file), or
 * -1 with errno set. */
ssize_t tg_file_pread(int fd, void *buf, size_t len, uint64_t off);

/* Writing a file so that a reader, or a run killed at any moment, sees
 * the old content or the new, never a part:
 *
 *   tg_file_out_begin    resolve path, write the new content to a
 *                        temporary file beside the target, fsync it
 *   tg_file_out_commit   rename the temporary file over the target
 *   tg_file_out_sync     fsync the target's directory
 *   tg_file_out_release  remove the temporary file if still there
 *
 * so that several files can be prepared before any is replaced. What
 * path may be:
 *   - absent: created, with mode 0666 less the umask; its directory must
 *     exist;
 *   - a regular file: replaced, keeping its mode and, when we may (root,
 *     or a file that is ours), its owner and group;
 *   - a symbolic link whose chain ends at a regular file: the file at the
 *     end of the chain is replaced as above (the links stay);
 *   - a dangling link, a link loop, or anything but a regular file at the
 *     end (a device, a FIFO, a socket, a directory): refused with TG_EIO,
 *     left as it is, nothing created anywhere.
 * When the target already holds exactly data, nothing is written (its
 * mtime stays) and changed stays 0.
 *
 * The temporary file is ".NAME.torchgate-XXXXXX" beside the target NAME.
 * begin first removes such files of the same NAME that are older than
 * TG_FILE_STALE_S seconds (left by a run killed with SIGKILL); younger
 * ones may belong to a run in progress. While armed is nonzero, tmp names
 * a file this process may have created: a signal handler may unlink(tmp)
 * (async-signal-safe: tmp is a fixed array, armed a sig_atomic_t). */
#define TG_FILE_TMP_MAX 4096
#define TG_FILE_STALE_S 60

struct tg_file_out {
	volatile sig_atomic_t armed;
	char tmp[TG_FILE_TMP_MAX];
	char *path;  /* the file replaced (a link's target), owned */
	int pending; /* a temporary file waits for commit */
	int changed; /* 1 once the target was replaced */
};

#define TG_FILE_OUT_INIT                                                       \
	{                                                                      \
		0, "", NULL, 0, 0                                              \
	}

int tg_file_out_begin(struct tg_file_out *o, const char *path, const char *data,
		      size_t len, struct tg_err *err);
int tg_file_out_commit(struct tg_file_out *o, struct tg_err *err);
int tg_file_out_sync(const struct tg_file_out *o, struct tg_err *err);
void tg_file_out_release(struct tg_file_out *o);

/* The four steps for one file. */
int tg_file_write_atomic(const char *path, const char *data, size_t len,
			 int *changed, struct tg_err *err);

#endif
