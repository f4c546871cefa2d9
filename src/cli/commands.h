/* commands.h - the subcommands, one cmd_<name>.c each
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_COMMANDS_H
#define TG_CLI_COMMANDS_H

#include "cli/cli.h"

extern const struct cli_command cmd_audit;
extern const struct cli_command cmd_check;
extern const struct cli_command cmd_discover;
extern const struct cli_command cmd_emit;
extern const struct cli_command cmd_env;
extern const struct cli_command cmd_flags;
extern const struct cli_command cmd_help;
extern const struct cli_command cmd_probe;
extern const struct cli_command cmd_releases;
extern const struct cli_command cmd_require;
extern const struct cli_command cmd_update;
extern const struct cli_command cmd_verify;
extern const struct cli_command cmd_version;

/* Every command, in the order 'torchgate --help' lists them; NULL ends. */
extern const struct cli_command *const cli_commands[];

/* The command named name exactly, or NULL. */
const struct cli_command *cli_command_find(const char *name);

/* 'torchgate --help': the commands and the global facts, to f. */
void cli_usage(FILE *f);

#endif
