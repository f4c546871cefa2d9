/* cli.h - what the subcommands share: messages, exit codes, input lines
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_CLI_CLI_H
#define TG_CLI_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "lib/table/cache.h"
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

struct cli_ctx;
struct cli_opt;

/* What the dispatcher sets up for a command before it runs (git's
 * RUN_SETUP): the shared options it parses and what it loads. */
enum cli_setup {
	CLI_QUIET = 1 << 0,	    /* -q, --quiet: ctx->quiet */
	CLI_TABLE = 1 << 1,	    /* --table FILE: ctx->table loaded */
	CLI_ENV = 1 << 2,	    /* --python, --prefix, --site-packages */
	CLI_TORCH = 1 << 3,	    /* probe; a torch required: ctx->torch */
	CLI_TORCH_VERSION = 1 << 4, /* --torch-version V instead of a torch */
	CLI_OWN_ARGS = 1 << 5,	    /* parses its own argv (subcommands) */
	CLI_NO_OPERANDS = 1 << 6,   /* an operand is a usage error */
};

/* One line of a synopsis, for a command with subcommands: the words
 * after the command's name ("match --batch"), n options of its table
 * from opts (opts NULL: none), the shared options of setup (enum
 * cli_setup) and the operands. */
struct cli_usage {
	const char *words;
	const struct cli_opt *opts;
	size_t n;
	unsigned setup;
	const char *operands;
};

struct cli_command {
	const char *name;
	const char *summary;	    /* one line, for 'torchgate --help' */
	unsigned setup;		    /* enum cli_setup */
	const struct cli_opt *opts; /* its own options (CLI_OPT_END) */
	const char *operands;	    /* its synopsis's operands, or NULL */
	/* Optional: the lines of its synopsis, one per subcommand (words
	 * NULL ends); else one line from its option tables and operands */
	const struct cli_usage *usage;
	const char *about; /* what it does, for --help */
	const char *exits; /* its exit status, for --help */
	/* Optional: usage checks on the operands, before any setup. */
	int (*check)(struct cli_ctx *ctx, int argc, char **argv);
	/* Optional: with the table loaded, before the probe. */
	int (*resolve)(struct cli_ctx *ctx, int argc, char **argv);
	/* The command, given its operands (argv[0] the first). */
	int (*run)(struct cli_ctx *ctx, int argc, char **argv);
};

/* Print a command's --help to f (from its tables). */
void cli_command_help(FILE *f, const struct cli_command *c);

/* A line of a report on f (stdout, or where --fix reports go): fmt
 * printed with every %s argument escaped as messages are (tg_str_addf),
 * so that a path, a name or a version string read from a file can
 * neither drive a terminal nor forge a line. */
void cli_printf(FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "torchgate: <cmd>: <message>" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* As cli_error, then "try 'torchgate <cmd> --help'"; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "torchgate: <cmd>: out of memory"; returns CLI_IO, the status of a
 * failed allocation (torchgate(1) EXIT STATUS). */
int cli_out_of_memory(const char *cmd);
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
 * newline); answer prints exactly one line and returns 0, or prints
 * nothing and returns TG_ENOMEM, which ends the batch with status 5.
 * Returns the exit status. */
int cli_batch(const char *cmd, int (*answer)(char *line, size_t len, void *ctx),
	      void *ctx);

/* Load the table at path, or when path is NULL the cached table when it
 * is valid and newer, else the built-in one (table/cache.h); *src says
 * which, *from (a new string or NULL) the file. A cache that cannot be
 * used is a one-line warning (unless quiet), never a failure. Prints the
 * loader's message and returns its exit status on failure. */
int cli_load_table(const char *cmd, const char *path, int quiet,
		   struct tg_table *t, enum tg_cache_source *src, char **from);

/* The usage error for an API id that is not in t, with up to four
 * "did you mean" ids (tg_table_suggest); returns CLI_USAGE. */
int cli_unknown_api(const char *cmd, const struct tg_table *t, const char *id);

/* --format=text|json for the commands that have only those two: sets
 * *json, or prints the usage error and returns CLI_USAGE. */
int cli_text_or_json(const char *cmd, const char *arg, int *json);

/* Flush and close stdout; a write error becomes CLI_IO. */
int cli_close_stdout(const char *cmd, int status);

#endif
