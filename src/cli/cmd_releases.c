/* cmd_releases.c - torchgate releases: the released torch versions
 * SPDX-License-Identifier: MIT
 *
 * Downloads the index (PyPI's JSON API or a PEP 691 page, through the
 * helper torchgate-fetch), reads it with table/index, keeps the document
 * in the cache when it is valid (atomically; a conditional GET next
 * time), and prints the released versions in PEP 440 order. --offline,
 * or a transfer that fails (no network, a refused or timed-out
 * connection, an HTTP error, the network commands not built), falls
 * back to the cached index, then to the release list built into
 * torchgate, and says which on stderr.
 *
 * Exit: 0 a list was printed (also a fallback's); 2 usage; 4 the index
 * answered with a document that is not an index (the cache is kept as
 * it was); 5 the cache could not be written or stdout failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/fetch.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/table/cache.h"
#include "lib/table/index.h"
#include "lib/util/file.h"
#include "lib/render/releases_format.h"

#define CMD "releases"
#define ACCEPT "application/vnd.pypi.simple.v1+json, application/json;q=0.9"

static const char *index_url, *format, *timeout, *cacert;
static int offline, pre, insecure;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_VALUE, "index", 0, &index_url, "URL",
     "read the index at URL (default: $TORCHGATE_INDEX_URL,\n"
     "then the URL set at configure time, PyPI's)",
     NULL, 0},
    {CLI_OPT_CHOICE, "format", 0, &format, "F", "text (default) or json",
     formats, 0},
    {CLI_OPT_SWITCH, "offline", 0, &offline, NULL,
     "download nothing: the cached list, else the built-in one", NULL, 0},
    {CLI_OPT_SWITCH, "pre", 0, &pre, NULL, "list pre and dev releases too",
     NULL, 0},
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
	if (timeout)
		return cli_fetch_timeout(CMD, timeout);
	return CLI_OK;
}

/* The cached index into ix: 1 loaded, 0 none usable, or TG_ENOMEM. */
static int
load_cached(const char *path, struct tg_index *ix)
{
	char *text = NULL;
	size_t len;
	int absent = 0, rc;

	rc = tg_file_read(path, TG_INDEX_MAX, &text, &len, &absent, NULL);
	if (!rc && !absent)
		rc = tg_index_parse(ix, text, len, path, pre, NULL);
	free(text);
	if (rc == TG_ENOMEM)
		return rc;
	return !rc && !absent;
}

static int
print(const struct tg_index *ix, const char *source, const char *from)
{
	struct tg_buf out = TG_BUF_INIT;
	int rc = format && strcmp(format, "json") == 0
		     ? tg_releases_json_write(ix, source, from, &out)
		     : tg_releases_text_write(ix, &out);

	if (!rc)
		fputs(out.data, stdout);
	tg_buf_release(&out);
	return rc ? cli_out_of_memory(CMD) : CLI_OK;
}

/* The cached index, else the built-in list, saying which and why. */
static int
fallback(const char *why, const char *path)
{
	struct tg_index ix = TG_INDEX_INIT;
	int rc = path ? load_cached(path, &ix) : 0, status;

	if (rc < 0)
		return cli_out_of_memory(CMD);
	if (rc) {
		cli_error(CMD, "%s: the cached index '%s' is used", why, path);
		status = print(&ix, "cache", path);
	} else {
		cli_error(CMD,
			  "%s: no valid cached index; the built-in list "
			  "(final releases only) is used",
			  why);
		status = print(NULL, "built-in", NULL);
	}
	tg_index_release(&ix);
	return status;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_index ix = TG_INDEX_INIT;
	struct tg_buf body = TG_BUF_INIT;
	struct cli_fetch f = {0};
	struct tg_cache_validators v, got;
	char *dir = NULL, *path = NULL;
	const char *env;
	int status = CLI_IO, nm = 0, rc, have;

	(void)ctx;
	(void)argc;
	(void)argv;
	rc = tg_cache_dir(&dir, &err);
	if (rc == TG_ENOMEM) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	if (dir && !(path = tg_cache_file(dir, TG_CACHE_INDEX))) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	if (offline) {
		status = fallback("offline", path);
		goto out;
	}
	env = getenv("TORCHGATE_INDEX_URL");
	f.url = index_url ? index_url : env && *env ? env : TG_INDEX_URL;
	if (insecure)
		cli_error(CMD, "warning: --insecure: the server's TLS "
			       "certificate is not verified");
	have = path ? load_cached(path, &ix) : 0;
	if (have < 0) {
		status = cli_out_of_memory(CMD);
		goto out;
	}
	tg_index_release(&ix);
	v.etag[0] = v.last_modified[0] = v.sha256[0] = '\0';
	if (have)
		tg_cache_validators(dir, TG_CACHE_INDEX, f.url, &v);
	f.timeout = timeout;
	f.etag = v.etag[0] ? v.etag : NULL;
	f.last_modified = v.last_modified[0] ? v.last_modified : NULL;
	f.cached = path;
	f.cached_sha256 = v.sha256;
	f.accept = ACCEPT;
	f.cacert = cacert;
	f.insecure = insecure;
	f.max = TG_INDEX_MAX;
	tg_buf_init(&body, TG_INDEX_MAX);
	status = cli_fetch_run(CMD, &f, &body, &got, &nm);
	if (status == CLI_IO) {
		status = fallback("the index could not be read", path);
		goto out;
	}
	if (status)
		goto out;
	if (nm) {
		status = fallback("not modified", path);
		goto out;
	}
	rc = tg_index_parse(&ix, body.data ? body.data : "", body.len, f.url,
			    pre, &err);
	if (rc) {
		cli_error(CMD, "%s; the cache is unchanged", err.msg);
		status = rc == TG_ENOMEM ? CLI_IO : CLI_BAD_INPUT;
		goto out;
	}
	if (!dir)
		cli_error(CMD, "warning: %s: the index is not cached", err.msg);
	else if ((rc = tg_cache_mkdir(dir, &err)) ||
		 (rc = tg_cache_store(dir, TG_CACHE_INDEX, body.data, body.len,
				      f.url, &got, NULL, NULL, &err))) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	status = print(&ix, "index", f.url);
out:
	tg_index_release(&ix);
	tg_buf_release(&body);
	free(path);
	free(dir);
	return status;
}

const struct cli_command cmd_releases = {
    .name = CMD,
    .summary = "the released torch versions, from the package index",
    .setup = CLI_NO_OPERANDS,
    .opts = opts,
    .about = "The released torch versions, one per line in PEP 440 order, "
	     "from a\n"
	     "PyPI JSON API document (/pypi/torch/json) or a PEP 691 simple "
	     "index;\n"
	     "a version whose files are all yanked, or which has none, is "
	     "not\n"
	     "released. The index is kept in the cache "
	     "($XDG_CACHE_HOME/torchgate/)\n"
	     "when valid, where require finds it. --offline or a failed "
	     "transfer\n"
	     "uses the cached index, then the built-in list, and says which.",
    .exits = "Exit status: 0 a list was printed, 2 usage, 4 the index is "
	     "not a valid\n"
	     "index document, 5 the cache cannot be written.",
    .check = check,
    .run = run,
};
