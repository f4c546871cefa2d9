/* cmd_discover.c - torchgate discover: the deprecations torch declares
 * SPDX-License-Identifier: MIT
 *
 * Harvests what the installed torch says about itself (tg_discover),
 * compares it with the table both ways (tg_tablediff: declarations the
 * table has no entry for, and Python entries the table calls deprecated
 * in this version whose files exist but declare nothing) and prints the
 * report (render/discovery_*). A declaration without an entry is excluded
 * when the exclusion list (data/apis-excluded.json, or --exclusions
 * FILE) names it, else unaccounted. Exit 1 when a declaration is
 * unaccounted or an entry not declared: the gate of a table against an
 * installed torch.
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
#include "lib/discover/discover.h"
#include "lib/discover/tablediff.h"
#include "lib/render/discovery_format.h"
#include "lib/table/evidence.h"
#include "lib/util/path.h"
#include "lib/table/table.h"

#define CMD "discover"

static const char *format, *exclusions;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "F", "text (default) or json",
     formats, 0},
    {CLI_OPT_VALUE, "exclusions", 0, &exclusions, "FILE",
     "use the exclusion list FILE, not the built-in one", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

/* The report goes out in pieces of about 1 MiB. */
static void
spill(struct tg_buf *out, void *arg)
{
	(void)arg;
	fputs(out->data, stdout);
	tg_buf_clear(out);
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	const struct tg_table *table = &ctx->table;
	const struct tg_torch *t = ctx->torch;
	struct tg_decls decls = TG_DECLS_INIT;
	struct tg_excluded excl = TG_EXCLUDED_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_tablediff df;
	struct tg_discovery_report report;
	char *base = NULL;
	size_t k;
	int r, status = CLI_OK, quiet = ctx->quiet;

	(void)argc;
	(void)argv;
	memset(&df, 0, sizeof(df));
	r = exclusions ? tg_excluded_load(&excl, exclusions, &err)
		       : tg_excluded_default(&excl, &err);
	if (r) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	r = tg_discover(&decls, t->dir, t->include_dir, &err);
	if (r) {
		/* A directory that cannot be read, too many files, memory:
		 * the install could not be read whole. */
		cli_error(CMD, "%s", err.msg);
		status = CLI_IO;
		goto out;
	}
	for (k = 0; !quiet && k < decls.notes.n; k++)
		cli_error(CMD, "warning: %s", decls.notes.v[k].message);
	/* a see of the user's list that names no entry links nothing: say
	 * so (a typo, or another --table); the built-in list's are checked
	 * against the built-in table by the tests */
	for (k = 0; !quiet && exclusions && k < excl.n; k++)
		if (excl.v[k].see && !tg_table_find(table, excl.v[k].see))
			cli_error(CMD,
				  "warning: the exclusion of %s '%s' names "
				  "'%s' as its see, which the table has no "
				  "entry for",
				  excl.v[k].kind, excl.v[k].symbol,
				  excl.v[k].see);
	base = tg_path_dirname(t->dir);
	if (!base || tg_tablediff_run(&df, &decls, table, &excl, t,
				      &t->src[t->version_from].v)) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	report.torch = t;
	report.decls = &decls;
	report.diff = &df;
	report.base = base;
	report.spill = spill;
	report.arg = NULL;
	if (format && strcmp(format, "json") == 0
		? tg_discovery_json_write(&report, &out)
		: tg_discovery_text_write(&report, &out)) {
		cli_error(CMD, "out of memory");
		status = CLI_IO;
		goto out;
	}
	fputs(out.data, stdout);
	if (df.nunknown > df.nexcluded || df.nmissing > df.nexcused)
		status = CLI_FAILED;
out:
	tg_tablediff_release(&df);
	free(base);
	tg_buf_release(&out);
	tg_discover_release(&decls);
	tg_excluded_release(&excl);
	return status;
}

const struct cli_command cmd_discover = {
    .name = CMD,
    .summary = "the deprecations this torch declares, against the table",
    .setup = CLI_QUIET | CLI_TABLE | CLI_ENV | CLI_TORCH | CLI_NO_OPERANDS,
    .opts = opts,
    .about =
	"Harvest the deprecations the installed torch declares about itself:\n"
	"@deprecated(...) decorators, warnings.warn(...) with FutureWarning,\n"
	"DeprecationWarning or a message about deprecation in its Python\n"
	"files; C10_DEPRECATED_MESSAGE, [[deprecated]] and\n"
	"TORCH_WARN_DEPRECATION in its headers. For each: the name it "
	"applies\n"
	"to, file:line, the message and the replacement the message names.\n"
	"Then compare with the table: declarations it has no entry for\n"
	"(excluded when the exclusion list names them, else unaccounted), "
	"and\n"
	"entries it calls deprecated in this torch that torch does not "
	"declare.\n"
	"Files only: torch is never imported.",
    .exits =
	"Exit status: 0 every declaration tabled or excluded and every "
	"deprecated\n"
	"entry declared, 1 not, 2 usage, 3 no torch found, 4 a bad table,\n"
	"exclusion list or torch metadata, 5 I/O failure.",
    .run = run,
};
