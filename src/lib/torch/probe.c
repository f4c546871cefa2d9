/* probe.c - the torch installed in an environment, from its files
 * SPDX-License-Identifier: MIT
 *
 * One pass over the path: each entry is listed once (readdir) to spot a
 * "torch" directory, a torch module and torch's metadata directory, in
 * the path finder's order, then the editable finders' copies, then the
 * current directory and the metadata importlib.metadata would read.
 * Each copy found is then described from its files by describe.c
 * (probectx.h is what they share). Worst case: one readdir per path
 * entry, and describe.c's bounded reads per copy.
 */
#include "lib/torch/probe.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util/buf.h"
#include "lib/torch/probectx.h"
#include "lib/torch/cdefine.h"
#include "lib/torch/cmake.h"
#include "lib/pyenv/dpkg.h"
#include "lib/pyenv/editable.h"
#include "lib/torch/elf.h"
#include "lib/util/file.h"
#include "lib/util/dirlist.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/pyenv/direct_url.h"
#include "lib/pyenv/meta.h"
#include "lib/util/grow.h"

static const char *const source_names[TG_SRC_N] = {
    "metadata", "version.py", "version.h", "headeronly/version.h",
    "cmake",	"dpkg",
};

const char *
tg_probe_source_name(enum tg_source_kind k)
{
	return source_names[k];
}

const char *
tg_probe_agreement_name(enum tg_agreement a)
{
	return a == TG_AGREE ? "agree" : a == TG_DIFFER ? "differ" : "conflict";
}

const struct tg_diag *
tg_probe_first_error(const struct tg_torch *t)
{
	return tg_diag_first_error(&t->problems);
}

static void
torch_release(struct tg_torch *t)
{
	size_t k;

	free(t->dir);
	free(t->entry);
	free(t->meta_dir);
	free(t->installer);
	for (k = 0; k < t->ntags; k++)
		free(t->tags[k]);
	free(t->tags);
	free(t->direct_url);
	free(t->direct_url_kind);
	free(t->editable_via);
	for (k = 0; k < TG_SRC_N; k++) {
		free(t->src[k].file);
		free(t->src[k].raw);
		tg_version_release(&t->src[k].v);
	}
	tg_versionpy_release(&t->vp);
	free(t->abi_version);
	free(t->cxx11_abi_evidence);
	free(t->cxx_standard_evidence);
	free(t->include_dir);
	free(t->api_include_dir);
	free(t->include_real);
	free(t->library_dir);
	free(t->library_real);
	free(t->cmake_dir);
	free(t->libs);
	tg_diag_list_release(&t->problems);
}

void
tg_probe_release(struct tg_probe *pr)
{
	size_t k;

	for (k = 0; k < pr->ncopies; k++)
		torch_release(&pr->copies[k]);
	free(pr->copies);
	free(pr->module);
	for (k = 0; k < TG_PROBE_MAX_PORTIONS; k++)
		free(pr->portions[k]);
	tg_diag_list_release(&pr->problems);
	memset(pr, 0, sizeof(*pr));
}

