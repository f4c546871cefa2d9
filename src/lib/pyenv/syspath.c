/* syspath.c - Python's sys.path, worked out from files
 * SPDX-License-Identifier: MIT
 *
 * Follows site.py (CPython 3.8 to 3.14, and Debian's patched copy):
 * main() = removeduppaths(); venv(); addusersitepackages();
 * addsitepackages(). A site directory is added only when it is a
 * directory; its .pth files are read in sorted name order; a .pth line is
 * skipped when it starts with '#' or is blank, recorded (not run) when it
 * starts with "import", and otherwise joined to the site directory,
 * made absolute and added when it exists and is new. A .pth that is not
 * UTF-8 is an error (TG_EINVAL): Python cannot start. Limits: at most
 * TG_SYSPATH_MAX entries and .pth files of at most 1 MiB.
 */
#include "lib/pyenv/syspath.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/dirlist.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"
#include "lib/util/grow.h"

#define PTH_MAX ((size_t)1 << 20)

static const char *const origin_names[] = {
    "PYTHONPATH", "stdlib", "site", "user-site", "pth", "argument",
};

const char *
tg_syspath_origin_name(enum tg_path_origin o)
{
	return origin_names[o];
}

void
tg_syspath_release(struct tg_syspath *sp)
{
	size_t k;

	for (k = 0; k < sp->n; k++) {
		free(sp->e[k].dir);
		free(sp->e[k].pth);
	}
	free(sp->e);
	tg_diag_list_release(&sp->skipped);
	memset(sp, 0, sizeof(*sp));
}

static int
known(const struct tg_syspath *sp, const char *dir)
{
	size_t k;

	for (k = 0; k < sp->n; k++)
		if (strcmp(sp->e[k].dir, dir) == 0)
			return 1;
	return 0;
}

