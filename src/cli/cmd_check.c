/* cmd_check.c - torchgate check: lifecycle status of torch APIs
 * SPDX-License-Identifier: MIT
 *
 * For the probed torch (or --torch-version V): each API's status from
 * the table and, with an install, whether the installed files confirm
 * it. Exit 1 when an API asked for by name is removed or not yet in that
 * torch, so that `torchgate check torch.amp.custom_fwd` gates a build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/table/cache.h"
#include "lib/table/evidence.h"
#include "lib/table/table.h"
#include "lib/pep/version.h"

#define CMD "check"

static const char *format;
static int which_table;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "F", "text (default) or json",
     formats, 0},
    {CLI_OPT_SWITCH, "which-table", 0, &which_table, NULL,
     "say which table is used (cache, file or built-in), and stop", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

struct row {
	const struct tg_api *api;
	enum tg_api_status status;
	int repl_exists;
	int checked;
	struct tg_evidence ev;
};

static void
text_row(const struct row *r)
{
	const struct tg_api *a = r->api;

	printf("%s: %s", a->id, tg_api_status_name(r->status));
	switch (r->status) {
	case TG_API_DEPRECATED:
		printf(" since %s", a->deprecated.version);
		if (a->repl_text && a->repl_since)
			printf("; use %s (%s in this torch)", a->repl_text,
			       r->repl_exists ? "present" : "not yet");
		else if (a->repl_text)
			printf("; use %s", a->repl_text);
		if (a->deprecated.announced_by)
			printf(" (its removal in %s was announced and did not "
			       "happen)",
			       a->deprecated.announced_by);
		break;
	case TG_API_REMOVED:
		printf(" in %s", a->removed.version);
		if (a->repl_text)
			printf("; use %s", a->repl_text);
		break;
	case TG_API_NOT_YET:
		printf(" (introduced in %s)", a->introduced.version);
		break;
	default:
		break;
	}
	if (a->is_private)
		fputs(" [private]", stdout);
	if (r->checked)
		printf(" [%s%s%s]", tg_evidence_name(r->ev.verdict),
		       r->ev.detail[0] ? ": " : "", r->ev.detail);
	putchar('\n');
}

static void
json_event(struct tg_jsonw *w, const char *key, const struct tg_event *e)
{
	tg_jsonw_key(w, key);
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "version", e->version);
	tg_jsonw_kstr(w, "status", tg_api_fact_name(e->status));
	tg_jsonw_end(w);
}

static void
json_row(struct tg_jsonw *w, const struct row *r)
{
	const struct tg_api *a = r->api;

	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->id);
	tg_jsonw_kstr(w, "status", tg_api_status_name(r->status));
	tg_jsonw_kbool(w, "private", a->is_private);
	json_event(w, "introduced", &a->introduced);
	json_event(w, "deprecated", &a->deprecated);
	json_event(w, "removed", &a->removed);
	tg_jsonw_key(w, "replacement");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "id", a->repl_id);
	tg_jsonw_kstr(w, "text", a->repl_text);
	tg_jsonw_kstr(w, "since", a->repl_since);
	tg_jsonw_key(w, "exists");
	tg_jsonw_tristate(w, a->repl_since ? r->repl_exists : -1);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "warning");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "category", a->warn_category);
	tg_jsonw_kstr(w, "since", a->warn_since);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "evidence");
	if (r->checked) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "verdict", tg_evidence_name(r->ev.verdict));
		tg_jsonw_kstr(w, "detail",
			      r->ev.detail[0] ? r->ev.detail : NULL);
		tg_jsonw_end(w);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_end(w);
}

/* The whole JSON report into out; 0 or the buffer's failure. */
static int
json_report(struct tg_buf *out, const struct tg_torch *t,
	    const char *torch_version, const char *newest, int past,
	    const struct row *rows, size_t n)
{
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", 1);
	tg_jsonw_key(&w, "torch");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "version", t ? t->version : torch_version);
	tg_jsonw_kstr(&w, "from", t ? "install" : "--torch-version");
	tg_jsonw_kstr(&w, "table_newest", newest);
	tg_jsonw_kbool(&w, "extrapolated", past);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "apis");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < n; k++)
		json_row(&w, &rows[k]);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	return tg_jsonw_finish(&w);
}

