/* cli_env.c - the environment options every torch-facing command takes
 * SPDX-License-Identifier: MIT
 *
 * Reads the process environment (PATH, VIRTUAL_ENV, CONDA_PREFIX,
 * PYTHONPATH, PYTHONNOUSERSITE, PYTHONUSERBASE, PYTHONHOME, HOME,
 * PYENV_VERSION, PYENV_ROOT, TORCHGATE_DPKG_ADMINDIR) and hands plain
 * strings to the library, which never calls getenv(); which environment
 * that selects, and how an isolated build is looked through, is
 * pyenv/target's policy; what is said about it is written here.
 */
#include "cli/cli_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/pyenv/target.h"
#include "lib/util/str.h"

void
cli_env_init(struct cli_env *env)
{
	memset(env, 0, sizeof(*env));
	env->sites.v = env->site_v;
	env->sites.max = CLI_ENV_MAX_SITES;
}

void
cli_env_release(struct cli_env *env)
{
	tg_probe_release(&env->probe);
	tg_syspath_release(&env->path);
	tg_interp_release(&env->interp);
	tg_dirlist_release(&env->dirs);
}

void
cli_env_options(struct cli_env *env, struct cli_opt out[4])
{
	const struct cli_opt opts[4] = {
	    {CLI_OPT_VALUE, "python", 0, &env->python, "PATH",
	     "the interpreter whose sys.path to search", NULL, 0},
	    {CLI_OPT_VALUE, "prefix", 0, &env->prefix, "DIR",
	     "an environment directory (venv, conda)", NULL, CLI_OPT_USAGE_OR},
	    {CLI_OPT_LIST, "site-packages", 0, &env->sites, "DIR",
	     "search DIR (repeatable, in order) and nothing\nelse", NULL,
	     CLI_OPT_USAGE_OR},
	    {CLI_OPT_END, NULL, 0, NULL, NULL, NULL, NULL, 0},
	};

	memcpy(out, opts, sizeof(opts));
}

static const char *
env_get(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] ? v : NULL;
}

int
cli_env_check(const char *cmd, const struct cli_env *env)
{
	if ((env->python != NULL) + (env->prefix != NULL) +
		(env->sites.n != 0) >
	    1)
		return cli_usage_error(cmd, "--python, --prefix and "
					    "--site-packages exclude each "
					    "other");
	return CLI_OK;
}

static void
target_env(struct cli_env *env, struct tg_target_env *te)
{
	te->virtual_env = env_get("VIRTUAL_ENV");
	te->conda_prefix = env_get("CONDA_PREFIX");
	te->ie.path = getenv("PATH");
	te->ie.cwd = env->cwd;
	te->ie.home = env_get("HOME");
	te->ie.pyenv_version = env_get("PYENV_VERSION");
	te->ie.pythonhome = env_get("PYTHONHOME");
	te->ie.dirs = &env->dirs;
}

int
cli_env_interp(struct cli_env *env, struct tg_err *err)
{
	struct tg_target_env te;
	int rc;

	if (!env->cwd[0] && !getcwd(env->cwd, sizeof(env->cwd)))
		return tg_err_set(err, TG_EIO,
				  "cannot get the current directory");
	if (env->sites.n)
		return 0;
	target_env(env, &te);
	rc = tg_target_interp(&env->interp, env->python, env->prefix, &te, err);
	if (!rc)
		env->have_interp = 1;
	return rc;
}

/* The environment a package is built for, when the interpreter runs
 * inside an isolated PEP 517 build (pyenv/target), and env->note saying
 * what was done; se then points into b. */
static int
look_through_builds(struct cli_env *env, struct tg_syspath_env *se,
		    struct tg_target_build *b, struct tg_err *err)
{
	struct tg_target_env te;
	char why[TG_ERR_MSG_MAX];
	int rc;

