/* fix_import.h - what the parts of the file-level fix step share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header, and not internal.h (which is the analyzer's):
 * only fix_import.c (what is fixed: each use, each import; the entry
 * point tg_audit_py_fix_file), fix_import_read.c (the file read: tokens,
 * statements, import items, names followed, bindings, occurrences) and
 * fix_import_edit.c (the edits of the imports) include it; it includes
 * none of them, so that no include cycle forms. Calls go one way:
 * fix_import.c calls the other two, which call neither it nor each
 * other. struct fx is the one file's state they pass; the token tests
 * every pass uses are inline here (they run per token). The design of
 * the step is in fix_import.c's header.
 *
 * Limits: HEADS_MAX names followed per file, STORED_MAX entries assigned
 * to; past them a use is left with a reason, never an error.
 */
#ifndef TG_LIB_AUDIT_PY_FIX_IMPORT_H
#define TG_LIB_AUDIT_PY_FIX_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/lex/pylex.h"

#define HEADS_MAX 256
#define STORED_MAX 16
#define NONE SIZE_MAX

/* A statement: code tokens [a, b) of toks (b > a), and the token that
 * ends it (NEWLINE, ';' or END) at term. */
struct stmt {
	size_t a, b, term;
	int alone;  /* first on its logical line, ended by NEWLINE */
	int import; /* an import statement parsed into items */
	int bad;    /* an import statement not understood */
	int done;   /* rewritten with the `import torch` it needs */
};

/* One name an import statement binds. */
struct item {
	size_t stmt;
	size_t a, b;	   /* its tokens [a, b), a name or `x as y` */
	size_t name;	   /* the token of the name it imports (from) */
	size_t bound;	   /* the token of the name it binds */
	size_t last;	   /* its last code token */
	char *target;	   /* what that name stands for */
	int plain_torch;   /* `import torch` or `import torch.x` */
	size_t head;	   /* into heads, or NONE */
	int drop, finding; /* dropped; an import finding is on it */
	/* `import P.M` whose finding asks for `import P` (module_imports):
	 * the entry; whether P replaces it (else it is dropped); why it is
	 * kept */
	const struct tg_api *mod;
	int repl;
	const char *mod_why;
};

/* A name the refused uses start with. */
struct head {
	const char *s;
	size_t n;
	const char *target; /* one item's (all agree), or NULL */
	int other;	    /* bound otherwise, or items disagree */
	int nitems;
	int not_alone;	/* an item in a statement sharing its line */
	int need_torch; /* a use rewritten to the whole name */
	int string_use;
	size_t nocc;   /* occurrences in code, outside imports */
	size_t nfreed; /* uses rewritten to the whole name */
	size_t nfixed; /* uses fixed */
};

struct ed {
	size_t start, end;
	char *text;
	size_t len;
	size_t owner; /* the finding, or NONE */
};

struct fx {
	const char *s;
	size_t len;
	struct tg_pylex_tok *t;
	size_t nt, capt;
	struct stmt *st;
	size_t nst, capst;
	struct item *it;
	size_t nit, capit;
	struct head h[HEADS_MAX];
	size_t nh;
	struct ed *e;
	size_t ne, cape;
	int torch_other; /* torch bound otherwise, or a star import */
	const struct tg_api *stored[STORED_MAX]; /* entries assigned to */
	size_t nstored;
	size_t fixed_end; /* the end of the uses fixed so far */
	size_t mod_torch; /* the first module-level `import torch`'s offset */
	int rc;
};

static inline int
is_code(const struct tg_pylex_tok *t)
{
	return t->kind == TG_PYLEX_NAME || t->kind == TG_PYLEX_NUMBER ||
	       t->kind == TG_PYLEX_STRING || t->kind == TG_PYLEX_OP ||
	       t->kind == TG_PYLEX_ERROR;
}

/* Whether token i is the name or operator s (a string literal). */
#define TEQ(x, i, s) teq_n((x), (i), "" s, sizeof("" s) - 1)

static inline int
teq_n(const struct fx *x, size_t i, const char *s, size_t n)
{
	return i < x->nt && x->t[i].len == n &&
	       (x->t[i].kind == TG_PYLEX_NAME || x->t[i].kind == TG_PYLEX_OP) &&
	       memcmp(x->s + x->t[i].off, s, n) == 0;
}

static inline int
tname(const struct fx *x, size_t i)
{
	return i < x->nt && x->t[i].kind == TG_PYLEX_NAME;
}

/* The next code token of statement s after i, or s->b. */
static inline size_t
next_code(const struct fx *x, const struct stmt *s, size_t i)
{
	for (i++; i < s->b && !is_code(&x->t[i]); i++)
		;
	return i;
}

/* The code token before i in statement s, or NONE. */
static inline size_t
prev_code(const struct fx *x, const struct stmt *s, size_t i)
{
	while (i > s->a) {
		i--;
		if (is_code(&x->t[i]))
			return i;
	}
	return NONE;
}

static inline size_t
tok_end(const struct fx *x, size_t i)
{
	return x->t[i].off + x->t[i].len;
}

/* fix_import_read.c: the file read into x (x->s and x->len set, the
 * rest zero): its tokens, statements and import items, the heads of the
 * refused uses (uh[k], or NONE) and of the import findings' items (ui[k],
 * or NONE), what binds each head otherwise and its occurrences. 0, or
 * x->rc on memory. */
int tg_audit_py_fix_read_file(struct fx *x, const struct tg_audit_finding *f,
			      const struct tg_lang_fix_use *u, size_t n,
			      size_t *uh, size_t *ui);

/* fix_import_edit.c: the edits, each 0 or x->rc (TG_ENOMEM). */
int tg_audit_py_fix_add_ed(struct fx *x, size_t start, size_t end,
			   const char *text, size_t n, size_t owner);
int tg_audit_py_fix_remove_stmt(struct fx *x, size_t k, int torch);
int tg_audit_py_fix_torch_after(struct fx *x, size_t k);
int tg_audit_py_fix_drop_items(struct fx *x, size_t k);

#endif
