/* audit.h - uses of the table's torch APIs in a package's source files
 * SPDX-License-Identifier: MIT
 *
 * An analyzer reads one file's bytes (never imports or runs it) and
 * appends a finding for every use of a table entry of its language: the
 * Python analyzer (audit/py/) with the Python tokenizer, following imports
 * and aliases to the dotted name they stand for; the C/C++/CUDA one
 * (audit/cxx/) with the C tokenizer, on code only. A finding records where,
 * which entry, how it is used (kind), whether it sits in code or only in
 * a comment or string (a mention), and what guards it. Which findings
 * matter for a torch version (deprecated, removed, private) is the
 * caller's decision (the command), not the analyzers'.
 *
 * Positions: line 1-based, column 1-based in bytes (as compilers print
 * them). A finding also knows where the text that names its entry ends
 * (end_line, end_column: the position just after its last byte) and
 * that text's bytes in the source, src[start..end), which begin at line
 * and column: what an edit of the use replaces. Which text that is, per
 * kind, is written in torchgate-audit(1) (a dotted chain's matched
 * names, an imported name, a keyword, a method's name, a macro's or a
 * qualified name, an #include directive, a mention's names).
 */
#ifndef TG_LIB_AUDIT_AUDIT_H
#define TG_LIB_AUDIT_AUDIT_H

#include <stddef.h>

#include "lib/table/table.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

/* Where the use is: code, or a mention in a comment or a string. */
enum tg_audit_in { TG_AUDIT_IN_CODE, TG_AUDIT_IN_COMMENT, TG_AUDIT_IN_STRING };

/* What protects it: nothing; a guard that handles the API's absence
 * (try/except ImportError, hasattr, a torch version test, #if on a
 * version macro); a soft guard (a bare except, except Exception). */
enum tg_audit_guard {
	TG_AUDIT_UNGUARDED,
	TG_AUDIT_GUARDED,
	TG_AUDIT_SOFT,
};

struct tg_audit_finding {
	const struct tg_api *api; /* the table entry; owned by the table */
	size_t line, column;
	size_t end_line, end_column; /* just after the text naming the entry */
	size_t start, end;	     /* that text: src[start..end), bytes */
	enum tg_audit_in in;
	/* "import", "call", "attribute", "decorator", "annotation",
	 * "reference", "argument" (a parameter entry), "method", "include",
	 * "macro", "type", "build": a static string */
	const char *kind;
	enum tg_audit_guard guard;
	char *guard_text; /* what guarded it, e.g. "try/except ImportError
			     at line 3", or NULL */
	size_t guard_line;
	char *text; /* the source text used, e.g. "amp.GradScaler", at most
		       a line */
	/* Python: in code inside an f-string's replacement field */
	int in_fstring;
};

/* A finding's fix as the reports show it (audit --format=json and
 * sarif; fix/offer makes it from audit --fix's plan): whether --fix
 * applies it (safe) or only --fix --unsafe-fixes does, what it does,
 * and its edits of the original text, each a range by line and column
 * as a finding's position (1-based, bytes, the end exclusive; an
 * insertion ends where it starts) and the text that replaces it. */
struct tg_audit_edit {
	size_t line, column, end_line, end_column;
	char *text; /* may hold NULs */
	size_t len;
};

struct tg_audit_fix {
	int unsafe;
	char *message;
	struct tg_audit_edit *edits; /* in the order of the text; none: no
					fix */
	size_t nedits;
};

#define TG_AUDIT_FIX_INIT                                                      \
	{                                                                      \
		0, NULL, NULL, 0                                               \
	}

void tg_audit_fix_release(struct tg_audit_fix *x); /* to TG_AUDIT_FIX_INIT */

/* A branch that runs only on some torch versions: the lines of the
 * branch and the PEP 440 specifier set a torch must satisfy for it to
 * run ("<2.4"), as the condition says. With a floor, a branch no torch
 * at or above the floor satisfies is dead. */
struct tg_audit_branch {
	size_t first_line, last_line;
	char *condition; /* the test's text, at most a line */
	char *requires;	 /* a specifier set, e.g. "<2.4" or ">=2.1,<2.4" */
	/* Python: an if/elif/else clause at the module's level (in no
	 * block) with a raise statement directly in its body: where the
	 * test holds, importing the module fails (a setup.py's gate on
	 * torch: if TORCH_MAJOR == 0 and TORCH_MINOR < 4: raise ...) */
	int gate;
};

/* A suppression comment "torchgate: ignore[id,...]" (or "ignore" with no
 * list: every finding on that line). */
struct tg_audit_suppression {
	size_t line;
	char **ids; /* NULL when it names none */
	size_t nids;
	int used; /* set by the caller when it suppressed a finding */
};

