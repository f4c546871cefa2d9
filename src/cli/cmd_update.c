/* cmd_update.c - torchgate update: a newer API table into the cache
 * SPDX-License-Identifier: MIT
 *
 * Downloads the table (cli/fetch: the helper torchgate-fetch does the
 * transfer), validates it with the loader of the built-in table, and
 * replaces the cached table atomically only when it loads, matches
 * --sha256 and its table_version is newer than both the built-in table's
 * and the cached one's: the cached one's read again under the cache's
 * lock (tg_cache_store), since another update may have stored a newer
 * table during the download. In every other case the cache stays byte
 * for byte as it was. A conditional GET (the validators kept beside the
 * cache for this URL, sent while the table is still theirs) makes an
 * unchanged table cost a 304, which --sha256 checks against the cached
 * table.
 *
 * Exit: 0 updated, not modified, or nothing newer; 2 usage; 4 the body
 * is not a valid table (or has no table_version) or does not match
 * --sha256 (nor the cached table after a 304); 5 the transfer failed, the network commands are not built,
 * or the cache could not be written. With an advisories URL the
 * advisories follow (cli/update_advisories), whatever became of the
 * table, and the status is the higher of the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/fetch.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "cli/update_advisories.h"
#include "lib/table/cache.h"
#include "lib/table/table.h"
#include "lib/util/file.h"

#define CMD "update"

static const char *url, *sha256, *timeout, *cacert, *advisories_url;
static int offline, insecure;
static const struct cli_opt opts[] = {
    {CLI_OPT_VALUE, "url", 0, &url, "URL",
     "download from URL (default: $TORCHGATE_TABLE_URL,\n"
     "then the URL set at configure time)",
     NULL, 0},
    {CLI_OPT_VALUE, "sha256", 0, &sha256, "HEX",
     "accept only a table with this SHA-256", NULL, 0},
    {CLI_OPT_VALUE, "advisories-url", 0, &advisories_url, "URL",
     "download the advisories from URL too (default:\n"
     "$TORCHGATE_ADVISORIES_URL, then the URL set at\n"
     "configure time)",
     NULL, 0},
    {CLI_OPT_SWITCH, "offline", 0, &offline, NULL,
     "download nothing: say which table is used", NULL, 0},
    {CLI_OPT_VALUE, "timeout", 0, &timeout, "S",
     "give up a transfer after S seconds (default 30)", NULL, 0},
    {CLI_OPT_VALUE, "cacert", 0, &cacert, "FILE",
     "verify TLS with the CA certificates in FILE", NULL, 0},
    {CLI_OPT_SWITCH, "insecure", 0, &insecure, NULL,
     "do not verify TLS (loudly; never in a build)", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	(void)argc;
	(void)argv;
	if (sha256 && (strlen(sha256) != 64 ||
		       strspn(sha256, "0123456789abcdefABCDEF") != 64))
		return cli_usage_error(CMD,
				       "--sha256 must be 64 hexadecimal "
				       "digits, not '%s'",
				       sha256);
	if (timeout)
		return cli_fetch_timeout(CMD, timeout);
	return CLI_OK;
}

/* The table_version of the table at path into *cached (a new string or
 * NULL when it is not a valid table). */
static int
version_at(const char *path, char **cached)
{
	struct tg_table t = TG_TABLE_INIT;
	int rc;

	*cached = NULL;
	rc = tg_table_load(&t, path, NULL);
	if (rc == TG_ENOMEM)
		return rc;
	if (!rc && t.table_version && !(*cached = strdup(t.table_version)))
		rc = TG_ENOMEM;
	tg_table_release(&t);
	return rc == TG_ENOMEM ? rc : 0;
}

/* The cached table's table_version into *cached (a new string or NULL
 * when there is no valid cached table). */
static int
cached_version(const char *dir, char **cached)
{
	char *path = tg_cache_file(dir, TG_CACHE_TABLE);
	int rc;

	*cached = NULL;
	if (!path)
		return TG_ENOMEM;
	rc = version_at(path, cached);
	free(path);
	return rc;
}

/* What the cache holds when the download is about to replace it. */
struct recheck {
	const char *version; /* the download's */
	char *now;	     /* the cached table's then, when not older */
};

