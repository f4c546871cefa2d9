/* test_buildenv.c - unit tests for lib/pyenv/buildenv: isolated builds
 * SPDX-License-Identifier: MIT
 *
 * pip's overlay is written as pip 23 writes it (BuildEnvironment's
 * sitecustomize.py, abridged to the lines recognised); build's venv as
 * the venv module writes pyvenv.cfg's command (Python 3.11).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/pyenv/buildenv.h"

static char root[64];

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "cannot write %s", path);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void
pip_overlay(void)
{
	static const char pip_text[] =
	    "import os, site, sys\n\n# First, drop system-sites related "
	    "paths.\noriginal_sys_path = sys.path[:]\nfor path in "
	    "['/tmp/x/overlay/local/lib/python3.11/dist-packages']:\n"
	    "    site.addsitedir(path)\n";
	struct tg_buildenv be = TG_BUILDENV_INIT;
	struct tg_err err = TG_ERR_INIT;
	char site[256], file[320], pp[640], env[128];

	snprintf(env, sizeof(env), "%s/pip-build-env-1", root);
	snprintf(site, sizeof(site), "%s/site", env);
	snprintf(file, sizeof(file), "%s/sitecustomize.py", site);
	CHECK(mkdir(env, 0755) == 0 && mkdir(site, 0755) == 0, "mkdir");
	write_file(file, pip_text);

	snprintf(pp, sizeof(pp), "%s:/home/u/lib:/x", site);
	CHECK(tg_buildenv_pip(&be, pp, &err) == 0, "pip: %s", err.msg);
	CHECK(be.kind == TG_BUILDENV_PIP, "pip's overlay recognised");
	CHECK(be.dir && strcmp(be.dir, env) == 0, "dir '%s'",
	      be.dir ? be.dir : "(null)");
	CHECK(be.pythonpath && strcmp(be.pythonpath, "/home/u/lib:/x") == 0,
	      "the user's PYTHONPATH kept: '%s'",
	      be.pythonpath ? be.pythonpath : "(null)");
	tg_buildenv_release(&be);

	CHECK(tg_buildenv_pip(&be, site, &err) == 0, "pip alone");
	CHECK(be.kind == TG_BUILDENV_PIP && !be.pythonpath,
	      "nothing after pip's entry: no PYTHONPATH left");
	tg_buildenv_release(&be);

	/* pip's entry second: not pip's overlay (pip puts it first) */
	snprintf(pp, sizeof(pp), "/x:%s", site);
	CHECK(tg_buildenv_pip(&be, pp, &err) == 0 &&
		  be.kind == TG_BUILDENV_NONE,
	      "pip's site not first: not recognised");
	tg_buildenv_release(&be);

	/* another sitecustomize.py in a directory named site */
	write_file(file, "import os\n");
	CHECK(tg_buildenv_pip(&be, site, &err) == 0 &&
		  be.kind == TG_BUILDENV_NONE,
	      "a sitecustomize.py that is not pip's");
	tg_buildenv_release(&be);
	unlink(file);
	CHECK(tg_buildenv_pip(&be, site, &err) == 0 &&
		  be.kind == TG_BUILDENV_NONE,
	      "no sitecustomize.py");
	CHECK(tg_buildenv_pip(&be, NULL, &err) == 0 &&
		  be.kind == TG_BUILDENV_NONE,
	      "no PYTHONPATH");
	CHECK(tg_buildenv_pip(&be, "site", &err) == 0 &&
		  be.kind == TG_BUILDENV_NONE,
	      "a relative entry");
	rmdir(site);
	rmdir(env);
}

static void
build_venv(void)
{
	static const struct {
		const char *prefix, *command;
		enum tg_buildenv_kind kind;
		const char *target;
	} cases[] = {
	    {"/tmp/build-env-ab12",
	     "/usr/bin/python3 -m venv /tmp/build-env-ab12", TG_BUILDENV_BUILD,
	     "/usr/bin/python3"},
	    {"/tmp/build-env-ab12",
	     "/home/u/venv/bin/python -m venv --without-pip "
	     "/tmp/build-env-ab12",
	     TG_BUILDENV_BUILD, "/home/u/venv/bin/python"},
	    /* not made by venv, or not for this directory: no target */
	    {"/tmp/build-env-ab12", NULL, TG_BUILDENV_BUILD, NULL},
	    {"/tmp/build-env-ab12", "/usr/bin/python3 -m venv /tmp/other",
	     TG_BUILDENV_BUILD, NULL},
	    {"/tmp/build-env-ab12", "python3 -m venv /tmp/build-env-ab12",
	     TG_BUILDENV_BUILD, NULL},
	    /* any other venv */
	    {"/home/u/venv", "/usr/bin/python3 -m venv /home/u/venv",
	     TG_BUILDENV_NONE, NULL},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_interp in = TG_INTERP_INIT;
		struct tg_buildenv be = TG_BUILDENV_INIT;
		struct tg_err err = TG_ERR_INIT;

		in.venv = 1;
		in.prefix = (char *)cases[k].prefix;
		in.venv_command = (char *)cases[k].command;
		CHECK(tg_buildenv_build(&be, &in, &err) == 0, "case %zu: %s", k,
		      err.msg);
		CHECK(be.kind == cases[k].kind, "case %zu: kind %d", k,
		      (int)be.kind);
		CHECK(cases[k].target
			  ? be.target && strcmp(be.target, cases[k].target) == 0
			  : !be.target,
		      "case %zu: target '%s'", k,
		      be.target ? be.target : "(null)");
		tg_buildenv_release(&be);
	}
	{
		struct tg_interp in = TG_INTERP_INIT;
		struct tg_buildenv be = TG_BUILDENV_INIT;

		in.prefix = (char *)"/tmp/build-env-ab12";
		CHECK(tg_buildenv_build(&be, &in, NULL) == 0 &&
			  be.kind == TG_BUILDENV_NONE,
		      "not a venv");
	}
}

int
main(void)
{
	snprintf(root, sizeof(root), "/tmp/test_buildenv.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	pip_overlay();
	build_venv();
	rmdir(root);
	return check_result("test_buildenv");
}
