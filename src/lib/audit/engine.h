/* engine.h - the audit engine: a package's source files walked, read,
 * analyzed on worker threads and judged, handed back in walk order
 * SPDX-License-Identifier: MIT
 *
 * What audit and require (and audit --fix) run, and what a program
 * linking the library calls to audit a tree without the command line:
 *
 *     struct tg_engine_opts o = {.table = &t, .torch = &v};
 *     struct tg_engine_sink s = {.file = on_file, .ctx = &mine};
 *     tg_engine_new(&e, &o, &err);
 *     tg_engine_run(e, paths, n, &s, &err);
 *     tg_engine_free(e);
 *
 * Each operand is walked (util/walk: inside its root, bounded; the
 * directories audit/sources never enters and the files no language of
 * audit/lang claims left out, and the caller's excludes), each file read
 * (at most file_max bytes), checked for the bytes its language accepts,
 * analyzed by its language's analyzer and, with a torch to judge, judged
 * (audit/judge: findings that matter, unsuppressed, sorted; dead
 * branches; unused suppressions). The outcomes come to sink->file on
 * the calling thread in the order of the operands (sorted as the walk
 * sorts names: byte by byte, '/' first), then of the walk, whatever the
 * number of threads, so what the caller makes of them is deterministic.
 * The engine never prints; a file it cannot read or decode is an
 * outcome, not an error.
 */
#ifndef TG_LIB_AUDIT_ENGINE_H
#define TG_LIB_AUDIT_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/pep/version.h"
#include "lib/table/table.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

/* The default for file_max: larger files are TG_ENGINE_TOO_LARGE. */
#define TG_ENGINE_FILE_MAX ((size_t)8 * 1024 * 1024)
/* At most this many threads analyze at once (threads, and the default
 * one per CPU the process may run on, are cut to it). On 16 CPUs, four
 * copies of pip's torch 2.11 tree: 349 ms with 9, 305 ms with 17; one
 * copy 104 and 102 ms (audit scales little past 12). */
#define TG_ENGINE_THREADS_MAX 17

struct tg_engine_opts {
	const struct tg_table *table; /* required */
	/* The torch to judge the findings for. NULL: the results are the
	 * analyzers' as they are (require judges them itself). */
	const struct tg_version *torch;
	int all;		/* version-bound entries count too */
	enum tg_audit_rank min; /* tg_engine_fails from this rank up */
	/* Dead branches: those no torch at or above floor runs; NULL:
	 * none. */
	const struct tg_version *floor;
	/* fnmatch patterns: files and directories whose name, or path under
	 * the operand, one matches are left out */
	const char *const *excludes;
	size_t nexcludes;
	size_t file_max; /* 0: TG_ENGINE_FILE_MAX */
	/* the bytes read from the files one operand's walk hands over (a
	 * file not read, too large or unreadable, counts none); past it
	 * the walk stops. 0: TG_WALK_BYTES_DEFAULT */
	uint64_t bytes_max;
	/* threads that analyze, the caller's included: 0 one per CPU the
	 * process may use (util/cpus; at least 2); 1 only the caller's (no
	 * thread is started) */
	size_t threads;
	/* the jobs queued at most, done or not, ahead of the one the
	 * sink waits for: 0 the engine's (16,384); tests make it small,
	 * so that the ring wraps */
	size_t queue;
};

enum tg_engine_what {
	TG_ENGINE_ANALYZED,    /* r (and notes) hold what was found */
	TG_ENGINE_TOO_LARGE,   /* over file_max: skipped */
	TG_ENGINE_UNDECODABLE, /* why, at line and col: skipped */
	TG_ENGINE_UNREADABLE,  /* msg: "cannot read 'PATH': REASON" */
	TG_ENGINE_SKIPPED,     /* msg: why the walk left it out */
};

/* One outcome. operand: it is about an operand itself (one that cannot
 * be read or walked, or a file operand no language claims), not about a
 * file found under one. The strings are borrowed for the callback. */
