/* cache.c - the cached table and release list, and which table is used
 * SPDX-License-Identifier: MIT
 *
 * `torchgate update` and `torchgate releases` keep what they downloaded
 * in one directory ($XDG_CACHE_HOME/torchgate, or ~/.cache/torchgate),
 * written only after it was validated, and atomically (util/file). This
 * module finds that directory and picks the table every table user
 * loads: --table FILE, else the cached table when it is valid and its
 * table_version is newer than the built-in table's, else the built-in
 * table. The cache is read as any input is (bounded, fully validated,
 * patterns compiled): a corrupt or unreadable cache is reported as a
 * warning and never fails a command, since the built-in table is always
 * there. Worst case: one extra table parse when a cache is present.
 */
#include "lib/table/cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/table/index.h"
#include "lib/util/buf.h"

#include "lib/util/file.h"

extern const char *const tg_apis_table_version;

const char *
tg_cache_builtin_version(void)
{
	return tg_apis_table_version;
}

char *
tg_cache_file(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int
tg_cache_dir(char **out, struct tg_err *err)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	*out = NULL;
	if (x && x[0] == '/')
		*out = tg_cache_file(x, "torchgate");
	else if (h && h[0] == '/')
		*out = tg_cache_file(h, ".cache/torchgate");
	else
		return tg_err_set(err, TG_ENOENT,
				  "no cache directory: neither XDG_CACHE_HOME "
				  "nor HOME is an absolute path");
	return *out ? 0 : tg_err_set(err, TG_ENOMEM, "out of memory");
}

const char *
tg_cache_source_name(enum tg_cache_source s)
{
	switch (s) {
	case TG_CACHE_FILE:
		return "file";
	case TG_CACHE_CACHED:
		return "cache";
	case TG_CACHE_BUILTIN:
		break;
	}
	return "built-in";
}

/* Read the cache's file name: 1 with *path (the caller frees it) and
 * in *read what reading it gave (0 with *text, or *absent, or an error
 * with its reason in e), 0 when there is no cache directory, or
 * TG_ENOMEM. */
static int
read_cached(const char *name, size_t max, const char *what, char **path,
	    char **text, size_t *len, int *absent, int *read, struct tg_err *e)
{
	char *dir = NULL;
	int rc = tg_cache_dir(&dir, e);

	*text = NULL;
	if (rc == TG_ENOENT)
		return 0;
	if (rc)
		return rc;
	*path = tg_cache_file(dir, name);
	free(dir);
	if (!*path)
		return TG_ENOMEM;
	*read = tg_file_read_as(*path, max, what, text, len, absent, e);
	if (*read == TG_ENOMEM) {
		free(*path);
		*path = NULL;
		return TG_ENOMEM;
	}
	return 1;
}

/* The cached table into t when it is there, valid and newer than the
 * built-in one: 1 used, 0 not (a reason in warn when it was unusable),
 * or TG_ENOMEM. */
static int
try_cache(struct tg_table *t, char **from, struct tg_err *warn)
{
	struct tg_err e = TG_ERR_INIT;
	char *path = NULL, *text = NULL;
	size_t len;
	int absent = 0, rc = 0, got;

	got = read_cached(TG_CACHE_TABLE, TG_TABLE_MAX, "a table", &path, &text,
			  &len, &absent, &rc, &e);
	if (got <= 0)
		return got;
	if (!rc && !absent)
		rc = tg_table_parse(t, text, len, path, &e);
	free(text);
	if (rc == TG_ENOMEM || absent) {
		free(path);
		return rc;
	}
	if (rc) {
		tg_err_set(warn, rc, "%s; the built-in table is used", e.msg);
		free(path);
		return 0;
	}
	if (tg_table_version_cmp(t->table_version, tg_apis_table_version) <=
	    0) {
		tg_table_release(t);
		free(path);
		return 0;
	}
	*from = path;
	return 1;
}

