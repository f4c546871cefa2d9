/* update_advisories.c - torchgate update's second file: the advisories
 * SPDX-License-Identifier: MIT
 *
 * The advisories (table/advisory) are refreshed as the table is, by the
 * same rules: the helper torchgate-fetch downloads them (a conditional
 * GET from the validators kept beside the cache), the loader of the
 * built-in advisories validates them, and the cached file is replaced
 * atomically (table/cache: tg_cache_store) only when they load and their
 * advisories_version is newer than both the built-in and the cached
 * ones' (the cached one's read again under the cache's lock). In every
 * other case the cache stays byte for byte as it was.
 */
#include "cli/update_advisories.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lib/table/advisory.h"
#include "lib/table/cache.h"
#include "lib/table/table.h"

/* The advisories_version of the file at path into *cached (a new
 * string, or NULL when it does not hold valid advisories). */
static int
version_at(const char *path, char **cached)
{
	struct tg_advisories a = TG_ADVISORIES_INIT;
	int rc;

	*cached = NULL;
	rc = tg_advisory_load(&a, path, NULL);
	if (rc == TG_ENOMEM)
		return rc;
	if (!rc && !(*cached = strdup(a.version)))
		rc = TG_ENOMEM;
	tg_advisory_release(&a);
	return rc == TG_ENOMEM ? rc : 0;
}

/* The cached advisories_version into *cached (a new string, or NULL when
 * there is no valid cached file). */
static int
cached_version(const char *dir, char **cached)
{
	char *path = tg_cache_file(dir, TG_CACHE_ADVISORIES);
	int rc;

	*cached = NULL;
	if (!path)
		return TG_ENOMEM;
	rc = version_at(path, cached);
	free(path);
	return rc;
}

struct recheck {
	const char *version; /* the download's */
	char *now;	     /* the cached version then, when not older */
};

/* tg_cache_store's test, under the cache's lock: another update may
 * have stored newer advisories during the download. */
static int
still_newer(const char *path, void *ud)
{
	struct recheck *r = ud;
	char *now = NULL;

	if (version_at(path, &now))
		return TG_ENOMEM;
	if (now && tg_table_version_cmp(r->version, now) <= 0) {
		r->now = now;
		return 0;
	}
	free(now);
	return 1;
}

int
cli_update_advisories_offline(const char *cmd, const char *dir)
{
	const char *builtin = tg_advisory_builtin_version();
	char *cached = NULL, *path = NULL;

	if (cached_version(dir, &cached) ||
	    !(path = tg_cache_file(dir, TG_CACHE_ADVISORIES))) {
		free(cached);
		return cli_out_of_memory(cmd);
	}
	if (cached && tg_table_version_cmp(cached, builtin) > 0)
		printf("offline: the cached advisories '%s' "
		       "(advisories_version %s) are used\n",
		       path, cached);
	else
		printf("offline: the built-in advisories (advisories_version "
		       "%s) are used\n",
		       builtin ? builtin : "none");
	free(cached);
	free(path);
	return CLI_OK;
}

int
cli_update_advisories(const char *cmd, const char *url,
		      const struct cli_fetch *base, const char *dir)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_advisories a = TG_ADVISORIES_INIT;
	struct tg_buf body = TG_BUF_INIT;
	struct cli_fetch f = *base;
	struct tg_cache_validators have, got;
	struct recheck re = {NULL, NULL};
	char *cached = NULL, *path = NULL;
	const char *builtin = tg_advisory_builtin_version(), *newest;
	int status = CLI_IO, nm = 0, rc;

	if (cached_version(dir, &cached) ||
	    !(path = tg_cache_file(dir, TG_CACHE_ADVISORIES))) {
		status = cli_out_of_memory(cmd);
		goto out;
	}
	newest = tg_table_version_cmp(cached, builtin) > 0 ? cached : builtin;
	if (cached)
		tg_cache_validators(dir, TG_CACHE_ADVISORIES, url, &have);
	else
		have.etag[0] = have.last_modified[0] = have.sha256[0] = '\0';
	f.url = url;
	f.sha256 = NULL;
	f.etag = have.etag[0] ? have.etag : NULL;
	f.last_modified = have.last_modified[0] ? have.last_modified : NULL;
	f.cached = path;
	f.cached_sha256 = have.sha256;
	f.max = TG_ADVISORY_MAX;
	tg_buf_init(&body, TG_ADVISORY_MAX);
	status = cli_fetch_run(cmd, &f, &body, &got, &nm);
	if (status)
		goto out;
	if (nm) {
		printf("'%s' is not modified: the cached advisories "
		       "(advisories_version %s) stay\n",
		       url, cached);
		goto out;
	}
	rc = tg_advisory_parse(&a, body.data ? body.data : "", body.len, url,
			       &err);
	if (rc) {
		cli_error(cmd, "%s; the cached advisories are unchanged",
			  err.msg);
		status = rc == TG_ENOMEM ? CLI_IO : CLI_BAD_INPUT;
		goto out;
	}
	if (tg_table_version_cmp(a.version, newest) <= 0) {
		printf("'%s' has advisories_version %s, not newer than the %s "
		       "advisories' %s: the cache is unchanged\n",
		       url, a.version, newest == cached ? "cached" : "built-in",
		       newest ? newest : "none");
		goto out;
	}
	re.version = a.version;
	if ((rc = tg_cache_mkdir(dir, &err)) ||
	    (rc = tg_cache_store(dir, TG_CACHE_ADVISORIES, body.data, body.len,
				 url, &got, still_newer, &re, &err)) < 0) {
		cli_error(cmd, "%s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (rc == 1) { /* another update stored newer ones meanwhile */
		printf("'%s' has advisories_version %s, not newer than the "
		       "cached advisories' %s: the cache is unchanged\n",
		       url, a.version, re.now);
		goto out;
	}
	printf("updated '%s' from '%s': advisories_version %s (was %s, %s), "
	       "%zu advisories\n",
	       path, url, a.version, newest ? newest : "none",
	       newest == cached ? "cached" : "built-in", a.n);
out:
	tg_advisory_release(&a);
	tg_buf_release(&body);
	free(re.now);
	free(path);
	free(cached);
	return status;
}