	target_env(env, &te);
	rc = tg_target_look_through(b, &env->interp, &te, se, err);
	if (b->interp_lost)
		env->have_interp = 0;
	if (rc == TG_ENOENT && b->build.kind == TG_BUILDENV_BUILD &&
	    !b->build.target) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return tg_err_set(err, TG_ENOENT,
				  "%s: name the environment the package is "
				  "built for with --python, --prefix or "
				  "--site-packages",
				  why);
	}
	if (rc)
		return rc;
	if (b->build.kind == TG_BUILDENV_BUILD)
		snprintf(env->note, sizeof(env->note),
			 "'%s' is python -m build's isolated build "
			 "venv: describing '%s', the interpreter that "
			 "ran build (--python, --prefix or "
			 "--site-packages to choose another)",
			 b->build.dir, b->build.target);
	if (b->pip.kind == TG_BUILDENV_PIP)
		snprintf(
		    env->note, sizeof(env->note),
		    "pip's isolated build environment '%s': its "
		    "PYTHONPATH overlay and PYTHONNOUSERSITE are left out, "
		    "as the installed package runs without them "
		    "(--site-packages to search exactly what you name)",
		    b->pip.dir);
	return 0;
}

int
cli_env_probe(const char *cmd, struct cli_env *env)
{
	struct tg_err err = TG_ERR_INIT;
	struct tg_syspath_env se;
	struct tg_probe_opts po = {NULL, NULL, NULL, NULL};
	struct tg_target_build b = TG_TARGET_BUILD_INIT;
	size_t k;
	int rc;

	if ((rc = cli_env_check(cmd, env)) != CLI_OK)
		return rc;
	if (!getcwd(env->cwd, sizeof(env->cwd))) {
		cli_error(cmd, "cannot get the current directory");
		return CLI_IO;
	}
	se.pythonpath = getenv("PYTHONPATH");
	se.nousersite = getenv("PYTHONNOUSERSITE");
	se.userbase = env_get("PYTHONUSERBASE");
	se.home = env_get("HOME");
	se.cwd = env->cwd;
	se.dirs = &env->dirs;
	po.dirs = &env->dirs;
	po.dpkg_admindir = env_get("TORCHGATE_DPKG_ADMINDIR");

	rc = cli_env_interp(env, &err);
	if (!rc && env->have_interp)
		rc = look_through_builds(env, &se, &b, &err);
	for (k = 0; k < env->sites.n && !rc; k++)
		rc = tg_syspath_add_sitedir(&env->path, env->sites.v[k],
					    TG_ORIGIN_ARG, env->cwd, 0, &err);
	if (!rc && env->have_interp)
		rc = tg_syspath_for_interp(&env->path, &env->interp, &se, &err);
	if (!rc && env->have_interp) {
		po.ext_suffix = env->interp.ext_suffix;
		po.cwd = env->cwd;
	}
	if (!rc)
		rc = tg_probe_run(&env->probe, &env->path, &po, &err);
	tg_target_build_release(&b);
	tg_dirlist_release(&env->dirs);
	if (rc) {
		cli_error(cmd, "%s", err.msg);
		snprintf(env->error, sizeof(env->error), "%s", err.msg);
		/* what is left is empty: enough for a JSON report of the
		 * error */
		tg_probe_release(&env->probe);
		tg_syspath_release(&env->path);
		env->view.interp = env->have_interp ? &env->interp : NULL;
		env->view.path = &env->path;
		env->view.probe = &env->probe;
		env->view.error = env->error;
		return cli_exit_for(rc);
	}
	env->view.interp = env->have_interp ? &env->interp : NULL;
	env->view.path = &env->path;
	env->view.probe = &env->probe;
	return CLI_OK;
}

