/* target.h - which Python environment a command describes: the one it
 * is told, else the one active, seen through an isolated build
 * SPDX-License-Identifier: MIT
 *
 * The policy every torch-facing command shares. The interpreter is the
 * one named (a path or a name on PATH), else the environment directory
 * named, else $VIRTUAL_ENV, else $CONDA_PREFIX, else python3 on PATH;
 * none when the caller names site directories instead. When that
 * interpreter runs inside an isolated PEP 517 build, the environment
 * described is the one the package is built for (pyenv/buildenv
 * recognises the two kinds): python -m build's throwaway venv stands for
 * the interpreter that ran build; pip's PYTHONPATH overlay and the
 * PYTHONNOUSERSITE=1 beside it are left out, since the installed package
 * runs without them. The process environment comes in as plain strings:
 * the library never calls getenv().
 */
#ifndef TG_LIB_PYENV_TARGET_H
#define TG_LIB_PYENV_TARGET_H

#include "lib/pyenv/buildenv.h"
#include "lib/pyenv/interp.h"
#include "lib/pyenv/syspath.h"
#include "lib/util/err.h"

struct tg_target_env {
	const char *virtual_env;  /* $VIRTUAL_ENV, NULL when unset or "" */
	const char *conda_prefix; /* $CONDA_PREFIX, likewise */
	struct tg_interp_env ie;  /* what finding an interpreter reads */
};

/* The interpreter python (a path or a name; NULL: none named) or prefix
 * (an environment directory; NULL: none named) selects, else the active
 * environment's (te), else python3 on PATH, into *in. 0, or what
 * tg_interp_find / tg_interp_from_prefix return. */
int tg_target_interp(struct tg_interp *in, const char *python,
		     const char *prefix, const struct tg_target_env *te,
		     struct tg_err *err);

/* What tg_target_look_through saw. */
struct tg_target_build {
	/* python -m build's venv (kind TG_BUILDENV_BUILD: dir, and target
	 * when its pyvenv.cfg names the interpreter that made it), or kind
	 * TG_BUILDENV_NONE */
	struct tg_buildenv build;
	/* pip's overlay (kind TG_BUILDENV_PIP: dir, and pythonpath, the
	 * user's own rest of PYTHONPATH), or kind TG_BUILDENV_NONE */
	struct tg_buildenv pip;
	/* in was let go for build's target and finding that failed: in is
	 * empty */
	int interp_lost;
};

#define TG_TARGET_BUILD_INIT                                                   \
	{                                                                      \
		TG_BUILDENV_INIT, TG_BUILDENV_INIT, 0                          \
	}

/* Look through the isolated build in (its interpreter) and se (the
 * environment sys.path is computed from) run in: python -m build's venv
 * is replaced in *in by the interpreter that ran build (found with
 * te->ie); pip's overlay is taken out of se (se->pythonpath then points
 * into b->pip, which must outlive its use; se->nousersite NULL). 0;
 * TG_ENOENT (b->build.kind TG_BUILDENV_BUILD, no target) when the venv
 * does not say which interpreter made it: the caller must be told which
 * environment is meant; else what finding the target returns. */
int tg_target_look_through(struct tg_target_build *b, struct tg_interp *in,
			   const struct tg_target_env *te,
			   struct tg_syspath_env *se, struct tg_err *err);
void tg_target_build_release(struct tg_target_build *b);

#endif
