/* cmd_env.c - torchgate env: a whole environment against its torch
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/render/env_format.h"
#include "lib/pep/marker.h"
#include "lib/pyenv/dists.h"
#include "lib/torch/envcheck.h"

#define CMD "env"

static const char *format;
static int no_elf, all;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "FORMAT", "text (default), json",
     formats, 0},
    {CLI_OPT_SWITCH, "no-elf", 0, &no_elf, NULL,
     "do not read the extension modules' symbols", NULL, 0},
    {CLI_OPT_SWITCH, "all", 0, &all, NULL,
     "text: list the requirements whose marker is\nfalse here too", NULL, 0},
    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
};

/* packaging's default_environment() from the interpreter's files and
 * uname(2): what cannot be worked out is left out (a marker naming it
 * is then a warning). */
static int
marker_env(struct cli_env *env, struct tg_marker_env *out, struct tg_err *err)
{
	struct tg_marker_python py;
	struct tg_marker_uname u;
	struct tg_interp_version iv;
	struct utsname uts;
	int have_uname, rc;

	memset(&py, 0, sizeof(py));
	if (env->have_interp) {
		py.major = env->interp.major;
		py.minor = env->interp.minor;
		rc = tg_interp_full_version(&env->interp, &iv, err);
		if (rc == TG_ENOMEM)
			return rc;
		if (rc == 0) {
			py.micro = iv.micro;
			py.releaselevel = iv.releaselevel;
			py.serial = iv.serial;
			snprintf(py.full, sizeof(py.full), "%s", iv.full);
		}
	}
	have_uname = uname(&uts) == 0;
	u.sysname = uts.sysname;
	u.release = uts.release;
	u.version = uts.version;
	u.machine = uts.machine;
	return tg_marker_env_default(out, env->have_interp ? &py : NULL,
				     have_uname ? &u : NULL, err);
}

static int
run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_env *env = &ctx->env;
	struct tg_marker_env menv = TG_MARKER_ENV_INIT;
	struct tg_dists ds = TG_DISTS_INIT;
	struct tg_envcheck ec = TG_ENVCHECK_INIT;
	struct tg_envcheck_opts o;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;
	int rc, status = CLI_OK;

	(void)argc;
	(void)argv;
	rc = marker_env(env, &menv, &err);
	if (!rc)
		rc = tg_dists_load(&ds, &env->path, &err);
	memset(&o, 0, sizeof(o));
	o.markers = &menv;
	o.elf = !no_elf;
	if (!rc)
		rc = tg_envcheck_run(&ec, &env->probe, &env->path, &ds, &o,
				     &err);
	if (!rc && format && strcmp(format, "json") == 0)
		rc = tg_env_json_write(&ec, &out, &err);
	else if (!rc)
		rc = tg_env_text_write(&ec, all, &out, &err);
	if (rc) {
		cli_error(CMD, "%s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (!ctx->quiet) {
		for (k = 0; k < ds.problems.n; k++)
			cli_error(CMD, "warning: %s", ds.problems.v[k].message);
		for (k = 0; k < ec.problems.n; k++)
			cli_error(CMD, "warning: %s", ec.problems.v[k].message);
	}
	fputs(out.data ? out.data : "", stdout);
	if (ec.nbroken)
		status = CLI_FAILED;
out:
	tg_buf_release(&out);
	tg_envcheck_release(&ec);
	tg_dists_release(&ds);
	tg_marker_env_release(&menv);
	return status;
}

const struct cli_command cmd_env = {
    .name = CMD,
    .summary = "audit a whole environment against its torch",
    .setup = CLI_QUIET | CLI_ENV | CLI_TORCH | CLI_NO_OPERANDS,
    .opts = opts,
    .about =
	"Check every installed distribution against the torch Python would\n"
	"import: who requires torch and whether it is satisfied (markers\n"
	"evaluated, extras as installed), what torch requires (triton, the\n"
	"nvidia-* and cuda-* wheels) and their CUDA major, the torch "
	"family's\n"
	"CUDA variants, and extensions built for another torch (DeepSpeed's\n"
	"build record, wheel tags such as +cu12torch2.4cxx11abiFALSE, "
	"torchgate\n"
	"emit's module, the undefined symbols and C++11 ABI of every "
	"extension\n"
	"module). Files only: nothing is imported and Python is never run.",
    .exits = "Exit status: 0 nothing broken, 1 a broken requirement or a "
	     "mismatch,\n"
	     "2 usage, 3 no torch found, 4 a torch file is malformed, 5 a "
	     "file\n"
	     "cannot be read or out of memory.",
    .run = run,
};
