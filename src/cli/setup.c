/* setup.c - what the dispatcher does for every command before it runs
 * SPDX-License-Identifier: MIT
 *
 * One place parses the shared options (--quiet, --table, --torch-version
 * and the environment), loads the table and probes the environment, in
 * the same order for every command, so that the same mistake gets the
 * same message everywhere.
 */
#include "cli/setup.h"

#include <stdlib.h>
#include <string.h>

#include "cli/opt.h"

/* The most options of a command's own table in one synopsis line. */
#define MAX_LINE_OPTS 32

static const char env_heading[] =
    "environment (default: $VIRTUAL_ENV, then $CONDA_PREFIX, then\n"
    "python3 on PATH, read from files; Python is never run):";

/* The shared option tables the setup flags ask for, into tables. */
static void
shared_options(struct cli_ctx *ctx, unsigned setup, struct cli_opt quiet[2],
	       struct cli_opt table[2], struct cli_opt tv[2],
	       struct cli_opt env[4])
{
	const struct cli_opt end = {CLI_OPT_END, NULL, 0,    NULL,
				    NULL,	 NULL, NULL, 0};
	const struct cli_opt q = {
	    CLI_OPT_SWITCH,	     "quiet", 'q', &ctx->quiet, NULL,
	    "no warnings on stderr", NULL,    0};
	const struct cli_opt t = {CLI_OPT_VALUE,
				  "table",
				  0,
				  &ctx->table_path,
				  "FILE",
				  "use FILE, not the cached or built-in table\n"
				  "(check --which-table says which is used)",
				  NULL,
				  0};
	const struct cli_opt v = {CLI_OPT_VALUE,
				  "torch-version",
				  0,
				  &ctx->torch_version,
				  "V",
				  "judge for torch V, no install needed",
				  NULL,
				  0};

	quiet[0] = setup & CLI_QUIET ? q : end;
	table[0] = setup & CLI_TABLE ? t : end;
	tv[0] = setup & CLI_TORCH_VERSION ? v : end;
	quiet[1] = table[1] = tv[1] = end;
	cli_env_options(&ctx->env, env);
	if (!(setup & CLI_ENV))
		env[0] = end;
}

/* The synopsis of one line of usage: [-q], --table, its own options,
 * then --torch-version or the environment, then the operands. */
static void
usage_line(FILE *f, const char *lead, const char *name,
	   const struct cli_usage *l)
{
	struct cli_ctx ctx;
	struct cli_opt quiet[2], table[2], tv[2], env[4], own[MAX_LINE_OPTS];
	const struct cli_opt *tables[] = {table, own, quiet, tv, env, NULL};
	char words[128];
	const char *first = NULL;
	size_t k, n = l->words ? strcspn(l->words, " ") : 0;

	memset(&ctx, 0, sizeof(ctx));
	cli_env_init(&ctx.env);
	shared_options(&ctx, l->setup, quiet, table, tv, env);
	/* --torch-version V excludes the environment: one group */
	if (tv[0].kind != CLI_OPT_END)
		env[0].usage |= CLI_OPT_USAGE_OR;
	memset(own, 0, sizeof(own)); /* CLI_OPT_END */
	for (k = 0; l->opts && k < l->n && k + 1 < MAX_LINE_OPTS &&
		    l->opts[k].kind != CLI_OPT_END;
	     k++)
		own[k] = l->opts[k];
	/* "torchgate version match", then "--batch" as the first piece */
	snprintf(words, sizeof(words), "torchgate %s%s%.*s", name, n ? " " : "",
		 (int)n, n ? l->words : "");
	if (n && l->words[n])
		first = l->words + n + 1;
	cli_opt_usage(f, lead, words, first, tables, l->operands);
}

