/* plan.h - audit --fix for one buffer: which findings are fixed, how,
 * and why the others are left
 * SPDX-License-Identifier: MIT
 *
 * tg_plan_file analyzes a buffer as a language through the engine
 * (tg_engine_buffer, judged as the engine judges), and for each finding
 * decides: fixed (its edits, from its language's rewrite hook and its
 * table entry's "fix"), left with a reason, or hidden (an unsafe fix
 * without unsafe). A fix whose replacement is not available at the
 * floor is left. Then the language's file-level step may fix the uses
 * its use hook refused that a whole file decides (an import's). The
 * fixed buffer is then analyzed again: it must hold
 * no more lexical errors than the original, each fixed use must read
 * back where the edits moved it (the language's check: for Python, one
 * dotted name there, whatever name was written, and, where an argument
 * was inserted, a call whose '(' follows it on its logical line and
 * whose arguments, re-read by the tokenizer, are the original's plus
 * the inserted one),
 * and it must hold none of the fixed uses; else every fix of the file
 * is dropped (reverted, with the reason) and the buffer left as it
 * was. A rewrite that lands in the wrong brackets, drops or merges an
 * argument, or leaves the name unchanged cannot pass.
 */
#ifndef TG_LIB_FIX_PLAN_H
#define TG_LIB_FIX_PLAN_H

#include <stddef.h>

#include "lib/audit/engine.h"
#include "lib/audit/lang.h"
#include "lib/fix/edit.h"
#include "lib/pep/version.h"
#include "lib/table/table.h"
#include "lib/util/buf.h"
#include "lib/util/err.h"

enum tg_plan_outcome {
	TG_PLAN_FIXED,
	TG_PLAN_LEFT,	/* why says why */
	TG_PLAN_HIDDEN, /* an unsafe fix, not applied without unsafe */
};

/* What became of one finding of before.r (same index). */
struct tg_plan_use {
	enum tg_plan_outcome outcome;
	const char *why; /* LEFT: a static string, or why_owned */
	char *why_owned;
	/* FIXED: the name written (borrowed): the replacing entry's id, or
	 * the text of the fix's "replace" */
	const char *to;
	/* LEFT because the language's use hook said why: the name it was
	 * given, for the file-level step (struct tg_lang_fix's file) */
	const char *refused_to;
	int by_file; /* FIXED by the file-level step (no per-use check) */
};

struct tg_plan_opts {
	const struct tg_engine *engine; /* judges, with a torch */
	const struct tg_table *table;	/* the engine's */
	/* fixes whose replacement is not available here are left; NULL:
	 * none is */
	const struct tg_version *floor;
	int unsafe; /* apply unsafe fixes too */
};

struct tg_plan {
	/* the buffer as analyzed: its findings, judged */
	struct tg_engine_file before;
	struct tg_plan_use *uses; /* one per before.r.findings */
	/* the edits of the fixes kept (normalized), their texts owned */
	struct tg_edit *edits;
	size_t nedits, capedits;
	/* the buffer with the edits applied, and analyzed again (when
	 * nedits) */
	struct tg_buf fixed;
	struct tg_engine_file after;
	/* why every fix was dropped, or NULL */
	char *reverted;
	size_t nfixed, nleft, nhidden;
	/* the edits of the language's file-level step (texts owned): one fix, all or nothing, since an import is dropped only
	 * when every use of its name is rewritten; fix/offer offers all of
	 * them on each finding the step fixed (by_file) */
	struct tg_edit *shared;
	size_t nshared;
};

#define TG_PLAN_INIT                                                           \
	{                                                                      \
		TG_ENGINE_FILE_INIT, NULL, NULL, 0, 0, TG_BUF_INIT,            \
		    TG_ENGINE_FILE_INIT, NULL, 0, 0, 0, NULL, 0                \
	}

/* Plan the fixes of src[0..len) as language L (path names it in
 * notes). p starts TG_PLAN_INIT; release it with tg_plan_release, also
 * after a failure. 0 or TG_ENOMEM. When p->before.what is not
 * TG_ENGINE_ANALYZED (undecodable bytes) nothing is planned. */
int tg_plan_file(struct tg_plan *p, const struct tg_plan_opts *o,
		 const struct tg_lang *L, const char *src, size_t len,
		 const char *path, struct tg_err *err);
void tg_plan_release(struct tg_plan *p);

#endif