/* tg_cache_store's test, under the cache's lock: another update may
 * have stored a newer table during the download. */
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

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_table t = TG_TABLE_INIT;
	struct tg_buf body = TG_BUF_INIT;
	struct cli_fetch f = {0};
	struct tg_cache_validators have, got;
	struct recheck re = {NULL, NULL};
	char *dir = NULL, *cached = NULL, *path = NULL;
	const char *builtin = tg_cache_builtin_version(), *newest, *env;
	const char *aurl;
	int status = CLI_IO, nm = 0, rc, s;

	(void)ctx;
	(void)argc;
	(void)argv;
	env = getenv("TORCHGATE_ADVISORIES_URL");
	aurl = advisories_url ? advisories_url
	       : env && *env  ? env
			      : TG_ADVISORIES_URL;
	f.timeout = timeout;
	f.cacert = cacert;
	f.insecure = insecure;
	if ((rc = tg_cache_dir(&dir, &err))) {
		cli_error(CMD, "%s", err.msg);
		goto out;
	}
	if (cached_version(dir, &cached) ||
	    !(path = tg_cache_file(dir, TG_CACHE_TABLE))) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	newest = tg_table_version_cmp(cached, builtin) > 0 ? cached : builtin;
	if (offline) {
		if (newest == cached)
			cli_printf(
			    stdout,
			    "offline: nothing downloaded; the cached table "
			    "'%s' (table_version %s) is used\n",
			    path, cached);
		else
			cli_printf(stdout,
				   "offline: nothing downloaded; the built-in "
				   "table (table_version %s) is used\n",
				   builtin ? builtin : "none");
		status = cli_update_advisories_offline(CMD, dir);
		goto out;
	}
	env = getenv("TORCHGATE_TABLE_URL");
	f.url = url ? url : env && *env ? env : TG_TABLE_URL;
	if (!*f.url && *aurl) {
		status = CLI_OK; /* the advisories only */
		goto advisories;
	}
	if (!*f.url) {
		status = cli_usage_error(CMD, "no table URL: give --url URL or "
					      "set TORCHGATE_TABLE_URL");
		goto out;
	}
	if (insecure) /* loudly: --quiet does not silence it */
		cli_error(CMD, "warning: --insecure: the server's TLS "
			       "certificate is not verified");
	/* the validators of this URL, while the table is the one they
	 * came with (the helper checks its SHA-256) */
	if (cached)
		tg_cache_validators(dir, TG_CACHE_TABLE, f.url, &have);
	else
		have.etag[0] = have.last_modified[0] = have.sha256[0] = '\0';
	f.sha256 = sha256;
	f.etag = have.etag[0] ? have.etag : NULL;
	f.last_modified = have.last_modified[0] ? have.last_modified : NULL;
	f.cached = path;
	f.cached_sha256 = have.sha256;
	f.max = TG_TABLE_MAX;
	tg_buf_init(&body, TG_TABLE_MAX);
	status = cli_fetch_run(CMD, &f, &body, &got, &nm);
	if (status)
		goto advisories;
	if (nm) {
		cli_printf(
		    stdout,
		    "'%s' is not modified: the cached table (table_version "
		    "%s) stays\n",
		    f.url, cached);
		goto advisories;
	}
	rc = tg_table_parse(&t, body.data ? body.data : "", body.len, f.url,
			    &err);
	if (rc) {
		cli_error(CMD, "%s; the cache is unchanged", err.msg);
		status = rc == TG_ENOMEM ? CLI_IO : CLI_BAD_INPUT;
		goto advisories;
	}
	if (!t.table_version) {
		cli_error(CMD,
			  "'%s' has no table_version: it cannot be newer "
			  "than the built-in table; the cache is unchanged",
			  f.url);
		status = CLI_BAD_INPUT;
		goto advisories;
	}
	if (tg_table_version_cmp(t.table_version, newest) <= 0) {
		cli_printf(stdout,
			   "'%s' has table_version %s, not newer than the %s "
			   "table's %s: the cache is unchanged\n",
			   f.url, t.table_version,
			   newest == cached ? "cached" : "built-in",
			   newest ? newest : "none");
		goto advisories;
	}
	re.version = t.table_version;
	if ((rc = tg_cache_mkdir(dir, &err)) ||
	    (rc = tg_cache_store(dir, TG_CACHE_TABLE, body.data, body.len,
				 f.url, &got, still_newer, &re, &err)) < 0) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(rc);
		goto advisories;
	}
	if (rc == 1) { /* another update stored a newer one meanwhile */
		cli_printf(
		    stdout,
		    "'%s' has table_version %s, not newer than the cached "
		    "table's %s: the cache is unchanged\n",
		    f.url, t.table_version, re.now);
		status = CLI_OK;
		goto advisories;
	}
	cli_printf(stdout,
		   "updated '%s' from '%s': table_version %s (was %s, %s)\n",
		   path, f.url, t.table_version, newest ? newest : "none",
		   newest == cached ? "cached" : "built-in");
	status = CLI_OK;
advisories:
	/* the advisories by the same rules, whatever became of the table;
	 * the worse status of the two */
	if (*aurl) {
		s = cli_update_advisories(CMD, aurl, &f, dir);
		status = s > status ? s : status;
	}
out:
	tg_table_release(&t);
	tg_buf_release(&body);
	free(re.now);
	free(path);
	free(cached);
	free(dir);
	return status;
}

const struct cli_command cmd_update = {
    .name = CMD,
    .summary = "download a newer API table into the cache",
    .setup = CLI_QUIET | CLI_NO_OPERANDS,
    .opts = opts,
    .about = "Download the API table from URL and keep it in the cache\n"
	     "($XDG_CACHE_HOME/torchgate/apis.json, or ~/.cache/torchgate/),\n"
	     "where every table user finds it, only when it loads as the\n"
	     "built-in table does, matches --sha256 and its table_version is\n"
	     "newer than the built-in and the cached table's; otherwise the\n"
	     "cache is left byte for byte as it was. The transfer is done by\n"
	     "the helper torchgate-fetch (libcurl): TLS verified, timeouts,\n"
	     "a size cap, redirects to http and https only, retries after a\n"
	     "5xx or a timeout, a conditional GET, the proxy environment.\n"
	     "With an advisories URL, the security advisories are refreshed\n"
	     "by the same rules (advisories.json beside the table).",
    .exits = "Exit status: 0 updated, not modified or nothing newer, 2 "
	     "usage, 4 not a\n"
	     "valid table (or advisories) or a --sha256 mismatch, 5 the "
	     "transfer\n"
	     "failed, the network commands are not built, or the cache cannot "
	     "be\n"
	     "written; the higher of the table's and the advisories'.",
    .check = check,
    .run = run,
};
