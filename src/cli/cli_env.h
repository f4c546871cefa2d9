/* cli_env.h - the environment options every torch-facing command takes
 * SPDX-License-Identifier: MIT
 *
 * --python PATH, --prefix DIR, --site-packages DIR (repeatable), else
 * $VIRTUAL_ENV, then $CONDA_PREFIX, then python3 on PATH; then the probe.
 */
#ifndef TG_CLI_CLI_ENV_H
#define TG_CLI_CLI_ENV_H

#include <getopt.h>

#include "lib/pyenv/interp.h"
#include "lib/torch/probe.h"
#include "lib/out/probe_format.h"
#include "lib/pyenv/syspath.h"

enum {
	CLI_OPT_PYTHON = 0x100,
	CLI_OPT_PREFIX,
	CLI_OPT_SITE_PACKAGES,
};

#define CLI_ENV_LONGOPTS                                                       \
	{"python", required_argument, NULL, CLI_OPT_PYTHON},                   \
	    {"prefix", required_argument, NULL, CLI_OPT_PREFIX},               \
	{                                                                      \
		"site-packages", required_argument, NULL,                      \
		    CLI_OPT_SITE_PACKAGES                                      \
	}

#define CLI_ENV_HELP                                                           \
	"environment (default: $VIRTUAL_ENV, then $CONDA_PREFIX, then\n"       \
	"python3 on PATH, read from files; Python is never run):\n"            \
	"  --python PATH         the interpreter whose sys.path to search\n"   \
	"  --prefix DIR          an environment directory (venv, conda)\n"     \
	"  --site-packages DIR   search DIR (repeatable, in order) and "       \
	"nothing\n"                                                            \
	"                        else\n"

#define CLI_ENV_MAX_SITES 64

struct cli_env {
	const char *python;
	const char *prefix;
	const char *sites[CLI_ENV_MAX_SITES];
	size_t nsites;
	char cwd[4096];
	struct tg_interp interp;
	int have_interp;
	struct tg_syspath path;
	struct tg_probe probe;
	struct tg_probe_view view;
	int conflict_is_error; /* probe: a conflict is its own finding */
};

void cli_env_init(struct cli_env *env);
void cli_env_release(struct cli_env *env);

/* Handle one of the CLI_OPT_* options: 1 when c was one, 0 when not, or
 * -1 after printing a usage error. */
int cli_env_option(const char *cmd, struct cli_env *env, int c,
		   const char *arg);

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