void
cli_command_help(FILE *f, const struct cli_command *c)
{
	struct cli_ctx ctx;
	struct cli_opt quiet[2], table[2], tv[2], env[4];
	struct cli_usage one = {NULL, c->opts, (size_t)-1, c->setup,
				c->operands};
	size_t k;

	memset(&ctx, 0, sizeof(ctx));
	cli_env_init(&ctx.env);
	shared_options(&ctx, c->setup, quiet, table, tv, env);
	if (!c->usage)
		usage_line(f, "usage: ", c->name, &one);
	for (k = 0; c->usage && c->usage[k].words; k++)
		usage_line(f, k ? "       " : "usage: ", c->name, &c->usage[k]);
	fprintf(f, "\n%s\n\n", c->about);
	cli_opt_help(f, NULL, table);
	cli_opt_help(f, NULL, tv);
	cli_opt_help(f, NULL, c->opts);
	cli_opt_help(f, NULL, quiet);
	if (c->setup & CLI_ENV)
		cli_opt_help(f, env_heading, env);
	fprintf(f, "\n%s\n", c->exits);
}

int
cli_setup_run(const struct cli_command *c, int argc, char **argv)
{
	struct cli_ctx ctx; /* the option tables point into it */
	struct cli_opt quiet[2], table[2], tv[2], env[4];
	const struct cli_opt *tables[6];
	struct tg_err err = TG_ERR_INIT;
	int first = 1, help = 0, status, rc;

	memset(&ctx, 0, sizeof(ctx));
	ctx.cmd = c;
	ctx.name = c->name;
	cli_env_init(&ctx.env);
	shared_options(&ctx, c->setup, quiet, table, tv, env);
	tables[0] = c->opts;
	tables[1] = quiet;
	tables[2] = table;
	tables[3] = tv;
	tables[4] = env;
	tables[5] = NULL;
	if (c->setup & CLI_OWN_ARGS) {
		/* subcommands: the command parses with cli_opt_parse itself */
		status = c->run(&ctx, argc, argv);
		goto out;
	}
	if (cli_opt_parse(c->name, tables, argc, argv, &first, &help))
		return CLI_USAGE;
	if (help) {
		cli_command_help(stdout, c);
		return CLI_OK;
	}
	argc -= first;
	argv += first;
	if ((c->setup & CLI_NO_OPERANDS) && argc) {
		status = cli_usage_error(c->name, "unexpected argument '%s'",
					 argv[0]);
		goto out;
	}
	if (c->check && (status = c->check(&ctx, argc, argv)) != CLI_OK)
		goto out;
	if (ctx.torch_version) {
		if (ctx.env.python || ctx.env.prefix || ctx.env.sites.n) {
			status =
			    cli_usage_error(c->name, "--torch-version excludes "
						     "--python, --prefix and "
						     "--site-packages");
			goto out;
		}
		rc = tg_version_parse(&ctx.given, ctx.torch_version,
				      strlen(ctx.torch_version), &err);
		if (rc) {
			status = rc == TG_ENOMEM
				     ? cli_out_of_memory(c->name)
				     : cli_usage_error(c->name,
						       "--torch-version: %s",
						       err.msg);
			goto out;
		}
		ctx.version = &ctx.given;
	}
	if ((c->setup & CLI_TABLE) &&
	    (status =
		 cli_load_table(c->name, ctx.table_path, ctx.quiet, &ctx.table,
				&ctx.table_src, &ctx.table_from)))
		goto out;
	if (c->resolve &&
	    ((status = c->resolve(&ctx, argc, argv)) != CLI_OK || ctx.done))
		goto out;
	if ((c->setup & CLI_TORCH) && !ctx.torch_version) {
		status = cli_env_probe(c->name, &ctx.env);
		if (!status)
			status = cli_env_torch(c->name, &ctx.env, ctx.quiet,
					       &ctx.torch);
		if (status)
			goto out;
		ctx.version = &ctx.torch->src[ctx.torch->version_from].v;
	}
	status = c->run(&ctx, argc, argv);
out:
	tg_version_release(&ctx.given);
	tg_table_release(&ctx.table);
	free(ctx.table_from);
	cli_env_release(&ctx.env);
	return status;
}
