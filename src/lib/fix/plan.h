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
 * A fix whose replacement the floor lacks takes the language's guarded
 * form where it has one (a compat name, and one block per entry that
 * binds it, inserted once per file). The
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
	/* FIXED in the guarded form: to is the compat name, guard_repl the
	 * replacement the compat block binds it to where torch has it
	 * (HIDDEN: guard_repl set, the unsafe fix would be guarded) */
	int guarded;
	const char *guard_repl;
	/* LEFT in the guarded form because the use hook refused its shape:
	 * refused_to is the compat name, for the file-level step (a use
	 * through a name an import binds, the import itself) */
	int guard_refused;
	/* FIXED by a pass after the first (tg_plan_file's fixed point):
	 * its edits are not the first pass's alone */
	int later;
};

/* One entry's guarded form in a file (the language's guard hook). */
struct tg_plan_guard {
	const struct tg_api *api, *repl;
	struct tg_lang_guard g;
	const char *why; /* the file cannot take it: why (static) */
	int used;	 /* a use is fixed through it */
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
	/* one per before.r.findings (nuses of them: a pass's before may be
	 * moved out before its plan is released) */
	struct tg_plan_use *uses;
	size_t nuses;
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
	/* the guarded forms asked for, and the compat blocks inserted for
	 * those used, as one edit (its text owned; NULL: none) */
	struct tg_plan_guard **guards; /* each its own block: uses' to and
					 refused_to point at their names */
	size_t nguards, capguards;
	struct tg_edit block;
	/* the edits of the language's file-level step (texts owned): one fix, all or nothing, since an import is dropped only
	 * when every use of its name is rewritten; fix/offer offers all of
	 * them on each finding the step fixed (by_file) */
	struct tg_edit *shared;
	size_t nshared;
	/* the passes that changed the text (0: none changed it); fixes of
	 * later passes on text an earlier one wrote (counted in nfixed, no
	 * finding of before's); why the file was left as after the last
	 * pass although another would change it, or NULL */
	size_t passes, nexposed;
	char *unsettled;
	/* the reasons that depend on an entry and the floor only, made
	 * once per entry and lent to each use they are (uses' why) */
	struct tg_plan_why *whys;
	size_t nwhys, capwhys;
	/* the replacements looked up (and their status at the floor) of
	 * the last eight entries planned (fix/plan.c's replacement): a
	 * file's uses of one entry look them up in the table once */
	struct tg_plan_memo {
		const struct tg_api *api, *repl;
		enum tg_api_status st;
	} memo[8];
	size_t nmemo;
};

struct tg_plan_why {
	const struct tg_api *repl;
	int removed; /* the replacement is removed at the floor, else newer */
	char *why;
};

/* At most this many passes (tg_plan_file): a real file needs one, a
 * fix that exposes another (a table entry whose replacement has a fix
 * of its own) two; more only in a table with a longer chain. */
#define TG_PLAN_PASSES 4

#define TG_PLAN_INIT                                                           \
	{                                                                      \
		.before = TG_ENGINE_FILE_INIT, .fixed = TG_BUF_INIT,           \
		.after = TG_ENGINE_FILE_INIT                                   \
	}

/* Plan the fixes of src[0..len) as language L (path names it in
 * notes). p starts TG_PLAN_INIT; release it with tg_plan_release, also
 * after a failure. 0 or TG_ENOMEM. When p->before.what is not
 * TG_ENGINE_ANALYZED (undecodable bytes) nothing is planned.
 *
 * Fixes run to a fixed point: the fixed buffer is planned again (its
 * analysis after the check is the next pass's before) and its fixes
 * applied, while a pass changes something and passes are at most
 * TG_PLAN_PASSES; edits, fixed and after are then those of all the
 * passes (edits composed into one set over src: fix/edit), uses
 * before's findings with those a later pass fixed (later). A pass
 * whose check fails is dropped (the passes before it stand, each
 * checked), and so is every pass from TG_PLAN_PASSES + 1 on:
 * unsettled then says why the text may change again. */
int tg_plan_file(struct tg_plan *p, const struct tg_plan_opts *o,
		 const struct tg_lang *L, const char *src, size_t len,
		 const char *path, struct tg_err *err);
/* tg_plan_file of src[0..len), whose analysis f is (the engine's, as
 * judged: the sink's bytes hook is given both), moved into p->before
 * instead of made again: moved always, also when the plan fails. */
int tg_plan_bytes(struct tg_plan *p, const struct tg_plan_opts *o,
		  const struct tg_lang *L, const char *src, size_t len,
		  struct tg_engine_file *f, struct tg_err *err);
/* The plan of a file of which analysis f was made (moved into
 * p->before), none of whose findings can be fixed (each is a mention, or
 * guarded, or its entry has no fix, or L has no rewrite hooks): every
 * finding left with the reason tg_plan_file gives, and no edit, without
 * the file's bytes or a second analysis. TG_EINVAL (nothing moved) when
 * a finding may have a fix: then the bytes must be planned. */
int tg_plan_analyzed(struct tg_plan *p, const struct tg_plan_opts *o,
		     const struct tg_lang *L, struct tg_engine_file *f,
		     struct tg_err *err);
void tg_plan_release(struct tg_plan *p);

#endif
