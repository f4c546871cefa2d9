/* cli.h - what the subcommands share: messages, exit codes, input lines
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_CLI_H
#define TG_CLI_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "lib/util/buf.h"
#include "lib/util/err.h"

/* Exit status, the same for every command (SPEC.md). */
enum cli_exit {
	CLI_OK = 0,
	CLI_FAILED = 1, /* a gate failed or findings were reported */
	CLI_USAGE = 2,
	CLI_NO_TORCH = 3,
	CLI_BAD_INPUT = 4,
	CLI_IO = 5,
};

/* Longest input line a command reads (stdin batch modes). */
#define CLI_LINE_MAX ((size_t)1 << 20)

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* "torchgate: <cmd>: <message>" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* As cli_error, then "try 'torchgate <cmd> --help'"; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* After getopt_long (optstring starting with ':') returned c, '?' or
 * ':', for an option of argv that it rejected: print the usage error
 * ("unknown option", "option '--x' needs a value"); returns CLI_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv);

/* Map a library error code to an exit status. */
int cli_exit_for(int code);

/* Read one line of f into line (without its newline). Returns 1 for a
 * line, 0 at end of input, or a negative TG_E* code (TG_ELIMIT when the
 * line is longer than CLI_LINE_MAX). */
int cli_read_line(FILE *f, struct tg_buf *line);

/* Report a cli_read_line failure (rc < 0) at line lineno of standard
 * input; returns the exit status (CLI_BAD_INPUT for an overlong line,
 * CLI_IO for a read error). */
int cli_read_error(const char *cmd, int rc, size_t lineno);

/* Batch mode: call answer() for each line of standard input (without its
 * newline); answer prints exactly one line. Returns the exit status. */
int cli_batch(const char *cmd,
	      void (*answer)(char *line, size_t len, void *ctx), void *ctx);

struct tg_table;
/* Load the table at path, or the built-in one when path is NULL; prints
 * the loader's message and returns its exit status on failure. */
int cli_load_table(const char *cmd, const char *path, struct tg_table *t);

/* --format=text|json for the commands that have only those two: sets
 * *json, or prints the usage error and returns CLI_USAGE. */
int cli_text_or_json(const char *cmd, const char *arg, int *json);

/* Flush and close stdout; a write error becomes CLI_IO. */
int cli_close_stdout(const char *cmd, int status);

#endif
