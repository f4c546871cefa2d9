/* cli_env.h - the environment options every torch-facing command takes
 * SPDX-License-Identifier: MIT
 *
 * --python PATH, --prefix DIR, --site-packages DIR (repeatable), else
 * $VIRTUAL_ENV, then $CONDA_PREFIX, then python3 on PATH; then the probe.
 */
#ifndef TG_CLI_CLI_ENV_H
#define TG_CLI_CLI_ENV_H

#include "cli/opt.h"

#include "lib/util/err.h"

#include "lib/pyenv/interp.h"
#include "lib/torch/probe.h"
#include "lib/render/probe_format.h"
#include "lib/pyenv/syspath.h"
#include "lib/util/dirlist.h"

#define CLI_ENV_MAX_SITES 64

struct cli_env {
	const char *python;
	const char *prefix;
	const char *site_v[CLI_ENV_MAX_SITES];
	struct cli_list sites; /* --site-packages, in order (site_v) */
	char cwd[4096];
	struct tg_interp interp;
	int have_interp;
	struct tg_syspath path;
	struct tg_probe probe;
	/* the directories listed while the interpreter, sys.path and the
	 * probe are found, each listed once (kept until the probe ends) */
	struct tg_dirlist dirs;
	struct tg_probe_view view;
	int conflict_is_error; /* probe: a conflict is its own finding */
	/* cli_env_probe's failure, as printed (without the prefix), and
	 * view set up for a JSON report of it */
	char error[TG_ERR_MSG_MAX];
	/* an isolated build environment recognised and looked through (a
	 * note for stderr), or "" */
	char note[TG_ERR_MSG_MAX];
};

void cli_env_init(struct cli_env *env);
void cli_env_release(struct cli_env *env);

/* The options --python PATH, --prefix DIR, --site-packages DIR, storing
 * into env (which must outlive the parse). */
void cli_env_options(struct cli_env *env, struct cli_opt out[4]);

/* A usage error (printed; CLI_USAGE) when more than one of --python,
 * --prefix and --site-packages is given; CLI_OK otherwise. */
int cli_env_check(const char *cmd, const struct cli_env *env);

/* The interpreter the options (else $VIRTUAL_ENV, $CONDA_PREFIX, python3
 * on PATH) select, into env->interp (env->have_interp); none with
 * --site-packages. Prints nothing: 0 or a TG_E* code with err set. */
int cli_env_interp(struct cli_env *env, struct tg_err *err);

/* Resolve the environment and probe it; prints its own errors and
 * returns CLI_OK or an exit status. */
int cli_env_probe(const char *cmd, struct cli_env *env);

/* The torch that would be imported, checked for use: prints the reason
 * and returns the exit status when there is none or its files are bad
 * (3, 4 or 5); prints warnings unless quiet (a version conflict among
 * them, unless conflict_is_error); returns CLI_OK otherwise. */
int cli_env_torch(const char *cmd, const struct cli_env *env, int quiet,
		  const struct tg_torch **out);

#endif
