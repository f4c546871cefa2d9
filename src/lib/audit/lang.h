/* lang.h - the audit languages: one struct of operations each, and the
 * registry the engine iterates
 * SPDX-License-Identifier: MIT
 *
 * A language is what the audit engine (audit/engine) needs to know to
 * read a file of it: how a file is recognised (its name's suffixes),
 * which bytes it accepts, and its analyzer (an index built once from the
 * table, read-only afterwards and shared by every thread, and the
 * function that analyzes one file's bytes with it). Each language is one
 * file (lang_py.c, lang_cxx.c) defining its struct tg_lang, and one row
 * of the registry in lang.c; the engine knows no language by name.
 */
#ifndef TG_LIB_AUDIT_LANG_H
#define TG_LIB_AUDIT_LANG_H

#include <stddef.h>

#include "lib/audit/audit.h"
#include "lib/table/table.h"
#include "lib/util/err.h"

/* Which bytes a file of the language may hold; a file with others is
 * skipped as undecodable. */
enum tg_lang_bytes {
	/* UTF-8 text only: its first invalid sequence or NUL byte skips it
	 * (Python source, PEP 3120) */
	TG_LANG_UTF8,
	/* any byte but NUL: compilers take any bytes in comments and
	 * strings, but a NUL byte means it is no source at all (C, C++,
	 * CUDA) */
	TG_LANG_NO_NUL,
};

/* Where a rewrite hook puts one edit: src[start..end) of the buffer it
 * was given becomes text[0..len) (copied). 0 or TG_ENOMEM. */
typedef int (*tg_lang_fix_add)(void *ctx, size_t start, size_t end,
			       const char *text, size_t len);

/* What the file-level step (struct tg_lang_fix's file) is told of one
 * finding, and tells back. */
enum tg_lang_fix_state {
	TG_LANG_FIX_KEPT,    /* left before use was asked: kept as written */
	TG_LANG_FIX_DONE,    /* rewritten (by use, or by the file step) */
	TG_LANG_FIX_REFUSED, /* use said why not: the file step may fix it */
};

struct tg_lang_fix_use {
	enum tg_lang_fix_state state; /* the step turns REFUSED into DONE */
	const char *to;		      /* REFUSED: the name use was given */
	/* REFUSED in the guarded form: to is the compat name a block binds
	 * (the argument the fix inserts is the block's): the whole use
	 * becomes it, nothing inserted, no import needed */
	int guarded;
	const char *why; /* REFUSED: use's reason; the step may set its own
			    (static) */
};

/* The rewrite hooks of audit --fix (issue 27) for one language; a
 * language without them has fix NULL. What to write comes from the
 * table (the entry's "fix"), never from the hooks: they only know the
 * language's syntax. */
/* The guarded form of a fix whose replacement is newer than the floor
 * (struct tg_lang_fix's guard): the name the uses are written as, and
 * the compat block that binds it to the replacement where torch has it
 * and to the old API where not. */
struct tg_lang_guard {
	char name[128]; /* what the uses are written as */
	char *block;	/* the block's text, inserted at at (owned), or NULL */
	size_t len;
	size_t at;
	int present; /* the file holds that block already: reused */
};