/* --which-table: where the table came from and its table_version. */
static int
which(struct cli_ctx *ctx)
{
	const char *src = tg_cache_source_name(ctx->table_src);
	const char *tv = ctx->table.table_version;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_jsonw w;
	int rc;

	ctx->done = 1;
	if (!(format && strcmp(format, "json") == 0)) {
		printf("%s %s, table_version %s\n", src,
		       ctx->table_from ? ctx->table_from : "(in the binary)",
		       tv ? tv : "none");
		return CLI_OK;
	}
	tg_jsonw_init(&w, &out);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", 1);
	tg_jsonw_kstr(&w, "source", src);
	tg_jsonw_kstr(&w, "path", ctx->table_from);
	tg_jsonw_kstr(&w, "table_version", tv);
	tg_jsonw_kstr(&w, "builtin_table_version", tg_cache_builtin_version());
	tg_jsonw_end(&w);
	rc = tg_jsonw_finish(&w);
	if (!rc)
		fputs(out.data, stdout);
	tg_buf_release(&out);
	return rc ? cli_out_of_memory(CMD) : CLI_OK;
}

/* Every API named must be in the table. */
static int
resolve(struct cli_ctx *ctx, int argc, char **argv)
{
	int k;

	if (which_table) {
		if (argc)
			return cli_usage_error(CMD, "--which-table takes no "
						    "API");
		return which(ctx);
	}
	for (k = 0; k < argc; k++)
		if (!tg_table_find(&ctx->table, argv[k]))
			return cli_unknown_api(CMD, &ctx->table, argv[k]);
	return CLI_OK;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_evidence_cache cache = TG_EVIDENCE_CACHE_INIT;
	const struct tg_torch *t = ctx->torch;
	size_t n = argc ? (size_t)argc : ctx->table.n, k;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	const char *newest = tg_table_newest(&ctx->table);
	int status = CLI_OK;
	int past = ctx->version && tg_table_is_past(&ctx->table, ctx->version);

	if (!rows) {
		cli_error(CMD, "out of memory");
		return CLI_IO;
	}
	if (past && !ctx->quiet)
		cli_error(CMD,
			  "warning: torch %.200s is past the newest torch the "
			  "table knows (%s): its statuses are extrapolated",
			  t ? t->version : ctx->torch_version, newest);
	for (k = 0; k < n; k++) {
		rows[k].api = argc ? tg_table_find(&ctx->table, argv[k])
				   : &ctx->table.apis[k];
		rows[k].status = tg_api_status(rows[k].api, ctx->version);
		rows[k].repl_exists =
		    tg_api_replacement_exists(rows[k].api, ctx->version);
		if (t) {
			if (tg_evidence_check(rows[k].api, t, rows[k].status,
					      &cache, &rows[k].ev, &err)) {
				cli_error(CMD, "%s", err.msg);
				status = CLI_IO;
				goto out;
			}
			rows[k].checked = 1;
		}
		if (argc && (rows[k].status == TG_API_REMOVED ||
			     rows[k].status == TG_API_NOT_YET))
			status = CLI_FAILED;
	}
	if (format && strcmp(format, "json") == 0) {
		if (json_report(&out, t, ctx->torch_version, newest, past, rows,
				n)) {
			cli_error(CMD, "out of memory");
			status = CLI_IO;
			goto out;
		}
		fputs(out.data, stdout);
	} else {
		printf("torch %s (%s)\n", t ? t->version : ctx->torch_version,
		       t ? t->dir : "--torch-version, no install");
		for (k = 0; k < n; k++)
			text_row(&rows[k]);
	}
out:
	tg_evidence_cache_release(&cache);
	free(rows);
	tg_buf_release(&out);
	return status;
}

const struct cli_command cmd_check = {
    .name = CMD,
    .summary = "lifecycle status of torch APIs in this torch",
    .setup = CLI_QUIET | CLI_TABLE | CLI_ENV | CLI_TORCH | CLI_TORCH_VERSION,
    .opts = opts,
    .operands = "[API...]",
    .about = "The lifecycle status of torch APIs (all the table's, or the "
	     "ones\n"
	     "named) in the installed torch or in torch V: available, "
	     "deprecated\n"
	     "(since when, the replacement, whether it exists in that torch),\n"
	     "removed or not-yet; private APIs say so. With an install, the\n"
	     "installed files are searched for each API's evidence: "
	     "confirmed,\n"
	     "contradicted (the files say otherwise: a nightly, a backport, a\n"
	     "table error) or unverifiable.",
    .exits = "Exit status: 0 every named API is available or deprecated, 1 "
	     "one is\n"
	     "removed or not yet there, 2 usage (an API not in the table), 3 "
	     "no\n"
	     "torch found, 4 a bad table or bad torch metadata, 5 I/O failure.",
    .resolve = resolve,
    .run = run,
};