struct tg_audit_result {
	struct tg_audit_finding *findings;
	size_t nfindings, capfindings;
	struct tg_audit_branch *branches;
	size_t nbranches, capbranches;
	struct tg_audit_suppression *suppressions;
	size_t nsuppressions, capsuppressions;
	struct tg_diag_list notes; /* undecodable bytes, limits reached... */
	/* Python: the line of the first statement that imports torch or a
	 * module under it (import torch, from torch.utils.cpp_extension
	 * import ...), at any level; 0: none */
	size_t torch_import_line;
	/* lexed: the analyzer read the whole buffer with its language's
	 * tokenizer, which found lex_errors lexical errors (the count the
	 * language's lex_errors hook gives); else it read none of it (no
	 * entry may match) and the count is not known */
	int lexed;
	size_t lex_errors;
};

#define TG_AUDIT_RESULT_INIT                                                   \
	{                                                                      \
		NULL, 0, 0, NULL, 0, 0, NULL, 0, 0, TG_DIAG_LIST_INIT, 0, 0, 0 \
	}

/* Append a copy of f (its strings copied; api and kind kept), a branch,
 * or a suppression (ids copied). TG_ENOMEM when out of memory, r
 * unchanged. */
int tg_audit_result_add_finding(struct tg_audit_result *r,
				const struct tg_audit_finding *f);
int tg_audit_result_add_branch(struct tg_audit_result *r, size_t first_line,
			       size_t last_line, const char *condition,
			       const char *requires);
int tg_audit_result_add_suppression(struct tg_audit_result *r, size_t line,
				    const char *const *ids, size_t nids);
void tg_audit_result_release(struct tg_audit_result *r);
/* r's findings freed and gone (its branches, suppressions and notes
 * stay). */
void tg_audit_result_drop_findings(struct tg_audit_result *r);

/* Analyze the Python source src[0..len) (path is for notes only),
 * appending to r. Returns 0, or a negative TG_E* (only TG_ENOMEM: bad
 * source is never an error, at worst a note). */
int tg_audit_py(const struct tg_table *t, const char *src, size_t len,
		const char *path, struct tg_audit_result *r,
		struct tg_err *err);

/* The Python analyzer's lookup structures, built once from a table (its
 * names, the spellings its usage patterns write literally, its methods,
 * parameters and behaviours) and read-only afterwards, so one index
 * serves many files and threads. The table must outlive it. */
struct tg_audit_py_index;
int tg_audit_py_index_new(struct tg_audit_py_index **out,
			  const struct tg_table *t, struct tg_err *err);
void tg_audit_py_index_free(struct tg_audit_py_index *ix); /* NULL-safe */

/* As tg_audit_py with an index built beforehand: what a caller that
 * reads many files uses (tg_audit_py builds and frees one per call). */
int tg_audit_py_indexed(const struct tg_audit_py_index *ix, const char *src,
			size_t len, const char *path, struct tg_audit_result *r,
			struct tg_err *err);

/* audit --fix for Python (audit/py/fix.c), the hooks of lang_py: the
 * edits that rewrite finding f of src[0..len) as its entry's fix says,
 * to the name to (struct tg_lang_fix in audit/lang.h says more), and
 * the lexical errors of a buffer. */
int tg_audit_py_fix_use(const char *src, size_t len,
			const struct tg_audit_finding *f, const char *to,
			int (*add)(void *ctx, size_t start, size_t end,
				   const char *text, size_t len),
			void *ctx, const char **why);
size_t tg_audit_py_lex_errors(const char *src, size_t len);
/* The rewrite of use f once its spelling is known to stand for its
 * entry: src[f->start..f->end) replaced by name (NULL: kept), and the
 * argument the fix inserts, or *why. What tg_audit_py_fix_use does after
 * its checks, and what the file-level step (audit/py/fix_import.c) does
 * for a use through a name an import binds. */
int tg_audit_py_fix_span(const char *src, size_t len,
			 const struct tg_audit_finding *f, const char *name,
			 int (*add)(void *ctx, size_t start, size_t end,
				    const char *text, size_t len),
			 void *ctx, const char **why);
/* Whether src[end..] (after blanks) assigns to what precedes: '=' (not
 * '==') or an augmented assignment. */
int tg_audit_py_fix_is_store(const char *src, size_t len, size_t end);
/* The file-level step of audit --fix for Python (audit/py/fix_import.c,
 * struct tg_lang_fix's file in audit/lang.h): the uses through names
 * imports bind, and those imports. */
struct tg_lang_fix_use;
int tg_audit_py_fix_file(const char *src, size_t len, const char *path,
			 const struct tg_audit_finding *f,
			 struct tg_lang_fix_use *u, size_t n,
			 int (*add)(void *ctx, size_t start, size_t end,
				    const char *text, size_t len),
			 void *ctx);
/* The guarded form (audit/py/fix_guard.c, struct tg_lang_fix's guard
 * and guard_use in audit/lang.h): the compat block of entry a, whose
 * fix's replacement repl is newer than the floor, and a use written as
 * its name. */
struct tg_lang_guard;
int tg_audit_py_fix_guard(const char *src, size_t len, const struct tg_api *a,
			  const struct tg_api *repl, struct tg_lang_guard *g,
			  const char **why);
