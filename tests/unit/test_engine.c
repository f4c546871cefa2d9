/* test_engine.c - unit tests for lib/audit/engine: a tree audited through
 * the library's API, without the command line
 * SPDX-License-Identifier: MIT
 *
 * A temporary tree of Python and C++ files (with one the walk never
 * enters, one undecodable, one with a suppression, a dangling link) is
 * audited with the built-in table for torch 2.11; each outcome is
 * written as one line "WHAT PATH [LANG] FINDINGS | NOTES" and the lines
 * compared with what they must be, for 1, 2, 4 and the default number of
 * threads (the same lines in the same order each time), with the
 * operands given in another order, and for 5,000 files (more than the
 * engine's ring of jobs holds). Then: the results left as the
 * analyzers give them (no torch), --exclude, a sink that stops the run,
 * operands that cannot be read, the sink's bytes hook, and
 * tg_engine_buffer.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/audit/engine.h"
#include "lib/audit/lang.h"
#include "lib/util/buf.h"

static const char *const what_names[] = {"analyzed", "too-large", "undecodable",
					 "unreadable", "skipped"};

struct seen {
	struct tg_buf out;
	const struct tg_engine *e;
	size_t calls, stop_at; /* stop_at: return TG_EINVAL at that call */
};

static int
on_file(void *ctx, struct tg_engine_file *f)
{
	struct seen *s = ctx;
	size_t k;

	if (++s->calls == s->stop_at)
		return TG_EINVAL;
	tg_buf_addf(&s->out, "%s %s%s", what_names[f->what], f->path,
		    f->operand ? " (operand)" : "");
	if (f->lang)
		tg_buf_addf(&s->out, " [%s]", f->lang->name);
	if (f->what == TG_ENGINE_UNDECODABLE)
		tg_buf_addf(&s->out, " %s %zu:%zu", f->why, f->line, f->col);
	if (f->msg)
		tg_buf_addf(&s->out, " '%s'", f->msg);
	for (k = 0; k < f->r.nfindings; k++) {
		const struct tg_audit_finding *x = &f->r.findings[k];

		tg_buf_addf(&s->out, " %zu:%zu %s", x->line, x->column,
			    x->api->id);
		if (s->e)
			tg_buf_addf(&s->out, "%s",
				    tg_engine_fails(s->e, x) ? "!" : "");
	}
	for (k = 0; k < f->notes.n; k++)
		tg_buf_addf(&s->out, " | %s:%zu %s", f->notes.v[k].path,
			    f->notes.v[k].line, f->notes.v[k].rule);
	tg_buf_addc(&s->out, '\n');
	return 0;
}

static void
mk(const char *path, const char *text, size_t len)
{
	char dir[512];
	char *slash;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	fp = fopen(path, "wb");
	CHECK(fp != NULL, "cannot write '%s'", path);
	if (fp) {
		fwrite(text, 1, len, fp);
		fclose(fp);
	}
}

#define MK(path, lit) mk(path, lit, sizeof(lit) - 1)

/* Audit paths with o (threads as given) into a fresh string. */
static char *
audit(const struct tg_engine_opts *o, const char *const *paths, size_t n,
      size_t stop_at, int *rc)
{
	struct tg_engine *e = NULL;
	struct tg_err err = TG_ERR_INIT;
	struct seen s = {TG_BUF_INIT, NULL, 0, 0};
	struct tg_engine_sink sink = {on_file, NULL, NULL, NULL, &s};
	char *out;

	*rc = tg_engine_new(&e, o, &err);
	CHECK(*rc == 0, "tg_engine_new: %s", err.msg);
	if (*rc)
		return strdup("");
	s.e = o->torch ? e : NULL;
	s.stop_at = stop_at;
	*rc = tg_engine_run(e, paths, n, &sink, &err);
	tg_engine_free(e);
	CHECK(!tg_buf_error(&s.out), "out of memory");
	out = strdup(s.out.data ? s.out.data : "");
	tg_buf_release(&s.out);
	return out;
}

/* The sink's bytes hook: what it is given, checked against the file,
 * and an extra made of it that the file callback takes or leaves. */
struct hooked {
	size_t bytes_calls, taken, freed, bad;
	int fail; /* the hook's return for y.py's neighbour z.cu */
	/* the run's threads, and which thread numbers are in the hook now:
	 * each below threads, none in it twice at once */
	size_t threads;
	int busy[TG_ENGINE_THREADS_MAX];
};

