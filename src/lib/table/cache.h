/* cache.h - the cached table and release list, and which table is used
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_CACHE_H
#define TG_LIB_TABLE_CACHE_H

#include "lib/table/table.h"
#include "lib/util/err.h"

/* The cached table and release index, in the cache directory. */
#define TG_CACHE_TABLE "apis.json"
#define TG_CACHE_INDEX "releases.json"

enum tg_cache_source {
	TG_CACHE_BUILTIN, /* the table built into the binary */
	TG_CACHE_FILE,	  /* --table FILE */
	TG_CACHE_CACHED,  /* the cache, newer than the built-in table */
};

/* The cache directory: $XDG_CACHE_HOME/torchgate when XDG_CACHE_HOME is
 * an absolute path, else $HOME/.cache/torchgate; a new string in *out.
 * TG_ENOENT when neither variable is usable. */
int tg_cache_dir(char **out, struct tg_err *err);

/* dir/name, a new string; NULL when out of memory. */
char *tg_cache_file(const char *dir, const char *name);

/* The built-in table's table_version (read at build time), or NULL. */
const char *tg_cache_builtin_version(void);

/* The table to use: path when given (--table FILE), else the cached
 * table when it is present, valid and newer than the built-in one, else
 * the built-in table. A cache that cannot be read or is not a valid table
 * is never an error: it is skipped, with the reason in warn (warn->code
 * nonzero), and the built-in table used. *src says which; *from (a new
 * string, may be NULL) the file it came from. */
int tg_cache_table(struct tg_table *t, const char *path,
		   enum tg_cache_source *src, char **from, struct tg_err *warn,
		   struct tg_err *err);

const char *tg_cache_source_name(enum tg_cache_source s);

struct tg_index;

/* The index torchgate releases cached, into ix (pre-releases when pre):
 * 1 loaded, 0 none (absent, or unusable: the reason in warn), or
 * TG_ENOMEM. *from (a new string) the file, when loaded. */
int tg_cache_index(struct tg_index *ix, int pre, char **from,
		   struct tg_err *warn);

/* Create dir and its missing parents (mode 0700, as XDG asks). */
int tg_cache_mkdir(const char *dir, struct tg_err *err);

/* Replace dir/name with data atomically (util/file), then dir/name.meta
 * with the validators of the response ("etag: V", "last-modified: V"
 * lines; removed when there are none). A run killed at any moment
 * leaves the old file or the new one, never a part. */
int tg_cache_store(const char *dir, const char *name, const char *data,
		   size_t len, const char *etag, const char *last_modified,
		   struct tg_err *err);

/* The validators kept in dir/name.meta into etag and last_modified
 * ("" when absent); a missing or odd file is no validator. */
void tg_cache_validators(const char *dir, const char *name, char *etag,
			 char *last_modified, size_t cap);

#endif
