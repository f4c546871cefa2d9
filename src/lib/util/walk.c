/* walk.c - a bounded, deterministic directory walk that stays in its root
 * SPDX-License-Identifier: MIT
 *
 * Depth-first; a directory is read whole and closed, its names sorted,
 * before any of its entries is looked at, so no directory stays open
 * while the walk goes deeper. Every entry costs a stat (of the target),
 * but a regular file the caller's want_name leaves out or that
 * TG_WALK_LAZY_FILES hands out unread, and, when readdir
 * says it is or may be a symlink, an lstat and a realpath for the root
 * policy (see walk.h). Directories are identified by device and inode:
 * the ones on the current path to tell a loop, a hash set of all the
 * ones entered to walk each once. Worst case: max_entries stats and
 * realpaths, and names of at most max_entries entries held at once.
 */
#include "lib/util/walk.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

struct dirid {
	dev_t dev;
	ino_t ino;
};

struct name {
	char *s;
	unsigned char type; /* d_type */
};

struct walker {
	const struct tg_walk_opts *o;
	struct tg_err *err;
	size_t max_depth, max_entries;
	uint64_t max_bytes, bytes;
	size_t nseen;
	const char *root;
	struct dirid *anc; /* max_depth + 1 entries: the current path */
	char **bound;	   /* max_depth + 1: the boundary at each depth */
	size_t depth;
	struct dirid *vis; /* open addressing; ino 0 marks a free slot */
	size_t nvis, capvis;
};

static size_t
dirid_hash(struct dirid d)
{
	return (size_t)(d.ino * 0x9e3779b97f4a7c15ULL) ^ (size_t)d.dev;
}

/* 1 when d was visited already, else records it: 0, or TG_ENOMEM. */
static int
visit(struct walker *w, struct dirid d)
{
	size_t k;

	if (d.ino == 0)
		d.ino = (ino_t)-1; /* 0 marks a free slot */
	if (2 * (w->nvis + 1) > w->capvis) {
		size_t cap = w->capvis ? 2 * w->capvis : 256;
		struct dirid *v = calloc(cap, sizeof(*v));

		if (!v)
			return TG_ENOMEM;
		for (k = 0; k < w->capvis; k++) {
			size_t h;

			if (w->vis[k].ino == 0)
				continue;
			for (h = dirid_hash(w->vis[k]) & (cap - 1); v[h].ino;
			     h = (h + 1) & (cap - 1))
				;
			v[h] = w->vis[k];
		}
		free(w->vis);
		w->vis = v;
		w->capvis = cap;
	}
	for (k = dirid_hash(d) & (w->capvis - 1); w->vis[k].ino;
	     k = (k + 1) & (w->capvis - 1))
		if (w->vis[k].ino == d.ino && w->vis[k].dev == d.dev)
			return 1;
	w->vis[k] = d;
	w->nvis++;
	return 0;
}

/* Report a skip: the callback's answer, or an error without one. */
static int
skip(struct walker *w, const struct tg_walk_entry *e, enum tg_walk_why why,
     const char *msg)
{
	int limit = why == TG_WALK_DEPTH || why == TG_WALK_ENTRIES ||
		    why == TG_WALK_BYTES;

	if (w->o->skipped)
		return w->o->skipped(w->o->ctx, e, why, msg);
	if (why == TG_WALK_SEEN)
		return 0;
	return tg_err_set(w->err, limit ? TG_ELIMIT : TG_EIO,
			  "skipped '%s': %s", e->path, msg);
}

/* For a symlink: whether its target stays inside the boundary; *newb
 * takes the target's real path when it becomes the boundary below
 * (TG_WALK_ROOT_LINKS). 1: follow, 0: skipped (reported), <0: error. */
