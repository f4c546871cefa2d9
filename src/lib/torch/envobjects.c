/* envobjects.c - the shared objects of each distribution, collected
 * SPDX-License-Identifier: MIT
 *
 * The first of env's two passes over the extensions (envext.c has the
 * second, and says what both do): on as many threads as the process
 * has CPUs (COLLECT_THREADS_MAX at most, one per COLLECT_PER_THREAD
 * distributions at most) a thread takes the next distribution and
 * records in order what it meets: each shared object its RECORD lists
 * (or its top-level names hold, or its editable roots), each file that
 * may be torchgate emit's module, each warning (a link out noted, a
 * walk's limit, a RECORD cut); then asks of each of its objects whose
 * distribution does not require torch whether it links torch
 * (tg_elfsym_needs), one object at a time, shared with the threads that
 * have no distribution left to take (struct asking). A thread writes
 * only its own copy of the run's ctx (its rc), the lists of the
 * distributions it took and the answers of the objects it took.
 *
 * A RECORD entry is proved inside its sys.path entry with an lstat()
 * per entry when no link is on its way (tg_path_plain, whose proved
 * directory is the thread's), else with tg_path_beneath's realpath()
 * calls; each entry's own lstat() is always made. Worst case: a job per
 * object, file and warning met.
 */
#include "lib/torch/envcheck.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/torch/envobjects.h"
#include "lib/util/cpus.h"
#include "lib/util/fdtable.h"
#include "lib/util/grow.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/walk.h"

/* A job at the end of j; path and msg (NULL: out of memory already
 * kept) are taken. */
static void
job_add(struct ctx *c, struct envjobs *j, enum envjob_kind kind,
	const struct tg_dist *d, int depends, int walked, char *path, char *msg)
{
	struct envjob *o;

	if (!path || (kind == JOB_WARN && !msg) ||
	    TG_GROW(j->v, j->n + 1, j->cap)) {
		free(path);
		free(msg);
		tg_envcheck_keep(c, NULL);
		return;
	}
	o = &j->v[j->n++];
	o->kind = kind;
	o->d = d;
	o->depends = depends;
	o->walked = walked;
	o->path = path;
	o->msg = msg;
	o->needs = TG_ELFSYM_NEEDS_ASK;
}