struct tg_lang_fix {
	/* The edits that rewrite finding f of src[0..len) (in code, its
	 * entry with a fix; to the dotted name that replaces the entry's,
	 * the entry's own when only arguments change) through add. *why
	 * NULL when it can; else a static reason why not ("import form not
	 * fixable yet"), and what was added must be dropped. 0, or what
	 * add returned. */
	int (*use)(const char *src, size_t len,
		   const struct tg_audit_finding *f, const char *to,
		   tg_lang_fix_add add, void *ctx, const char **why);
	/* How many lexical errors src[0..len) holds (0: it tokenizes
	 * cleanly): a fixed buffer may not have more than its original. */
	size_t (*lex_errors)(const char *src, size_t len);
	/* The file-level step, or NULL: once use was asked of every
	 * finding of src[0..len) (f[0..n), u[k] for f[k]; path names the
	 * file), the edits of the fixes a whole file decides together (a
	 * use through a name an import binds, the import left unused, the
	 * import a rewritten use needs) through add, each finding it fixes
	 * turned DONE. Its edits conflict with none of its own. 0, or what
	 * add returned. */
	int (*file)(const char *src, size_t len, const char *path,
		    const struct tg_audit_finding *f, struct tg_lang_fix_use *u,
		    size_t n, tg_lang_fix_add add, void *ctx);
	/* The check after fixing, per use fixed: the text of finding f of
	 * src[0..len) is now fixed[at..at_end) of the fixed buffer
	 * fixed[0..flen) (whatever name the edits wrote there). NULL when
	 * it reads back as a rewrite may leave it (one name; where an
	 * argument was inserted, a call with it and every other one),
	 * else why not (static). NULL: no such check. */
	const char *(*check)(const char *src, size_t len,
			     const struct tg_audit_finding *f,
			     const char *fixed, size_t flen, size_t at,
			     size_t at_end);
	/* The guarded form, or NULL (issue 27): for entry a of src[0..len),
	 * whose fix's replacement repl is newer than the floor, *g (zeroed
	 * by the caller; its block freed by the caller): the compat name,
	 * and the block that binds it, where it goes, or that the file
	 * holds it already. *why (static) when the file cannot take one.
	 * 0 or TG_ENOMEM. */
	int (*guard)(const char *src, size_t len, const struct tg_api *a,
		     const struct tg_api *repl, struct tg_lang_guard *g,
		     const char **why);
	/* The edits of finding f's use written as the compat name name (the
	 * argument the fix inserts is the block's), its shape checked as
	 * use checks it; *why as use's. */
	int (*guard_use)(const char *src, size_t len,
			 const struct tg_audit_finding *f, const char *name,
			 tg_lang_fix_add add, void *ctx, const char **why);
};

struct tg_lang {
	/* the language of the table's entries it finds (struct tg_api's
	 * lang) */
	enum tg_lang_id id;
	/* what the table's "language" says of its entries ("python",
	 * "c++"), and what messages call the language */
	const char *name;
	/* what a rule's description calls it ("Python", "C++") */
	const char *title;
	/* what messages call its files, NULL-terminated ("Python"; "C",
	 * "C++", "CUDA") */
	const char *const *kinds;
	/* the suffixes of its file names (".py"), NULL-terminated; a file
	 * is the first language's whose suffix its name ends in (after the
	 * last dot, never a leading one) */
	const char *const *suffixes;
	enum tg_lang_bytes bytes;
	/* The analyzer's index for table t, into *out (freed with
	 * index_free, which takes NULL): 0 or a negative TG_E* code. */
	int (*index_new)(void **out, const struct tg_table *t,
			 struct tg_err *err);
	void (*index_free)(void *ix);
	/* Look only for the entries want(a, ctx) holds (an optimisation;
	 * the findings of the others are dropped by the engine anyway), or
	 * NULL when the analyzer cannot; called before the index is
	 * shared. */
	void (*index_only)(void *ix,
			   int (*want)(const struct tg_api *a, void *ctx),
			   void *ctx);
	/* Analyze src[0..len) (text as bytes says; path for notes only),
	 * appending to r; any thread, ix read-only. 0 or TG_ENOMEM: bad
	 * source is never an error, at worst a note. */
	int (*analyze)(const void *ix, const char *src, size_t len,
		       const char *path, struct tg_audit_result *r,
		       struct tg_err *err);
	/* audit --fix: NULL while the language cannot rewrite */
	const struct tg_lang_fix *fix;
};

/* The languages, one row each (lang_<name>.c). */
extern const struct tg_lang tg_lang_py;
extern const struct tg_lang tg_lang_cxx;

/* The registry: the number of languages, and the k-th (0 <= k <
 * tg_lang_count()), in the order a file name is tried. */
size_t tg_lang_count(void);
const struct tg_lang *tg_lang_at(size_t k);
/* Where L is in the registry (tg_lang_at(tg_lang_index(L)) == L); L must
 * be one of its rows. */
size_t tg_lang_index(const struct tg_lang *L);

/* The language of a file named name (a base name), by its suffix, or
 * NULL when none has it. */
const struct tg_lang *tg_lang_of_name(const char *name);
/* The language whose name is name ("python", "c++"), or NULL. */
const struct tg_lang *tg_lang_find(const char *name);
/* The row of language id; every enum tg_lang_id has one. */
const struct tg_lang *tg_lang_of_id(enum tg_lang_id id);

#endif
