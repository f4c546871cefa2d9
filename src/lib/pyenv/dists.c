/* dists.c - the distributions installed on a sys.path, from their
 * metadata
 * SPDX-License-Identifier: MIT
 *
 * Each sys.path entry is listed once (readdir, names sorted with strcmp
 * for a stable order); each *.dist-info or *.egg-info directory in it
 * (or *.egg-info file, which is a PKG-INFO of its own)
 * gives one record from METADATA (PKG-INFO for egg-info, whose
 * requirements are in requires.txt when PKG-INFO has none), read through
 * tg_meta_load (headers only, at most TG_META_HEAD_MAX bytes), plus the
 * top-level names from top_level.txt; a distribution without one gets
 * them from the first path components of its RECORD only when a caller
 * asks (tg_dists_record_tops; bounded reads of 16 MiB). Records are
 * then sorted by canonical name, the first on the path kept. Every
 * entry is listed first; the distributions are then read on threads
 * (one per 8, at most 16 and the usable CPUs), and their records and
 * warnings kept in listing order, so that the answer is the serial
 * one. Worst case: one directory listing per path entry and three
 * small files per distribution; nothing below a distribution's
 * directory is walked.
 */
#include "lib/pyenv/dists.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/pep/name.h"
#include "lib/pyenv/meta.h"
#include "lib/util/cpus.h"
#include "lib/util/fdtable.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/util/grow.h"

#define RECORD_MAX ((size_t)16 << 20)
#define TOP_MAX 4096

static int
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && strcasecmp(s + a - b, suf) == 0;
}

static int
ends_with_n(const char *s, size_t n, const char *suf)
{
	size_t b = strlen(suf);

	return n > b && memcmp(s + n - b, suf, b) == 0;
}

static void
dist_release(struct tg_dist *d)
{
	size_t k;

	free(d->name);
	free(d->canon);
	free(d->version);
	free(d->dir);
	free(d->metadata);
	free(d->requires_file);
	for (k = 0; !d->requires_block && k < d->nrequires; k++)
		free(d->requires[k]);
	free(d->requires);
	free(d->requires_block);
	for (k = 0; k < d->ntop; k++)
		free(d->top[k]);
	free(d->top);
	memset(d, 0, sizeof(*d));
}

/* The end of the line at text[i]: its '\n', or len (memchr: RECORDs
 * are read whole, a few MiB of them in a large environment, and a loop
 * per byte was 12.5 of env's 64 million instructions on pip's torch
 * 2.11 venv). */
static size_t
line_end(const char *text, size_t i, size_t len)
{
	const char *nl = memchr(text + i, '\n', len - i);

	return nl ? (size_t)(nl - text) : len;
}

/* The file name of d's directory, whole (at most RECORD_MAX bytes): 0
 * with *text (the caller's to free) and *len; 1 when it is absent or
 * cannot be read (taken as absent); TG_ENOMEM. */
static int
read_own(const struct tg_dist *d, const char *name, char **text, size_t *len)
{
	char *path = tg_path_join(d->dir, name);
	int absent = 0, rc;

	*text = NULL;
	*len = 0;
	if (!path)
		return TG_ENOMEM;
	rc = tg_file_read(path, RECORD_MAX, text, len, &absent, NULL);
	free(path);
	if (rc == TG_ENOMEM)
		return rc;
	if (rc || absent) {
		free(*text);
		*text = NULL;
		*len = 0;
		return 1;
	}
	return 0;
}

/* A list of top-level names (struct tg_dist's top, or RECORD's). */
struct names {
	char **v;
	size_t n, cap;
};

/* Add the name s[0..len) to l unless there already. A top-level name
 * is one path component: a longer one is cut to its first
 * ("tensorstore/_tensorstore", as Bazel-built wheels write
 * top_level.txt, is "tensorstore"), so that an absolute name or one
 * through ".." never leads out of the sys.path entry. */