static int
policy(struct walker *w, const struct tg_walk_entry *e, int is_dir, char **newb)
{
	char *real = realpath(e->path, NULL), msg[TG_ERR_MSG_MAX];
	const char *b = w->bound[w->depth];
	int rc;

	*newb = NULL;
	if (!real) {
		if (errno == ENOMEM)
			return tg_err_set(w->err, TG_ENOMEM, "out of memory");
		return skip(w, e, TG_WALK_UNREADABLE, strerror(errno));
	}
	if (tg_path_inside(real, b)) {
		free(real);
		return 1;
	}
	if ((w->o->flags & TG_WALK_ROOT_LINKS) && e->depth == 1 &&
	    !(is_dir && tg_path_inside(w->bound[0], real))) {
		if (is_dir)
			*newb = real;
		else
			free(real);
		return 1;
	}
	snprintf(msg, sizeof(msg), "a symlink to '%s', outside '%s'", real, b);
	free(real);
	rc = skip(w, e, TG_WALK_OUTSIDE, msg);
	return rc < 0 ? rc : 0;
}

static int walk_dir(struct walker *w, const char *path, const char *rel);

static int
walk_entry(struct walker *w, const char *path, const char *rel,
	   const struct name *nm)
{
	char *child = tg_path_join(path, nm->s);
	char *crel =
	    *rel ? tg_path_join(rel, nm->s) : tg_str_ndup(nm->s, strlen(nm->s));
	char *newb = NULL, msg[96];
	struct tg_walk_entry e;
	struct stat st, lst;
	struct dirid id;
	size_t k;
	int rc = 0, is_dir;

	if (!child || !crel) {
		rc = tg_err_set(w->err, TG_ENOMEM, "out of memory");
		goto out;
	}
	e.path = child;
	e.rel = crel;
	e.name = nm->s;
	e.st = NULL;
	e.depth = w->depth + 1;
	e.is_link = nm->type == DT_LNK;
	if (nm->type == DT_REG && w->o->want_name &&
	    !w->o->want_name(w->o->ctx, &e))
		goto out;
	if (nm->type == DT_REG && (w->o->flags & TG_WALK_LAZY_FILES)) {
		if (!w->o->want_name && w->o->want &&
		    !w->o->want(w->o->ctx, &e))
			goto out;
		if (w->o->file)
			rc = w->o->file(w->o->ctx, &e);
		goto out;
	}
	if (nm->type == DT_UNKNOWN && lstat(child, &lst) == 0)
		e.is_link = S_ISLNK(lst.st_mode);
	if (stat(child, &st) != 0) {
		rc = skip(w, &e,
			  errno == ENOENT ? TG_WALK_DANGLING
					  : TG_WALK_UNREADABLE,
			  strerror(errno));
		goto out;
	}
	e.st = &st;
	is_dir = S_ISDIR(st.st_mode);
	if (!is_dir && !S_ISREG(st.st_mode)) {
		rc = skip(w, &e, TG_WALK_OTHER, "not a file or directory");
		goto out;
	}
	if (w->o->want && !w->o->want(w->o->ctx, &e))
		goto out;
	if (e.is_link && (rc = policy(w, &e, is_dir, &newb)) <= 0)
		goto out;
	rc = 0;
	if (!is_dir) {
		if (!(w->o->flags & TG_WALK_LAZY_FILES) &&
		    (uint64_t)st.st_size > w->max_bytes - w->bytes) {
			rc = tg_err_set(w->err, TG_ELIMIT,
					"more than %" PRIu64
					" bytes of files under '%s'",
					w->max_bytes, w->root);
			snprintf(msg, sizeof(msg),
				 "more than %" PRIu64 " bytes", w->max_bytes);
			if (w->o->skipped)
				w->o->skipped(w->o->ctx, &e, TG_WALK_BYTES,
					      msg);
			goto out;
		}
		w->bytes += (uint64_t)st.st_size;
		if (w->o->file)
			rc = w->o->file(w->o->ctx, &e);
		goto out;
	}
	id.dev = st.st_dev;
	id.ino = st.st_ino;
	for (k = 0; k <= w->depth; k++)
		if (w->anc[k].dev == id.dev && w->anc[k].ino == id.ino) {
			rc = skip(w, &e, TG_WALK_LOOP, "a symlink loop");
			goto out;
		}
	if (w->depth + 1 > w->max_depth) {
		snprintf(msg, sizeof(msg), "deeper than %zu directories",
			 w->max_depth);
		rc = skip(w, &e, TG_WALK_DEPTH, msg);
		goto out;
	}
	rc = visit(w, id);
	if (rc) {
		rc = rc < 0 ? tg_err_set(w->err, rc, "out of memory")
			    : skip(w, &e, TG_WALK_SEEN, "walked already");
		goto out;
	}
	w->anc[++w->depth] = id;
	w->bound[w->depth] = newb ? newb : w->bound[w->depth - 1];
	rc = walk_dir(w, child, crel);
	w->depth--;
out:
	free(newb);
	free(crel);
	free(child);
	return rc;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct name *)a)->s, ((const struct name *)b)->s);
}

