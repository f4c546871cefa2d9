/* source_run.c - a package's source files read and analyzed on worker
 * threads, handed back in walk order
 * SPDX-License-Identifier: MIT
 *
 * The main thread walks each operand and queues the files on a ring of
 * QUEUE jobs; a worker thread per online CPU but one (at least one, at
 * most WORKERS_MAX) takes the next job, reads the file and runs its
 * analyzer over the shared read-only indexes; the main thread meanwhile
 * hands the jobs at the ring's head to the caller as they are done, in
 * queue order, and frees them, and while the head's job is not done it
 * runs the next queued one itself rather than wait (so no thread waits
 * for a CPU, and the threads seldom sleep). A note of the walk (a file
 * left out) waits for the files queued before it, so it comes in its
 * place. Memory: one file's bytes per thread at a time and the results
 * of at most QUEUE files.
 */
#include "cli/source_run.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/source_files.h"
#include "lib/util/file.h"
#include "lib/util/walk.h"

#define QUEUE 256
#define WORKERS_MAX 8

struct job {
	char *path;
	enum cli_lang lang;
	int regular;   /* the walk or a stat found a regular file */
	int walked;    /* found by a walk: its bytes count toward its bound */
	uint64_t size; /* what fstat said of a walked file */
	int rc;	       /* the analyzer's: 0 or TG_ENOMEM */
	int read_rc;
	char msg[256]; /* unreadable: why */
	const char *why;
	size_t line, col;
	struct tg_audit_result r;
	atomic_int done; /* run_job returned */
};

/* head <= next <= tail: the jobs in [head, next) are taken or done,
 * those in [next, tail) wait for a worker. */
struct run {
	const struct cli_source_opts *o;
	struct job ring[QUEUE];
	size_t head, next, tail;
	int closing; /* nothing more will be queued */
	int failed;  /* the first error: the run stops */
	/* the bytes of the files the operand's walk handed over so far,
	 * in order, and whether they went past TG_WALK_BYTES_DEFAULT (as
	 * the walk bounds them; see TG_WALK_LAZY_FILES) */
	uint64_t bytes;
	enum { OVER_NOT, OVER_HERE, OVER_PAST } over;
	pthread_mutex_t mu;
	pthread_cond_t queued; /* a job was queued, or closing */
	pthread_cond_t done;   /* a job was done, and main_waits */
	atomic_int main_waits; /* the main thread waits on done */
	pthread_t th[WORKERS_MAX];
	size_t nth;
};

/* Whether src[0..len) holds a NUL byte: its line and column (1-based)
 * (for C and C++ files, whose first invalid UTF-8 byte hides a later
 * NUL from tg_audit_not_text). */
static int
find_nul(const char *src, size_t len, size_t *line, size_t *col)
{
	const char *nul = memchr(src, '\0', len), *p, *ls = src;
	size_t ln = 1;

	if (!nul)
		return 0;
	for (p = src; p < nul; p++)
		if (*p == '\n') {
			ln++;
			ls = p + 1;
		}
	*line = ln;
	*col = (size_t)(nul - ls) + 1;
	return 1;
}

/* Read and analyze one file (any thread: touches only j and the
 * read-only indexes). */
static void
run_job(const struct cli_source_opts *o, struct job *j)
{
	struct tg_err err = TG_ERR_INIT;
	char *src = NULL;
	size_t len = 0;

	j->read_rc =
	    j->regular
		? tg_file_read_walked(j->path, o->file_max, &src, &len,
				      &j->size, &err)
		: tg_file_read(j->path, o->file_max, &src, &len, NULL, &err);
	if (j->read_rc) {
		snprintf(j->msg, sizeof(j->msg), "%s", err.msg);
		return;
	}
	/* Python source must be UTF-8 (PEP 3120); C and C++ compilers take
	 * any bytes in comments and strings, but a NUL byte means it is not
	 * source at all */
	if (tg_audit_not_text(src, len, &j->line, &j->col, &j->why)) {
		if (j->lang == CLI_LANG_PY ||
		    strcmp(j->why, "a NUL byte") == 0) {
			free(src);
			return;
		}
		if (find_nul(src, len, &j->line, &j->col)) {
			j->why = "a NUL byte";
			free(src);
			return;
		}
	}
	j->why = NULL;
	j->rc =
	    j->lang == CLI_LANG_PY
		? tg_audit_py_indexed(o->pyix, src, len, j->path, &j->r, &err)
		: tg_audit_cxx_indexed(o->cxxix, src, len, j->path, &j->r,
				       &err);
	free(src);
}

