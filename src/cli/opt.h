/* opt.h - command options declared once: parsing and --help from one table
 * SPDX-License-Identifier: MIT
 *
 * A command lists its options in an array of struct cli_opt ending with
 * CLI_OPT_END; each entry says where its value goes. cli_opt_parse()
 * builds getopt_long's arrays from the tables, stores the values, checks
 * choices and list limits, and words the usage errors (with "did you
 * mean" for a mistyped long option); cli_opt_help() prints the option
 * lines of --help and cli_opt_usage() its synopsis, so that the usage
 * line names every option the parser takes. Options may follow operands
 * (GNU order); "--" ends them.
 */
#ifndef TG_CLI_OPT_H
#define TG_CLI_OPT_H

#include <stddef.h>
#include <stdio.h>

enum cli_opt_kind {
	CLI_OPT_END = 0,
	CLI_OPT_SWITCH, /* int *: set to 1 */
	CLI_OPT_VALUE,	/* const char **: the last value given */
	CLI_OPT_CHOICE, /* const char **: one of choices */
	CLI_OPT_LIST,	/* struct cli_list *: every value, in order */
};

/* How an option shows in the synopsis (cli_opt_usage), relative to the
 * option before it in the tables given: by default each is an item of
 * its own, "[--all]". */
enum cli_opt_usage {
	CLI_OPT_USAGE_OR = 1 << 0,   /* an alternative: "[--a | --b]" */
	CLI_OPT_USAGE_WITH = 1 << 1, /* only with it: "[--a [--b]]" */
};

/* Values of a repeatable option: v has room for max. */
struct cli_list {
	const char **v;
	size_t n, max;
};

struct cli_opt {
	enum cli_opt_kind kind;
	const char *name;	    /* long name, without "--" */
	char alias;		    /* short name, or 0 */
	void *value;		    /* where the value goes (see kind) */
	const char *value_name;	    /* "FILE" in --help, NULL for a switch */
	const char *help;	    /* one or more lines ('\n' between) */
	const char *const *choices; /* CLI_OPT_CHOICE: NULL-terminated */
	unsigned usage;		    /* enum cli_opt_usage */
};

/* The most tables one command parses with (its own and shared ones). */
#define CLI_OPT_TABLES_MAX 8

/* Parse argv[1..argc) against tables (a NULL-terminated list of option
 * tables). Operands are moved to argv[*first..argc) in order. --help
 * (-h) sets *help and stops. Returns 0, or prints the usage error and
 * returns 2 (CLI_USAGE). */
int cli_opt_parse(const char *cmd, const struct cli_opt *const *tables,
		  int argc, char **argv, int *first, int *help);

/* The option lines of --help for one table, under heading (NULL: none). */
void cli_opt_help(FILE *f, const char *heading, const struct cli_opt *opts);

/* The synopsis: lead ("usage: " or as many blanks), words (the
 * command, "torchgate version match"), first (NULL, or what comes before
 * the options: "--batch"), the options of tables (a NULL-terminated
 * list) and operands (NULL: none), wrapped at 80 columns under the
 * first word after words. Switches with a short name come
 * first, grouped: "[-q]"; then every option in table order: "--all",
 * "--floor V", "--format=text|json" (the choices), "--exclude GLOB"
 * followed by "..." when repeatable, grouped by their usage flags. */
void cli_opt_usage(FILE *f, const char *lead, const char *words,
		   const char *first, const struct cli_opt *const *tables,
		   const char *operands);

/* The candidate closest to word (a mistyped name), or NULL when none is
 * close enough to suggest (git's help.autocorrect idea: edit distance,
 * with transpositions, at most a third of the word, or a unique
 * prefix). */
const char *cli_suggest(const char *word, const char *const *cands, size_t n);

#endif
