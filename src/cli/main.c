/* main.c - torchgate: dispatch to a subcommand
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"

static const struct cli_command commands[] = {
    {"check", cmd_check, "lifecycle status of torch APIs in this torch"},
    {"discover", cmd_discover,
     "the deprecations this torch declares, against the table"},
    {"emit", cmd_emit, "write the guard header and Python constants"},
    {"probe", cmd_probe, "which torch is installed, from files alone"},
    {"verify", cmd_verify, "exit 0 when the installed torch satisfies SPEC"},
    {"version", cmd_version, "PEP 440 / PEP 508 utilities"},
};

static void
usage(FILE *f)
{
	size_t k;

	fputs("usage: torchgate [--version] [--help] <command> [<args>]\n\n"
	      "commands:\n",
	      f);
	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		fprintf(f, "  %-10s %s\n", commands[k].name,
			commands[k].summary);
	fputs("\nexit status: 0 success, 1 gate failed or findings, 2 usage "
	      "error,\n3 no torch found, 4 bad input data, 5 I/O failure.\n"
	      "'torchgate <command> --help' tells more; man torchgate "
	      "tells all.\n",
	      f);
}

int
main(int argc, char **argv)
{
	size_t k;

	if (argc < 2)
		return usage(stderr), CLI_USAGE;
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return cli_close_stdout(NULL, CLI_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("torchgate %s\n", PACKAGE_VERSION);
		return cli_close_stdout(NULL, CLI_OK);
	}
	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (strcmp(argv[1], commands[k].name) == 0)
			return cli_close_stdout(
			    commands[k].name,
			    commands[k].run(argc - 1, argv + 1));
	if (argv[1][0] == '-')
		return cli_usage_error(NULL, "unknown option '%s'", argv[1]);
	return cli_usage_error(NULL, "'%s' is not a torchgate command",
			       argv[1]);
}
