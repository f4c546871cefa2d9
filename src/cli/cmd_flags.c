/* cmd_flags.c - torchgate flags: a torch extension's compile and link flags
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/render/flags_format.h"
#include "lib/torch/flags.h"

#define CMD "flags"

static const char *format, *name, *arch;
static int cuda, cflags, libs, nvcc;
static const char *const formats[] = {"words", "args", "shell",
				      "make",  "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_VALUE, "name", 0, &name, "NAME",
     "the extension's name: -DTORCH_EXTENSION_NAME=NAME", NULL, 0},
    {CLI_OPT_SWITCH, "cuda", 0, &cuda, NULL,
     "a CUDA extension: CUDA includes and libraries,\n"
     "and the nvcc flags",
     NULL, 0},
    {CLI_OPT_VALUE, "arch", 0, &arch, "LIST",
     "CUDA architectures, as TORCH_CUDA_ARCH_LIST\n"
     "(default: $TORCH_CUDA_ARCH_LIST)",
     NULL, CLI_OPT_USAGE_WITH},
    {CLI_OPT_SWITCH, "cflags", 0, &cflags, NULL,
     "the C++ compiler's flags (words, args)", NULL, 0},
    {CLI_OPT_SWITCH, "libs", 0, &libs, NULL, "the linker's flags (words, args)",
     NULL, 0},
    {CLI_OPT_SWITCH, "nvcc-flags", 0, &nvcc, NULL,
     "nvcc's flags, with --cuda (words, args)", NULL, 0},
    {CLI_OPT_CHOICE, "format", 0, &format, "FORMAT",
     "words (default: one line, quoted for the\n"
     "shell), args (one argument a line), shell\n"
     "(TORCH_CFLAGS=...), make, json (each flag with\n"
     "where it comes from, setuptools.Extension's\n"
     "arguments)",
     formats, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (ctx->env.sites.n)
		return cli_usage_error(CMD, "--site-packages names no "
					    "interpreter, and the flags need "
					    "its headers: use --python or "
					    "--prefix");
	if (nvcc && !cuda)
		return cli_usage_error(CMD, "--nvcc-flags needs --cuda");
	if (arch && !cuda)
		return cli_usage_error(CMD, "--arch needs --cuda");
	if ((cflags || libs || nvcc) && format && strcmp(format, "words") &&
	    strcmp(format, "args"))
		return cli_usage_error(CMD, "--cflags, --libs and --nvcc-flags "
					    "go with --format=words or args");
	return CLI_OK;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_flags f = TG_FLAGS_INIT;
	struct tg_flags_opts o;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_err err = TG_ERR_INIT;
	enum tg_flags_format fmt = TG_FFMT_WORDS;
	unsigned use = 0;
	int r, status = CLI_OK;

	(void)argc;
	(void)argv;
	if (format)
		tg_flags_format_parse(format, &fmt);
	memset(&o, 0, sizeof(o));
	o.name = name;
	o.cuda = cuda;
	o.arch = arch ? arch : getenv("TORCH_CUDA_ARCH_LIST");
	o.cuda_home = getenv("CUDA_HOME");
	if (!o.cuda_home || !*o.cuda_home)
		o.cuda_home = getenv("CUDA_PATH");
	o.path = getenv("PATH");
	r = tg_flags_compute(&f, ctx->torch,
			     ctx->env.have_interp ? &ctx->env.interp : NULL, &o,
			     &err);
	if (r == TG_EINVAL) {
		status = cli_usage_error(CMD, "%s", err.msg);
		goto out;
	}
	if (r) {
		cli_error(CMD, "%s", err.msg);
		/* a missing header package or toolkit: the build would fail */
		status = r == TG_ENOENT ? CLI_FAILED : cli_exit_for(r);
		goto out;
	}
	if (cflags)
		use |= TG_USE_CFLAGS;
	if (libs)
		use |= TG_USE_LIBS;
	if (nvcc)
		use |= TG_USE_NVCC;
	if (!use)
		use = TG_USE_CFLAGS | TG_USE_LIBS;
	r = tg_flags_format_write(&f, ctx->torch, name, cuda, use, fmt, &out,
				  &err);
	if (r) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(r);
		goto out;
	}
	fputs(out.data ? out.data : "", stdout);
out:
	tg_buf_release(&out);
	tg_flags_release(&f);
	return status;
}

const struct cli_command cmd_flags = {
    .name = CMD,
    .summary = "a torch C++/CUDA extension's compile and link flags",
    .setup = CLI_QUIET | CLI_ENV | CLI_TORCH | CLI_NO_OPERANDS,
    .opts = opts,
    .about = "Print the flags torch.utils.cpp_extension would compile and "
	     "link an\n"
	     "extension with, against the torch that Python would import: "
	     "include\n"
	     "and library directories, defines, the C++ standard, libraries, "
	     "an\n"
	     "rpath and, with --cuda, nvcc's. Files only: torch is never "
	     "imported.",
    .exits = "Exit status: 0 printed, 1 a dependency the build needs is "
	     "missing\n"
	     "(Python or pybind11 headers, a CUDA torch, the CUDA toolkit), "
	     "2 usage\n"
	     "or a bad --arch or --name, 3 no torch found, 4 a torch file is "
	     "malformed,\n"
	     "5 a file cannot be read or memory ran out.",
    .check = check,
    .run = run,
};
