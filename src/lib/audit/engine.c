/* engine.c - the audit engine: a package's source files walked, read,
 * analyzed on worker threads and judged, handed back in walk order
 * SPDX-License-Identifier: MIT
 *
 * The calling thread walks each operand and queues the files on a ring
 * of QUEUE jobs; worker threads (one per CPU it may use but one, at
 * least one, at most TG_ENGINE_THREADS_MAX - 1) take the next job, read
 * the file, check its bytes, run its language's analyzer over the
 * shared index (read-only but for the C/C++ patterns' code, compiled on
 * first use) and judge the result; the calling thread meanwhile
 * hands the jobs at the ring's head to the sink as they are done, in
 * queue order, and frees them, and while the head's job is not done it
 * runs the next queued one itself rather than wait (so no thread waits
 * for a CPU, and the threads seldom sleep). Queueing a job and taking
 * one take no lock (struct run's work list): a thread locks only to
 * sleep, or to wake one that sleeps. A note of the walk (a file
 * left out) is queued as a job done already, which no thread runs, so
 * it comes in its place and the walk goes on. The sink's bytes hook,
 * when there is one, runs on the thread that analyzed a file, with its
 * bytes, and what it makes (f->extra) travels with the job to the sink,
 * or is freed with it. Memory: one file's bytes per thread at a time and
 * the results (and extras) of at most QUEUE files.
 *
 * The decoding policy is the language's (enum tg_lang_bytes): Python
 * must be UTF-8; C and C++ may hold any byte but NUL.
 *
 * A language's index is built when its first file is analyzed, by the
 * thread that analyzes it (the others with a file of that language
 * wait): a tree without C or C++ never compiles the C++ patterns (11 of
 * audit's 51 million start-up instructions), and in a mixed tree that
 * compilation overlaps the analysis of the other language's files.
 */
#include "lib/audit/engine.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/audit/judge.h"
#include "lib/audit/sources.h"
#include "lib/util/cpus.h"
#include "lib/util/fdtable.h"
#include "lib/util/file.h"
#include "lib/util/grow.h"
#include "lib/util/str.h"
#include "lib/util/walk.h"

/* The ring's length. Results go to the sink in walk order, so one slow
 * file at the head holds back every job queued after it; once the ring
 * is full the walk stops and the workers run dry. At 256 jobs the
 * installed torch 2.11 tree (11,678 files, 16 CPUs) four times over
 * took 519 ms against 273 ms at 4,096 (hyperfine, GPU machine). Once
 * queueing took no lock, the ring was full 10 to 16 times in the JSON
 * audit of the tree once over (its largest file at the head), and the
 * walking thread spent 23 of its 40 ms waiting there: 16,384 jobs took
 * it from 45.6 to 39.4 ms, the tree four times over from 142.8 to 113.9
 * ms (interleaved medians; 65,536: 38.3 and 112.1 ms), peak RSS 86 ->
 * 99 MiB there. A job is 288 bytes (its message is allocated when it
 * has one). */
#define QUEUE 16384

/* Tried and left out (6 December 2026): large files first. A large
 * Python file's analysis and fix offers are one thread's work from
 * start to end (common_methods_invocations.py, 875 KB, is 176 million
 * instructions of the JSON audit), and the last one the walk meets can
 * end the run: on the GPU machine (16 CPUs) the JSON audit of its torch
 * 2.11 package (Python and headers) took 58.7 ms, and 51.5 ms with the
 * 21 Python files over 200 KB moved by hand to the walk's start; four
 * copies 198.6 and 184.2 ms (hyperfine medians). But the walk knows no
 * size without a stat, and a second work list for the files of 128 KiB
 * or more, taken first, fed by a stat per file on the walking thread,
 * made it slower: 56.6 / 60.8 -> 54.0 / 70.2 ms, four copies 188.0 /
 * 195.5 -> 219.8 / 207.2 ms (the stats' system time, about 110 ms over
 * the 46,424 files, on the one thread that walks and hands over). */