void
tg_envobjects_release(struct envjobs *j)
{
	size_t k;

	for (k = 0; k < j->n; k++) {
		free(j->v[k].path);
		free(j->v[k].msg);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* A warning, in its place among the jobs. */
static void
defer_warn(struct ctx *c, struct envjobs *j, const char *path, const char *msg)
{
	job_add(c, j, JOB_WARN, NULL, 0, 0, tg_envcheck_sdup(c, path),
		tg_envcheck_sdup(c, msg));
}

struct walkctx {
	struct ctx *c;
	const struct tg_dist *d;
	int depends;
	const char *site;    /* d's sys.path entry: the bound of what is read */
	struct strset noted; /* the links out of it noted for d */
	int say_limits;	     /* a walk's limits are warnings */
	/* entries proved inside site cheaply: the thread's, so that a
	 * directory proved for one distribution is not again for the next */
	struct tg_path_plain *plain;
	struct envjobs *jobs; /* what was met, in order */
};

/* Note, once per link and distribution, a link out of the sys.path
 * entry: what d installed is read only inside it (a RECORD entry or a
 * top-level name through evil -> /usr/lib would map the system's
 * libraries as d's extensions). */
static void
note_out(struct walkctx *w, const char *link, const char *target)
{
	struct ctx *c = w->c;
	size_t k;
	char *m;

	for (k = 0; k < w->noted.n; k++)
		if (strcmp(w->noted.v[k], link) == 0)
			return;
	m = tg_envcheck_sdup(c, link);
	if (!m || TG_GROW(w->noted.v, w->noted.n + 1, w->noted.cap)) {
		free(m);
		tg_envcheck_keep(c, NULL);
		return;
	}
	w->noted.v[w->noted.n++] = m;
	m = tg_envcheck_fmt(c,
			    "skipped '%s' of %s %s: a symlink to '%s', "
			    "outside '%s'",
			    link, w->d->name, w->d->version,
			    target ? target : "?", w->site);
	if (m)
		job_add(c, w->jobs, JOB_WARN, NULL, 0, 0,
			tg_envcheck_sdup(c, link), m);
}

static void
noted_release(struct walkctx *w)
{
	size_t k;

	for (k = 0; k < w->noted.n; k++)
		free(w->noted.v[k]);
	free(w->noted.v);
	memset(&w->noted, 0, sizeof(w->noted));
}

/* Whether site/rel stays inside site (else it is noted): 1 or 0; 2 when
 * it does and lstat found it a regular file (no stat before its open).
 * Proved with an lstat() per entry where no link is on its way; the
 * two realpath() calls of tg_path_beneath, a readlink() per component
 * each, only otherwise (they were 7,903 of env's 12,383 system calls on
 * a venv of 616 extension modules). */
static int
stays(struct walkctx *w, const char *rel)
{
	char *link = NULL, *target = NULL;
	int rc = tg_path_plain(w->plain, w->site, rel);

	if (rc == 1)
		return w->plain->regular ? 2 : 1;
	if (rc < 0) {
		tg_envcheck_keep(w->c, NULL);
		return 0;
	}
	rc = tg_path_beneath(w->site, rel, &link, &target, NULL);

	if (rc == 0)
		note_out(w, link, target);
	else if (rc < 0)
		tg_envcheck_keep(w->c, NULL);
	free(link);
	free(target);
	return rc == 1;
}

static int
is_so(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && strcmp(name + n - 3, ".so") == 0) ||
	       strstr(name, ".so.") != NULL;
}

static int
walk_want(void *ctx, const struct tg_walk_entry *e)
{
	struct walkctx *w = ctx;
	size_t n = strlen(e->name);

	if (e->st && S_ISDIR(e->st->st_mode))
		return strcmp(e->name, "__pycache__") != 0;
	if (is_so(e->name))
		return 1;
	return w->depends && n > 3 && strcmp(e->name + n - 3, ".py") == 0 &&
	       strstr(e->name, "torch") != NULL;
}

static int
walk_file(void *ctx, const struct tg_walk_entry *e)
{
	struct walkctx *w = ctx;

	int regular = e->st && !e->is_link && S_ISREG(e->st->st_mode);

	job_add(w->c, w->jobs, is_so(e->name) ? JOB_OBJECT : JOB_GENERATED,
		w->d, w->depends, regular ? 2 : 0,
		tg_envcheck_sdup(w->c, e->path), NULL);
	return w->c->rc;
}

static int
walk_skipped(void *ctx, const struct tg_walk_entry *e, enum tg_walk_why why,
	     const char *msg)
{
	struct walkctx *w = ctx;
	char *target = NULL;

	/* loops and the rest: not this dist's; a link out is noted */
	if (w->say_limits && (why == TG_WALK_DEPTH || why == TG_WALK_ENTRIES ||
			      why == TG_WALK_BYTES)) {
		target = tg_envcheck_fmt(
		    w->c, "%s; the rest of '%s' (%s %s) not checked", msg,
		    w->site, w->d->name, w->d->version);
		if (target)
			defer_warn(w->c, w->jobs, e->path, target);
	} else if (why == TG_WALK_OUTSIDE) {
		/* out of memory is no "a symlink to '?'" */
		errno = 0;
		target = tg_path_realpath(e->path);
		if (!target && errno == ENOMEM)
			tg_envcheck_keep(w->c, NULL);
		else
			note_out(w, e->path, target);
	}
	free(target);
	return w->c->rc;
}

static int
cmp_cstr_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shared objects directly in site directory k, sorted. */
static void
site_objects(struct ctx *c, size_t k, char ***out, size_t *n)
{
	DIR *dp = opendir(c->sp->e[k].dir);
	struct dirent *de;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!dp) {
		if (errno == ENOMEM)
			tg_envcheck_keep(c, NULL);
		return;
	}
	while ((de = readdir(dp)) && !c->rc) {
		if (!is_so(de->d_name))
			continue;
		if (TG_GROW(*out, *n + 1, cap)) {
			tg_envcheck_keep(c, NULL);
			break;
		}
		(*out)[*n] = tg_envcheck_sdup(c, de->d_name);
		if ((*out)[*n])
			(*n)++;
	}
	closedir(dp);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_cstr_p);
}

/* The extensions of editable installs and in-place builds, which no
 * RECORD lists: the directories pyenv/editable.h finds (each inside
 * its project, never the environment's own), walked as a top-level
 * directory is, bounded by EDITABLE_WALK_ENTRIES names each, the limits
 * said; checked with their distribution's other extensions. */
#define EDITABLE_WALK_ENTRIES 100000

/* The roots of r that belong to distribution i. */
static void
editables(struct ctx *c, const struct tg_editable_roots *r, size_t i,
	  struct tg_path_plain *plain, struct envjobs *jobs)
{
	const struct tg_dist *d = &c->ds->v[i];
	struct tg_walk_opts wo;
	size_t k;

