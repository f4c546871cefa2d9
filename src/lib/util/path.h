/* path.h - lexical path handling, as Python's os.path does it on POSIX
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_UTIL_PATH_H
#define TG_LIB_UTIL_PATH_H

#include <stddef.h>

#include "lib/util/err.h"

/* Format a path into out[size] as snprintf does; a path that does not fit
 * is never cut: TG_ELIMIT with "path too long: '<its start>...'", and out
 * holds "". Size is at least 1. */
int tg_path_fmt(char *out, size_t size, struct tg_err *err, const char *fmt,
		...) TG_PRINTF(4, 5);

/* os.path.join(a, b): b when b is absolute. NULL when out of memory. */
char *tg_path_join(const char *a, const char *b);
/* os.path.abspath(p) with cwd as the current directory. */
char *tg_path_abs(const char *p, const char *cwd);
/* os.path.dirname(p) (a new string). */
char *tg_path_dirname(const char *p);
/* The part after the last '/'. */
const char *tg_path_basename(const char *p);

/* stat() wrappers: 1 when p names (after symlinks) such a thing. */
int tg_path_is_dir(const char *p);
int tg_path_is_file(const char *p);
int tg_path_exists(const char *p);

/* realpath(3) of p, a new string, or NULL with errno set as realpath
 * sets it: for an absolute p, the kernel's name of p opened with O_PATH
 * (every link followed, as realpath resolves them), read from
 * /proc/self/fd; realpath(3) itself for a relative p, and when p cannot
 * be opened so, /proc is no procfs or does not answer, or its answer is
 * no absolute path (a file deleted since, say). */
char *tg_path_realpath(const char *p);

/* tg_path_realpath, or NULL with err set. */
char *tg_path_real(const char *p, struct tg_err *err);

/* Whether the real path p lies inside the real directory b, or is b:
 * lexical, on paths as realpath() gives them ("/" holds everything). */
int tg_path_inside(const char *p, const char *b);

/* The bound of what torchgate reads: whether root/rel, every symbolic
 * link followed, stays inside root's real path (root's own links are
 * the caller's choice and followed). 1 when it does, and when it does
 * not resolve at all (absent, dangling: the reader's open says so);
 * 0 when it leads out: *link (when link is not NULL) is the first of
 * root/c1, root/c1/c2, ... that resolves outside (the link that leaves,
 * a new string) and *target (when not NULL) its real path (new);
 * TG_ENOMEM. rel is relative; a ".." in it is resolved like the rest.
 * Worst case: a realpath() of root and of root/rel, and of each prefix
 * of rel when it leads out. Every reader of a file named by a tree it
 * was given (a declaration file, an evidence file, a RECORD entry)
 * asks this first; tg_walk applies the same rule to what it finds. */
int tg_path_beneath(const char *root, const char *rel, char **link,
		    char **target, struct tg_err *err);

/* Whether the file fd has open lies inside the real directory root, as
 * the kernel names it (/proc/self/fd): the check of what was opened,
 * which no link swapped in after tg_path_beneath's can escape. 1 when
 * it does, and when procfs is not there to tell (tg_path_beneath's
 * check then stands alone); 0 when it does not, *name then the file's
 * name (new), or NULL when it has none (removed); TG_ENOMEM. */
int tg_path_fd_inside(int fd, const char *root, char **name);

/* The cheap proof of the same bound, for the many entries of one root
 * (a RECORD's): 1 when every component of rel is a name (not empty,
 * "." or "..") and lstat() finds each of root/c1, root/c1/c2, ...,
 * root/rel present and none a symbolic link: root/rel then resolves to
 * root's real path followed by rel, and tg_path_beneath would say 1.
 * 0 when that is not proved (ask tg_path_beneath); TG_ENOMEM. pp
 * remembers its root and the last directory proved, so entries of one
 * directory cost one lstat() each, where tg_path_beneath costs two
 * realpath() calls of a readlink() per component each. */
struct tg_path_plain {
	char *root; /* the root of the directory below, or NULL */
	char *dir;  /* the last directory proved, relative to root */
	size_t len; /* strlen(dir) */
	char *buf;  /* root/rel */
	size_t cap;
	int regular; /* after a 1: lstat found root/rel a regular file */
};

#define TG_PATH_PLAIN_INIT                                                     \
	{                                                                      \
		NULL, NULL, 0, NULL, 0, 0                                      \
	}

int tg_path_plain(struct tg_path_plain *pp, const char *root, const char *rel);
void tg_path_plain_release(struct tg_path_plain *pp);

/* 1 when p is a regular file (symlinks followed) we may execute. */
int tg_path_is_executable(const char *p);
/* The first executable name along the colon-separated pathvar (NULL:
 * "/usr/local/bin:/usr/bin:/bin"; an empty entry is cwd), skipping the
 * directory skip (may be NULL), as a new absolute path; NULL with errno
 * 0 when none, NULL with errno ENOMEM when out of memory. */
char *tg_path_which(const char *name, const char *pathvar, const char *cwd,
		    const char *skip);

#endif
