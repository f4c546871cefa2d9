/* commands.h - the subcommands, one cmd_<name>.c each
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_COMMANDS_H
#define TG_CLI_COMMANDS_H

int cmd_check(int argc, char **argv);
int cmd_discover(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_version(int argc, char **argv);

#endif