	memset(&wo, 0, sizeof(wo));
	wo.max_depth = 32;
	wo.max_entries = EDITABLE_WALK_ENTRIES;
	wo.want = walk_want;
	wo.file = walk_file;
	wo.skipped = walk_skipped;
	for (k = 0; k < r->n && !c->rc; k++) {
		struct walkctx w = {c,
				    d,
				    c->depends[i],
				    r->v[k].path,
				    {NULL, 0, 0, NULL, 0},
				    1,
				    plain,
				    jobs};

		if (r->v[k].dist != i)
			continue;
		wo.ctx = &w;
		if (tg_path_is_dir(r->v[k].path)) {
			if (tg_walk(r->v[k].path, &wo, NULL) == TG_ENOMEM)
				tg_envcheck_keep(c, NULL);
		} else if (is_so(tg_path_basename(r->v[k].path))) {
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i], 0,
				tg_envcheck_sdup(c, r->v[k].path), NULL);
		}
		noted_release(&w);
	}
}

/* The shared objects directly in one site directory, listed for the
 * distributions without RECORD there: a worker's, kept while the next
 * distribution it takes is in the same entry. */
struct siteobjs {
	size_t entry;
	char **v;
	size_t n;
};

static void
siteobjs_release(struct siteobjs *so)
{
	size_t k;

	for (k = 0; k < so->n; k++)
		free(so->v[k]);
	free(so->v);
	so->v = NULL;
	so->n = 0;
	so->entry = (size_t)-1;
}

/* Distribution i's shared objects, files and warnings, in order, into
 * jobs: those of its editable roots, then its RECORD's entries (or,
 * without RECORD, what its top-level names hold). */
static void
collect(struct ctx *c, const struct tg_editable_roots *er, size_t i,
	struct envjobs *jobs, struct tg_path_plain *plain, struct siteobjs *so)
{
	const struct tg_dist *d = &c->ds->v[i];
	const char *site = c->sp->e[d->entry].dir;
	struct walkctx w = {
	    c, d, c->depends[i], site, {NULL, 0, 0, NULL, 0}, 0, plain, jobs};
	struct tg_walk_opts wo;
	char **rec = NULL;
	size_t k, j, nrec = 0;
	int absent, cut;

	if (d == c->torch_dist || strncmp(d->canon, "nvidia-", 7) == 0)
		return;
	editables(c, er, i, plain, jobs);
	memset(&wo, 0, sizeof(wo));
	wo.max_depth = 32;
	wo.want = walk_want;
	wo.file = walk_file;
	wo.skipped = walk_skipped;
	wo.ctx = &w;
	if (tg_dists_record_objects(d, &rec, &nrec, &absent, &cut, NULL)) {
		tg_envcheck_keep(c, NULL);
		return;
	}
	if (cut) {
		char *msg = tg_envcheck_fmt(
		    c,
		    "'%s/RECORD' lists more than %d files to check: "
		    "those after the first %d are not checked",
		    d->dir, TG_DISTS_MAX, TG_DISTS_MAX);

		if (msg)
			job_add(c, jobs, JOB_WARN, NULL, 0, 0,
				tg_envcheck_sdup(c, d->dir), msg);
	}
	for (k = 0; !absent && k < nrec && !c->rc; k++) {
		int in = stays(&w, rec[k]);
		char *p = in ? tg_envcheck_fmt(c, "%s/%s", site, rec[k]) : NULL;

		if (p && is_so(tg_path_basename(p)))
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i], in == 2,
				p, NULL);
		else if (p && c->depends[i])
			job_add(c, jobs, JOB_GENERATED, d, c->depends[i], 0, p,
				NULL);
		else
			free(p);
	}
	for (k = 0; k < nrec; k++)
		free(rec[k]);
	free(rec);
	if (!absent || c->rc) {
		noted_release(&w);
		return; /* RECORD lists what was installed */
	}
	if (d->entry != so->entry) {
		siteobjs_release(so);
		site_objects(c, d->entry, &so->v, &so->n);
		so->entry = d->entry;
	}
	for (k = 0; k < d->ntop && !c->rc; k++) {
		char *p = tg_envcheck_fmt(c, "%s/%s", site, d->top[k]);
		size_t tl = strlen(d->top[k]);

		if (p && strcmp(d->top[k], "torch") != 0 && tg_path_is_dir(p) &&
		    stays(&w, d->top[k]) && tg_walk(p, &wo, NULL) == TG_ENOMEM)
			tg_envcheck_keep(c, NULL);
		free(p);
		for (j = 0; j < so->n && !c->rc; j++) {
			int in;

			if (strncmp(so->v[j], d->top[k], tl) != 0 ||
			    so->v[j][tl] != '.' || !(in = stays(&w, so->v[j])))
				continue;
			job_add(c, jobs, JOB_OBJECT, d, c->depends[i],
				in == 2 ? 2 : 0,
				tg_envcheck_fmt(c, "%s/%s", site, so->v[j]),
				NULL);
		}
	}
	noted_release(&w);
}

/* Where the asking about a distribution's objects stands: whether its
 * list is complete (then any thread may take some of its objects) and
 * the next object not taken. */
struct asking {
	atomic_int ready;
	atomic_size_t next;
};

