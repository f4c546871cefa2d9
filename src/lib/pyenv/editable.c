/* editable.c - setuptools' editable finders, read as text
 * SPDX-License-Identifier: MIT
 *
 * The MAPPING line is the repr() of a dict of str to str. Accepted:
 * `MAPPING = {` or `MAPPING: <annotation> = {`, then 'key': 'value'
 * pairs in single or double quotes without backslashes, then `}`. The
 * finder module is read up to 1 MiB.
 */
#include "lib/pyenv/editable.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pyenv/direct_url.h"
#include "lib/util/file.h"
#include "lib/util/grow.h"
#include "lib/util/str.h"
#include "lib/util/path.h"

#define FINDER_MAX ((size_t)1024 * 1024)

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* A quoted literal at p: its body in [*s, *s + *n); returns past it. */
static const char *
literal(const char *p, const char **s, size_t *n)
{
	char q = *p;
	const char *e;

	if (q != '\'' && q != '"')
		return NULL;
	for (e = p + 1; *e && *e != q && *e != '\\' && *e != '\n'; e++)
		;
	if (*e != q)
		return NULL;
	*s = p + 1;
	*n = (size_t)(e - p - 1);
	return e + 1;
}

/* Calls pair(ctx, key, kn, value, vn) for each entry of the MAPPING
 * literal in text until it returns nonzero (returned). */
static int
parse_mapping(const char *text, const char *file,
	      int (*pair)(void *ctx, const char *k, size_t kn, const char *v,
			  size_t vn),
	      void *ctx, struct tg_err *err)
{
	const char *p = text;
	int rc;

	for (;;) {
		p = strstr(p, "MAPPING");
		if (!p)
			return 0;
		if ((p == text || p[-1] == '\n') &&
		    (p[7] == ' ' || p[7] == ':' || p[7] == '='))
			break;
		p += 7;
	}
	p = strchr(p, '=');
	if (!p || *(p = skip_ws(p + 1)) != '{')
		goto bad;
	p = skip_ws(p + 1);
	while (*p != '}') {
		const char *k, *v;
		size_t kn, vn;

		if (!(p = literal(p, &k, &kn)))
			goto bad;
		p = skip_ws(p);
		if (*p != ':')
			goto bad;
		if (!(p = literal(skip_ws(p + 1), &v, &vn)))
			goto bad;
		if ((rc = pair(ctx, k, kn, v, vn)))
			return rc;
		p = skip_ws(p);
		if (*p == ',')
			p = skip_ws(p + 1);
		else if (*p != '}')
			goto bad;
	}
	return 0;
bad:
	return tg_err_set(err, TG_EINVAL,
			  "cannot parse '%s': MAPPING is not a dict of "
			  "plain strings",
			  file);
}

struct one {
	const char *package;
	char *dir;
};

static int
one_pair(void *ctx, const char *k, size_t kn, const char *v, size_t vn)
{
	struct one *o = ctx;

	if (kn != strlen(o->package) || memcmp(k, o->package, kn) != 0)
		return 0;
	o->dir = tg_str_ndup(v, vn);
	return o->dir ? 1 : TG_ENOMEM;
}

static int
lookup_mapping(const char *text, const char *file, const char *package,
	       char **dir, struct tg_err *err)
{
	struct one o = {package, NULL};
	int rc = parse_mapping(text, file, one_pair, &o, err);

	if (rc == TG_ENOMEM)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	*dir = o.dir;
	return rc < 0 ? rc : 0;
}

/* The finder module that a .pth import line (text) of pth_file installs,
 * as a new path into *finder; NULL when the line is not an editable
 * finder's. */
static int
finder_module(const char *pth_file, const char *text, char **finder,
	      struct tg_err *err)
{
	const char *m = text + strlen("import"), *e;
	char *dirname = NULL, *name = NULL;
	size_t n;
	int rc = 0;

	*finder = NULL;
	if (strncmp(tg_path_basename(pth_file), "__editable__", 12) != 0 ||
	    strncmp(text, "import", 6) != 0)
		return 0;
	while (*m == ' ' || *m == '\t')
		m++;
	for (e = m; *e && *e != ';' && *e != ' ' && *e != '\t' && *e != ',';
	     e++)
		;
	n = (size_t)(e - m);
	if (n == 0 || strncmp(m, "__editable___", 13) != 0 ||
	    memchr(m, '/', n) || memchr(m, '.', n))
		return 0;
	dirname = tg_path_dirname(pth_file);
	name = malloc(n + 4);
	if (dirname && name) {
		memcpy(name, m, n);
		memcpy(name + n, ".py", 4);
		*finder = tg_path_join(dirname, name);
	}
	if (!*finder)
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	free(dirname);
	free(name);
	return rc;
}

