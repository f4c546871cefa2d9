/* cmd_probe.c - torchgate probe: which torch is installed, from files
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/render/probe_format.h"
#include "lib/util/str.h"

#define CMD "probe"

static const char *format, *field_v[32];
static struct cli_list fields = {field_v, 0, 32};
static const char *const formats[] = {"text", "json", "shell",
				      "make", "pc",   NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "FORMAT",
     "text (default), json, shell (eval-safe\n"
     "TORCH_*= lines), make (a Makefile fragment), pc\n"
     "(a pkg-config torch.pc)",
     formats, 0},
    {CLI_OPT_LIST, "field", 0, &fields, "NAME",
     "print one value (an empty line when unknown;\n"
     "lists one item a line, nothing when empty):\n"
     "version version_source location agreement cuda\n"
     "hip rocm xpu git_version debug abi_version\n"
     "cxx11_abi cxx_standard include_dirs library_dir\n"
     "libraries cmake_dir cmake_prefix_path\n"
     "metadata_dir installer editable shadowed python\n"
     "python_version prefix sys_path; repeatable:\n"
     "each in turn",
     NULL, CLI_OPT_USAGE_OR},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

static int
check(struct cli_ctx *ctx, int argc, char **argv)
{
	size_t j, k;

	(void)ctx;
	(void)argc;
	(void)argv;
	if (fields.n && format)
		return cli_usage_error(CMD, "--format and --field exclude each "
					    "other");
	for (j = 0; j < fields.n; j++) {
		for (k = 0; tg_probe_field_names[k]; k++)
			if (strcmp(fields.v[j], tg_probe_field_names[k]) == 0)
				break;
		if (!tg_probe_field_names[k])
			return cli_usage_error(CMD, "unknown field '%s'",
					       fields.v[j]);
	}
	return CLI_OK;
}

/* A field about the environment, which needs no torch. */
static int
env_field(const char *name)
{
	return strcmp(name, "sys_path") == 0 || strcmp(name, "python") == 0 ||
	       strcmp(name, "python_version") == 0 ||
	       strcmp(name, "prefix") == 0;
}

/* Every --field in turn into out; 0 or the failure (err set). */
static int
write_fields(const struct cli_env *env, struct tg_buf *out, struct tg_err *err)
{
	size_t k;
	int r = 0;

	for (k = 0; k < fields.n && !r; k++)
		r = tg_probe_format_field(&env->view, fields.v[k], out, err);
	return r;
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_env *env = &ctx->env;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_err err = TG_ERR_INIT;
	enum tg_probe_format fmt = TG_FMT_TEXT;
	const struct tg_torch *t = NULL;
	enum tg_source_kind other;
	size_t k;
	int status, r;

	(void)argc;
	(void)argv;
	if (format)
		tg_probe_format_parse(format, &fmt);
	env->conflict_is_error = 1;
	status = cli_env_probe(CMD, env);
	if (status && env->error[0] && fmt == TG_FMT_JSON && !fields.n) {
		/* the report still comes, with the error in it */
		if (tg_probe_format_write(&env->view, fmt, &out, &err)) {
			cli_error(CMD, "%s", err.msg);
			status = cli_exit_for(err.code);
		} else {
			fputs(out.data ? out.data : "", stdout);
		}
		goto out;
	}
	if (status)
		goto out;
	for (k = 0; k < fields.n && env_field(fields.v[k]); k++)
		;
	if (fields.n && k == fields.n) {
		/* about the environment: no torch needed (and out of memory
		 * is no reason to look for one) */
		r = write_fields(env, &out, &err);
		if (r) {
			cli_error(CMD, "%s", err.msg);
			status = cli_exit_for(r);
		} else {
			fputs(out.data ? out.data : "", stdout);
		}
		goto out;
	}
	status = cli_env_torch(CMD, env, ctx->quiet, &t);
	if (status && !(fmt == TG_FMT_JSON && !fields.n))
		goto out;
	if (fields.n)
		r = write_fields(env, &out, &err);
	else
		r = tg_probe_format_write(&env->view, fmt, &out, &err);
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
			  TG_QUOTE(t->version), tg_probe_source_name(other),
			  TG_QUOTE(t->src[other].raw));
		status = CLI_FAILED;
	}
out:
	tg_buf_release(&out);
	return status;
}

const struct cli_command cmd_probe = {
    .name = CMD,
    .summary = "which torch is installed, from files alone",
    .setup = CLI_QUIET | CLI_ENV | CLI_NO_OPERANDS,
    .opts = opts,
    .about = "Find the torch that Python would import in an environment and "
	     "report\n"
	     "every version source, whether they agree, CUDA/HIP/ROCm/XPU, the "
	     "C++11\n"
	     "ABI, the C++ standard, include and library directories. Files "
	     "only:\n"
	     "torch is never imported and Python is never run.",
    .exits = "Exit status: 0 found, 1 found but its version sources conflict\n"
	     "(different major.minor), 2 usage, 3 no torch found, 4 a torch "
	     "file\n"
	     "is malformed, 5 a torch file cannot be read.",
    .check = check,
    .run = run,
};
