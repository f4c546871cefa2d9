/* setup.h - what the dispatcher does for every command before it runs
 * SPDX-License-Identifier: MIT
 *
 * A command declares, in its struct cli_command, the shared options and
 * the setup it needs (enum cli_setup); cli_setup_run() parses argv from
 * the option tables, answers --help, and then, in this order: the
 * command's check, --torch-version, the table, the command's resolve,
 * the probe and its torch; then runs the command and releases all of it.
 */
#ifndef TG_CLI_SETUP_H
#define TG_CLI_SETUP_H

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "lib/pep/version.h"
#include "lib/table/table.h"

struct cli_ctx {
	const struct cli_command *cmd;
	const char *name; /* cmd->name, for messages */
	int quiet;
	const char *table_path;
	struct tg_table table;		/* CLI_TABLE */
	enum tg_cache_source table_src; /* where table came from */
	char *table_from;		/* its file, NULL when built in */
	const char *torch_version;
	struct tg_version given; /* --torch-version, parsed */
	struct cli_env env;
	const struct tg_torch *torch; /* CLI_TORCH, unless --torch-version */
	/* the torch version to judge: --torch-version's, else the torch's */
	const struct tg_version *version;
	int done; /* set by resolve: the command is done, status 0 */
};

/* Run c with argv (argv[0] the command's name); returns the exit status. */
int cli_setup_run(const struct cli_command *c, int argc, char **argv);

#endif