/* Take ownership of dir (absolute) and append it unless known. */
static int
append(struct tg_syspath *sp, char *dir, enum tg_path_origin origin,
       const char *pth, size_t line, struct tg_err *err)
{
	if (!dir)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (known(sp, dir)) {
		free(dir);
		return 0;
	}
	if (sp->n == TG_SYSPATH_MAX) {
		free(dir);
		return tg_err_set(err, TG_ELIMIT,
				  "more than %d directories on the Python path",
				  TG_SYSPATH_MAX);
	}
	if (TG_GROW(sp->e, sp->n + 1, sp->cap)) {
		free(dir);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	sp->e[sp->n].pth = NULL;
	if (pth && !(sp->e[sp->n].pth = tg_str_ndup(pth, strlen(pth)))) {
		free(dir);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	sp->e[sp->n].dir = dir;
	sp->e[sp->n].origin = origin;
	sp->e[sp->n].pth_line = line;
	sp->n++;
	return 0;
}

static int
record_skip(struct tg_syspath *sp, const char *file, size_t line,
	    const char *text, size_t len, struct tg_err *err)
{
	char *snippet;
	size_t k;
	int rc;

	for (k = 0; k < sp->skipped.n; k++)
		if (sp->skipped.v[k].line == line &&
		    strcmp(sp->skipped.v[k].path, file) == 0)
			return 0; /* the same site dir, read again */
	if (sp->skipped.n == TG_SYSPATH_MAX)
		return tg_err_set(err, TG_ELIMIT,
				  "more than %d .pth import lines (the last "
				  "in '%s')",
				  TG_SYSPATH_MAX, file);
	snippet = tg_str_ndup(text, len > 200 ? 200 : len);
	rc = snippet ? tg_diag_add(&sp->skipped, TG_SEV_NOTE, 0, file, line, 1,
				   "pth-import", snippet,
				   "import line not run (torchgate never runs "
				   "code)")
		     : TG_ENOMEM;
	free(snippet);
	return rc ? tg_err_set(err, rc, "out of memory") : 0;
}

/* site.addpackage: follow one .pth file. */
static int
add_pth(struct tg_syspath *sp, const char *sitedir, const char *file,
	const char *cwd, int minor, struct tg_err *err)
{
	char *text = NULL;
	size_t len, i = 0, line = 0, bad;
	int rc;

	rc = tg_file_read(file, PTH_MAX, &text, &len, NULL, err);
	if (rc)
		return rc;
	/* site.py decodes the whole file before it reads a line (3.13:
	 * utf-8-sig, then the locale's encoding; before: the locale's, in
	 * UTF-8 mode or a UTF-8 locale UTF-8); the error is not caught, and
	 * the interpreter cannot start ("Fatal Python error:
	 * init_import_site") */
	if (!tg_str_utf8_valid(text, len, &bad)) {
		size_t k;

		for (k = 0, line = 1; k < bad; k++)
			line += text[k] == '\n';
		free(text);
		return tg_err_set(err, TG_EINVAL,
				  "'%s': line %zu is not UTF-8: Python cannot "
				  "start (site.py fails to decode the file: "
				  "\"Fatal Python error: init_import_site\")",
				  file, line);
	}
	/* 3.13 decodes .pth files as utf-8-sig; before, a BOM stays part
	 * of the first line */
	if (minor >= 13 && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && rc == 0) {
		size_t e = i, t;
		char *rel, *joined, *abs;

		while (e < len && text[e] != '\n')
			e++;
		line++;
		t = e;
		if (text[i] == '#')
			goto next;
		while (t > i && strchr(" \t\r\f\v", text[t - 1]))
			t--;
		if (t == i)
			goto next;
		if (e - i >= 7 && memcmp(text + i, "import", 6) == 0 &&
		    (text[i + 6] == ' ' || text[i + 6] == '\t')) {
			rc = record_skip(sp, file, line, text + i, t - i, err);
			goto next;
		}
		if (tg_str_has_nul(text + i, t - i))
			goto next; /* Python's os.path.exists is False */
		rel = tg_str_ndup(text + i, t - i);
		joined = rel ? tg_path_join(sitedir, rel) : NULL;
		abs = joined ? tg_path_abs(joined, cwd) : NULL;
		free(rel);
		free(joined);
		if (!abs)
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		else if (!known(sp, abs) && tg_path_exists(abs))
			rc = append(sp, abs, TG_ORIGIN_PTH, file, line, err);
		else
			free(abs);
	next:
		i = e + 1;
	}
	free(text);
	return rc;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tg_syspath_add_sitedir, listing through dirs (NULL: no cache). */
static int
add_sitedir(struct tg_syspath *sp, const char *dir, enum tg_path_origin origin,
	    const char *cwd, int minor, struct tg_dirlist *dirs,
	    struct tg_err *err)
{
	char *abs = tg_path_abs(dir, cwd), **names = NULL;
	size_t n = 0, cap = 0, k, i;
	const struct tg_dirlist_dir *d = NULL;
	struct tg_dirlist_dir *own = NULL;
	int rc;

	if (!abs)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (tg_dirlist_get(dirs, abs, &d, &own)) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	rc = append(sp, tg_str_ndup(abs, strlen(abs)), origin, NULL, 0, err);
	if (rc || d->error)
		goto out;
	for (i = 0; i < d->n; i++) {
		const char *nm = tg_dirlist_name(d, i);
		size_t l = strlen(nm);

		if (l < 4 || strcmp(nm + l - 4, ".pth") != 0)
			continue;
		if (minor >= 13 && nm[0] == '.')
			continue;
		if (n >= TG_SYSPATH_MAX) {
			rc = tg_err_set(err, TG_ELIMIT,
					"more than %d .pth files in '%s'",
					TG_SYSPATH_MAX, abs);
			goto out;
		}
		if (TG_GROW(names, n + 1, cap)) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			goto out;
		}
		names[n] = tg_str_ndup(nm, l);
		if (!names[n]) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (k = 0; k < n && rc == 0; k++) {
		char *file = tg_path_join(abs, names[k]);

		if (!file) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			break;
		}
		/* a .pth that cannot be opened is skipped, as site.py does
		 * (the read says TG_EIO for one gone, a directory, a FIFO, a
		 * device, none of which it opens: no stat of ours first);
		 * one too large to read is an error */
		{
			struct tg_err e2 = TG_ERR_INIT;

			rc = add_pth(sp, abs, file, cwd, minor, &e2);
			if (rc == TG_EIO)
				rc = 0;
			else if (rc && err)
				*err = e2;
		}
		free(file);
	}
out:
	for (k = 0; k < n; k++)
		free(names[k]);
	free(names);
	tg_dirlist_dir_free(own);
	free(abs);
	return rc;
}

int
tg_syspath_add_sitedir(struct tg_syspath *sp, const char *dir,
		       enum tg_path_origin origin, const char *cwd, int minor,
		       struct tg_err *err)
{
	return add_sitedir(sp, dir, origin, cwd, minor, NULL, err);
}

/* Whether path is a directory (site.py's os.path.isdir), into *yes: its
 * listing, kept in dirs for add_sitedir, says so without a stat of its
 * own; only a directory that cannot be listed (EACCES) is stat'ed. */
static int
is_site_dir(struct tg_dirlist *dirs, const char *path, int *yes,
	    struct tg_err *err)
{
	const struct tg_dirlist_dir *d;
	struct tg_dirlist_dir *own = NULL;

	if (tg_dirlist_get(dirs, path, &d, &own))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!d->error)
		*yes = 1;
	else if (d->error == ENOENT || d->error == ENOTDIR)
		*yes = 0;
	else
		*yes = tg_path_is_dir(path);
	tg_dirlist_dir_free(own);
	return 0;
}

/* site.getsitepackages() for one prefix, added when they are dirs, one
 * at a time (a path each, not all four at once: 17 KiB less stack). */
static int
add_prefix_sites(struct tg_syspath *sp, const struct tg_interp *in,
		 const char *prefix, const char *cwd, struct tg_dirlist *dirs,
		 struct tg_err *err)
{
	char path[4200];
	int k, rc = 0, yes = 0;

	/* Debian's site.py: the venv's site-packages, then local/lib/pythonX.Y/
	 * dist-packages, lib/python3/dist-packages, lib/pythonX.Y/
	 * dist-packages; upstream's: lib/pythonX.Y/site-packages */
	for (k = in->debian ? !in->venv : 0; k < (in->debian ? 4 : 1) && !rc;
	     k++) {
		if (k == 0)
			rc = tg_path_fmt(path, sizeof(path), err,
					 "%s/lib/python%d.%d/site-packages",
					 prefix, in->major, in->minor);
		else if (k == 1)
			rc = tg_path_fmt(
			    path, sizeof(path), err,
			    "%s/local/lib/python%d.%d/dist-packages", prefix,
			    in->major, in->minor);
		else if (k == 2)
			rc =
			    tg_path_fmt(path, sizeof(path), err,
					"%s/lib/python3/dist-packages", prefix);
		else
			rc = tg_path_fmt(path, sizeof(path), err,
					 "%s/lib/python%d.%d/dist-packages",
					 prefix, in->major, in->minor);
		if (!rc && !(rc = is_site_dir(dirs, path, &yes, err)) && yes)
			rc = add_sitedir(sp, path, TG_ORIGIN_SITE, cwd,
					 in->minor, dirs, err);
	}
	return rc;
}

/* PYTHONNOUSERSITE as Python reads it: empty is unset; from 3.7 a number
 * >= 0 is the flag's value (so "0" leaves the user site on) and anything
 * else means 1; 3.6 and older take any non-empty value as set. */
static int
no_user_site(const char *v, int minor)
{
	char *end;
	long n;

	if (!v || !v[0])
		return 0;
	if (minor < 7)
		return 1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v || n < 0 || n > INT_MAX)
		return 1;
	return n > 0;
}