static void *
worker(void *arg)
{
	struct run *q = arg;
	struct job *j;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		while (q->next == q->tail && !q->closing)
			pthread_cond_wait(&q->queued, &q->mu);
		if (q->next == q->tail)
			break;
		j = &q->ring[q->next++ % QUEUE];
		pthread_mutex_unlock(&q->mu);
		run_job(q->o, j);
		/* the main thread looks at done without the lock, and
		 * sleeps only after saying so under it: one of the two
		 * sees the other's store (both sequentially consistent) */
		atomic_store(&j->done, 1);
		pthread_mutex_lock(&q->mu);
		if (atomic_load(&q->main_waits))
			pthread_cond_broadcast(&q->done);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* Hand f to the caller; a failure stops the run. */
static int
deliver(struct run *q, struct cli_source_file *f)
{
	int rc;

	if (q->failed)
		return q->failed;
	rc = q->o->file(q->o->ctx, f);
	if (rc)
		q->failed = rc;
	return rc;
}

/* Hand the job at head to the caller once it is done, and free it. */
static int
finish_head(struct run *q)
{
	struct job *j = &q->ring[q->head % QUEUE];
	struct cli_source_file f;
	char msg[64];
	int rc = 0;

	while (!atomic_load(&j->done)) {
		struct job *h = NULL;

		if (q->o->idle && !q->failed && (rc = q->o->idle(q->o->ctx)))
			q->failed = rc;
		pthread_mutex_lock(&q->mu);
		/* rather than wait, run a job that waits for a worker */
		if (q->next < q->tail) {
			h = &q->ring[q->next++ % QUEUE];
			pthread_mutex_unlock(&q->mu);
			run_job(q->o, h);
			atomic_store(&h->done, 1);
			continue;
		}
		atomic_store(&q->main_waits, 1);
		while (!atomic_load(&j->done))
			pthread_cond_wait(&q->done, &q->mu);
		atomic_store(&q->main_waits, 0);
		pthread_mutex_unlock(&q->mu);
	}
	memset(&f, 0, sizeof(f));
	f.path = j->path;
	if (j->walked && !q->over) {
		if (j->size > TG_WALK_BYTES_DEFAULT - q->bytes)
			q->over = OVER_HERE;
		else
			q->bytes += j->size;
	}
	if (q->over == OVER_HERE) {
		/* the file past the bound: the walk stops there */
		snprintf(msg, sizeof(msg), "more than %" PRIu64 " bytes",
			 TG_WALK_BYTES_DEFAULT);
		f.what = CLI_SOURCE_SKIPPED;
		f.msg = msg;
		deliver(q, &f);
		q->over = OVER_PAST;
	} else if (q->over) {
		/* queued after it: dropped */
	} else if (j->read_rc == TG_ENOMEM || j->rc == TG_ENOMEM) {
		if (!q->failed)
			q->failed = TG_ENOMEM;
	} else if (j->read_rc == TG_ELIMIT) {
		f.what = CLI_SOURCE_TOO_LARGE;
		deliver(q, &f);
	} else if (j->read_rc) {
		f.what = CLI_SOURCE_UNREADABLE;
		f.msg = j->msg;
		deliver(q, &f);
	} else if (j->why) {
		f.what = CLI_SOURCE_UNDECODABLE;
		f.why = j->why;
		f.line = j->line;
		f.col = j->col;
		deliver(q, &f);
	} else {
		f.what = CLI_SOURCE_ANALYZED;
		f.r = &j->r;
		deliver(q, &f);
	}
	tg_audit_result_release(&j->r);
	free(j->path);
	q->head++;
	return q->failed;
}

/* Hand every queued job to the caller, in order. */
static int
drain(struct run *q)
{
	while (q->head < q->tail)
		finish_head(q);
	return q->failed;
}

/* Queue one file, first handing the oldest job over when the ring is
 * full, and after it any that are done already. */
static int
queue_file(struct run *q, const char *path, enum cli_lang lang, int regular,
	   int walked)
{
	struct tg_audit_result init = TG_AUDIT_RESULT_INIT;
	struct job *j;
	char *copy;
	int ready;

	if (q->failed)
		return q->failed;
	if (q->over)
		return TG_ELIMIT; /* the walk stops */
	copy = strdup(path);
	if (!copy)
		return q->failed = TG_ENOMEM;
	if (q->tail - q->head == QUEUE && finish_head(q)) {
		free(copy);
		return q->failed;
	}
	j = &q->ring[q->tail % QUEUE];
	memset(j, 0, sizeof(*j));
	atomic_init(&j->done, 0);
	j->path = copy;
	j->lang = lang;
	j->regular = regular;
	j->walked = walked;
	j->r = init;
	pthread_mutex_lock(&q->mu);
	q->tail++;
	pthread_cond_signal(&q->queued);
	pthread_mutex_unlock(&q->mu);
	for (;;) {
		ready = q->head < q->tail &&
			atomic_load(&q->ring[q->head % QUEUE].done);
		if (!ready || finish_head(q))
			return q->failed;
	}
}

/* An outcome that is no job (a note of the walk, an operand's), in its
 * place: after the files queued before it. */
static int
tell(struct run *q, enum cli_source_what what, const char *path, int operand,
     const char *msg)
{
	struct cli_source_file f;

	if (drain(q))
		return q->failed;
	if (q->over)
		return TG_ELIMIT; /* past the walk's bound: dropped, it stops */
	memset(&f, 0, sizeof(f));
	f.what = what;
	f.path = path;
	f.operand = operand;
	f.msg = msg;
	return deliver(q, &f);
}

static int
excluded(const struct cli_list *l, const char *name, const char *rel)
{
	size_t k;

	for (k = 0; l && k < l->n; k++)
		if (fnmatch(l->v[k], name, 0) == 0 ||
		    (rel && fnmatch(l->v[k], rel, 0) == 0))
			return 1;
	return 0;
}

static int
want(void *ctx, const struct tg_walk_entry *e)
{
	const struct run *q = ctx;

	if (excluded(q->o->excludes, e->name, e->rel))
		return 0;
	if (e->st && S_ISDIR(e->st->st_mode))
		return !cli_source_skip_dir(e);
	return cli_source_lang(e->name) != CLI_LANG_NONE;
}

static int
on_file(void *ctx, const struct tg_walk_entry *e)
{
	/* no stat: a regular file as readdir says (TG_WALK_LAZY_FILES) */
	return queue_file(ctx, e->path, cli_source_lang(e->name),
			  !e->st || S_ISREG(e->st->st_mode), 1);
}

static int
on_skipped(void *ctx, const struct tg_walk_entry *e, enum tg_walk_why why,
	   const char *msg)
{
	char buf[512];
	struct stat st;

	if (why == TG_WALK_SEEN)
		return 0;
	/* a link to itself (or a chain too long to resolve) is a loop,
	 * like a link to a directory above it */
	if (why == TG_WALK_UNREADABLE && stat(e->path, &st) && errno == ELOOP)
		return tell(ctx, CLI_SOURCE_SKIPPED, e->path, 0,
			    "a symlink loop");
	if (why == TG_WALK_DANGLING && e->is_link) {
		ssize_t n = readlink(e->path, buf, sizeof(buf) - 1);

		if (n >= 0) {
			char m[sizeof(buf) + 64];

			buf[n] = '\0';
			snprintf(m, sizeof(m),
				 "a dangling symbolic link to '%s'", buf);
			return tell(ctx, CLI_SOURCE_SKIPPED, e->path, 0, m);
		}
	}
	if (why == TG_WALK_UNREADABLE) {
		snprintf(buf, sizeof(buf), "cannot read '%s': %s", e->path,
			 msg);
		return tell(ctx, CLI_SOURCE_UNREADABLE, e->path, 0, buf);
	}
	return tell(ctx, CLI_SOURCE_SKIPPED, e->path, 0, msg);
}

static int
operand(struct run *q, const char *path)
{
	struct tg_walk_opts wo;
	struct tg_err err = TG_ERR_INIT;
	struct stat st;
	char buf[512];
	const char *base;
	enum cli_lang lang;
	int rc;

	if (stat(path, &st)) {
		snprintf(buf, sizeof(buf), "cannot read '%s': %s", path,
			 strerror(errno));
		return tell(q, CLI_SOURCE_UNREADABLE, path, 1, buf);
	}
	if (!S_ISDIR(st.st_mode)) {
		base = strrchr(path, '/');
		lang = cli_source_lang(base ? base + 1 : path);
		if (lang == CLI_LANG_NONE)
			return tell(q, CLI_SOURCE_SKIPPED, path, 1,
				    "not a Python, C, C++ or CUDA file by "
				    "its name");
		return queue_file(q, path, lang, S_ISREG(st.st_mode), 0)
			   ? q->failed
			   : drain(q);
	}
	memset(&wo, 0, sizeof(wo));
	wo.flags = TG_WALK_LAZY_FILES;
	wo.want = want;
	wo.want_name = want;
	wo.file = on_file;
	wo.skipped = on_skipped;
	wo.ctx = q;
	q->bytes = 0;
	rc = tg_walk(path, &wo, &err);
	if (drain(q))
		return q->failed;
	if (q->over) {
		q->over = OVER_NOT;
		snprintf(buf, sizeof(buf),
			 "more than %" PRIu64 " bytes of files under '%s'",
			 TG_WALK_BYTES_DEFAULT, path);
		return tell(q, CLI_SOURCE_UNREADABLE, path, 1, buf);
	}
	if (rc == TG_ENOMEM)
		return q->failed = TG_ENOMEM;
	if (rc)
		return tell(q, CLI_SOURCE_UNREADABLE, path, 1, err.msg);
	return 0;
}

/* The walk's order for whole paths: byte by byte, with '/' before any
 * other byte, so that paths sort component by component (a/x before
 * a-b/x). */
static int
cmp_path(const void *pa, const void *pb)
{
	const unsigned char *a = *(const unsigned char *const *)pa;
	const unsigned char *b = *(const unsigned char *const *)pb;

	for (; *a && *a == *b; a++, b++)
		;
	if (*a == *b)
		return 0;
	if (*a == '/' || *b == '/')
		return *a == '/' ? (*b ? -1 : 1) : (*a ? 1 : -1);
	return *a < *b ? -1 : 1;
}

int
cli_source_run(const struct cli_source_opts *o, const char *const *paths,
	       size_t n)
{
	struct run *q;
	const char **ops;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* the main thread runs jobs too while it waits: one worker
	 * fewer than CPUs, so that no thread waits for a CPU */
	size_t k, nw = ncpu < 2		    ? 1
		       : ncpu > WORKERS_MAX ? WORKERS_MAX
					    : (size_t)ncpu - 1;
	int rc;

	q = calloc(1, sizeof(*q));
	ops = calloc(n + 1, sizeof(*ops));
	if (!q || !ops) {
		free(q);
		free(ops);
		return TG_ENOMEM;
	}
	memcpy(ops, paths, n * sizeof(*ops));
	qsort(ops, n, sizeof(*ops), cmp_path);
	q->o = o;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->queued, NULL);
	pthread_cond_init(&q->done, NULL);
	atomic_init(&q->main_waits, 0);
	for (k = 0; k < nw; k++)
		if (pthread_create(&q->th[q->nth], NULL, worker, q) == 0)
			q->nth++;
	if (!q->nth)
		q->failed = TG_ENOMEM;
	for (k = 0; k < n && !q->failed; k++)
		operand(q, ops[k]);
	drain(q); /* after a failure too: every job is freed */
	pthread_mutex_lock(&q->mu);
	q->closing = 1;
	pthread_cond_broadcast(&q->queued);
	pthread_mutex_unlock(&q->mu);
	for (k = 0; k < q->nth; k++)
		pthread_join(q->th[k], NULL);
	pthread_cond_destroy(&q->queued);
	pthread_cond_destroy(&q->done);
	pthread_mutex_destroy(&q->mu);
	rc = q->failed;
	free(q);
	free(ops);
	return rc;
}