static int
on_bytes(void *ctx, size_t thread, struct tg_engine_file *f, const char *src,
	 size_t len)
{
	struct hooked *h = ctx;
	char file[256], *extra;
	size_t n = 0;
	FILE *fp;
	int rc = 0;

	__atomic_add_fetch(&h->bytes_calls, 1, __ATOMIC_SEQ_CST);
	if (thread >= h->threads ||
	    __atomic_exchange_n(&h->busy[thread], 1, __ATOMIC_SEQ_CST)) {
		__atomic_add_fetch(&h->bad, 1, __ATOMIC_SEQ_CST);
		return 0;
	}
	fp = fopen(f->path, "rb");
	if (fp) {
		n = fread(file, 1, sizeof(file), fp);
		fclose(fp);
	}
	/* the file's own bytes, once it is analyzed and judged */
	if (f->what != TG_ENGINE_ANALYZED || !fp || n != len ||
	    memcmp(src, file, n) != 0)
		__atomic_add_fetch(&h->bad, 1, __ATOMIC_SEQ_CST);
	if (h->fail && strstr(f->path, "z.cu"))
		rc = h->fail;
	else if (!(extra = malloc(64)))
		rc = TG_ENOMEM;
	else {
		snprintf(extra, 64, "%zu %zu", len, f->r.nfindings);
		f->extra = extra;
	}
	__atomic_store_n(&h->busy[thread], 0, __ATOMIC_SEQ_CST);
	return rc;
}

static int
on_hooked(void *ctx, struct tg_engine_file *f)
{
	struct hooked *h = ctx;

	/* only x.py's is taken: the others are the engine's to free */
	if (f->extra && strstr(f->path, "x.py")) {
		CHECK_STR((char *)f->extra, "41 1", "x.py's extra");
		free(f->extra);
		f->extra = NULL;
		h->taken++;
	}
	CHECK(f->what == TG_ENGINE_ANALYZED || !f->extra,
	      "an extra on an outcome not analyzed: %s", f->path);
	return 0;
}