/* The finder module's text, checked for NUL bytes. */
static int
finder_text(const char *finder, char **content, struct tg_err *err)
{
	size_t len;
	int rc = tg_file_read(finder, FINDER_MAX, content, &len, NULL, err);

	if (!rc && memchr(*content, '\0', len))
		rc = tg_err_set(err, TG_EINVAL,
				"cannot parse '%s': binary data", finder);
	if (rc) {
		free(*content);
		*content = NULL;
	}
	return rc;
}

int
tg_editable_lookup(const char *pth_file, const char *text, const char *package,
		   char **dir, char **finder, struct tg_err *err)
{
	char *content = NULL;
	int rc;

	*dir = NULL;
	rc = finder_module(pth_file, text, finder, err);
	if (!rc && *finder)
		rc = finder_text(*finder, &content, err);
	if (!rc && content)
		rc = lookup_mapping(content, *finder, package, dir, err);
	if (rc || !*dir) {
		free(*finder);
		*finder = NULL;
	}
	free(content);
	return rc;
}

/* ---- the roots of editable installs --------------------------------- */

#define DIRECT_URL_MAX ((size_t)64 * 1024)
/* Names looked at in one .pth directory for NAME.*.so modules. */
#define PTH_DIR_NAMES_MAX 100000

struct roots {
	struct tg_editable_roots *r;
	const struct tg_syspath *sp;
	const struct tg_dists *ds;
	char **project; /* per dist: the real project directory, or NULL */
	char *looked;	/* per dist: project[] was worked out */
	char **envdirs; /* the environment's own directories, real */
	size_t nenv;
	size_t who;	 /* the distribution being added for */
	const char *via; /* the file that maps it */
	int full;	 /* TG_EDITABLE_ROOTS_MAX reached, said */
};

static int note(struct roots *x, const char *path, const char *fmt, ...)
    TG_PRINTF(3, 4);

static int
note(struct roots *x, const char *path, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = tg_diag_addv(&x->r->notes, TG_SEV_WARNING, 0, path, 0, 0,
			  "env-editable", NULL, fmt, ap);
	va_end(ap);
	return rc ? TG_ENOMEM : 0;
}

/* realpath(p) into *out, NULL when it does not resolve; TG_ENOMEM. */
static int
real(const char *p, char **out)
{
	errno = 0;
	*out = tg_path_realpath(p);
	return !*out && errno == ENOMEM ? TG_ENOMEM : 0;
}

/* The project directory d's direct_url.json names when it says
 * editable with a file: URL, as a real path into *out; NULL otherwise
 * (no such file, another kind, a path that does not resolve). */
static int
project_dir(const struct tg_dist *d, char **out)
{
	char *path, *text = NULL, *url = NULL, *kind = NULL, *dec = NULL;
	const char *p;
	size_t len = 0, i, j;
	int rc, absent = 0;
	struct tg_err e = TG_ERR_INIT;

	*out = NULL;
	if (!(path = tg_path_join(d->dir, "direct_url.json")))
		return TG_ENOMEM;
	rc = tg_file_read(path, DIRECT_URL_MAX, &text, &len, &absent, &e);
	if (!rc && !absent)
		rc = tg_direct_url_parse(text, len, path, &url, &kind, &e);
	if (rc || absent || strcmp(kind, "editable") != 0 ||
	    strncmp(url, "file://", 7) != 0)
		goto out;
	p = url + 7;
	if (strncmp(p, "localhost/", 10) == 0)
		p += 9;
	if (*p != '/')
		goto out;
	if (!(dec = malloc(strlen(p) + 1))) {
		rc = TG_ENOMEM;
		goto out;
	}
	for (i = j = 0; p[i]; i++) {
		int h, l;

		if (p[i] == '%' && (h = tg_str_hexval(p[i + 1])) >= 0 &&
		    (l = tg_str_hexval(p[i + 2])) >= 0 && (h || l)) {
			dec[j++] = (char)(h * 16 + l);
			i += 2;
		} else {
			dec[j++] = p[i];
		}
	}
	dec[j] = '\0';
	rc = real(dec, out);
out:
	free(dec);
	free(url);
	free(kind);
	free(text);
	free(path);
	return rc == TG_ENOMEM || e.code == TG_ENOMEM ? TG_ENOMEM : 0;
}