static int
walk_dir(struct walker *w, const char *path, const char *rel)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	struct name *names = NULL;
	size_t n = 0, cap = 0, k;
	int rc = 0;

	if (!dir) {
		struct tg_walk_entry e = {
		    path, rel, tg_path_basename(path), NULL, w->depth, 0};

		if (errno == ENOMEM)
			return tg_err_set(w->err, TG_ENOMEM, "out of memory");
		if (w->depth == 0)
			return tg_err_set(w->err, TG_EIO,
					  "cannot read '%s': %s", path,
					  strerror(errno));
		return skip(w, &e, TG_WALK_UNREADABLE, strerror(errno));
	}
	while ((de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (++w->nseen > w->max_entries) {
			struct tg_walk_entry e = {
			    path, rel,	    tg_path_basename(path),
			    NULL, w->depth, 0};
			char msg[64];

			rc = tg_err_set(w->err, TG_ELIMIT,
					"more than %zu files under '%s'",
					w->max_entries, path);
			snprintf(msg, sizeof(msg), "more than %zu files",
				 w->max_entries);
			if (w->o->skipped)
				w->o->skipped(w->o->ctx, &e, TG_WALK_ENTRIES,
					      msg);
			goto out;
		}
		if (TG_GROW(names, n + 1, cap)) {
			rc = tg_err_set(w->err, TG_ENOMEM, "out of memory");
			goto out;
		}
		names[n].s = tg_str_ndup(de->d_name, strlen(de->d_name));
		names[n].type = de->d_type;
		if (!names[n].s) {
			rc = tg_err_set(w->err, TG_ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	closedir(dir);
	dir = NULL;
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	for (k = 0; k < n && !rc; k++)
		rc = walk_entry(w, path, rel, &names[k]);
out:
	if (dir)
		closedir(dir);
	for (k = 0; k < n; k++)
		free(names[k].s);
	free(names);
	return rc;
}

int
tg_walk(const char *root, const struct tg_walk_opts *opts, struct tg_err *err)
{
	struct walker w;
	struct stat st;
	char *real = NULL;
	int rc;

	memset(&w, 0, sizeof(w));
	w.o = opts;
	w.err = err;
	w.root = root;
	w.max_depth = opts->max_depth ? opts->max_depth : TG_WALK_DEPTH_DEFAULT;
	w.max_entries =
	    opts->max_entries ? opts->max_entries : TG_WALK_ENTRIES_DEFAULT;
	w.max_bytes = opts->max_bytes ? opts->max_bytes : TG_WALK_BYTES_DEFAULT;
	if (stat(root, &st) != 0)
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", root,
				  strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", root,
				  strerror(ENOTDIR));
	real = realpath(root, NULL);
	if (!real && errno == ENOMEM)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!real)
		return tg_err_set(err, TG_EIO, "cannot read '%s': %s", root,
				  strerror(errno));
	w.anc = calloc(w.max_depth + 1, sizeof(*w.anc));
	w.bound = calloc(w.max_depth + 1, sizeof(*w.bound));
	if (!w.anc || !w.bound) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	w.anc[0].dev = st.st_dev;
	w.anc[0].ino = st.st_ino;
	w.bound[0] = real;
	if (visit(&w, w.anc[0])) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	rc = walk_dir(&w, root, "");
out:
	free(w.vis);
	free(w.bound);
	free(w.anc);
	free(real);
	return rc;
}