struct tg_engine_file {
	enum tg_engine_what what;
	const char *path;
	const struct tg_lang *lang; /* a source file's language, or NULL */
	int operand;
	const char *msg;
	const char *why; /* "invalid UTF-8", "a NUL byte" */
	size_t line, col;
	/* ANALYZED: what the analyzer found; judged, only the findings
	 * that matter, unsuppressed, sorted by line, column and id, and
	 * only the dead branches. The callback may move it out (and leave
	 * it TG_AUDIT_RESULT_INIT). */
	struct tg_audit_result r;
	/* ANALYZED and judged: a warning "unused-suppression" for each
	 * suppression that matched no finding, then the analyzer's notes,
	 * each with path; else empty */
	struct tg_diag_list notes;
	/* what the sink's bytes hook made of the file, or NULL; the file
	 * callback may take it (and leave NULL), else the sink's
	 * extra_free frees it */
	void *extra;
};

#define TG_ENGINE_FILE_INIT                                                    \
	{                                                                      \
		TG_ENGINE_ANALYZED, NULL, NULL, 0, NULL, NULL, 0, 0,           \
		    TG_AUDIT_RESULT_INIT, TG_DIAG_LIST_INIT, NULL              \
	}

void tg_engine_file_release(struct tg_engine_file *f);

struct tg_engine_sink {
	/* Each outcome, on the calling thread, in order: 0 to go on, or a
	 * negative TG_E* code to stop the run and return it. */
	int (*file)(void *ctx, struct tg_engine_file *f);
	/* Called before the calling thread waits for a worker (so that
	 * output rendered so far can go out); may be NULL. Its non-zero
	 * return stops the run as file's does. */
	int (*idle)(void *ctx);
	/* Called for each file analyzed (ANALYZED), on the thread that
	 * analyzed it, with its bytes, once it is judged: any thread, any
	 * number at once, so it reads ctx only as the run leaves it. What a
	 * caller makes of a file's bytes besides its findings (audit's fix
	 * offers), made in parallel instead of read again on the calling
	 * thread; it may set f->extra. thread says which of the run's
	 * threads calls it (0 the calling thread's, each below
	 * TG_ENGINE_THREADS_MAX), so that the hook may keep scratch state
	 * per thread without a lock. 0, or a negative TG_E* code that stops
	 * the run. May be NULL. */
	int (*bytes)(void *ctx, size_t thread, struct tg_engine_file *f,
		     const char *src, size_t len);
	/* frees an f->extra the file callback left (or was not given); may
	 * be NULL when bytes never sets one */
	void (*extra_free)(void *ctx, void *extra);
	void *ctx;
};

struct tg_engine;

/* An engine for o (copied; what it points to must outlive the engine):
 * each language's index built from the table, each entry ranked for the
 * torch judged. 0 or a negative TG_E* code with err set. */
int tg_engine_new(struct tg_engine **out, const struct tg_engine_opts *o,
		  struct tg_err *err);
void tg_engine_free(struct tg_engine *e); /* NULL-safe */

/* Audit paths[0..n) (files or directories; the order they come in does
 * not matter), handing each outcome to sink. 0; TG_ENOMEM (also when no
 * worker thread starts); a file's analysis's or the bytes hook's error
 * (err says why: an index the table's patterns overflow, TG_ELIMIT);
 * or what the file or idle callback returned (err not set). An engine runs
 * one run at a time, and as many runs as the caller likes. */
int tg_engine_run(struct tg_engine *e, const char *const *paths, size_t n,
		  const struct tg_engine_sink *sink, struct tg_err *err);

/* Analyze src[0..len) as language L (path names it in notes), as a run
 * would a file of these bytes, into *f (TG_ENGINE_ANALYZED or
 * TG_ENGINE_UNDECODABLE; f->path is path): what audit --fix uses to
 * re-read a file it rewrote. f starts TG_ENGINE_FILE_INIT; release it
 * with tg_engine_file_release, also after a failure. 0 or TG_ENOMEM.
 * Any thread, any number at once. */
int tg_engine_buffer(const struct tg_engine *e, const struct tg_lang *L,
		     const char *src, size_t len, const char *path,
		     struct tg_engine_file *f, struct tg_err *err);

/* For an engine with a torch to judge: entry a's rank, and whether
 * finding f fails the audit (in code, not guarded, ranked min or above
 * and above version-bound). */
enum tg_audit_rank tg_engine_rank(const struct tg_engine *e,
				  const struct tg_api *a);
int tg_engine_fails(const struct tg_engine *e,
		    const struct tg_audit_finding *f);

#endif