static void
free_extra(void *ctx, void *extra)
{
	struct hooked *h = ctx;

	h->freed++;
	free(extra);
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static const char want_judged[] =
    "analyzed t/a/x.py [python] 2:1 torch.cuda.amp.GradScaler!\n"
    "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
    "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n"
    "analyzed t/a-b/s.py [python] | t/a-b/s.py:2 unused-suppression\n"
    "skipped t/gone.py 'a dangling symbolic link to 'nowhere.py''\n"
    "analyzed t/plain.h [c++]\n"
    "undecodable t/zero.c [c++] a NUL byte 2:2\n";

/* the same less the dangling link, not among the operands */
static const char want_swapped[] =
    "analyzed t/a/x.py [python] 2:1 torch.cuda.amp.GradScaler!\n"
    "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
    "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n"
    "analyzed t/a-b/s.py [python] | t/a-b/s.py:2 unused-suppression\n"
    "analyzed t/plain.h [c++]\n"
    "undecodable t/zero.c [c++] a NUL byte 2:2\n";

int
main(void)
{
	char dir[] = "/tmp/tg-test-engine-XXXXXX";
	struct tg_table t;
	struct tg_version v = TG_VERSION_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_engine_opts o;
	struct tg_engine *e = NULL;
	const char *paths[] = {"t"};
	const char *swapped[] = {"t/plain.h", "t/a", "t/a-b/s.py", "t/zero.c"};
	const char *bad[] = {"missing", "t/notes.txt"};
	const char *excludes[] = {"a", "*.h"};
	size_t threads[] = {1, 2, 4, 0, 64}, k;
	char *got;
	int rc;

	if (!mkdtemp(dir) || chdir(dir)) {
		CHECK(0, "mkdtemp");
		return check_result("test_engine");
	}
	CHECK(tg_table_default(&t, &err) == 0, "table: %s", err.msg);
	CHECK(tg_version_parse(&v, "2.11", 4, &err) == 0, "2.11: %s", err.msg);

	MK("t/a/x.py", "import torch\ntorch.cuda.amp.GradScaler()\n");
	MK("t/a/y.py", "x = '\xff'\n");
	MK("t/a/z.cu", "AT_CHECK(x, \"y\");\n");
	/* a/x before a-b/x: the walk's order, '/' first */
	MK("t/a-b/s.py", "import torch\nx = 1  # torchgate: ignore[THC]\n");
	/* C and C++ take any byte but NUL, the first NUL after invalid
	 * UTF-8 */
	mk("t/zero.c", "int \xff;\nx\0\n", 9);
	MK("t/plain.h", "int f(void);\n");
	MK("t/notes.txt", "AT_CHECK\n");
	MK("t/.git/hook.py", "import torch.cuda.amp\n");
	MK("t/env/pyvenv.cfg", "home = /usr/bin\n");
	MK("t/env/lib/site.py", "import torch.cuda.amp\n");
	MK("t/build/gen.h", "AT_CHECK(1);\n");
	CHECK(symlink("nowhere.py", "t/gone.py") == 0, "symlink: %s",
	      strerror(errno));

	memset(&o, 0, sizeof(o));
	o.table = &t;
	o.torch = &v;
	o.min = TG_AUDIT_RANK_PRIVATE;

	/* the same outcomes in the same order for any number of threads */
	for (k = 0; k < sizeof(threads) / sizeof(threads[0]); k++) {
		o.threads = threads[k];
		got = audit(&o, paths, 1, 0, &rc);
		CHECK(rc == 0, "threads %zu: rc %d", threads[k], rc);
		CHECK_STR(got, want_judged, "judged tree");
		free(got);
	}
	/* more files than the engine's ring holds (64 jobs): it wraps,
	 * and the outcomes still come in walk order for any number of
	 * threads; a dangling link beside every other file makes a note
	 * of the walk, queued done, that the calling thread may hand over
	 * before any worker has reached it in the queue */
	{
		struct tg_buf want = TG_BUF_INIT;
		const char *many[] = {"w"};
		char path[64];
		size_t n;

		for (n = 0; n < 5000; n++) {
			snprintf(path, sizeof(path), "w/d%02zu/f%04zu.py",
				 n / 100, n % 100);
			MK(path, "import torch\ntorch.cuda.amp.GradScaler()\n");
			tg_buf_addf(&want,
				    "analyzed %s [python] 2:1 "
				    "torch.cuda.amp.GradScaler!\n",
				    path);
			if (n % 2)
				continue;
			/* w/dNN/fNNNNz.py sorts right after fNNNN.py */
			snprintf(path, sizeof(path), "w/d%02zu/f%04zuz.py",
				 n / 100, n % 100);
			CHECK(symlink("nowhere.py", path) == 0, "symlink: %s",
			      strerror(errno));
			tg_buf_addf(&want,
				    "skipped %s 'a dangling symbolic link to "
				    "'nowhere.py''\n",
				    path);
		}
		CHECK(!tg_buf_error(&want), "out of memory");
		for (k = 0; k < 6; k++) {
			o.threads = threads[k % 3];
			o.queue = k < 3 ? 64 : 0;
			got = audit(&o, many, 1, 0, &rc);
			CHECK(rc == 0,
			      "5,000 files, threads %zu, queue %zu: rc %d",
			      o.threads, o.queue, rc);
			CHECK(
			    want.data && strcmp(got, want.data) == 0,
			    "5,000 files in walk order, threads %zu, queue %zu",
			    o.threads, o.queue);
			free(got);
		}
		o.queue = 0;
		tg_buf_release(&want);
	}
	/* the operands sorted as the walk sorts names, whatever their
	 * order */
	o.threads = 2;
	got = audit(&o, swapped, 4, 0, &rc);
	CHECK(rc == 0, "swapped: rc %d", rc);
	CHECK_STR(got, want_swapped, "operands in another order");
	free(got);

	/* excluded by name (a directory, a glob) */
	o.excludes = excludes;
	o.nexcludes = 2;
	got = audit(&o, paths, 1, 0, &rc);
	CHECK_STR(got,
		  "analyzed t/a-b/s.py [python] | t/a-b/s.py:2 "
		  "unused-suppression\n"
		  "skipped t/gone.py 'a dangling symbolic link to "
		  "'nowhere.py''\n"
		  "undecodable t/zero.c [c++] a NUL byte 2:2\n",
		  "excludes");
	free(got);
	o.excludes = NULL;
	o.nexcludes = 0;

	/* what cannot be read, and what no language claims, are outcomes
	 * about the operand, not errors */
	got = audit(&o, bad, 2, 0, &rc);
	CHECK(rc == 0, "bad operands: rc %d", rc);
	CHECK_STR(got,
		  "unreadable missing (operand) 'cannot read 'missing': No "
		  "such file or directory'\n"
		  "skipped t/notes.txt (operand) 'not a Python, C, C++ or "
		  "CUDA file by its name'\n",
		  "bad operands");
	free(got);

	/* a sink's error stops the run and is what it returns */
	got = audit(&o, paths, 1, 3, &rc);
	CHECK(rc == TG_EINVAL, "stopped: rc %d", rc);
	CHECK_STR(got,
		  "analyzed t/a/x.py [python] 2:1 torch.cuda.amp.GradScaler!\n"
		  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n",
		  "stopped at the third outcome");
	free(got);

	/* too large: x.py has 41 bytes */
	o.file_max = 20;
	got = audit(&o, swapped, 2, 0, &rc);
	CHECK_STR(got,
		  "too-large t/a/x.py [python]\n"
		  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
		  "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n"
		  "analyzed t/plain.h [c++]\n",
		  "file_max");
	free(got);

	/* the operand's byte bound counts what was read: x.py, too large,
	 * none (41 bytes would be past 30 at once); y.py 9 and z.cu 18 */
	o.bytes_max = 30;
	got = audit(&o, swapped + 1, 1, 0, &rc);
	CHECK(rc == 0, "bytes_max 30: rc %d", rc);
	CHECK_STR(got,
		  "too-large t/a/x.py [python]\n"
		  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
		  "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n",
		  "bytes_max 30");
	free(got);
	/* 9 + 18 is past 20: the walk stops at z.cu */
	o.bytes_max = 20;
	got = audit(&o, swapped + 1, 1, 0, &rc);
	CHECK_STR(got,
		  "too-large t/a/x.py [python]\n"
		  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
		  "skipped t/a/z.cu 'more than 20 bytes'\n"
		  "unreadable t/a (operand) 'more than 20 bytes of files "
		  "under 't/a''\n",
		  "bytes_max 20");
	free(got);
	/* a note of the walk waits in the queue for the files before it:
	 * kept when the bound is crossed after it (at plain.h: 41 + 9 + 18
	 * + 46 + 13 is past 120), dropped when before (at s.py: past 100) */
	o.file_max = 0;
	for (k = 0; k < 2; k++) {
		o.threads = k ? 4 : 1;
		o.bytes_max = 120;
		got = audit(&o, paths, 1, 0, &rc);
		CHECK_STR(got,
			  "analyzed t/a/x.py [python] 2:1 "
			  "torch.cuda.amp.GradScaler!\n"
			  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
			  "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n"
			  "analyzed t/a-b/s.py [python] | t/a-b/s.py:2 "
			  "unused-suppression\n"
			  "skipped t/gone.py 'a dangling symbolic link to "
			  "'nowhere.py''\n"
			  "skipped t/plain.h 'more than 120 bytes'\n"
			  "unreadable t (operand) 'more than 120 bytes of "
			  "files under 't''\n",
			  "bytes_max 120, a note before the bound");
		free(got);
		o.bytes_max = 100;
		got = audit(&o, paths, 1, 0, &rc);
		CHECK_STR(got,
			  "analyzed t/a/x.py [python] 2:1 "
			  "torch.cuda.amp.GradScaler!\n"
			  "undecodable t/a/y.py [python] invalid UTF-8 1:6\n"
			  "analyzed t/a/z.cu [c++] 1:1 AT_CHECK!\n"
			  "skipped t/a-b/s.py 'more than 100 bytes'\n"
			  "unreadable t (operand) 'more than 100 bytes of "
			  "files under 't''\n",
			  "bytes_max 100, a note past the bound");
		free(got);
	}
	o.threads = 2;
	o.bytes_max = 0;
	o.file_max = 0;

	/* without a torch, the analyzers' results as they are: the
	 * suppression is kept, no note made */
	o.torch = NULL;
	got = audit(&o, swapped + 2, 1, 0, &rc);
	CHECK_STR(got, "analyzed t/a-b/s.py [python]\n", "raw");
	free(got);
	o.torch = &v;

	/* the bytes hook: called on the analyzed files only (x.py, z.cu,
	 * s.py and plain.h; not the undecodable ones), with their bytes;
	 * the extras not taken freed; its error stops the run */
	for (k = 0; k < 3; k++) {
		struct hooked h = {0, 0, 0, 0, 0, threads[k], {0}};
		struct tg_engine_sink hs = {on_hooked, NULL, on_bytes,
					    free_extra, &h};

		o.threads = threads[k];
		CHECK(tg_engine_new(&e, &o, &err) == 0, "new: %s", err.msg);
		rc = e ? tg_engine_run(e, paths, 1, &hs, &err) : -1;
		CHECK(rc == 0 && h.bytes_calls == 4 && h.bad == 0 &&
			  h.taken == 1 && h.freed == 3,
		      "bytes hook, threads %zu: rc %d, %zu calls, %zu bad, "
		      "%zu taken, %zu freed",
		      threads[k], rc, h.bytes_calls, h.bad, h.taken, h.freed);
		h.fail = TG_ENOMEM;
		h.bytes_calls = h.taken = h.freed = 0;
		rc = e ? tg_engine_run(e, paths, 1, &hs, &err) : -1;
		/* each extra made is taken or freed, none twice: the hook
		 * made one on each call but z.cu's */
		CHECK(rc == TG_ENOMEM && h.bytes_calls >= 2 &&
			  h.freed + h.taken == h.bytes_calls - 1,
		      "a failing bytes hook, threads %zu: rc %d", threads[k],
		      rc);
		tg_engine_free(e);
		e = NULL;
	}
	o.threads = 0;

	/* one buffer as a language: what audit --fix re-reads */
	CHECK(tg_engine_new(&e, &o, &err) == 0, "new: %s", err.msg);
	if (e) {
		static const char py[] =
		    "from torch.cuda.amp import autocast\n";
		struct tg_engine_file f = TG_ENGINE_FILE_INIT;

		rc = tg_engine_buffer(e, tg_lang_find("python"), py,
				      sizeof(py) - 1, "mem.py", &f, &err);
		CHECK(rc == 0 && f.what == TG_ENGINE_ANALYZED &&
			  f.r.nfindings == 1 &&
			  strcmp(f.r.findings[0].api->id,
				 "torch.cuda.amp.autocast") == 0 &&
			  tg_engine_rank(e, f.r.findings[0].api) ==
			      TG_AUDIT_RANK_DEPRECATED,
		      "buffer: rc %d, %zu findings", rc, f.r.nfindings);
		CHECK_STR(f.path, "mem.py", "buffer path");
		tg_engine_file_release(&f);
		rc = tg_engine_buffer(e, tg_lang_of_name("k.cuh"), "a\0b", 3,
				      "mem.cuh", &f, &err);
		CHECK(rc == 0 && f.what == TG_ENGINE_UNDECODABLE &&
			  f.line == 1 && f.col == 2,
		      "buffer with a NUL: %d %zu:%zu", f.what, f.line, f.col);
		tg_engine_file_release(&f);
		tg_engine_free(e);
	}

	/* the registry */
	CHECK(tg_lang_of_name("x.pyi") == &tg_lang_py, "pyi");
	CHECK(tg_lang_of_name("x.cxx") == &tg_lang_cxx, "cxx");
	CHECK(tg_lang_of_name(".py") == NULL, "a dot file");
	CHECK(tg_lang_of_name("x.pyc") == NULL, "pyc");
	CHECK(tg_lang_at(tg_lang_index(&tg_lang_cxx)) == &tg_lang_cxx, "index");
	CHECK(tg_lang_at(tg_lang_count()) == NULL, "past the end");
	CHECK(tg_lang_of_id(TG_LANG_PYTHON) == &tg_lang_py, "python's row");
	CHECK(tg_lang_of_id(TG_LANG_CXX) == &tg_lang_cxx, "c++'s row");
	for (k = 0; k < tg_lang_count(); k++)
		CHECK(tg_lang_of_id(tg_lang_at(k)->id) == tg_lang_at(k) &&
			  tg_lang_find(tg_lang_at(k)->name) == tg_lang_at(k),
		      "row %zu names its language", k);
	/* the loader's "language", as the registry names it */
	CHECK(tg_table_find(&t, "AT_CHECK") &&
		  tg_table_find(&t, "AT_CHECK")->lang == TG_LANG_CXX,
	      "AT_CHECK is c++");
	CHECK(tg_table_find(&t, "torch.GradScaler") &&
		  tg_table_find(&t, "torch.GradScaler")->lang == TG_LANG_PYTHON,
	      "torch.GradScaler is python");

	tg_version_release(&v);
	tg_table_release(&t);
	CHECK(chdir("/") == 0 &&
		  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) == 0,
	      "cannot remove '%s'", dir);
	return check_result("test_engine");
}