static int
add_name(struct names *l, const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);
	size_t k;

	if (slash)
		len = (size_t)(slash - s);
	if (len == 0 || l->n >= TOP_MAX)
		return 0;
	if ((len == 2 && memcmp(s, "..", 2) == 0) ||
	    (len == 1 && s[0] == '.') || memchr(s, '\0', len))
		return 0;
	for (k = 0; k < l->n; k++)
		if (strlen(l->v[k]) == len && memcmp(l->v[k], s, len) == 0)
			return 0;
	if (TG_GROW(l->v, l->n + 1, l->cap))
		return TG_ENOMEM;
	l->v[l->n] = tg_str_ndup(s, len);
	if (!l->v[l->n])
		return TG_ENOMEM;
	l->n++;
	return 0;
}

/* top_level.txt (one name a line), when d has one. */
static int
load_top(struct tg_dist *d)
{
	struct names l = {NULL, 0, 0};
	char *text;
	size_t len, i, j;
	int rc = read_own(d, "top_level.txt", &text, &len);

	if (rc)
		return rc == TG_ENOMEM ? rc : 0;
	d->top_level = 1;
	for (i = 0; i < len && !rc; i = j + 1) {
		size_t e, s = i;

		j = line_end(text, i, len);
		e = j;
		while (e > s && (text[e - 1] == '\r' || text[e - 1] == ' '))
			e--;
		while (s < e && text[s] == ' ')
			s++;
		rc = add_name(&l, text + s, e - s);
	}
	free(text);
	d->top = l.v;
	d->ntop = l.n;
	d->captop = l.cap;
	return rc;
}

void
tg_dists_names_free(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

int
tg_dists_record_tops(const struct tg_dist *d, char ***out, size_t *n,
		     struct tg_err *err)
{
	struct names l = {NULL, 0, 0};
	char *text;
	size_t len, i, j, ds = 0, dn = 0; /* the last directory */
	int rc = read_own(d, "RECORD", &text, &len);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc == TG_ENOMEM
			   ? tg_err_set(err, TG_ENOMEM, "out of memory")
			   : 0;
	for (i = 0; i < len && !rc; i = j + 1) {
		/* path,hash,size: the first component of path, or a module
		 * file's name up to its first dot */
		size_t e, s = i, k, m;

		j = line_end(text, i, len);
		e = j;
		if (e > s && text[s] == '"')
			s++;
		/* under the directory of the line before (RECORD lists a
		 * package's files together): decided */
		if (dn && e - s > dn && text[s + dn] == '/' &&
		    memcmp(text + s, text + ds, dn) == 0)
			continue;
		for (k = s; k < e && text[k] != '/' && text[k] != ',' &&
			    text[k] != '"';
		     k++)
			;
		if (k < e && text[k] == '/') {
			e = k;
			ds = s;
			dn = k - s;
			if (ends_with_n(text + s, e - s, ".dist-info") ||
			    ends_with_n(text + s, e - s, ".egg-info") ||
			    ends_with_n(text + s, e - s, ".data"))
				continue;
		} else {
			if (ends_with_n(text + s, k - s, ".pth"))
				continue;
			for (m = s; m < k && text[m] != '.'; m++)
				;
			e = m;
		}
		if (e - s == 11 && memcmp(text + s, "__pycache__", 11) == 0)
			continue;
		rc = add_name(&l, text + s, e - s);
	}
	free(text);
	if (rc) {
		tg_dists_names_free(l.v, l.n);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	*out = l.v;
	*n = l.n;
	return 0;
}

static char *strf(const char *fmt, ...) TG_PRINTF(1, 2);

/* A new string, printf-style; NULL when out of memory. */
static char *
strf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Append one requirement (taken) to d. */
static int
add_req(struct tg_dist *d, char *r)
{
	if (!r)
		return TG_ENOMEM;
	if (TG_GROW(d->requires, d->nrequires + 1, d->caprequires)) {
		free(r);
		return TG_ENOMEM;
	}
	d->requires[d->nrequires++] = r;
	return 0;
}

/* An egg-info's requires.txt as Requires-Dist lines, the way
 * importlib.metadata converts it: a "[extra:marker]" section header
 * makes the lines under it "REQ; (marker) and extra == \"extra\"". */
static int
load_requires_txt(struct tg_dist *d)
{
	char *path, *text = NULL, *r;
	const char *sec = NULL, *colon;
	size_t len = 0, i, j, seclen = 0, s, e, xl, ml;
	int absent = 0, rc;

	path = tg_path_join(d->dir, "requires.txt");
	if (!path)
		return TG_ENOMEM;
	rc = tg_file_read(path, RECORD_MAX, &text, &len, &absent, NULL);
	if (rc == TG_ENOMEM || rc || absent) {
		free(path);
		free(text);
		return rc == TG_ENOMEM ? rc : 0;
	}
	free(d->requires_file);
	d->requires_file = path;
	for (i = 0; i < len && !rc; i = j + 1) {
		j = line_end(text, i, len);
		s = i;
		e = j;
		while (s < e && (text[s] == ' ' || text[s] == '\t'))
			s++;
		while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\t' ||
				 text[e - 1] == '\r'))
			e--;
		if (s == e || text[s] == '#')
			continue;
		if (text[s] == '[') {
			sec = text + s + 1;
			seclen = e - s - 1;
			if (seclen && sec[seclen - 1] == ']')
				seclen--;
			continue;
		}
		if (!sec || !seclen) {
			r = tg_str_ndup(text + s, e - s);
		} else {
			colon = memchr(sec, ':', seclen);
			xl = colon ? (size_t)(colon - sec) : seclen;
			ml = colon ? seclen - xl - 1 : 0;
			if (xl && ml)
				r = strf("%.*s; (%.*s) and extra == \"%.*s\"",
					 (int)(e - s), text + s, (int)ml,
					 colon + 1, (int)xl, sec);
			else if (ml)
				r = strf("%.*s; %.*s", (int)(e - s), text + s,
					 (int)ml, colon + 1);
			else
				r = strf("%.*s; extra == \"%.*s\"",
					 (int)(e - s), text + s, (int)xl, sec);
		}
		rc = add_req(d, r);
	}
	free(text);
	return rc;
}