int
cli_env_torch(const char *cmd, const struct cli_env *env, int quiet,
	      const struct tg_torch **out)
{
	const struct tg_torch *t;
	const struct tg_diag *bad;
	size_t k;

	*out = NULL;
	if (!quiet && env->note[0])
		cli_error(cmd, "note: %s", env->note);
	if (!quiet && env->have_interp && env->interp.warning)
		cli_error(cmd, "warning: %s", env->interp.warning);
	if (tg_probe_imports(&env->probe) == TG_IMPORT_MODULE) {
		const struct tg_probe *pr = &env->probe;

		if (pr->ncopies)
			cli_error(cmd,
				  "'import torch' would import the module "
				  "'%s', not torch's package (it shadows the "
				  "torch at '%s')",
				  pr->module, pr->copies[0].dir);
		else
			cli_error(cmd,
				  "'import torch' would import the module "
				  "'%s', not torch's package",
				  pr->module);
		return CLI_NO_TORCH;
	}
	if (tg_probe_imports(&env->probe) == TG_IMPORT_NAMESPACE) {
		const struct tg_probe *pr = &env->probe;

		char more[64] = "";

		if (pr->nportions > 1)
			snprintf(more, sizeof(more), " and %zu other %s",
				 pr->nportions - 1,
				 pr->nportions > 2 ? "directories"
						   : "directory");
		cli_error(cmd,
			  "'import torch' would import a namespace package "
			  "(no __init__.py in '%s'%s), not torch's package",
			  pr->portions[0], more);
		return CLI_NO_TORCH;
	}
	if (!env->probe.ncopies) {
		struct tg_buf msg = TG_BUF_INIT;

		/* what stood in the way: an unreadable entry, a loop */
		for (k = 0; !quiet && k < env->probe.problems.n; k++)
			cli_error(cmd, "warning: %s",
				  env->probe.problems.v[k].message);

		for (k = 0; k < env->path.n; k++)
			if (tg_buf_adds(&msg, k ? ", " : "") ||
			    tg_buf_adds(&msg, env->path.e[k].dir))
				break;
		if (tg_buf_error(&msg)) {
			tg_buf_release(&msg);
			return cli_out_of_memory(cmd);
		}
		if (env->have_interp && env->interp.executable)
			cli_error(cmd,
				  "no torch found for Python '%s'%s%s%s; "
				  "searched: %s",
				  env->interp.executable,
				  env->interp.via ? " (" : "",
				  env->interp.via ? env->interp.via : "",
				  env->interp.via ? ")" : "",
				  msg.len ? msg.data : "(no directories)");
		else
			cli_error(cmd, "no torch found; searched: %s",
				  msg.len ? msg.data : "(no directories)");
		tg_buf_release(&msg);
		return CLI_NO_TORCH;
	}
	t = &env->probe.copies[0];
	bad = tg_probe_first_error(t);
	if (bad) {
		for (k = 0; k < t->problems.n; k++)
			if (t->problems.v[k].severity == TG_SEV_ERROR)
				cli_error(cmd, "%s", t->problems.v[k].message);
		return cli_exit_for(bad->code);
	}
	if (!quiet) {
		enum tg_source_kind other;

		for (k = 0; k < t->problems.n; k++)
			cli_error(cmd, "warning: %s", t->problems.v[k].message);
		if (!env->conflict_is_error && tg_probe_conflict(t, &other))
			cli_error(cmd,
				  "warning: torch at '%s' is a broken install "
				  "or upgrade: %s says %s but %s says %s",
				  t->dir, tg_probe_source_name(t->version_from),
				  TG_QUOTE(t->version),
				  tg_probe_source_name(other),
				  TG_QUOTE(t->src[other].raw));
		for (k = 0; k < env->probe.problems.n; k++)
			cli_error(cmd, "warning: %s",
				  env->probe.problems.v[k].message);
		for (k = 1; k < env->probe.ncopies; k++) {
			const struct tg_torch *s = &env->probe.copies[k];

			if (s->version && t->version &&
			    strcmp(s->version, t->version) != 0)
				cli_error(cmd,
					  "warning: torch %s at '%s' is "
					  "shadowed: 'import torch' imports "
					  "torch %s from '%s'",
					  s->version, s->dir, t->version,
					  t->dir);
		}
	}
	*out = t;
	return CLI_OK;
}
