/* cmd_env.c - torchgate env: a whole environment against its torch
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/cli_env.h"
#include "cli/commands.h"
#include "cli/opt.h"
#include "cli/setup.h"
#include "lib/render/advisory_format.h"
#include "lib/render/env_format.h"
#include "lib/pep/marker.h"
#include "lib/pyenv/dists.h"
#include "lib/table/advisory.h"
#include "lib/torch/envcheck.h"

#define CMD "env"

#define IGNORES_MAX 64

static const char *format, *advisories_path;
static int no_elf, all, which_advisories;
static const char *ignore_v[IGNORES_MAX];
static struct cli_list ignores = {ignore_v, 0, IGNORES_MAX};
static struct tg_advisories advisories;
static enum tg_cache_source adv_src;
static char *adv_from;
static const char *const formats[] = {"text", "json", NULL};
static const struct cli_opt opts[] = {
    {CLI_OPT_CHOICE, "format", 0, &format, "FORMAT", "text (default), json",
     formats, 0},
    {CLI_OPT_SWITCH, "no-elf", 0, &no_elf, NULL,
     "do not read the extension modules' symbols", NULL, 0},
    {CLI_OPT_SWITCH, "all", 0, &all, NULL,
     "text: list the requirements whose marker is\nfalse here too", NULL, 0},
    {CLI_OPT_LIST, "ignore-vuln", 0, &ignores, "ID",
     "do not count the advisory ID (PYSEC, GHSA or\n"
     "CVE id, any alias) against the torch (repeatable)",
     NULL, 0},
    {CLI_OPT_VALUE, "advisories", 0, &advisories_path, "FILE",
     "read the advisories from FILE", NULL, 0},
    {CLI_OPT_SWITCH, "which-advisories", 0, &which_advisories, NULL,
     "say which advisories file is used, and stop", NULL, 0},
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

/* The advisories (--advisories FILE, the cache, or the built-in ones);
 * --which-advisories answers here, before the probe. */
static int
resolve(struct cli_ctx *ctx, int argc, char **argv)
{
	struct tg_err err = TG_ERR_INIT, warn = TG_ERR_INIT;
	size_t k;
	int rc;

	(void)argc;
	(void)argv;
	rc = tg_advisory_cached(&advisories, advisories_path, &adv_src,
				&adv_from, &warn, &err);
	if (rc) {
		cli_error(CMD, "%s", err.msg);
		return cli_exit_for(rc);
	}
	if (warn.code && !ctx->quiet)
		cli_error(CMD, "warning: %s", warn.msg);
	for (k = 0; k < ignores.n && !ctx->quiet; k++)
		if (!tg_advisory_known(&advisories, ignores.v[k]))
			cli_error(CMD,
				  "warning: --ignore-vuln %s: no advisory has "
				  "that id",
				  ignores.v[k]);
	if (which_advisories) {
		ctx->done = 1;
		cli_printf(stdout,
			   "%s %s, advisories_version %s, %zu advisories\n",
			   tg_cache_source_name(adv_src),
			   adv_from ? adv_from : "(in the binary)",
			   advisories.version, advisories.n);
		tg_advisory_release(&advisories);
		free(adv_from);
		adv_from = NULL;
	}
	return CLI_OK;
}

/* The advisories that affect the torch into m and rep. */
static int
match_advisories(struct cli_ctx *ctx, struct tg_advisory_matches *m,
		 struct tg_advisory_report *rep, char *matched, size_t cap,
		 struct tg_err *err)
{
	const struct tg_version *v = ctx->version;

	memset(rep, 0, sizeof(*rep));
	if (!v)
		return 0;
	snprintf(matched, cap, "%.*s", (int)strcspn(v->str, "+"), v->str);
	rep->torch =
	    ctx->torch && ctx->torch->version ? ctx->torch->version : v->str;
	rep->matched = matched;
	rep->source = tg_cache_source_name(adv_src);
	rep->from = adv_from;
	rep->version = advisories.version;
	rep->m = m;
	if (ctx->torch) {
		const struct tg_vsource *d = &ctx->torch->src[TG_SRC_DPKG];
		struct tg_version pub = *v;

		pub.local = NULL;
		pub.nlocal = 0;
		if (d->present && d->parsed && tg_version_cmp(&d->v, &pub) > 0)
			rep->dpkg = d->raw;
	}
	return tg_advisory_match(m, &advisories, v, ignores.v, ignores.n, err);
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
	struct tg_advisory_matches m = TG_ADVISORY_MATCHES_INIT;
	struct tg_advisory_report rep;
	char matched[256];
	size_t k;
	int rc, status = CLI_OK;

	(void)argc;
	(void)argv;
	rc = match_advisories(ctx, &m, &rep, matched, sizeof(matched), &err);
	if (!rc)
		rc = marker_env(env, &menv, &err);
	if (!rc)
		rc = tg_dists_load(&ds, &env->path, &err);
	memset(&o, 0, sizeof(o));
	o.markers = &menv;
	o.elf = !no_elf;
	if (!rc)
		rc = tg_envcheck_run(&ec, &env->probe, &env->path, &ds, &o,
				     &err);
	if (!rc && format && strcmp(format, "json") == 0) {
		rc = tg_env_json_write(&ec, rep.m ? &rep : NULL, &out, &err);
	} else if (!rc) {
		rc = tg_env_text_write(&ec, all, &out, &err);
		if (!rc && rep.m)
			tg_advisory_format_text(&out, &rep);
		if (!rc && tg_buf_error(&out))
			rc = tg_err_set(&err, TG_ENOMEM, "out of memory");
	}
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
	if (ec.nbroken || m.nhits)
		status = CLI_FAILED;
out:
	tg_advisory_matches_release(&m);
	tg_advisory_release(&advisories);
	free(adv_from);
	adv_from = NULL;
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
	"module), and the security advisories that affect the torch (its\n"
	"public version: 2.5.1+cu124 is 2.5.1). Files only: nothing is\n"
	"imported and Python is never run.",
    .exits = "Exit status: 0 nothing broken, 1 a broken requirement, a "
	     "mismatch\n"
	     "or an advisory that affects the torch (not --ignore-vuln'd),\n"
	     "2 usage, 3 no torch found, 4 a torch file is malformed, 5 a "
	     "file\n"
	     "cannot be read or out of memory.",
    .resolve = resolve,
    .run = run,
};