/* One distribution from its directory dir. 0 and d filled; 1 when it
 * is left out, with why in *warn (the caller's to free; NULL when out
 * of memory); TG_ENOMEM. Touches nothing but d and *warn, so that
 * distributions load on threads. */
static int
load_one(struct tg_dist *d, const char *dir, int egg, char **warn)
{
	struct tg_meta m = TG_META_INIT;
	struct tg_err e = TG_ERR_INIT;
	const char *name, *version, *v;
	size_t pos, n = 0, size = 0;
	int rc, absent = 0;

	*warn = NULL;
	d->dir = tg_str_ndup(dir, strlen(dir));
	/* egg 2: an .egg-info file, the PKG-INFO itself */
	d->metadata = egg == 2 ? tg_str_ndup(dir, strlen(dir))
		      : egg    ? tg_path_join(dir, "PKG-INFO")
			       : tg_path_join(dir, "METADATA");
	if (!d->dir || !d->metadata)
		goto oom;
	rc = tg_meta_load(&m, d->metadata, &absent, &e);
	if (rc == TG_ENOMEM)
		goto oom;
	if (rc || absent) {
		if (absent)
			tg_err_set(&e, TG_EIO, "cannot read '%s': no such file",
				   d->metadata);
		*warn = strf("%s: the distribution is left out", e.msg);
		tg_meta_release(&m);
		return *warn ? 1 : TG_ENOMEM;
	}
	name = tg_meta_get(&m, "Name");
	version = tg_meta_get(&m, "Version");
	if (!name || !*name || !version || !*version) {
		*warn = strf("cannot read '%s': no %s header: the "
			     "distribution is left out",
			     d->metadata, !name || !*name ? "Name" : "Version");
		tg_meta_release(&m);
		return *warn ? 1 : TG_ENOMEM;
	}
	d->name = tg_str_ndup(name, strlen(name));
	d->version = tg_str_ndup(version, strlen(version));
	d->canon = tg_name_canonicalize(name);
	if (!d->name || !d->version || !d->canon)
		goto oom;
	/* the values (borrowed from m first), then copied into one block:
	 * a distribution has dozens */
	for (pos = 0; (v = tg_meta_next(&m, "Requires-Dist", &pos)); pos++) {
		if (n == d->caprequires &&
		    TG_GROW(d->requires, n + 1, d->caprequires))
			goto oom;
		d->requires[n++] = (char *)v;
		size += strlen(v) + 1;
	}
	if (n) {
		char *p = malloc(size);

		if (!p)
			goto oom;
		d->requires_block = p;
		for (pos = 0; pos < n; pos++) {
			size_t l = strlen(d->requires[pos]) + 1;

			memcpy(p, d->requires[pos], l);
			d->requires[pos] = p;
			p += l;
		}
		d->nrequires = n;
	}
	tg_meta_release(&m);
	d->requires_file = tg_str_ndup(d->metadata, strlen(d->metadata));
	if (!d->requires_file)
		return TG_ENOMEM;
	if (egg && !d->nrequires && load_requires_txt(d))
		return TG_ENOMEM;
	return load_top(d);
oom:
	tg_meta_release(&m);
	return TG_ENOMEM;
}