/* A language's index, built once, when first needed (index_of). */
struct slot {
	pthread_mutex_t mu;
	int built; /* index_new ran: err says how */
	struct tg_err err;
	void *ix;
};

struct tg_engine {
	struct tg_engine_opts o;
	struct slot *ix; /* each language's, by its place in the registry */
	struct tg_judge judge;
	int judged; /* o.torch given: judge holds the ranks */
	/* "not a Python, C, C++ or CUDA file by its name": a file operand
	 * no language claims */
	char not_source[256];
};

struct job {
	char *path;
	char *note;    /* a note of the walk (f.what, f.msg): no file */
	int regular;   /* the walk or a stat found a regular file */
	int walked;    /* found by a walk: its bytes count toward its bound */
	uint64_t size; /* what fstat said of a walked file */
	int rc;	       /* analyze's, then the bytes hook's: 0 or TG_E* */
	int read_rc;
	char *msg; /* unreadable, or the analysis failed: why (owned) */
	struct tg_engine_file f;
	atomic_int done; /* run_job returned */
};

/* A thread's open directory: the one of the last walked file it read,
 * whose next files it opens relative to it (openat), so that the kernel
 * looks up one component of their paths instead of all (the bench
 * tree's are eight or nine deep). The walk lists a directory's files
 * together and threads take them in that order. fd -1: none. */
struct dircache {
	char *dir; /* its path, as the jobs' paths spell it */
	size_t n, cap;
	int fd;
};

/* The ring holds the jobs [head, tail) in walk order: only the calling
 * thread reads head and tail. The work list holds, in the same order,
 * the ring's places of the jobs a thread must run (notes are none of
 * them): [wnext, wtail) wait, and a thread takes the one at wnext by
 * moving wnext on (compare-and-swap), so that neither the calling
 * thread's queueing nor a worker's taking takes a lock. With one lock
 * for both, the calling thread's lock per file, contended by 15
 * workers, was 25 of 87 ms of the JSON audit of the installed torch
 * 2.11 tree, and the workers were idle 45% of the time (16 CPUs).
 * A job's place is read before it is taken: a thread whose swap fails
 * read a place that may have been reused, and tries again. */
struct run {
	const struct tg_engine *e;
	const struct tg_engine_sink *sink;
	/* n jobs, not zeroed: a job is cleared when queued (slot), and
	 * only [head, tail) is read, so that a run of a few files touches a
	 * few of the ring's pages (a calloc of the whole ring, from the
	 * heap since main.c's mallopt, would clear all of its 4.7 MB) */
	struct job *ring;
	size_t n; /* its length: QUEUE, or the options' */
	size_t head, tail;
	_Atomic size_t *work; /* n places in the ring */
	atomic_size_t wnext, wtail;
	atomic_int closing;  /* nothing more will be queued */
	atomic_int sleepers; /* workers waiting on queued */

	int failed;    /* the first error: the run stops */
	char why[256]; /* a failed job's message, for err */
	/* the bytes read from the files the operand's walk handed over so
	 * far, in order, and whether they went past bytes_max (as the walk
	 * would bound them; see TG_WALK_LAZY_FILES): a file not read
	 * counts none, so that sparse giants skipped as too large do not
	 * spend the bound and hide the files after them */
	uint64_t bytes;
	enum { OVER_NOT, OVER_HERE, OVER_PAST } over;
	pthread_mutex_t mu;
	pthread_cond_t queued; /* a job was queued with sleepers, or closing */
	pthread_cond_t done;   /* a job was done, and main_waits */
	atomic_int main_waits; /* the calling thread waits on done */
	pthread_t th[TG_ENGINE_THREADS_MAX];
	size_t nth;
	/* what each worker is started with: the run, and its thread
	 * number for the bytes hook (the calling thread's is 0) */
	struct worker_arg {
		struct run *q;
		size_t id;
	} wa[TG_ENGINE_THREADS_MAX];
	/* each thread's, by its number (the calling thread's 0) */
	struct dircache dc[TG_ENGINE_THREADS_MAX + 1];
};