int
tg_cache_table(struct tg_table *t, const char *path, enum tg_cache_source *src,
	       char **from, struct tg_err *warn, struct tg_err *err)
{
	int rc;

	*from = NULL;
	if (path) {
		*src = TG_CACHE_FILE;
		rc = tg_table_load(t, path, err);
		if (!rc && !(*from = strdup(path))) {
			tg_table_release(t);
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		}
		return rc;
	}
	rc = try_cache(t, from, warn);
	if (rc < 0)
		return tg_err_set(err, rc, "out of memory");
	if (rc == 1) {
		*src = TG_CACHE_CACHED;
		return 0;
	}
	*src = TG_CACHE_BUILTIN;
	return tg_table_default(t, err);
}

int
tg_cache_mkdir(const char *dir, struct tg_err *err)
{
	char *p = strdup(dir), *s;
	int rc = 0;

	if (!p)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c)
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			rc = tg_err_set(err, TG_EIO,
					"cannot create the cache directory "
					"'%s': %s",
					p, strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

int
tg_cache_store(const char *dir, const char *name, const char *data, size_t len,
	       const char *etag, const char *last_modified, struct tg_err *err)
{
	struct tg_buf meta = TG_BUF_INIT;
	char *path = tg_cache_file(dir, name), *mpath = NULL;
	int rc, changed;

	if (!path)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	rc = tg_file_write_atomic(path, data, len, &changed, err);
	if (rc)
		goto out;
	tg_buf_addf(&meta, "%s.meta", name);
	if (tg_buf_error(&meta) || !(mpath = tg_cache_file(dir, meta.data))) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	tg_buf_clear(&meta);
	if (etag && *etag)
		tg_buf_addf(&meta, "etag: %s\n", etag);
	if (last_modified && *last_modified)
		tg_buf_addf(&meta, "last-modified: %s\n", last_modified);
	if (tg_buf_error(&meta))
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	else if (meta.len)
		rc = tg_file_write_atomic(mpath, meta.data, meta.len, &changed,
					  err);
	else if (unlink(mpath) != 0 && errno != ENOENT)
		rc = tg_err_set(err, TG_EIO, "cannot remove '%s': %s", mpath,
				strerror(errno));
out:
	tg_buf_release(&meta);
	free(mpath);
	free(path);
	return rc;
}

/* "name: value" lines of text, value into out. */
static void
line_value(const char *text, const char *name, char *out, size_t cap)
{
	size_t k = strlen(name);
	const char *p = text, *e;

	out[0] = '\0';
	for (; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (!e)
			break;
		if (strncmp(p, name, k) == 0 && p[k] == ':' &&
		    p[k + 1] == ' ' && (size_t)(e - p) - k - 2 < cap) {
			memcpy(out, p + k + 2, (size_t)(e - p) - k - 2);
			out[(size_t)(e - p) - k - 2] = '\0';
		}
	}
}

void
tg_cache_validators(const char *dir, const char *name, char *etag,
		    char *last_modified, size_t cap)
{
	struct tg_buf b = TG_BUF_INIT;
	char *text = NULL, *path;
	size_t len;
	int absent = 0;

	etag[0] = last_modified[0] = '\0';
	tg_buf_addf(&b, "%s/%s.meta", dir, name);
	path = tg_buf_error(&b) ? NULL : b.data;
	if (path &&
	    !tg_file_read(path, 4 * cap + 64, &text, &len, &absent, NULL) &&
	    text && strlen(text) == len) {
		line_value(text, "etag", etag, cap);
		line_value(text, "last-modified", last_modified, cap);
	}
	free(text);
	tg_buf_release(&b);
}

int
tg_cache_index(struct tg_index *ix, int pre, char **from, struct tg_err *warn)
{
	struct tg_err e = TG_ERR_INIT;
	char *path = NULL, *text = NULL;
	size_t len;
	int absent = 0, rc = 0, got;

	*from = NULL;
	got = read_cached(TG_CACHE_INDEX, TG_INDEX_MAX, "an index", &path,
			  &text, &len, &absent, &rc, &e);
	if (got <= 0)
		return got;
	if (!rc && !absent)
		rc = tg_index_parse(ix, text, len, path, pre, &e);
	free(text);
	if (rc == TG_ENOMEM || absent || rc) {
		if (rc && rc != TG_ENOMEM)
			tg_err_set(warn, rc, "%s", e.msg);
		free(path);
		return rc == TG_ENOMEM ? rc : 0;
	}
	*from = path;
	return 1;
}
