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

/* The validators of a cached file, as dir/name.meta keeps them: the URL
 * they came from, the SHA-256 of the file they describe (lower-case
 * hex), the response's ETag and Last-Modified ("" when absent). */
#define TG_CACHE_VALIDATOR_MAX 1024
#define TG_CACHE_URL_MAX 4096
#define TG_CACHE_LOCK ".lock"
#define TG_CACHE_LOCK_WAIT_S 30

struct tg_cache_validators {
	char etag[TG_CACHE_VALIDATOR_MAX];
	char last_modified[TG_CACHE_VALIDATOR_MAX];
	char sha256[65];
};

/* Said whether data still replaces the file at path, under the cache's
 * lock: 1 yes, 0 no (the cache is left as it is), or TG_ENOMEM. */
typedef int (*tg_cache_newer_fn)(const char *path, void *ud);

/* Replace dir/name with data and dir/name.meta with its validators, as
 * one step under the cache directory's lock (an advisory flock(2) on
 * dir/.lock, waited for at most TG_CACHE_LOCK_WAIT_S seconds), which
 * every writer takes:
 *
 *   1. take the lock; newer(path, ud), when given, decides with what
 *      the cache holds now (0: unlock, return 1, nothing changed);
 *   2. write the new meta ("url:", "sha256:", "etag:", "last-modified:"
 *      lines; v->sha256 is data's) to a temporary file, then the new
 *      file to another (util/file): any failure here changes nothing;
 *   3. rename the file over dir/name, then the meta over dir/name.meta
 *      (with no validator, or a URL or value holding a control
 *      character, the old meta is removed instead, before the rename);
 *   4. unlock.
 *
 * A reader never sees a part of a file. A crash between the two renames
 * leaves the new file beside the old meta, whose sha256 is not the
 * file's: readers ignore it (tg_cache_validators' caller checks the
 * SHA-256, see cli/fetch.c), so the next transfer is a plain GET.
 * Returns 0 replaced, 1 left as it was (newer said so), or a negative
 * code with the message in err. */
int tg_cache_store(const char *dir, const char *name, const char *data,
		   size_t len, const char *url,
		   const struct tg_cache_validators *v, tg_cache_newer_fn newer,
		   void *ud, struct tg_err *err);

/* The validators dir/name.meta keeps for url into v: all "" when the
 * file is missing, odd (a line that is not "key: value", a control
 * character, no sha256), or was written for another URL: validators
 * belong to the URL they came from. The caller sends them only while
 * the cached file still has v->sha256 (the fetch helper's --cached). */
void tg_cache_validators(const char *dir, const char *name, const char *url,
			 struct tg_cache_validators *v);

#endif
