/* buildenv.h - the PEP 517 build environments of pip and python -m build
 * SPDX-License-Identifier: MIT
 *
 * A setup.py that runs torchgate inside an isolated build runs it in an
 * environment made for the build, not the one the package will run in.
 * This module recognises the two kinds from files: pip's overlay (its
 * sitecustomize.py first on PYTHONPATH, with PYTHONNOUSERSITE=1 beside
 * it) and python -m build's throwaway venv (build-env-*), and says what
 * the target environment is.
 */
#ifndef TG_LIB_PYENV_BUILDENV_H
#define TG_LIB_PYENV_BUILDENV_H

#include "lib/util/err.h"
#include "lib/pyenv/interp.h"

enum tg_buildenv_kind {
	TG_BUILDENV_NONE,
	TG_BUILDENV_PIP,   /* pip's BuildEnvironment: a PYTHONPATH overlay */
	TG_BUILDENV_BUILD, /* python -m build's isolated venv */
};

struct tg_buildenv {
	enum tg_buildenv_kind kind;
	char *dir; /* pip-build-env-*, or the build-env-* venv */
	/* pip: the rest of PYTHONPATH after pip's entry (the user's own),
	 * NULL when none */
	char *pythonpath;
	/* build: the interpreter that made the venv (pyvenv.cfg's command),
	 * NULL when it does not say */
	char *target;
};

#define TG_BUILDENV_INIT                                                       \
	{                                                                      \
		0                                                              \
	}

/* pip's overlay, when the first entry of pythonpath is the "site"
 * directory of a pip-build-env: its sitecustomize.py is pip's (it drops
 * the system site directories and adds the overlay's). be->kind stays TG_BUILDENV_NONE otherwise;
 * only allocation fails. */
int tg_buildenv_pip(struct tg_buildenv *be, const char *pythonpath,
		    struct tg_err *err);

/* python -m build's venv, when in is a venv named build-env-* whose
 * pyvenv.cfg command made it ("EXE -m venv DIR", DIR its prefix): the
 * target is EXE; a build-env-* venv whose pyvenv.cfg does not say (made
 * by virtualenv, or before Python 3.11) has kind TG_BUILDENV_BUILD and
 * no target. */
int tg_buildenv_build(struct tg_buildenv *be, const struct tg_interp *in,
		      struct tg_err *err);

void tg_buildenv_release(struct tg_buildenv *be);

#endif
