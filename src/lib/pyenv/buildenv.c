/* buildenv.c - the PEP 517 build environments of pip and python -m build
 * SPDX-License-Identifier: MIT
 *
 * pip (BuildEnvironment, pip 10 to 24) runs a build backend with
 * PYTHONPATH=<tmp>/pip-build-env-XXXX/site first, whose sitecustomize.py
 * removes the system site directories and adds <tmp>/.../overlay and
 * normal, and with PYTHONNOUSERSITE=1; the interpreter is the one
 * running pip, the target's. python -m build (0.x, 1.x) makes a venv
 * <tmp>/build-env-XXXX with the venv module and runs the backend with its
 * python: the target is the interpreter that ran build, which venv writes
 * into pyvenv.cfg ("command = EXE -m venv DIR", Python 3.11 on). Both are
 * recognised from these files, never from names alone: one read of at
 * most 64 KiB (sitecustomize.py), directory checks, and strings the
 * interpreter already read. What is not recognised is left as it is.
 */
#include "lib/pyenv/buildenv.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"

#define SITECUSTOMIZE_MAX ((size_t)64 * 1024)

void
tg_buildenv_release(struct tg_buildenv *be)
{
	free(be->dir);
	free(be->pythonpath);
	free(be->target);
	memset(be, 0, sizeof(*be));
}

static int
nomem(struct tg_buildenv *be, struct tg_err *err)
{
	tg_buildenv_release(be);
	return tg_err_set(err, TG_ENOMEM, "out of memory");
}

int
tg_buildenv_pip(struct tg_buildenv *be, const char *pythonpath,
		struct tg_err *err)
{
	const char *colon;
	char *site = NULL, *file = NULL, *text = NULL, *up = NULL;
	size_t len;
	int rc = 0;

	memset(be, 0, sizeof(*be));
	if (!pythonpath || pythonpath[0] != '/')
		return 0;
	colon = strchr(pythonpath, ':');
	site = tg_str_ndup(pythonpath, colon ? (size_t)(colon - pythonpath)
					     : strlen(pythonpath));
	if (!site)
		return nomem(be, err);
	if (strcmp(tg_path_basename(site), "site") != 0)
		goto out;
	file = tg_path_join(site, "sitecustomize.py");
	up = tg_path_dirname(site);
	if (!file || !up) {
		rc = TG_ENOMEM;
		goto out;
	}
	{
		struct tg_err e = TG_ERR_INIT;

		if (tg_file_read(file, SITECUSTOMIZE_MAX, &text, &len, NULL,
				 &e) &&
		    e.code == TG_ENOMEM) {
			rc = TG_ENOMEM;
			goto out;
		}
	}
	/* pip writes the overlay and normal prefixes into it; they are
	 * created only when something is installed there, so their
	 * directories are not looked for */
	if (text && strstr(text, "# First, drop system-sites related paths.") &&
	    strstr(text, "site.addsitedir(") && strstr(text, "/overlay")) {
		be->kind = TG_BUILDENV_PIP;
		be->dir = up;
		up = NULL;
		if (colon && colon[1] &&
		    !(be->pythonpath =
			  tg_str_ndup(colon + 1, strlen(colon + 1))))
			rc = TG_ENOMEM;
	}
out:
	free(site);
	free(file);
	free(text);
	free(up);
	return rc ? nomem(be, err) : 0;
}

int
tg_buildenv_build(struct tg_buildenv *be, const struct tg_interp *in,
		  struct tg_err *err)
{
	const char *c = in->venv_command, *sp, *last;

	memset(be, 0, sizeof(*be));
	if (!in->venv || !in->prefix ||
	    strncmp(tg_path_basename(in->prefix), "build-env-", 10) != 0)
		return 0;
	be->kind = TG_BUILDENV_BUILD;
	if (!(be->dir = tg_str_ndup(in->prefix, strlen(in->prefix))))
		return nomem(be, err);
	/* "EXE -m venv [options] DIR": EXE absolute, DIR the venv itself
	 * (venv writes them unquoted: a path with a blank is not told) */
	if (!c || c[0] != '/' || !(sp = strstr(c, " -m venv ")))
		return 0;
	last = strrchr(c, ' ');
	if (strcmp(last + 1, in->prefix) != 0 ||
	    memchr(c, ' ', (size_t)(sp - c)))
		return 0;
	if (!(be->target = tg_str_ndup(c, (size_t)(sp - c))))
		return nomem(be, err);
	return 0;
}