/* The editable distribution whose RECORD lists the .pth file pth, in
 * pth's own directory: its index into *who, (size_t)-1 when none. */
static int
owner(struct roots *x, const char *pth, size_t *who)
{
	char *dir = tg_path_dirname(pth);
	const char *base = tg_path_basename(pth);
	size_t i;
	int rc = dir ? 0 : TG_ENOMEM, yes = 0;

	*who = (size_t)-1;
	for (i = 0; !rc && i < x->ds->n; i++) {
		const struct tg_dist *d = &x->ds->v[i];

		if (strcmp(x->sp->e[d->entry].dir, dir) != 0)
			continue;
		if (!x->looked[i]) {
			x->looked[i] = 1;
			if ((rc = project_dir(d, &x->project[i])))
				break;
			/* "inside the project" must bound something */
			if (x->project[i] && strcmp(x->project[i], "/") == 0) {
				free(x->project[i]);
				x->project[i] = NULL;
				if ((rc = note(x, pth,
					       "%s %s's direct_url.json names "
					       "'/' as its project directory: "
					       "not checked",
					       d->name, d->version)))
					break;
			}
		}
		if (!x->project[i])
			continue;
		rc = tg_dists_record_lists(d, base, &yes, NULL);
		if (!rc && yes) {
			*who = i;
			break;
		}
	}
	free(dir);
	return rc;
}

/* Add path for x->who unless a rule of editable.h leaves it out. */
static int
add_root(struct roots *x, const char *path)
{
	const struct tg_dist *d = &x->ds->v[x->who];
	struct tg_editable_root *nr;
	char *rp = NULL, *via = NULL;
	size_t k;
	int rc = real(path, &rp);

	if (rc)
		return rc;
	if (!rp) {
		rc = note(x, x->via,
			  "'%s', which '%s' puts on the path for %s %s, does "
			  "not exist: not checked",
			  path, x->via, d->name, d->version);
		goto out;
	}
	if (!tg_path_inside(rp, x->project[x->who])) {
		rc =
		    note(x, x->via,
			 "'%s', which '%s' puts on the path for %s %s, lies "
			 "outside the project directory '%s' its "
			 "direct_url.json names: not checked",
			 path, x->via, d->name, d->version, x->project[x->who]);
		goto out;
	}
	for (k = 0; k < x->nenv; k++)
		if (tg_path_inside(rp, x->envdirs[k]) ||
		    tg_path_inside(x->envdirs[k], rp)) {
			rc = note(x, x->via,
				  "'%s', which '%s' puts on the path for %s "
				  "%s, %s the environment's own directory "
				  "'%s': not checked",
				  path, x->via, d->name, d->version,
				  tg_path_inside(rp, x->envdirs[k])
				      ? "lies inside"
				      : "holds",
				  x->envdirs[k]);
			goto out;
		}
	for (k = 0; k < x->r->n; k++)
		if (strcmp(x->r->v[k].path, rp) == 0)
			goto out;
	if (x->r->n >= TG_EDITABLE_ROOTS_MAX) {
		if (!x->full)
			rc = note(x, x->via,
				  "more than %d directories of editable "
				  "installs: '%s' and the rest not checked",
				  TG_EDITABLE_ROOTS_MAX, path);
		x->full = 1;
		goto out;
	}
	if (TG_GROW(x->r->v, x->r->n + 1, x->r->cap) ||
	    !(via = strdup(x->via))) {
		rc = TG_ENOMEM;
		goto out;
	}
	nr = &x->r->v[x->r->n++];
	nr->dist = x->who;
	nr->path = rp;
	nr->via = via;
	rp = NULL;
out:
	free(rp);
	return rc;
}

static int modules(struct roots *x, const char *dir, char *const *names,
		   size_t nnames, char ***out, size_t *n);

/* A MAPPING entry: what the finder imports for it (setuptools'
 * _EditableFinder): v/__init__.py, a package, walked whole; or
 * v.<suffix>, a module, of which the extension modules v.*.so. */
