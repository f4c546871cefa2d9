/* cmd_probe.c - torchgate probe: which torch is installed, from files
 * SPDX-License-Identifier: MIT
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "lib/out/probe_format.h"

#define CMD "probe"

static const char usage_text[] =
    "usage: torchgate probe [--format=FORMAT | --field=NAME] [--quiet]\n"
    "                       [--python PATH | --prefix DIR |\n"
    "                        --site-packages DIR...]\n"
    "\n"
    "Find the torch that Python would import in an environment and report\n"
    "every version source, whether they agree, CUDA/HIP/ROCm/XPU, the C++11\n"
    "ABI, the C++ standard, include and library directories. Files only:\n"
    "torch is never imported and Python is never run.\n"
    "\n"
    "  --format=FORMAT   text (default), json, shell (eval-safe\n"
    "                    TORCH_*= lines), make (a Makefile fragment), pc\n"
    "                    (a pkg-config torch.pc)\n"
    "  --field=NAME      print one value (an empty line when unknown;\n"
    "                    lists one item a line, nothing when empty):\n"
    "                    version version_source location agreement cuda\n"
    "                    hip rocm xpu git_version debug abi_version\n"
    "                    cxx11_abi\n"
    "                    cxx_standard include_dirs library_dir libraries\n"
    "                    cmake_dir metadata_dir installer editable "
    "shadowed\n"
    "                    python python_version prefix sys_path\n"
    "  --quiet           no warnings on stderr\n" CLI_ENV_HELP "\n"
    "Exit status: 0 found, 1 found but its version sources conflict\n"
    "(different major.minor), 2 usage, 3 no torch found, 4 a torch file\n"
    "is malformed, 5 a torch file cannot be read.\n";

int
cmd_probe(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'},
	    {"field", required_argument, NULL, 'F'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_ENV_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct cli_env env;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_err err = TG_ERR_INIT;
	enum tg_probe_format fmt = TG_FMT_TEXT;
	const char *field = NULL;
	const struct tg_torch *t = NULL;
	enum tg_source_kind other;
	int c, quiet = 0, status, r, fmt_given = 0;

	cli_env_init(&env);
	env.conflict_is_error = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		if ((r = cli_env_option(CMD, &env, c, optarg)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			continue;
		}
		switch (c) {
		case 'f':
			fmt_given = 1;
			if (tg_probe_format_parse(optarg, &fmt))
				return cli_usage_error(
				    CMD,
				    "--format must be text, json, shell, "
				    "make or pc, not '%s'",
				    optarg);
			break;
		case 'F':
			field = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return CLI_OK;
		default:
			return cli_bad_option(CMD, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(CMD, "unexpected argument '%s'",
				       argv[optind]);
	if (field && fmt_given)
		return cli_usage_error(CMD, "--format and --field exclude each "
					    "other");
	if (field) {
		size_t k;

		for (k = 0; tg_probe_field_names[k]; k++)
			if (strcmp(field, tg_probe_field_names[k]) == 0)
				break;
		if (!tg_probe_field_names[k])
			return cli_usage_error(CMD, "unknown field '%s'",
					       field);
	}
	status = cli_env_probe(CMD, &env);
	if (status)
		goto out;
	if (field && tg_probe_format_field(&env.view, field, &out, &err) == 0 &&
	    (strcmp(field, "sys_path") == 0 || strcmp(field, "python") == 0 ||
	     strcmp(field, "python_version") == 0 ||
	     strcmp(field, "prefix") == 0)) {
		fputs(out.data ? out.data : "", stdout);
		goto out; /* about the environment: no torch needed */
	}
	tg_buf_clear(&out);
	status = cli_env_torch(CMD, &env, quiet, &t);
	if (status && !(fmt == TG_FMT_JSON && !field)) {
		goto out;
	}
	if (field)
		r = tg_probe_format_field(&env.view, field, &out, &err);
	else
		r = tg_probe_format_write(&env.view, fmt, &out, &err);
	if (r) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	fputs(out.data ? out.data : "", stdout);
	if (!status && t && tg_probe_conflict(t, &other)) {
		cli_error(CMD,
			  "torch at '%s' is a broken install or upgrade: %s "
			  "says %s but %s says %s",
			  t->dir, tg_probe_source_name(t->version_from),
			  t->version, tg_probe_source_name(other),
			  t->src[other].raw);
		status = CLI_FAILED;
	}
out:
	tg_buf_release(&out);
	cli_env_release(&env);
	return status;
}
