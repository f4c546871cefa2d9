/* interp.h - a Python interpreter described from its files, never run
 * SPDX-License-Identifier: MIT
 *
 * Finds the interpreter (a path, or python3 on PATH; a pyenv shim is
 * followed the way pyenv would: PYENV_VERSION, .python-version in the
 * directory and its parents, $PYENV_ROOT/version, then system) and works
 * out what Python's getpath would: sys.prefix, sys.base_prefix (only the
 * program's own links followed, as getpath does), the X.Y version,
 * whether it is a venv (pyvenv.cfg, a stale home included), whether its
 * site rules are Debian's (dist-packages: from 3.11 the binary's, site
 * being frozen into it) and its extension-module suffix.
 */
#ifndef TG_LIB_PYENV_INTERP_H
#define TG_LIB_PYENV_INTERP_H

#include "lib/util/err.h"

struct tg_dirlist;

/* The process environment the resolution reads (NULL when unset). */
struct tg_interp_env {
	const char *path; /* $PATH */
	const char *cwd;
	const char *home;
	const char *pyenv_version;
	const char *pythonhome;
	/* the listings the run shares (util/dirlist); NULL: none kept */
	struct tg_dirlist *dirs;
};

struct tg_interp {
	char *executable;  /* sys.executable: absolute, symlinks kept */
	char *via;	   /* how a pyenv shim was resolved, or NULL */
	char *prefix;	   /* sys.prefix */
	char *base_prefix; /* sys.base_prefix */
	char *pyvenv_cfg;  /* the venv's pyvenv.cfg, or NULL */
	int venv;
	int system_site; /* include-system-site-packages */
	int major, minor;
	int debian; /* site.py adds dist-packages directories */
	/* the interpreter's own extension suffix (".cpython-311-x86_64-
	 * linux-gnu.so"), from its files, or NULL when they do not say */
	char *ext_suffix;
	/* what a user should know about how the interpreter was found (a
	 * stale pyvenv.cfg home), or NULL */
	char *warning;
	/* pyvenv.cfg's command (venv since 3.11: "EXE -m venv ... DIR"), or
	 * NULL */
	char *venv_command;
};

#define TG_INTERP_INIT                                                         \
	{                                                                      \
		0                                                              \
	}

/* python: a path, a name looked up on PATH, or NULL for "python3".
 * TG_ENOENT when there is no such interpreter (or pyenv names a version
 * that is not installed); TG_EINVAL when its files make no sense. */
int tg_interp_find(struct tg_interp *in, const char *python,
		   const struct tg_interp_env *env, struct tg_err *err);

/* An interpreter-less "prefix" (a conda env or a venv given as a
 * directory): uses DIR/bin/python3 when it exists, else the one
 * lib/pythonX.Y directory under DIR. */
int tg_interp_from_prefix(struct tg_interp *in, const char *dir,
			  const struct tg_interp_env *env, struct tg_err *err);

void tg_interp_release(struct tg_interp *in);

/* sys.version_info and platform.python_version(), read from files. */
struct tg_interp_version {
	int major, minor, micro;
	char releaselevel; /* 'f'inal, 'a'lpha, 'b'eta, 'c'andidate */
	int serial;
	char full[64]; /* PY_VERSION: "3.11.2", "3.13.0rc1" */
};

/* The full version of in, from the first of: the base installation's
 * include/pythonX.Y/patchlevel.h (PY_MAJOR_VERSION ... PY_VERSION; the
 * ABI flags m, t, d after X.Y tried too), then a venv's pyvenv.cfg
 * version_info (virtualenv: 3.11.2.final.0) or version (venv: 3.11.2).
 * TG_ENOENT when neither gives X.Y.Z; TG_EINVAL for a patchlevel.h of
 * another X.Y or of PyPy, or that lacks a macro; TG_EIO, TG_ELIMIT for a
 * file that cannot be read (not a regular file, over 64 KiB). */
int tg_interp_full_version(const struct tg_interp *in,
			   struct tg_interp_version *out, struct tg_err *err);

#endif
