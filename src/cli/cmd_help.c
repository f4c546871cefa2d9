/* cmd_help.c - torchgate help CMD: the command's manual page
 * SPDX-License-Identifier: MIT
 *
 * The pages are built into the binary (man_pages.c), so help shows the
 * page of this very binary, installed or not. Besides the commands'
 * pages, the concept pages are there by their short names: 'torchgate
 * help environment' is torchgate-environment(7), 'help apis' the table
 * format. When man(1) is on PATH and
 * standard output is a terminal it renders the page (man -l -, the page
 * on its standard input); otherwise the page is written as plain text.
 * The page goes to man through a pipe: nothing the user gave is passed
 * to a shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/man.h"
#include "cli/opt.h"
#include "cli/setup.h"

#define CMD "help"

static const struct cli_opt opts[] = {
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

/* Whether an executable man is on PATH. */
static int
have_man(void)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[4096];

	for (p = path; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e > p && (size_t)(e - p) + 5 < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/man", (int)(e - p), p);
			if (access(buf, X_OK) == 0)
				return 1;
		}
	}
	return 0;
}

/* Render roff with man -l -; 0 when man showed it. */
static int
show_with_man(const char *roff)
{
	FILE *f;
	int st;

	fflush(stdout);
	f = popen("man -l -", "w");
	if (!f)
		return -1;
	fputs(roff, f);
	st = pclose(f);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The built-in page torchgate-<word>, or NULL. */
static const char *
page_of(const char *word)
{
	char name[64];
	size_t k;

	snprintf(name, sizeof(name), "torchgate-%s", word);
	for (k = 0; cli_man_pages[k].name; k++)
		if (strcmp(cli_man_pages[k].name, name) == 0)
			return cli_man_pages[k].roff;
	return NULL;
}

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *names[16], *near;
	size_t k;

	(void)ctx;
	if (argc > 1)
		return cli_usage_error(CMD, "one command only");
	if (argc == 0 || cli_command_find(argv[0]) || page_of(argv[0]))
		return CLI_OK;
	for (k = 0; cli_commands[k] && k < 16; k++)
		names[k] = cli_commands[k]->name;
	near = cli_suggest(argv[0], names, k);
	if (near)
		return cli_usage_error(CMD,
				       "'%s' is not a torchgate command; did "
				       "you mean '%s'?",
				       argv[0], near);
	return cli_usage_error(CMD, "'%s' is not a torchgate command", argv[0]);
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *roff;
	size_t k;

	(void)ctx;
	if (argc == 0) {
		cli_usage(stdout);
		return CLI_OK;
	}
	roff = page_of(argv[0]);
	/* a command without a page of its own is in torchgate(1) */
	for (k = 0; cli_man_pages[k].name && !roff; k++)
		if (strcmp(cli_man_pages[k].name, "torchgate") == 0)
			roff = cli_man_pages[k].roff;
	if (!roff) {
		cli_error(CMD, "no manual page for '%s' in this build",
			  argv[0]);
		return CLI_BAD_INPUT;
	}
	if (isatty(STDOUT_FILENO) && have_man() && show_with_man(roff) == 0)
		return CLI_OK;
	cli_man_text(stdout, roff);
	return CLI_OK;
}

const struct cli_command cmd_help = {
    .name = CMD,
    .summary = "show a command's manual page",
    .setup = 0,
    .opts = opts,
    .operands = "[COMMAND]",
    .about = "Show COMMAND's manual page: rendered by man(1) on a terminal "
	     "when\nman is installed, else as plain text. Without COMMAND, "
	     "the list of\ncommands.",
    .exits = "Exit status: 0 shown, 2 usage (not a command).",
    .check = check,
    .run = run,
};
