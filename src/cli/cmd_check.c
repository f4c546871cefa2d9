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
#include "lib/render/check_format.h"
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

/* --which-table: where the table came from and its table_version. */
static int
which(struct cli_ctx *ctx)
{
	struct tg_check_which w = {tg_cache_source_name(ctx->table_src),
				   ctx->table_from, ctx->table.table_version,
				   tg_cache_builtin_version()};
	struct tg_buf out = TG_BUF_INIT;
	int rc;

	ctx->done = 1;
	rc = format && strcmp(format, "json") == 0
		 ? tg_check_json_which(&w, &out)
		 : tg_check_text_which(&w, &out);
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
	struct tg_check_report report;
	const struct tg_torch *t = ctx->torch;
	size_t n = argc ? (size_t)argc : ctx->table.n, k;
	struct tg_check_row *rows = calloc(n ? n : 1, sizeof(*rows));
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
	report.torch = t;
	report.torch_version = ctx->torch_version;
	report.newest = newest;
	report.past = past;
	report.rows = rows;
	report.n = n;
	if (format && strcmp(format, "json") == 0
		? tg_check_json_write(&report, &out)
		: tg_check_text_write(&report, &out)) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	fputs(out.data, stdout);
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
