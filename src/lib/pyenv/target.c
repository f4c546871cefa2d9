/* target.c - which Python environment a command describes: the one it
 * is told, else the one active, seen through an isolated build
 * SPDX-License-Identifier: MIT
 *
 * Owns only the choice; the interpreter's files are read by
 * pyenv/interp, the build environments recognised by pyenv/buildenv.
 * Worst case: two interpreters found (the one run, then the one that
 * ran python -m build).
 */
#include "lib/pyenv/target.h"

int
tg_target_interp(struct tg_interp *in, const char *python, const char *prefix,
		 const struct tg_target_env *te, struct tg_err *err)
{
	if (python)
		return tg_interp_find(in, python, &te->ie, err);
	if (prefix || te->virtual_env || te->conda_prefix)
		return tg_interp_from_prefix(in,
					     prefix ? prefix
					     : te->virtual_env
						 ? te->virtual_env
						 : te->conda_prefix,
					     &te->ie, err);
	return tg_interp_find(in, NULL, &te->ie, err);
}

int
tg_target_look_through(struct tg_target_build *b, struct tg_interp *in,
		       const struct tg_target_env *te,
		       struct tg_syspath_env *se, struct tg_err *err)
{
	int rc;

	if ((rc = tg_buildenv_build(&b->build, in, err)))
		return rc;
	if (b->build.kind == TG_BUILDENV_BUILD && !b->build.target)
		return tg_err_set(err, TG_ENOENT,
				  "'%s' is the throwaway venv of an isolated "
				  "build (python -m build) and its pyvenv.cfg "
				  "does not name the interpreter that made it",
				  b->build.dir);
	if (b->build.kind == TG_BUILDENV_BUILD) {
		tg_interp_release(in);
		rc = tg_interp_find(in, b->build.target, &te->ie, err);
		if (rc) {
			b->interp_lost = 1;
			return rc;
		}
	}
	if ((rc = tg_buildenv_pip(&b->pip, se->pythonpath, err)))
		return rc;
	if (b->pip.kind == TG_BUILDENV_PIP) {
		/* pip keeps the rest of PYTHONPATH, the user's own */
		se->pythonpath = b->pip.pythonpath;
		se->nousersite = NULL;
	}
	return 0;
}

void
tg_target_build_release(struct tg_target_build *b)
{
	tg_buildenv_release(&b->build);
	tg_buildenv_release(&b->pip);
}