/* Whether each object of j whose distribution does not require torch
 * links libc10* or libtorch*, by tg_elfsym_needs, which allocates
 * nothing: the objects not taken yet, one at a time, alongside the
 * other threads that do the same, so that a distribution of many
 * objects is shared out (pip's torch 2.11 venv: scipy's 113 and
 * cuda-python's 95 of its 820, where each thread asked 51 on average
 * and the two that took those two were the last to finish). */
static void
ask(struct envjobs *j, struct asking *a)
{
	static const char *const torch_libs[] = {"libc10", "libtorch"};
	size_t k;

	while ((k = atomic_fetch_add(&a->next, 1)) < j->n) {
		struct envjob *o = &j->v[k];

		if (o->kind == JOB_OBJECT && !o->depends)
			o->needs = tg_elfsym_needs(o->path, o->walked != 0,
						   torch_libs, 2);
	}
}

/* The most threads that collect, the calling one included, and the
 * fewest distributions worth a thread of its own. */
#define COLLECT_THREADS_MAX 16
#define COLLECT_PER_THREAD 4

struct collector {
	struct ctx *c; /* the run's: read only while threads run */
	const struct tg_editable_roots *er;
	struct envjobs *per; /* a job list per distribution */
	struct asking *ask;  /* and how far its objects are asked */
	atomic_size_t next;
	atomic_int rc; /* the first failure */
};

/* Take the next distribution, collect its jobs and ask about its
 * objects, until none is left or one failed; then ask about the objects
 * left of the distributions the other threads collected. A thread has
 * a ctx of its own, a copy of the run's whose rc alone it writes (the
 * rest it only reads), its own lstat cache and site listing; it writes
 * only the job lists of the distributions it took, and the answers of
 * the objects it took. */
static void *
collect_run(void *arg)
{
	struct collector *k = arg;
	struct ctx wc = *k->c;
	struct tg_path_plain plain = TG_PATH_PLAIN_INIT;
	struct siteobjs so = {(size_t)-1, NULL, 0};
	size_t i;

	wc.rc = 0;
	while (!atomic_load(&k->rc) &&
	       (i = atomic_fetch_add(&k->next, 1)) < wc.ds->n) {
		collect(&wc, k->er, i, &k->per[i], &plain, &so);
		if (wc.rc) {
			int none = 0;

			atomic_compare_exchange_strong(&k->rc, &none, wc.rc);
			break;
		}
		atomic_store(&k->ask[i].ready, 1);
		ask(&k->per[i], &k->ask[i]);
	}
	for (i = 0; i < wc.ds->n && !atomic_load(&k->rc); i++)
		if (atomic_load(&k->ask[i].ready))
			ask(&k->per[i], &k->ask[i]);
	tg_path_plain_release(&plain);
	siteobjs_release(&so);
	return NULL;
}

/* collect_run on a thread of its own, whose files are its own (an
 * object is opened, read and closed by the thread that asks) */
static void *
collect_thread(void *arg)
{
	tg_fdtable_own();
	return collect_run(arg);
}

/* collect_run on as many threads as CPUs the process may use
 * (util/cpus, as audit's engine counts them), COLLECT_THREADS_MAX
 * at most, one per COLLECT_PER_THREAD distributions at most. A thread
 * that cannot be started leaves its share to the others and the
 * calling thread: slower, never another answer. */
static void
collect_all(struct collector *k)
{
	pthread_t th[COLLECT_THREADS_MAX - 1];
	size_t n, want = tg_cpus_usable(), nth;

	if (want > COLLECT_THREADS_MAX)
		want = COLLECT_THREADS_MAX;
	n = k->c->ds->n / COLLECT_PER_THREAD;
	if (want > n)
		want = n ? n : 1;
	for (nth = 0; nth + 1 < want; nth++)
		if (pthread_create(&th[nth], NULL, collect_thread, k) != 0)
			break;
	collect_run(k);
	while (nth)
		pthread_join(th[--nth], NULL);
}

void
tg_envobjects_collect(struct ctx *c, const struct tg_editable_roots *er,
		      struct envjobs *per)
{
	struct collector col;
	size_t i, n = c->ds->n;

	col.c = c;
	col.er = er;
	col.per = per;
	col.ask = malloc((n ? n : 1) * sizeof(*col.ask));
	if (!col.ask) {
		tg_envcheck_keep(c, NULL);
		return;
	}
	for (i = 0; i < n; i++) {
		atomic_init(&col.ask[i].ready, 0);
		atomic_init(&col.ask[i].next, 0);
	}
	atomic_init(&col.next, 0);
	atomic_init(&col.rc, 0);
	collect_all(&col);
	free(col.ask);
	if (atomic_load(&col.rc))
		tg_envcheck_keep(c, NULL);
}