static int
finder_pair(void *ctx, const char *k, size_t kn, const char *v, size_t vn)
{
	struct roots *x = ctx;
	const struct tg_dist *d = &x->ds->v[x->who];
	char *dir = NULL, *init = NULL, *parent = NULL, **mods = NULL;
	char *base, *p = NULL, *link = NULL, *target = NULL;
	size_t nmods = 0, j;
	int rc = 0;

	(void)k;
	(void)kn;
	if (!vn || memchr(v, '\0', vn) || v[0] != '/')
		return 0;
	if (!(dir = tg_str_ndup(v, vn)) ||
	    !(init = tg_path_join(dir, "__init__.py")) ||
	    !(parent = tg_path_dirname(dir))) {
		rc = TG_ENOMEM;
		goto out;
	}
	if (tg_path_is_dir(dir)) {
		if (tg_path_is_file(init))
			rc = add_root(x, dir);
		else
			rc = note(x, x->via,
				  "'%s', which '%s' maps for %s %s, holds no "
				  "__init__.py: not a package it imports, not "
				  "checked",
				  dir, x->via, d->name, d->version);
	}
	base = (char *)tg_path_basename(dir);
	if (!rc && *base)
		rc = modules(x, parent, &base, 1, &mods, &nmods);
	for (j = 0; !rc && j < nmods; j++) {
		free(link);
		free(target);
		link = target = NULL;
		rc = tg_path_beneath(parent, mods[j], &link, &target, NULL);
		if (rc == 0) {
			rc = note(x, link,
				  "skipped '%s' of %s %s: a symlink to '%s', "
				  "outside '%s'",
				  link, d->name, d->version,
				  target ? target : "?", parent);
			continue;
		}
		if (rc < 0)
			break;
		free(p);
		rc = (p = tg_path_join(parent, mods[j])) ? add_root(x, p)
							 : TG_ENOMEM;
	}
out:
	for (j = 0; j < nmods; j++)
		free(mods[j]);
	free(mods);
	free(p);
	free(link);
	free(target);
	free(parent);
	free(init);
	free(dir);
	return rc;
}