void
tg_engine_file_release(struct tg_engine_file *f)
{
	tg_audit_result_release(&f->r);
	tg_diag_list_release(&f->notes);
}

/* "not a K1, K2 or K3 file by its name", the kinds of every language */
static void
not_source(char *out, size_t size)
{
	size_t k, j, n = 0, len;
	const char *kind[32];
	int w = snprintf(out, size, "not a");

	for (k = 0; k < tg_lang_count(); k++)
		for (j = 0; tg_lang_at(k)->kinds[j] && n < 32; j++)
			kind[n++] = tg_lang_at(k)->kinds[j];
	for (k = 0; k < n && w > 0 && (size_t)w < size; k++) {
		len = (size_t)w;
		w += snprintf(out + len, size - len, "%s%s",
			      !k	  ? " "
			      : k + 1 < n ? ", "
					  : " or ",
			      kind[k]);
	}
	len = strlen(out);
	snprintf(out + len, size - len, " file by its name");
}

int
tg_engine_new(struct tg_engine **out, const struct tg_engine_opts *o,
	      struct tg_err *err)
{
	struct tg_engine *e;
	size_t k, n = tg_lang_count();
	int rc = 0;

	*out = NULL;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->ix = calloc(n, sizeof(*e->ix)))) {
		free(e);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	e->o = *o;
	not_source(e->not_source, sizeof(e->not_source));
	if (!e->o.file_max)
		e->o.file_max = TG_ENGINE_FILE_MAX;
	if (!e->o.bytes_max)
		e->o.bytes_max = TG_WALK_BYTES_DEFAULT;
	if (o->torch) {
		rc = tg_judge_init(&e->judge, o->table, o->torch, o->all,
				   o->min, o->floor, err);
		e->judged = !rc;
	}
	for (k = 0; k < n; k++)
		pthread_mutex_init(&e->ix[k].mu, NULL);
	if (rc) {
		tg_engine_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

void
tg_engine_free(struct tg_engine *e)
{
	size_t k;

	if (!e)
		return;
	for (k = 0; e->ix && k < tg_lang_count(); k++) {
		tg_lang_at(k)->index_free(e->ix[k].ix);
		pthread_mutex_destroy(&e->ix[k].mu);
	}
	free(e->ix);
	tg_judge_release(&e->judge);
	free(e);
}

enum tg_audit_rank
tg_engine_rank(const struct tg_engine *e, const struct tg_api *a)
{
	assert(e->judged);
	return tg_judge_rank(&e->judge, a);
}

int
tg_engine_fails(const struct tg_engine *e, const struct tg_audit_finding *f)
{
	assert(e->judged);
	return tg_judge_fails(&e->judge, f);
}

/* Whether src[0..len) holds a NUL byte: its line and column (1-based). */
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

/* Whether src[0..len) holds a byte L does not take: why, where. C and
 * C++ take any byte but NUL, so only a NUL is looked for (memchr; the
 * UTF-8 check of every header was 29 of the 1,450 million instructions
 * of the text audit of the bench tree). */
static int
undecodable(const struct tg_lang *L, const char *src, size_t len,
	    struct tg_engine_file *f)
{
	if (L->bytes == TG_LANG_UTF8)
		return tg_audit_not_text(src, len, &f->line, &f->col, &f->why);
	if (!find_nul(src, len, &f->line, &f->col))
		return 0;
	f->why = "a NUL byte";
	return 1;
}

/* L's index in e, built by the first thread that asks (any thread):
 * 0, or index_new's error (each asker gets it, with its message). */
static int
index_of(const struct tg_engine *e, const struct tg_lang *L, void **ix,
	 struct tg_err *err)
{
	struct slot *s = &e->ix[tg_lang_index(L)];
	int rc;

	pthread_mutex_lock(&s->mu);
	if (!s->built) {
		rc = L->index_new(&s->ix, e->o.table, &s->err);
		if (rc && !s->err.code)
			tg_err_set(&s->err, rc, "%s",
				   rc == TG_ENOMEM ? "out of memory"
						   : "cannot index the table");
		/* look for no entry that cannot be reported */
		if (!rc && e->judged && L->index_only)
			L->index_only(s->ix, tg_judge_matters,
				      (void *)&e->judge);
		s->built = 1;
	}
	rc = s->err.code;
	if (rc && err)
		*err = s->err;
	*ix = s->ix;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* Check, analyze and judge src as L into f (any thread: touches only f,
 * L's index the first time (index_of) and what e holds read-only). */
static int
analyze(const struct tg_engine *e, const struct tg_lang *L, const char *src,
	size_t len, const char *path, struct tg_engine_file *f,
	struct tg_err *err)
{
	char *lf = NULL;
	void *ix;
	int rc;

	f->lang = L;
	if (undecodable(L, src, len, f)) {
		f->what = TG_ENGINE_UNDECODABLE;
		return 0;
	}
	f->what = TG_ENGINE_ANALYZED;
	if ((rc = index_of(e, L, &ix, err)))
		return rc;
	/* a lone CR ends a line for Python and for the C preprocessor: the
	 * analyzers, which end lines at LF (and CRLF), read a copy with
	 * each made LF, at the same offsets */
	if ((rc = tg_str_lone_cr(src, len, &lf)))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	rc = L->analyze(ix, lf ? lf : src, len, path, &f->r, err);
	free(lf);
	if (!rc && e->judged)
		rc = tg_judge_result(&e->judge, path, &f->r, &f->notes);
	if (rc == TG_ENOMEM)
		tg_err_set(err, TG_ENOMEM, "out of memory");
	return rc;
}

int
tg_engine_buffer(const struct tg_engine *e, const struct tg_lang *L,
		 const char *src, size_t len, const char *path,
		 struct tg_engine_file *f, struct tg_err *err)
{
	f->path = path;
	return analyze(e, L, src, len, path, f, err);
}

/* Where dc's thread opens path, a walked file (dc's directory reopened
 * when path is in another): *name relative to the directory the return
 * value is open on, or (AT_FDCWD, the whole path) when it has no
 * directory part or its directory cannot be opened (out of descriptors:
 * the open of the path then says what is wrong). */
static int
dircache_open(struct dircache *dc, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	*name = path;
	if (!slash || !slash[1])
		return AT_FDCWD;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (dc->fd >= 0 && dc->n == n && memcmp(dc->dir, path, n) == 0) {
		*name = slash + 1;
		return dc->fd;
	}
	if (dc->fd >= 0)
		close(dc->fd);
	dc->fd = -1;
	if (TG_GROW(dc->dir, n + 1, dc->cap))
		return AT_FDCWD;
	memcpy(dc->dir, path, n);
	dc->dir[n] = '\0';
	dc->n = n;
	dc->fd = open(dc->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dc->fd < 0)
		return AT_FDCWD;
	*name = slash + 1;
	return dc->fd;
}

/* dc closed and freed: by its own thread (whose descriptor table holds
 * the directory, util/fdtable). */
static void
dircache_release(struct dircache *dc)
{
	if (dc->fd >= 0)
		close(dc->fd);
	free(dc->dir);
	*dc = (struct dircache){NULL, 0, 0, -1};
}

/* Read and analyze one file, and hand its bytes to the sink's bytes
 * hook (any thread: touches only j, dc, what the engine holds read-only
 * and what the hook reads). */
static void
run_job(const struct run *q, struct job *j, size_t thread, struct dircache *dc)
{
	const struct tg_engine *e = q->e;
	struct tg_err err = TG_ERR_INIT;
	char *src = NULL;
	const char *name;
	size_t len = 0;
	int dfd;

	if (j->regular) {
		dfd = dircache_open(dc, j->path, &name);
		j->read_rc =
		    tg_file_read_walked_at(dfd, name, j->path, e->o.file_max,
					   &src, &len, &j->size, &err);
	} else
		j->read_rc = tg_file_read(j->path, e->o.file_max, &src, &len,
					  NULL, &err);
	if (j->read_rc) {
		/* no room to say why: the run stops, out of memory */
		if (!(j->msg = strdup(err.msg)))
			j->read_rc = TG_ENOMEM;
		return;
	}
	j->rc = analyze(e, j->f.lang, src, len, j->path, &j->f, &err);
	if (!j->rc && j->f.what == TG_ENGINE_ANALYZED && q->sink->bytes) {
		j->rc = q->sink->bytes(q->sink->ctx, thread, &j->f, src, len);
		err.code = 0; /* the hook says only a code */
	}
	if (j->rc &&
	    !(j->msg = strdup(err.code		   ? err.msg
			      : j->rc == TG_ENOMEM ? "out of memory"
						   : "cannot audit a file")))
		j->rc = TG_ENOMEM;
	free(src);
}

/* The next job of the work list, taken: 1 with it in *j, or 0 when
 * none waits. */
static int
take(struct run *q, struct job **j)
{
	size_t w = atomic_load(&q->wnext), at;

	while (w < atomic_load(&q->wtail)) {
		at = atomic_load_explicit(&q->work[w % q->n],
					  memory_order_relaxed);
		if (atomic_compare_exchange_weak(&q->wnext, &w, w + 1)) {
			*j = &q->ring[at % q->n];
			return 1;
		}
	}
	return 0;
}

/* Run j, taken, on thread number thread, and say it is done. The
 * calling thread looks at done without the lock, and sleeps only after
 * saying so under it: one of the two sees the other's store (both
 * sequentially consistent). j is not touched once done: the calling
 * thread may hand it over and queue another job in its place. */
static void
run_taken(struct run *q, struct job *j, size_t thread)
{
	run_job(q, j, thread, &q->dc[thread]);
	atomic_store(&j->done, 1);
	if (atomic_load(&q->main_waits)) {
		pthread_mutex_lock(&q->mu);
		pthread_cond_broadcast(&q->done);
		pthread_mutex_unlock(&q->mu);
	}
}

static void *
worker(void *arg)
{
	const struct worker_arg *wa = arg;
	struct run *q = wa->q;
	struct job *j;

	/* a job's file is opened, read and closed by the thread that runs
	 * it: a descriptor table of its own (util/fdtable) */
	tg_fdtable_own();
	for (;;) {
		if (take(q, &j)) {
			run_taken(q, j, wa->id);
			continue;
		}
		/* none waits: sleep until one is queued. The count of
		 * sleepers goes up before the work list is looked at again,
		 * and queueing looks at the count after the list grew: one
		 * of the two sees the other's store */
		pthread_mutex_lock(&q->mu);
		atomic_fetch_add(&q->sleepers, 1);
		while (atomic_load(&q->wnext) == atomic_load(&q->wtail) &&
		       !atomic_load(&q->closing))
			pthread_cond_wait(&q->queued, &q->mu);
		atomic_fetch_sub(&q->sleepers, 1);
		pthread_mutex_unlock(&q->mu);
		if (atomic_load(&q->wnext) == atomic_load(&q->wtail) &&
		    atomic_load(&q->closing)) {
			dircache_release(&q->dc[wa->id]);
			return NULL;
		}
	}
}

/* Hand f to the sink; a failure stops the run. */
static int
deliver(struct run *q, struct tg_engine_file *f)
{
	int rc;

	if (q->failed)
		return q->failed;
	rc = q->sink->file(q->sink->ctx, f);
	if (rc)
		q->failed = rc;
	return rc;
}

/* Hand the job at head to the sink once it is done, and free it. */
static int
finish_head(struct run *q)
{
	struct job *j = &q->ring[q->head % q->n];
	struct tg_engine_file note = TG_ENGINE_FILE_INIT;
	char msg[64];
	int rc = 0;

	while (!atomic_load(&j->done)) {
		struct job *h = NULL;

		if (q->sink->idle && !q->failed &&
		    (rc = q->sink->idle(q->sink->ctx)))
			q->failed = rc;
		/* rather than wait, run a job that waits for a worker */
		if (take(q, &h)) {
			run_taken(q, h, 0);
			continue;
		}
		pthread_mutex_lock(&q->mu);
		atomic_store(&q->main_waits, 1);
		while (!atomic_load(&j->done))
			pthread_cond_wait(&q->done, &q->mu);
		atomic_store(&q->main_waits, 0);
		pthread_mutex_unlock(&q->mu);
	}
	if (j->walked && !q->over && !j->read_rc) {
		if (j->size > q->e->o.bytes_max - q->bytes)
			q->over = OVER_HERE;
		else
			q->bytes += j->size;
	}
	if (q->over == OVER_HERE) {
		/* the file past the bound: the walk stops there */
		snprintf(msg, sizeof(msg), "more than %" PRIu64 " bytes",
			 q->e->o.bytes_max);
		note.what = TG_ENGINE_SKIPPED;
		note.path = j->path;
		note.msg = msg;
		deliver(q, &note);
		q->over = OVER_PAST;
	} else if (q->over) {
		/* queued after it: dropped */
	} else if (j->read_rc == TG_ENOMEM || j->rc) {
		/* the analysis or the bytes hook failed: the run stops, and
		 * says why (the analyzer's message: a table whose patterns
		 * the index cannot hold) */
		if (!q->failed) {
			q->failed = j->rc ? j->rc : TG_ENOMEM;
			snprintf(q->why, sizeof(q->why), "%s",
				 j->rc && j->msg ? j->msg : "out of memory");
		}
	} else if (j->read_rc == TG_ELIMIT) {
		note.what = TG_ENGINE_TOO_LARGE;
		note.path = j->path;
		note.lang = j->f.lang;
		deliver(q, &note);
	} else if (j->read_rc) {
		note.what = TG_ENGINE_UNREADABLE;
		note.path = j->path;
		note.lang = j->f.lang;
		note.msg = j->msg;
		deliver(q, &note);
	} else {
		deliver(q, &j->f);
	}
	if (j->f.extra && q->sink->extra_free)
		q->sink->extra_free(q->sink->ctx, j->f.extra);
	tg_engine_file_release(&j->f);
	free(j->path);
	free(j->note);
	free(j->msg);
	q->head++;
	return q->failed;
}

/* Hand every queued job to the sink, in order. */
static int
drain(struct run *q)
{
	while (q->head < q->tail)
		finish_head(q);
	return q->failed;
}

/* The ring's next slot, cleared, for a job of path (copied): first
 * handing the oldest job over when the ring is full. NULL when the run
 * failed (or fails here) or is past the walk's bound (*rc says which). */
static struct job *
slot(struct run *q, const char *path, int *rc)
{
	struct tg_engine_file init = TG_ENGINE_FILE_INIT;
	struct job *j;
	char *copy;

	*rc = q->failed ? q->failed : q->over ? TG_ELIMIT : 0;
	if (*rc)
		return NULL; /* past the bound: the walk stops */
	copy = strdup(path);
	if (!copy) {
		*rc = q->failed = TG_ENOMEM;
		return NULL;
	}
	if (q->tail - q->head == q->n && finish_head(q)) {
		free(copy);
		*rc = q->failed;
		return NULL;
	}
	j = &q->ring[q->tail % q->n];
	memset(j, 0, sizeof(*j));
	atomic_init(&j->done, 0);
	j->path = copy;
	j->f = init;
	j->f.path = copy;
	return j;
}

/* Put j (the ring's next slot) in the queue, and on the work list for
 * a thread unless it is a note, then hand over the jobs at the head
 * that are done already. */
static int
enqueue(struct run *q)
{
	size_t w;
	int ready;

	if (!q->ring[q->tail % q->n].note) {
		w = atomic_load_explicit(&q->wtail, memory_order_relaxed);
		atomic_store_explicit(&q->work[w % q->n], q->tail,
				      memory_order_relaxed);
		atomic_store(&q->wtail, w + 1);
		if (atomic_load(&q->sleepers)) {
			pthread_mutex_lock(&q->mu);
			pthread_cond_signal(&q->queued);
			pthread_mutex_unlock(&q->mu);
		}
	}
	q->tail++;
	for (;;) {
		ready = q->head < q->tail &&
			atomic_load(&q->ring[q->head % q->n].done);
		if (!ready || finish_head(q))
			return q->failed;
	}
}

/* Queue one file. */
static int
queue_file(struct run *q, const char *path, const struct tg_lang *L,
	   int regular, int walked)
{
	int rc;
	struct job *j = slot(q, path, &rc);

	if (!j)
		return rc;
	j->regular = regular;
	j->walked = walked;
	j->f.lang = L;
	return enqueue(q);
}

/* Queue a note of the walk, done already, in its place among the files
 * (a worker that takes it has nothing to do): the walk goes on while
 * the files before it are analyzed, where waiting for them (draining
 * the ring) left the workers idle until the walk had queued more. */
static int
queue_note(struct run *q, enum tg_engine_what what, const char *path,
	   const char *msg)
{
	int rc;
	struct job *j = slot(q, path, &rc);

	if (!j)
		return rc;
	if (!(j->note = strdup(msg))) {
		free(j->path);
		return q->failed = TG_ENOMEM;
	}
	j->f.what = what;
	j->f.msg = j->note;
	atomic_store(&j->done, 1);
	return enqueue(q);
}

/* An outcome that is no job (a note of the walk, an operand's), in its
 * place: after the files queued before it. */
static int
tell(struct run *q, enum tg_engine_what what, const char *path, int operand,
     const char *msg)
{
	struct tg_engine_file f = TG_ENGINE_FILE_INIT;

	if (drain(q))
		return q->failed;
	if (q->over)
		return TG_ELIMIT; /* past the walk's bound: dropped, it stops */
	f.what = what;
	f.path = path;
	f.operand = operand;
	f.msg = msg;
	return deliver(q, &f);
}

static int
want(void *ctx, const struct tg_walk_entry *e)
{
	const struct run *q = ctx;

	if (tg_sources_excluded(q->e->o.excludes, q->e->o.nexcludes, e->name,
				e->rel))
		return 0;
	if (e->st && S_ISDIR(e->st->st_mode))
		return !tg_sources_skip_dir(e);
	return tg_lang_of_name(e->name) != NULL;
}

static int
on_file(void *ctx, const struct tg_walk_entry *e)
{
	/* no stat: a regular file as readdir says (TG_WALK_LAZY_FILES) */
	return queue_file(ctx, e->path, tg_lang_of_name(e->name),
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
		return queue_note(ctx, TG_ENGINE_SKIPPED, e->path,
				  "a symlink loop");
	if (why == TG_WALK_DANGLING && e->is_link) {
		ssize_t n = readlink(e->path, buf, sizeof(buf) - 1);

		if (n >= 0) {
			char m[sizeof(buf) + 64];

			buf[n] = '\0';
			snprintf(m, sizeof(m),
				 "a dangling symbolic link to '%s'", buf);
			return queue_note(ctx, TG_ENGINE_SKIPPED, e->path, m);
		}
	}
	if (why == TG_WALK_UNREADABLE) {
		snprintf(buf, sizeof(buf), "cannot read '%s': %s", e->path,
			 msg);
		return queue_note(ctx, TG_ENGINE_UNREADABLE, e->path, buf);
	}
	return queue_note(ctx, TG_ENGINE_SKIPPED, e->path, msg);
}

static int
operand(struct run *q, const char *path)
{
	struct tg_walk_opts wo;
	struct tg_err err = TG_ERR_INIT;
	struct stat st;
	char buf[512];
	const char *base;
	const struct tg_lang *L;
	int rc;

	if (stat(path, &st)) {
		snprintf(buf, sizeof(buf), "cannot read '%s': %s", path,
			 strerror(errno));
		return tell(q, TG_ENGINE_UNREADABLE, path, 1, buf);
	}
	if (!S_ISDIR(st.st_mode)) {
		base = strrchr(path, '/');
		L = tg_lang_of_name(base ? base + 1 : path);
		if (!L)
			return tell(q, TG_ENGINE_SKIPPED, path, 1,
				    q->e->not_source);
		return queue_file(q, path, L, S_ISREG(st.st_mode), 0)
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
			 q->e->o.bytes_max, path);
		return tell(q, TG_ENGINE_UNREADABLE, path, 1, buf);
	}
	if (rc == TG_ENOMEM)
		return q->failed = TG_ENOMEM;
	if (rc)
		return tell(q, TG_ENGINE_UNREADABLE, path, 1, err.msg);
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

/* The worker threads to start: threads less the caller's; by default
 * one per CPU the process may use (util/cpus: its affinity mask, as
 * taskset and container runtimes set it, within its cgroup's CPU quota)
 * but one (the calling thread runs jobs too while it waits, so that no
 * thread waits for a CPU), at least one. */
static size_t
workers(const struct tg_engine_opts *o)
{
	size_t ncpu;

	if (o->threads)
		return o->threads < TG_ENGINE_THREADS_MAX
			   ? o->threads - 1
			   : TG_ENGINE_THREADS_MAX - 1;
	ncpu = tg_cpus_usable();
	return ncpu < 2			       ? 1
	       : ncpu >= TG_ENGINE_THREADS_MAX ? TG_ENGINE_THREADS_MAX - 1
					       : ncpu - 1;
}

int
tg_engine_run(struct tg_engine *e, const char *const *paths, size_t n,
	      const struct tg_engine_sink *sink, struct tg_err *err)
{
	struct run *q;
	const char **ops;
	size_t k, nw = workers(&e->o);
	int rc;

	q = calloc(1, sizeof(*q));
	ops = calloc(n + 1, sizeof(*ops));
	if (q) {
		q->n = e->o.queue ? e->o.queue : QUEUE;
		q->ring = malloc(q->n * sizeof(*q->ring));
		q->work = malloc(q->n * sizeof(*q->work));
	}
	if (!q || !ops || !q->ring || !q->work) {
		if (q) {
			free(q->ring);
			free(q->work);
		}
		free(q);
		free(ops);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	memcpy(ops, paths, n * sizeof(*ops));
	/* the operands in the walk's order too, so that the outcomes are
	 * sorted by path whatever order they came in */
	qsort(ops, n, sizeof(*ops), cmp_path);
	q->e = e;
	q->sink = sink;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->queued, NULL);
	pthread_cond_init(&q->done, NULL);
	atomic_init(&q->main_waits, 0);
	atomic_init(&q->wnext, 0);
	atomic_init(&q->wtail, 0);
	atomic_init(&q->closing, 0);
	atomic_init(&q->sleepers, 0);
	for (k = 0; k <= TG_ENGINE_THREADS_MAX; k++)
		q->dc[k].fd = -1;
	for (k = 0; k < nw; k++) {
		q->wa[q->nth].q = q;
		q->wa[q->nth].id = q->nth + 1;
		if (pthread_create(&q->th[q->nth], NULL, worker,
				   &q->wa[q->nth]) == 0)
			q->nth++;
	}
	if (nw && !q->nth)
		q->failed = TG_ENOMEM;
	for (k = 0; k < n && !q->failed; k++)
		operand(q, ops[k]);
	drain(q); /* after a failure too: every job is freed */
	dircache_release(&q->dc[0]);
	pthread_mutex_lock(&q->mu);
	atomic_store(&q->closing, 1);
	pthread_cond_broadcast(&q->queued);
	pthread_mutex_unlock(&q->mu);
	for (k = 0; k < q->nth; k++)
		pthread_join(q->th[k], NULL);
	pthread_cond_destroy(&q->queued);
	pthread_cond_destroy(&q->done);
	pthread_mutex_destroy(&q->mu);
	rc = q->failed;
	if (rc && q->why[0])
		tg_err_set(err, rc, "%s", q->why);
	else if (rc == TG_ENOMEM)
		tg_err_set(err, TG_ENOMEM, "out of memory");
	free(q->ring);
	free(q->work);
	free(q);
	free(ops);
	return rc;
}