int
tg_syspath_for_interp(struct tg_syspath *sp, const struct tg_interp *in,
		      const struct tg_syspath_env *env, struct tg_err *err)
{
	char buf[4200];
	int rc = 0, user_site, yes = 0;
	const char *p;

	memset(sp, 0, sizeof(*sp));
	/* getpath: PYTHONPATH, then the standard library */
	if (env->pythonpath && env->pythonpath[0]) {
		p = env->pythonpath;
		for (;;) {
			const char *colon = strchr(p, ':');
			size_t n = colon ? (size_t)(colon - p) : strlen(p);
			char *ent = tg_str_ndup(p, n);

			rc = append(sp, ent ? tg_path_abs(ent, env->cwd) : NULL,
				    TG_ORIGIN_PYTHONPATH, NULL, 0, err);
			free(ent);
			if (rc || !colon)
				break;
			p = colon + 1;
		}
	}
	if (!rc && in->executable) {
		rc = tg_path_fmt(buf, sizeof(buf), err, "%s/lib/python%d%d.zip",
				 in->base_prefix, in->major, in->minor);
		if (!rc)
			rc = append(sp, tg_str_ndup(buf, strlen(buf)),
				    TG_ORIGIN_STDLIB, NULL, 0, err);
		if (!rc)
			rc = tg_path_fmt(buf, sizeof(buf), err,
					 "%s/lib/python%d.%d", in->base_prefix,
					 in->major, in->minor);
		if (!rc)
			rc = append(sp, tg_str_ndup(buf, strlen(buf)),
				    TG_ORIGIN_STDLIB, NULL, 0, err);
		if (!rc)
			rc = tg_path_fmt(buf, sizeof(buf), err,
					 "%s/lib/python%d.%d/lib-dynload",
					 in->base_prefix, in->major, in->minor);
		if (!rc)
			rc = append(sp, tg_str_ndup(buf, strlen(buf)),
				    TG_ORIGIN_STDLIB, NULL, 0, err);
	}
	if (rc)
		goto out;
	/* site.venv(): the venv's own site directories first */
	if (in->venv) {
		rc = add_prefix_sites(sp, in, in->prefix, env->cwd, env->dirs,
				      err);
		if (rc)
			goto out;
	}
	/* the user site */
	user_site = !no_user_site(env->nousersite, in->minor) &&
		    !(in->venv && !in->system_site) && in->executable;
	if (user_site && (env->userbase || env->home)) {
		if (env->userbase && env->userbase[0])
			rc = tg_path_fmt(buf, sizeof(buf), NULL,
					 "%s/lib/python%d.%d/site-packages",
					 env->userbase, in->major, in->minor);
		else
			rc = tg_path_fmt(
			    buf, sizeof(buf), NULL,
			    "%s/.local/lib/python%d.%d/site-packages",
			    env->home, in->major, in->minor);
		/* absent is exactly right for a user site too long to build:
		 * buf is longer than PATH_MAX, and site.py's os.path.isdir()
		 * is False for such a path (ENAMETOOLONG) */
		if (rc)
			buf[0] = '\0';
		rc = 0;
		if (buf[0] && (rc = is_site_dir(env->dirs, buf, &yes, err)))
			goto out;
		if (buf[0] && yes) {
			rc = add_sitedir(sp, buf, TG_ORIGIN_USER, env->cwd,
					 in->minor, env->dirs, err);
			if (rc)
				goto out;
		}
	}
	/* site.addsitepackages(): PREFIXES */
	if (!in->venv || in->system_site) {
		if (in->venv)
			rc = add_prefix_sites(sp, in, in->prefix, env->cwd,
					      env->dirs, err);
		if (!rc)
			rc = add_prefix_sites(sp, in, in->base_prefix, env->cwd,
					      env->dirs, err);
	}
out:
	if (rc)
		tg_syspath_release(sp);
	return rc;
}