/* 1 when a dist-info/egg-info directory name is torch's */
static int
is_torch_meta(const char *name)
{
	size_t l = strlen(name), n, k;
	char norm[64];
	size_t w = 0;

	if (l > 10 && strcasecmp(name + l - 10, ".dist-info") == 0)
		n = l - 10;
	else if (l > 9 && strcasecmp(name + l - 9, ".egg-info") == 0)
		n = l - 9;
	else
		return 0;
	for (k = 0; k < n && name[k] != '-'; k++) {
		char c = name[k];

		if (w >= sizeof(norm) - 1)
			return 0;
		if (c == '-' || c == '_' || c == '.') {
			if (w == 0 || norm[w - 1] != '_')
				norm[w++] = '_';
			continue;
		}
		norm[w++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	norm[w] = '\0';
	return strcmp(norm, "torch") == 0;
}

int
tg_probe_conflict(const struct tg_torch *t, enum tg_source_kind *other)
{
	size_t k;

	if (!t->version)
		return 0;
	for (k = 0; k < TG_SRC_N; k++)
		if (t->src[k].present && t->src[k].parsed &&
		    !tg_describe_same_series(&t->src[k].v,
					     &t->src[t->version_from].v)) {
			*other = (enum tg_source_kind)k;
			return 1;
		}
	return 0;
}

static int
add_copy(struct tg_probe *pr, const char *entry, const char *dir, size_t index,
	 const char *meta)
{
	struct tg_torch *t;

	if (TG_GROW(pr->copies, pr->ncopies + 1, pr->capcopies))
		return TG_ENOMEM;
	t = &pr->copies[pr->ncopies++];
	memset(t, 0, sizeof(*t));
	t->entry = strdup(entry);
	t->dir = dir ? strdup(dir) : tg_path_join(entry, "torch");
	t->entry_index = index;
	t->meta_dir = meta ? tg_path_join(entry, meta) : NULL;
	if (!t->entry || !t->dir || (meta && !t->meta_dir))
		return TG_ENOMEM;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The import suffixes in the path finder's order: extension modules
 * (the interpreter's own suffix, then .abi3.so and .so), source,
 * bytecode. s[0] is NULL when the interpreter's suffix is unknown. */
struct suffixes {
	const char *s[5];
};

static void
suffixes_init(struct suffixes *sf, const struct tg_probe_opts *opts)
{
	sf->s[0] = opts ? opts->ext_suffix : NULL;
	sf->s[1] = ".abi3.so";
	sf->s[2] = ".so";
	sf->s[3] = ".py";
	sf->s[4] = ".pyc";
}

/* The rank of "torch" + suffix name among sf (0 first), or -1 when name
 * is no torch module. Without the interpreter's suffix, any
 * torch.cpython-*.so is taken for it. */
static int
module_rank(const struct suffixes *sf, const char *name)
{
	const char *suf;
	size_t l;
	int k;

	if (strncmp(name, "torch.", 6) != 0)
		return -1;
	suf = name + 5;
	for (k = 0; k < 5; k++)
		if (sf->s[k] && strcmp(suf, sf->s[k]) == 0)
			return k;
	l = strlen(suf);
	if (!sf->s[0] && strncmp(suf, ".cpython-", 9) == 0 && l > 12 &&
	    strcmp(suf + l - 3, ".so") == 0 &&
	    strchr(suf + 1, '.') == suf + l - 3)
		return 0;
	return -1;
}

/* One readdir of a path entry: is there a "torch", the best torch module
 * file (*module, a new string, or NULL), and torch's metadata directory
 * (*meta, a new string, or NULL)? Several metadata directories
 * are a broken install: importlib.metadata would take whichever the
 * directory lists first, so this takes the first in sorted order and says
 * so in ps (when not NULL). */
static int
scan_entry(struct tg_diag_list *ps, struct tg_dirlist *dirs, const char *entry,
	   const struct suffixes *sf, int *has_torch, char **module,
	   char **meta)
{
	const struct tg_dirlist_dir *d;
	struct tg_dirlist_dir *own = NULL;
	const char *nm;
	char *names[8];
	size_t n = 0, k, i;
	int rc = 0, more = 0, best = 5, r;

	*has_torch = 0;
	*meta = NULL;
	if (module)
		*module = NULL;
	if (tg_dirlist_get(dirs, entry, &d, &own))
		return TG_ENOMEM;
	if (d->error) {
		if (ps && d->error != ENOENT && d->error != ENOTDIR)
			rc = tg_describe_problem(ps, 0, "cannot list '%s': %s",
						 entry, strerror(d->error));
		tg_dirlist_dir_free(own);
		return rc;
	}
	for (i = 0; !rc && i < d->n; i++) {
		nm = tg_dirlist_name(d, i);
		/* "torch", a torch module, torch's metadata: all start so */
		if (nm[0] != 't' && nm[0] != 'T')
			continue;
		if (strcmp(nm, "torch") == 0)
			*has_torch = 1;
		else if (module && (r = module_rank(sf, nm)) >= 0 && r < best) {
			char *f = tg_path_join(entry, nm);

			/* the path finder takes a file, not a directory */
			if (f && tg_path_is_file(f)) {
				best = r;
				free(*module);
				*module = f;
			} else {
				rc = f ? 0 : TG_ENOMEM;
				free(f);
			}
		} else if (is_torch_meta(nm) && n == 8)
			more = 1;
		else if (is_torch_meta(nm))
			rc = (names[n++] = strdup(nm)) ? 0 : TG_ENOMEM;
	}
	tg_dirlist_dir_free(own);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	if (!rc && ps && n > 1)
		rc = tg_describe_problem(
		    ps, 0,
		    "'%s' holds %s torch metadata directories "
		    "('%s', '%s'%s): importlib.metadata reads "
		    "whichever the file system lists first; torchgate "
		    "reads '%s'",
		    entry,
		    more     ? "more than 8"
		    : n == 2 ? "two"
			     : "several",
		    names[0], names[1], n > 2 ? ", ..." : "", names[0]);
	if (n)
		*meta = names[0];
	for (k = 1; k < n; k++)
		free(names[k]);
	if (rc) {
		free(*meta);
		*meta = NULL;
		if (module) {
			free(*module);
			*module = NULL;
		}
	}
	return rc;
}

/* Whether tdir is a regular torch package: a directory with __init__ and
 * one of the import suffixes (one that cannot be searched counts, to
 * report it). *dir says whether it is a directory at all (a namespace
 * portion when not a package). */
static int
is_package(struct tg_diag_list *ps, const char *tdir, const struct suffixes *sf,
	   int *yes, int *dir)
{
	struct stat st;
	char init[4200];
	int k;

	*yes = 0;
	if (dir)
		*dir = 0;
	if (stat(tdir, &st) != 0)
		return tg_describe_problem(ps, 0, "cannot read '%s': %s", tdir,
					   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (dir)
		*dir = 1;
	for (k = 0; k < 5 && !*yes; k++) {
		if (!sf->s[k] || tg_path_fmt(init, sizeof(init), NULL,
					     "%s/__init__%s", tdir, sf->s[k]))
			continue;
		if (stat(init, &st) == 0 ? S_ISREG(st.st_mode)
					 : errno == EACCES)
			*yes = 1;
	}
	return 0;
}

/* Copies that an editable finder maps (after every path entry). */
static int
add_finder_copies(struct tg_probe *pr, const struct tg_syspath *sp,
		  struct tg_dirlist *dirs, const struct suffixes *sf)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < sp->skipped.n && !rc; k++) {
		struct tg_err e = TG_ERR_INIT;
		char *dir = NULL, *finder = NULL, *site = NULL, *meta = NULL;
		int yes = 0, has_torch;

		if (tg_editable_lookup(sp->skipped.v[k].path,
				       sp->skipped.v[k].snippet, "torch", &dir,
				       &finder, &e)) {
			rc = e.code == TG_ENOMEM
				 ? TG_ENOMEM
				 : tg_describe_problem(&pr->problems, 0, "%s",
						       e.msg);
			continue;
		}
		if (dir) {
			size_t j;

			rc = is_package(&pr->problems, dir, sf, &yes, NULL);
			for (j = 0; j < pr->ncopies; j++)
				if (strcmp(pr->copies[j].dir, dir) == 0)
					yes = 0; /* already found */
		}
		if (!rc && yes) {
			site = tg_path_dirname(sp->skipped.v[k].path);
			rc = site ? scan_entry(NULL, dirs, site, sf, &has_torch,
					       NULL, &meta)
				  : TG_ENOMEM;
		}
		if (!rc && yes)
			rc = add_copy(pr, site, dir, (size_t)-1, meta);
		if (!rc && yes) {
			struct tg_torch *t = &pr->copies[pr->ncopies - 1];

			t->editable = 1;
			t->editable_via = finder;
			finder = NULL;
		}
		free(dir);
		free(finder);
		free(site);
		free(meta);
	}
	return rc;
}

/* A torch in the current directory: `python -c` and the REPL put it
 * first (sys.path[0] is ''), ahead of everything reported here. */
static int
check_cwd(struct tg_probe *pr, struct tg_dirlist *dirs, const char *cwd,
	  const struct suffixes *sf)
{
	const struct tg_torch *t = tg_probe_chosen(pr);
	char *module = NULL, *meta = NULL, *tdir = NULL;
	const char *what = NULL;
	int has_torch = 0, yes = 0, rc;

	rc = scan_entry(NULL, dirs, cwd, sf, &has_torch, &module, &meta);
	if (!rc && has_torch) {
		tdir = tg_path_join(cwd, "torch");
		rc = tdir ? is_package(&pr->problems, tdir, sf, &yes, NULL)
			  : TG_ENOMEM;
	}
	if (!rc)
		what = yes ? tdir : module;
	if (what && !(t && strcmp(t->dir, what) == 0) &&
	    !(pr->module && strcmp(pr->module, what) == 0))
		rc = tg_describe_problem(
		    &pr->problems, 0,
		    "the current directory holds '%s': 'python -c "
		    "\"import torch\"' run here imports it "
		    "(sys.path[0] is the current directory); this "
		    "report is for sys.path[1:]",
		    what);
	free(module);
	free(meta);
	free(tdir);
	return rc;
}

/* importlib.metadata.version("torch") reads the first torch metadata on
 * the path; say so when that is not the imported copy's and its version
 * differs. */
static int
check_metadata(struct tg_probe *pr, const char *first_meta)
{
	const struct tg_torch *t = tg_probe_chosen(pr);
	struct tg_meta m = TG_META_INIT;
	struct tg_err e = TG_ERR_INIT;
	char *file;
	const char *v;
	int absent = 0, rc = 0, is_dist;

	if (!t || !first_meta || !t->meta_dir || !t->version ||
	    strcmp(t->meta_dir, first_meta) == 0)
		return 0;
	is_dist = strstr(tg_path_basename(first_meta), ".dist-info") != NULL;
	if (tg_path_is_dir(first_meta))
		file =
		    tg_path_join(first_meta, is_dist ? "METADATA" : "PKG-INFO");
	else
		file = strdup(first_meta);
	if (!file)
		return TG_ENOMEM;
	if (tg_meta_load(&m, file, &absent, &e) == 0 && !absent &&
	    (v = tg_meta_get(&m, "Version")) && strcmp(v, t->version) != 0)
		rc = tg_describe_problem(
		    &pr->problems, 0,
		    "importlib.metadata.version(\"torch\") gives %s "
		    "(from '%s') while 'import torch' gives %s (from "
		    "'%s'): tools that read metadata (pip, "
		    "packaging) see another torch",
		    TG_QUOTE(v), first_meta, t->version, t->dir);
	else if (e.code == TG_ENOMEM)
		rc = TG_ENOMEM;
	tg_meta_release(&m);
	free(file);
	return rc;
}

enum tg_import_kind
tg_probe_imports(const struct tg_probe *pr)
{
	/* the path finder answers before the editable finders, which are
	 * appended to sys.meta_path (entry_index (size_t)-1) */
	if (pr->module &&
	    (!pr->ncopies || pr->copies[0].entry_index > pr->module_index))
		return TG_IMPORT_MODULE;
	if (pr->nportions &&
	    (!pr->ncopies || pr->copies[0].entry_index == (size_t)-1))
		return TG_IMPORT_NAMESPACE;
	return pr->ncopies ? TG_IMPORT_PACKAGE : TG_IMPORT_NONE;
}

const struct tg_torch *
tg_probe_chosen(const struct tg_probe *pr)
{
	return tg_probe_imports(pr) == TG_IMPORT_PACKAGE ? &pr->copies[0]
							 : NULL;
}

size_t
tg_probe_first_shadowed(const struct tg_probe *pr)
{
	return tg_probe_chosen(pr) ? 1 : 0;
}

int
tg_probe_run(struct tg_probe *pr, const struct tg_syspath *sp,
	     const struct tg_probe_opts *opts, struct tg_err *err)
{
	struct suffixes sf;
	size_t k;
	int rc = 0, found = 0;
	char *first_meta = NULL;

	memset(pr, 0, sizeof(*pr));
	suffixes_init(&sf, opts);
	/* FileFinder, per entry: the package torch/__init__<suffix>, then
	 * the module torch<suffix>, then torch/ as a namespace portion */
	for (k = 0; k < sp->n && !rc; k++) {
		const char *entry = sp->e[k].dir;
		char *meta = NULL, *tdir = NULL, *module = NULL;
		int has_torch = 0, yes = 0, isdir = 0;

		rc = scan_entry(&pr->problems, opts ? opts->dirs : NULL, entry,
				&sf, &has_torch, &module, &meta);
		if (!rc && meta && !first_meta)
			rc = (first_meta = tg_path_join(entry, meta))
				 ? 0
				 : TG_ENOMEM;
		if (!rc && has_torch) {
			tdir = tg_path_join(entry, "torch");
			rc = tdir ? is_package(&pr->problems, tdir, &sf, &yes,
					       &isdir)
				  : TG_ENOMEM;
			if (!rc && yes)
				rc = add_copy(pr, entry, NULL, k, meta);
		}
		if (!rc && !yes && module && !found) {
			pr->module = module;
			pr->module_index = k;
			module = NULL;
		} else if (!rc && !yes && !module && isdir && !found) {
			if (pr->nportions < TG_PROBE_MAX_PORTIONS) {
				pr->portions[pr->nportions] = tdir;
				tdir = NULL;
			}
			pr->nportions++;
		}
		if (yes || module || pr->module)
			found = 1;
		free(tdir);
		free(module);
		free(meta);
	}
	if (found) {
		/* portions count only when nothing else is found */
		for (k = 0; k < TG_PROBE_MAX_PORTIONS; k++) {
			free(pr->portions[k]);
			pr->portions[k] = NULL;
		}
		pr->nportions = 0;
	}
	if (!rc)
		rc = add_finder_copies(pr, sp, opts ? opts->dirs : NULL, &sf);
	for (k = 0; k < pr->ncopies && !rc; k++) {
		struct tg_torch *t = &pr->copies[k];

		rc = tg_describe_copy(t, sp, opts);
		if (!rc && !t->meta_dir && first_meta)
			rc = tg_describe_problem(
			    &t->problems, 0,
			    "no torch metadata beside '%s'; "
			    "importlib.metadata would read '%s'",
			    t->dir, first_meta);
	}
	if (!rc)
		rc = check_metadata(pr, first_meta);
	if (!rc && opts && opts->cwd)
		rc = check_cwd(pr, opts->dirs, opts->cwd, &sf);
	free(first_meta);
	if (rc) {
		tg_probe_release(pr);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	return 0;
}