/* The MAPPING of the finder that the .pth import line k installs. */
static int
finder_roots(struct roots *x, const struct tg_diag *line)
{
	char *finder = NULL, *content = NULL;
	struct tg_err e = TG_ERR_INIT;
	int rc;

	rc = finder_module(line->path, line->snippet, &finder, NULL);
	if (rc || !finder)
		return rc;
	rc = owner(x, line->path, &x->who);
	if (!rc && x->who == (size_t)-1) {
		rc = note(x, line->path,
			  "'%s' installs the editable finder '%s', which no "
			  "editable distribution's RECORD lists: what it maps "
			  "is not checked",
			  line->path, finder);
		goto out;
	}
	if (!rc && (rc = finder_text(finder, &content, &e)))
		rc = rc == TG_ENOMEM ? rc : note(x, finder, "%s", e.msg);
	x->via = finder;
	if (!rc && content &&
	    (rc = parse_mapping(content, finder, finder_pair, x, &e)) &&
	    rc != TG_ENOMEM)
		rc = note(x, finder, "%s", e.msg);
out:
	x->via = NULL;
	free(content);
	free(finder);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir of the extension modules NAME.*.so for the names
 * in names[0..nnames), sorted. */
static int
modules(struct roots *x, const char *dir, char *const *names, size_t nnames,
	char ***out, size_t *n)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t cap = 0, seen = 0, k;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!dp)
		return errno == ENOMEM ? TG_ENOMEM : 0;
	while (!rc && (de = readdir(dp))) {
		const char *nm = de->d_name;
		size_t l = strlen(nm);

		if (++seen > PTH_DIR_NAMES_MAX) {
			rc =
			    note(x, dir,
				 "more than %d names in '%s': the rest not "
				 "looked at for %s's extension modules",
				 PTH_DIR_NAMES_MAX, dir, x->ds->v[x->who].name);
			break;
		}
		if (l < 4 || strcmp(nm + l - 3, ".so") != 0)
			continue;
		for (k = 0; k < nnames; k++) {
			size_t tl = strlen(names[k]);

			if (strncmp(nm, names[k], tl) == 0 && nm[tl] == '.')
				break;
		}
		if (k == nnames)
			continue;
		if (TG_GROW(*out, *n + 1, cap) || !((*out)[*n] = strdup(nm))) {
			rc = TG_ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(dp);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return rc;
}

/* What the .pth path line of entry e adds for its editable owner: the
 * owner's top-level packages and modules in that directory. */
static int
pth_roots(struct roots *x, const struct tg_path_entry *e)
{
	const struct tg_dist *d;
	char **mods = NULL, *p = NULL, *link = NULL, *target = NULL;
	char **rec = NULL, **top;
	size_t k, nmods = 0, nrec = 0, ntop;
	int rc;

	if ((rc = owner(x, e->pth, &x->who)) || x->who == (size_t)-1)
		return rc;
	d = &x->ds->v[x->who];
	x->via = e->pth;
	/* its top-level names: top_level.txt's, else RECORD's */
	top = d->top;
	ntop = d->ntop;
	if (!d->top_level) {
		rc = tg_dists_record_tops(d, &rec, &nrec, NULL);
		top = rec;
		ntop = nrec;
	}
	if (!rc)
		rc = modules(x, e->dir, top, ntop, &mods, &nmods);
	for (k = 0; !rc && k < ntop + nmods; k++) {
		const char *name = k < ntop ? top[k] : mods[k - ntop];

		free(link);
		free(target);
		link = target = NULL;
		rc = tg_path_beneath(e->dir, name, &link, &target, NULL);
		if (rc == 0) {
			rc = note(x, link,
				  "skipped '%s' of %s %s: a symlink to '%s', "
				  "outside '%s'",
				  link, d->name, d->version,
				  target ? target : "?", e->dir);
			continue;
		}
		if (rc < 0)
			break;
		rc = 0;
		free(p);
		if (!(p = tg_path_join(e->dir, name)))
			rc = TG_ENOMEM;
		else if (k >= ntop || tg_path_is_dir(p))
			rc = add_root(x, p);
	}
	tg_dists_names_free(mods, nmods);
	tg_dists_names_free(rec, nrec);
	free(p);
	free(link);
	free(target);
	x->via = NULL;
	return rc;
}

int
tg_editable_roots(struct tg_editable_roots *r, const struct tg_syspath *sp,
		  const struct tg_dists *ds, struct tg_err *err)
{
	struct roots x;
	size_t k;
	int rc = 0, any = 0;

	memset(&x, 0, sizeof(x));
	x.r = r;
	x.sp = sp;
	x.ds = ds;
	x.project = calloc(ds->n ? ds->n : 1, sizeof(*x.project));
	x.looked = calloc(ds->n ? ds->n : 1, 1);
	x.envdirs = calloc(sp->n ? sp->n : 1, sizeof(*x.envdirs));
	if (!x.project || !x.looked || !x.envdirs)
		rc = TG_ENOMEM;
	/* only a .pth can put an editable install on the path */
	for (k = 0; k < sp->n && !any; k++)
		any = sp->e[k].origin == TG_ORIGIN_PTH;
	for (k = 0; k < sp->skipped.n && !any; k++)
		any = sp->skipped.v[k].path &&
		      strncmp(tg_path_basename(sp->skipped.v[k].path),
			      "__editable__", 12) == 0;
	for (k = 0; !rc && any && k < sp->n; k++) {
		enum tg_path_origin o = sp->e[k].origin;

		if (o != TG_ORIGIN_STDLIB && o != TG_ORIGIN_SITE &&
		    o != TG_ORIGIN_USER)
			continue;
		rc = real(sp->e[k].dir, &x.envdirs[x.nenv]);
		if (!rc && x.envdirs[x.nenv])
			x.nenv++;
	}
	for (k = 0; !rc && any && k < sp->skipped.n; k++)
		rc = finder_roots(&x, &sp->skipped.v[k]);
	for (k = 0; !rc && any && k < sp->n; k++)
		if (sp->e[k].origin == TG_ORIGIN_PTH && sp->e[k].pth)
			rc = pth_roots(&x, &sp->e[k]);
	for (k = 0; x.project && k < ds->n; k++)
		free(x.project[k]);
	for (k = 0; k < x.nenv; k++)
		free(x.envdirs[k]);
	free(x.project);
	free(x.looked);
	free(x.envdirs);
	if (rc) {
		tg_editable_roots_release(r);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	return 0;
}

void
tg_editable_roots_release(struct tg_editable_roots *r)
{
	size_t k;

	for (k = 0; k < r->n; k++) {
		free(r->v[k].path);
		free(r->v[k].via);
	}
	free(r->v);
	tg_diag_list_release(&r->notes);
	memset(r, 0, sizeof(*r));
}
