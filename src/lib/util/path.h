/* path.h - lexical path handling, as Python's os.path does it on POSIX
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_UTIL_PATH_H
#define TG_LIB_UTIL_PATH_H

#include "lib/util/err.h"

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

/* realpath(), or NULL with err set. */
char *tg_path_real(const char *p, struct tg_err *err);

#endif