int tg_audit_py_fix_guard_use(const char *src, size_t len,
			      const struct tg_audit_finding *f,
			      const char *name,
			      int (*add)(void *ctx, size_t start, size_t end,
					 const char *text, size_t len),
			      void *ctx, const char **why);
const char *tg_audit_py_fix_check(const char *src, size_t len,
				  const struct tg_audit_finding *f,
				  const char *fixed, size_t flen, size_t at,
				  size_t at_end);

/* audit --fix for C, C++ and CUDA (audit/cxx/fix.c), the hooks of
 * lang_cxx, as tg_audit_py_fix_use and tg_audit_py_lex_errors. */
int tg_audit_cxx_fix_use(const char *src, size_t len,
			 const struct tg_audit_finding *f, const char *to,
			 int (*add)(void *ctx, size_t start, size_t end,
				    const char *text, size_t len),
			 void *ctx, const char **why);
size_t tg_audit_cxx_lex_errors(const char *src, size_t len);

/* The same for C, C++ and CUDA source. */
int tg_audit_cxx(const struct tg_table *t, const char *src, size_t len,
		 const char *path, struct tg_audit_result *r,
		 struct tg_err *err);

/* The C/C++/CUDA analyzer's patterns, compiled once from a table, with
 * the literals that prefilter them; read-only afterwards, like the
 * Python index. */
struct tg_audit_cxx_index;
int tg_audit_cxx_index_new(struct tg_audit_cxx_index **out,
			   const struct tg_table *t, struct tg_err *err);
void tg_audit_cxx_index_free(struct tg_audit_cxx_index *ix); /* NULL-safe */
/* Look only for the entries want(a, ctx) holds (and those they extend),
 * but in a file with a suppression comment for every entry (so that a
 * suppression of an entry that does not matter is not reported unused).
 * A file in which none of them can occur is not tokenized at all. Call
 * before the index is shared. */
void tg_audit_cxx_index_only(struct tg_audit_cxx_index *ix,
			     int (*want)(const struct tg_api *a, void *ctx),
			     void *ctx);
int tg_audit_cxx_indexed(const struct tg_audit_cxx_index *ix, const char *src,
			 size_t len, const char *path,
			 struct tg_audit_result *r, struct tg_err *err);

/* Driver-side helpers (audit.c), for the command: what a finding means
 * for a torch version, suppressions, dead branches, order. */

/* How much a use of a matters for torch, most first: removed, deprecated,
 * private (available but private), version-bound (available, but the
 * entry has a version: only with --all), or none (not reported). */
enum tg_audit_rank {
	TG_AUDIT_RANK_NONE = -1,
	TG_AUDIT_RANK_BOUND = 0,
	TG_AUDIT_RANK_PRIVATE = 1,
	TG_AUDIT_RANK_DEPRECATED = 2,
	TG_AUDIT_RANK_REMOVED = 3,
};

enum tg_audit_rank tg_audit_rank(const struct tg_api *a,
				 const struct tg_version *torch, int all);
/* "version-bound", "private", "deprecated", "removed" (NONE: NULL). */
const char *tg_audit_rank_name(enum tg_audit_rank k);

/* Whether a suppression of r on finding f's line names f's entry (or
 * names none); marks the suppression used. */
int tg_audit_suppressed(struct tg_audit_result *r,
			const struct tg_audit_finding *f);

/* Whether no torch at or above floor satisfies b->requires. */
/* Version tests read by evaluating them over a grid of torch versions:
 * major 0..9, minor 0..99, point k is k / TG_AUDIT_GRID_MINOR .
 * k % TG_AUDIT_GRID_MINOR (both analyzers). */
#define TG_AUDIT_GRID_MINOR 100
#define TG_AUDIT_GRID (10 * TG_AUDIT_GRID_MINOR)

/* The points set holds as a specifier set (">=1.8", "<2.0",
 * ">=1.8,<2.0") into out: 1, or 0 when set is empty, every point, or
 * not one interval. */
int tg_audit_grid_spec(const unsigned char set[TG_AUDIT_GRID], char *out,
		       size_t outsz);

/* Whether branch b is dead at floor (one clause of its specifiers
 * leaves no version at or above it): 1, 0, or TG_ENOMEM. */
int tg_audit_branch_dead(const struct tg_audit_branch *b,
			 const struct tg_version *floor);

/* Sort findings by line, column, entry id; branches by first line. */
void tg_audit_result_sort(struct tg_audit_result *r);

/* Whether src[0..len) is text: 0 for valid UTF-8 without NUL bytes, else
 * 1 with *line and *column (1-based) of the first NUL byte or invalid
 * sequence and *why "a NUL byte" or "invalid UTF-8". */
int tg_audit_not_text(const char *src, size_t len, size_t *line, size_t *column,
		      const char **why);

/* Where "torchgate:" (a suppression's start) is in s[0..n), or NULL;
 * found by its colon, as most comments hold none. */
const char *tg_audit_marker(const char *s, size_t n);

#endif