static int
cmp_dist(const void *a, const void *b)
{
	const struct tg_dist *x = a, *y = b;
	int c = strcmp(x->canon, y->canon);

	if (c)
		return c;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

/* An entry of a site directory: its path, and what readdir says it is
 * (DT_UNKNOWN and DT_LNK: ask stat). */
struct entry {
	char *path;
	unsigned char type;
};

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

/* Whether e is a directory (want_dir) or a regular file, links
 * followed: readdir's type answers without a stat for all but links
 * and file systems that do not say. */
static int
entry_is(const struct entry *e, int want_dir)
{
	if (e->type == DT_DIR)
		return want_dir;
	if (e->type == DT_REG)
		return !want_dir;
	if (e->type != DT_UNKNOWN && e->type != DT_LNK)
		return 0;
	return want_dir ? tg_path_is_dir(e->path) : tg_path_is_file(e->path);
}

/* Keep the first TG_DISTS_MAX of v[0..*cnt) in name order, counting
 * the rest into *dropped. */
static void
keep_first(struct entry *v, size_t *cnt, size_t *dropped)
{
	qsort(v, *cnt, sizeof(*v), cmp_entry);
	while (*cnt > TG_DISTS_MAX) {
		free(v[--*cnt].path);
		++*dropped;
	}
}

/* The *.dist-info and *.egg-info entries in dir, sorted: the first
 * TG_DISTS_MAX in name order (whatever the order readdir gives), with
 * how many more there were in *dropped. Memory stays under twice the
 * cap: past it the names are sorted and cut back to it. */
static int
list_dir(const char *dir, struct entry **out, size_t *n, size_t *dropped,
	 struct tg_err *err)
{
	DIR *dp;
	struct dirent *de;
	struct entry *v = NULL;
	size_t cnt = 0, cap = 0;

	*out = NULL;
	*n = 0;
	*dropped = 0;
	errno = 0;
	dp = opendir(dir);
	if (!dp) /* syspath keeps only directories; a race is none */
		return errno == ENOMEM
			   ? tg_err_set(err, TG_ENOMEM, "out of memory")
			   : 0;
	while ((de = readdir(dp))) {
		if (!ends_with(de->d_name, ".dist-info") &&
		    !ends_with(de->d_name, ".egg-info"))
			continue;
		if (cnt >= 2 * (size_t)TG_DISTS_MAX)
			keep_first(v, &cnt, dropped);
		if (TG_GROW(v, cnt + 1, cap))
			goto oom;
		v[cnt].path = tg_path_join(dir, de->d_name);
		v[cnt].type = de->d_type;
		if (!v[cnt].path)
			goto oom;
		cnt++;
	}
	closedir(dp);
	if (cnt)
		keep_first(v, &cnt, dropped);
	*out = v;
	*n = cnt;
	return 0;
oom:
	closedir(dp);
	while (cnt)
		free(v[--cnt].path);
	free(v);
	return tg_err_set(err, TG_ENOMEM, "out of memory");
}

/* One *.dist-info or *.egg-info entry to load (egg: 0 a dist-info, 1
 * an egg-info directory, 2 an egg-info file), and what loading it gave
 * (r: load_one's answer, warn its warning). */
struct job {
	char *path;
	int egg, r;
	char *warn;
	struct tg_dist d;
};

/* The jobs of all of sp's entries, in path order and each entry's in
 * name order, with how many entries each directory dropped (the
 * caller's to free, both). */
struct jobs {
	struct job *v;
	size_t n, cap;
	size_t *dropped; /* per sys.path entry */
	size_t *first;	 /* the entry's first job */
	atomic_size_t next;
	size_t to;
};

static int
list_jobs(struct jobs *js, const struct tg_syspath *sp, struct tg_err *err)
{
	struct entry *names;
	size_t i, k, n;
	int rc = 0;

	js->dropped = calloc(sp->n + 1, sizeof(*js->dropped));
	js->first = calloc(sp->n + 1, sizeof(*js->first));
	if (!js->dropped || !js->first)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (i = 0; i < sp->n && !rc; i++) {
		js->first[i] = js->n;
		rc = list_dir(sp->e[i].dir, &names, &n, &js->dropped[i], err);
		for (k = 0; k < n; k++) {
			int egg = ends_with(names[k].path, ".egg-info");
			int file = egg && entry_is(&names[k], 0);
			struct job *j;

			if (rc || (!file && !entry_is(&names[k], 1))) {
				free(names[k].path);
				continue;
			}
			if (TG_GROW(js->v, js->n + 1, js->cap)) {
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
				free(names[k].path);
				continue;
			}
			j = &js->v[js->n++];
			memset(j, 0, sizeof(*j));
			j->path = names[k].path;
			j->egg = egg + file;
			j->d.entry = i;
		}
		free(names);
	}
	for (; i <= sp->n; i++)
		js->first[i] = js->n;
	return rc;
}

/* The warning that sys.path entry i dropped entries past the cap. */
static int
dropped_warning(struct tg_dists *ds, const struct tg_syspath *sp, size_t i,
		size_t dropped, struct tg_err *err)
{
	if (dropped &&
	    tg_diag_add(&ds->problems, TG_SEV_WARNING, 0, sp->e[i].dir, 0, 0,
			"dists-limit", NULL,
			"'%s' holds more than %d *.dist-info and *.egg-info "
			"entries: the %zu after the first %d in name order "
			"are not read",
			sp->e[i].dir, TG_DISTS_MAX, dropped, TG_DISTS_MAX))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	return 0;
}

/* Load jobs from js->next up to js->to; on threads, each its own. */
static void *
load_jobs(void *arg)
{
	struct jobs *js = arg;
	size_t k;

	while ((k = atomic_fetch_add(&js->next, 1)) < js->to) {
		struct job *j = &js->v[k];

		j->r = load_one(&j->d, j->path, j->egg, &j->warn);
	}
	return NULL;
}

/* load_jobs on a thread of its own, whose files are its own */
static void *
load_thread(void *arg)
{
	tg_fdtable_own();
	return load_jobs(arg);
}

/* Load js->v[from..to): on up to one thread per LOAD_PER_THREAD jobs
 * (at most LOAD_THREADS_MAX, and the usable CPUs) while this one waits,
 * then here whatever no thread took (all of it when no thread could
 * start). This thread waits rather than loads beside them: on a 2-CPU
 * virtual machine, this thread and one more loaded the 197
 * distributions of bench/env.sh's venv in a median 6.1 ms, slower than
 * this thread alone (5.6 ms), and two new threads in 4.4 ms. */
#define LOAD_PER_THREAD 8
#define LOAD_THREADS_MAX 16

static void
load_range(struct jobs *js, size_t from, size_t to)
{
	pthread_t th[LOAD_THREADS_MAX];
	size_t want = (to - from + LOAD_PER_THREAD - 1) / LOAD_PER_THREAD,
	       cpus = want > 1 ? tg_cpus_usable() : 1, t, started = 0;

	if (want > cpus)
		want = cpus;
	if (want > LOAD_THREADS_MAX)
		want = LOAD_THREADS_MAX;
	atomic_store(&js->next, from);
	js->to = to;
	for (t = 0; want > 1 && t < want; t++)
		if (pthread_create(&th[started], NULL, load_thread, js) == 0)
			started++;
	for (t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	load_jobs(js);
}

int
tg_dists_load(struct tg_dists *ds, const struct tg_syspath *sp,
	      struct tg_err *err)
{
	struct jobs js = {0};
	size_t i, j, k, e, done, over = 0;
	int rc = list_jobs(&js, sp, err);

	/* in batches no larger than what TG_DISTS_MAX leaves, so that no
	 * entry past the cap is read; kept in listing order, warnings
	 * too */
	for (done = 0, e = 0; !rc && done < js.n;) {
		size_t to = done + (TG_DISTS_MAX - ds->n);

		if (ds->n >= TG_DISTS_MAX) {
			over = js.n - done;
			break;
		}
		if (to > js.n)
			to = js.n;
		if (TG_GROW(ds->v, ds->n + (to - done), ds->cap)) {
			rc = tg_err_set(err, TG_ENOMEM, "out of memory");
			break;
		}
		load_range(&js, done, to);
		for (k = done; k < to; k++) {
			struct job *jb = &js.v[k];

			for (; !rc && e < sp->n && js.first[e] <= k; e++)
				rc = dropped_warning(ds, sp, e, js.dropped[e],
						     err);
			if (rc)
				continue;
			if (jb->r == 0) {
				ds->v[ds->n++] = jb->d;
				memset(&jb->d, 0, sizeof(jb->d));
			} else if (jb->r == 1) {
				if (tg_diag_add(&ds->problems, TG_SEV_WARNING,
						0, jb->d.metadata, 0, 0,
						"dist-metadata", NULL, "%s",
						jb->warn))
					rc = tg_err_set(err, TG_ENOMEM,
							"out of memory");
			} else {
				rc =
				    tg_err_set(err, TG_ENOMEM, "out of memory");
			}
		}
		done = to;
	}
	for (; !rc && e < sp->n; e++)
		rc = dropped_warning(ds, sp, e, js.dropped[e], err);
	for (k = 0; k < js.n; k++) {
		free(js.v[k].path);
		free(js.v[k].warn);
		dist_release(&js.v[k].d);
	}
	free(js.v);
	free(js.dropped);
	free(js.first);
	if (!rc && over &&
	    tg_diag_add(&ds->problems, TG_SEV_WARNING, 0, NULL, 0, 0,
			"dists-limit", NULL,
			"more than %d distributions on the path: the %zu "
			"after the first %d in path order are not read",
			TG_DISTS_MAX, over, TG_DISTS_MAX))
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc)
		return rc;
	if (ds->n)
		qsort(ds->v, ds->n, sizeof(*ds->v), cmp_dist);
	/* the first on the path wins */
	for (i = j = 0; i < ds->n; i++) {
		if (j && strcmp(ds->v[j - 1].canon, ds->v[i].canon) == 0) {
			dist_release(&ds->v[i]);
			continue;
		}
		if (i != j)
			ds->v[j] = ds->v[i];
		j++;
	}
	ds->n = j;
	return 0;
}

void
tg_dists_release(struct tg_dists *ds)
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		dist_release(&ds->v[i]);
	free(ds->v);
	tg_diag_list_release(&ds->problems);
	memset(ds, 0, sizeof(*ds));
}

