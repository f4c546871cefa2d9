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
 *
 * Writers (update, releases) replace a file and its NAME.meta as one
 * step under an flock(2) on the directory's .lock (tg_cache_store says
 * in which order, and what a crash leaves); readers take no lock: they
 * see whole files, and a meta that is not its file's (another URL, or a
 * sha256 that is not the file's, which the fetch helper checks) is no
 * validator. The lock is advisory and waited for at most
 * TG_CACHE_LOCK_WAIT_S seconds; the .lock file is never removed
 * (removing it would let two writers lock two different files).
 */
#include "lib/table/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

/* A control character: none may stand in a meta line or a header. */
static int
has_ctl(const char *p)
{
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

static int
is_sha256(const char *p)
{
	return strlen(p) == 64 && strspn(p, "0123456789abcdef") == 64;
}

/* Take dir's lock into *fd: 0, or TG_EIO / TG_ENOMEM. Waits, in steps
 * of 10 ms, at most TG_CACHE_LOCK_WAIT_S seconds for another writer. */
static int
lock_dir(const char *dir, int *fd, struct tg_err *err)
{
	struct timespec step = {0, 10 * 1000 * 1000};
	char *path = tg_cache_file(dir, TG_CACHE_LOCK);
	long waited = 0;
	int rc = 0;

	*fd = -1;
	if (!path)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (*fd < 0) {
		rc = tg_err_set(err, TG_EIO, "cannot lock the cache: '%s': %s",
				path, strerror(errno));
		goto out;
	}
	while (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			rc = tg_err_set(err, TG_EIO,
					"cannot lock the cache: '%s': %s", path,
					strerror(errno));
			break;
		}
		if (waited >= TG_CACHE_LOCK_WAIT_S * 100L) {
			rc = tg_err_set(err, TG_EIO,
					"cannot lock the cache: '%s' has been "
					"held by another process for %d s",
					path, TG_CACHE_LOCK_WAIT_S);
			break;
		}
		nanosleep(&step, NULL);
		waited++;
	}
out:
	if (rc && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	free(path);
	return rc;
}

/* The meta text for url and v into b; nothing (b->len 0) when there is
 * no validator or a value could not be kept as one line. */
static void
meta_text(struct tg_buf *b, const char *url,
	  const struct tg_cache_validators *v)
{
	if (!url || !v || !is_sha256(v->sha256) ||
	    (!v->etag[0] && !v->last_modified[0]) || has_ctl(url) ||
	    strlen(url) >= TG_CACHE_URL_MAX || has_ctl(v->etag) ||
	    has_ctl(v->last_modified))
		return;
	tg_buf_addf(b, "url: %s\nsha256: %s\n", url, v->sha256);
	if (v->etag[0])
		tg_buf_addf(b, "etag: %s\n", v->etag);
	if (v->last_modified[0])
		tg_buf_addf(b, "last-modified: %s\n", v->last_modified);
}

int
tg_cache_store(const char *dir, const char *name, const char *data, size_t len,
	       const char *url, const struct tg_cache_validators *v,
	       tg_cache_newer_fn newer, void *ud, struct tg_err *err)
{
	struct tg_file_out fo = TG_FILE_OUT_INIT, mo = TG_FILE_OUT_INIT;
	struct tg_buf meta = TG_BUF_INIT;
	char *path = tg_cache_file(dir, name), *mpath = NULL;
	int rc, lock = -1;

	if (!path)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	tg_buf_addf(&meta, "%s.meta", name);
	if (tg_buf_error(&meta) || !(mpath = tg_cache_file(dir, meta.data))) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	tg_buf_clear(&meta);
	meta_text(&meta, url, v);
	if (tg_buf_error(&meta)) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = lock_dir(dir, &lock, err)))
		goto out;
	/* the test and the renames are one step: no other writer between */
	if (newer && (rc = newer(path, ud)) <= 0) {
		if (rc < 0)
			rc = tg_err_set(err, rc, "out of memory");
		else
			rc = 1;
		goto out;
	}
	/* everything written before anything is replaced */
	if (meta.len &&
	    (rc = tg_file_out_begin(&mo, mpath, meta.data, meta.len, err)))
		goto out;
	if ((rc = tg_file_out_begin(&fo, path, data, len, err)))
		goto out;
	if (!meta.len && unlink(mpath) != 0 && errno != ENOENT) {
		rc = tg_err_set(err, TG_EIO, "cannot remove '%s': %s", mpath,
				strerror(errno));
		goto out;
	}
	if ((rc = tg_file_out_commit(&fo, err)))
		goto out;
	if ((rc = tg_file_out_commit(&mo, err))) {
		/* not expected once both were written beside their targets;
		 * the old meta, which is not this file's, must not stay */
		unlink(mpath);
		goto out;
	}
	rc = tg_file_out_sync(&fo, err);
out:
	tg_file_out_release(&fo);
	tg_file_out_release(&mo);
	if (lock >= 0)
		close(lock); /* the lock goes with the descriptor */
	tg_buf_release(&meta);
	free(mpath);
	free(path);
	return rc;
}

/* "name: value" lines of text, value into out ("" when absent or too
 * long). */
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
tg_cache_validators(const char *dir, const char *name, const char *url,
		    struct tg_cache_validators *v)
{
	struct tg_buf b = TG_BUF_INIT;
	char *text = NULL, *path, u[TG_CACHE_URL_MAX];
	size_t len, i;
	int absent = 0, ok = 0;

	v->etag[0] = v->last_modified[0] = v->sha256[0] = '\0';
	tg_buf_addf(&b, "%s/%s.meta", dir, name);
	path = tg_buf_error(&b) ? NULL : b.data;
	if (!path ||
	    tg_file_read(path,
			 TG_CACHE_URL_MAX + 2 * TG_CACHE_VALIDATOR_MAX + 256,
			 &text, &len, &absent, NULL) ||
	    !text || strlen(text) != len)
		goto out;
	for (i = 0; i < len; i++)
		if (((unsigned char)text[i] < 0x20 && text[i] != '\n') ||
		    text[i] == 0x7f)
			goto out;
	line_value(text, "url", u, sizeof(u));
	line_value(text, "sha256", v->sha256, sizeof(v->sha256));
	line_value(text, "etag", v->etag, sizeof(v->etag));
	line_value(text, "last-modified", v->last_modified,
		   sizeof(v->last_modified));
	ok = url && strcmp(u, url) == 0 && is_sha256(v->sha256) &&
	     (v->etag[0] || v->last_modified[0]);
out:
	if (!ok)
		v->etag[0] = v->last_modified[0] = v->sha256[0] = '\0';
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