const struct tg_dist *
tg_dists_find(const struct tg_dists *ds, const char *canon)
{
	size_t lo = 0, hi = ds->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ds->v[mid].canon, canon);

		if (c == 0)
			return &ds->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Whether s[0..n) holds needle[0..nl): memchr finds each candidate
 * start, which for the short names of a RECORD is cheaper than
 * memmem's set-up (memmem cost 17 of the 53 million instructions of
 * env on a venv of 35 RECORDs of 867 lines). */
static int
has_n(const char *s, size_t n, const char *needle, size_t nl)
{
	const char *p = s, *end = s + n;

	while (nl <= (size_t)(end - p) &&
	       (p = memchr(p, needle[0], (size_t)(end - p) - nl + 1))) {
		if (memcmp(p, needle, nl) == 0)
			return 1;
		p++;
	}
	return 0;
}

static int
object_name(const char *s, size_t n)
{
	const char *base = memrchr(s, '/', n);
	size_t bn;

	base = base ? base + 1 : s;
	bn = (size_t)(s + n - base);
	if (ends_with_n(base, bn, ".so") || has_n(base, bn, ".so.", 4))
		return 1;
	return ends_with_n(base, bn, ".py") && has_n(base, bn, "torch", 5);
}

int
tg_dists_record_objects(const struct tg_dist *d, char ***out, size_t *n,
			int *absent, int *cut, struct tg_err *err)
{
	char *text, **v = NULL;
	size_t len, i, j, cnt = 0, cap = 0;
	int rc = read_own(d, "RECORD", &text, &len);

	*out = NULL;
	*n = 0;
	*absent = rc == 1;
	if (cut)
		*cut = 0;
	if (rc)
		return rc == TG_ENOMEM
			   ? tg_err_set(err, TG_ENOMEM, "out of memory")
			   : 0;
	/* a line, its path up to the first ',' or '"', and the rare object
	 * names first: memchr over the text, not a loop per byte */
	for (i = 0; i < len; i = j + 1) {
		const char *nl = memchr(text + i, '\n', len - i), *p;
		size_t s = i, e;

		j = nl ? (size_t)(nl - text) : len;
		if (s < j && text[s] == '"')
			s++;
		p = memchr(text + s, ',', j - s);
		e = p ? (size_t)(p - text) : j;
		p = memchr(text + s, '"', e - s);
		if (p)
			e = (size_t)(p - text);
		if (e == s || !object_name(text + s, e - s) || text[s] == '/' ||
		    has_n(text + s, e - s, "..", 2) ||
		    memchr(text + s, '\0', e - s))
			continue;
		if (cnt >= TG_DISTS_MAX) {
			if (cut)
				*cut = 1;
			break;
		}
		if (TG_GROW(v, cnt + 1, cap))
			goto oom;
		v[cnt] = tg_str_ndup(text + s, e - s);
		if (!v[cnt])
			goto oom;
		cnt++;
	}
	free(text);
	*out = v;
	*n = cnt;
	return 0;
oom:
	while (cnt)
		free(v[--cnt]);
	free(v);
	free(text);
	return tg_err_set(err, TG_ENOMEM, "out of memory");
}

int
tg_dists_record_lists(const struct tg_dist *d, const char *name, int *yes,
		      struct tg_err *err)
{
	char *text;
	size_t len, i, j, nl = strlen(name);
	int rc = read_own(d, "RECORD", &text, &len);

	*yes = 0;
	if (rc == TG_ENOMEM)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	for (i = 0; i < len && !*yes; i = j + 1) {
		size_t s = i, e;

		j = line_end(text, i, len);
		if (s < j && text[s] == '"')
			s++;
		for (e = s; e < j && text[e] != ',' && text[e] != '"'; e++)
			;
		*yes = e - s == nl && memcmp(text + s, name, nl) == 0;
	}
	free(text);
	return 0;
}
