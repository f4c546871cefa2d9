/* internal.h - what the parts of lib/discover share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: only the .c files of src/lib/discover include it
 * (and it includes no discover header, so that no include cycle forms).
 * discover.c reads a file into a struct src and masks it through the
 * language's struct harvester (harvest_py.c, harvest_cxx.c), then hands
 * each regex match to its site function with a struct run that carries
 * the file's budget; a site records a declaration through decl.c, and
 * message.c turns the arguments of a site into its message (through
 * the harvester's render) and replacement. The calls go one way:
 * discover.c reaches the harvesters only through its table of struct
 * harvester; harvesters call message.c and decl.c; decl.c calls
 * message.c; message.c calls no other part.
 * Functions are named after the file that defines them; the small text
 * helpers are inline here.
 */
#ifndef TG_LIB_DISCOVER_INTERNAL_H
#define TG_LIB_DISCOVER_INTERNAL_H

#include <stddef.h>

#include "lib/table/table.h"
#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/util/scan.h"

struct tg_decls;

#define SPAN_MAX ((size_t)64 * 1024) /* '(' to its ')' */
#define HEAD_SPAN_MAX 4096	     /* a C++ declaration after its attribute */
#define MESSAGE_MAX 4096
#define ARGS_MAX 16
#define SCOPE_MAX 64
#define TOKENS_MAX 512
#define LOOKAHEAD_LINES 64 /* decorator to its def */
#define RENDER_DEPTH 8	   /* nested parentheses in a message */
#define CONSTANTS_MAX 64   /* messages looked up by name, per file */
/* Bytes the sites of one file may re-read (arguments, statement heads):
 * WORK_PER_BYTE per byte of the file, at least WORK_MIN. A file of
 * nothing but unclosed "warnings.warn(" stops there, with a note. */
#define WORK_PER_BYTE 32
#define WORK_MIN ((size_t)4 << 20)
#define DECLS_PER_FILE_MAX 10000 /* Debian's torch 1.13: 12 at most */

struct src;

/* A language's harvester: its operations, one row of discover.c's
 * table. discover.c walks its files, masks each one that may declare
 * something, and hands each match of pattern in the masked text to site
 * (with a struct run); message.c renders an argument through render. A
 * new language is a new harvest_<lang>.c defining one of these, and its
 * row in the table. */
struct harvester {
	enum tg_lang_id lang; /* the language of its files */
	/* the files: names ending so, below the Python tree (the include
	 * directory left out) or, when headers, the include directory (its
	 * links out of the tree followed) */
	const char *const *exts;
	int headers;
	const char *skip_dir; /* a directory name not walked, or NULL */
	int modules;	      /* sites get the file's module name */
	const char *pattern;  /* PCRE2, matched against the masked text */
	/* whether a text can hold a site at all: most cannot, and are then
	 * neither masked nor matched */
	int (*may_declare)(const char *text, size_t len);
	void (*mask)(struct src *x);
	int (*site)(void *vr, const char *m, const size_t *ov, size_t ng);
	/* the argument x->m[a..e) as a message; *lit: a literal was seen */
	void (*render)(const struct src *x, size_t a, size_t e,
		       struct tg_buf *out, int *lit);
};

#define HARVESTERS_MAX 4

/* The compiled patterns, compiled once per tg_discover call: re[k] is
 * the pattern of row k of discover.c's table. */
struct ctx {
	struct tg_scan_re *re[HARVESTERS_MAX];
	struct tg_scan_re *repl;
};

/* A file's text, its masked copy and where its lines start. */
struct src {
	const char *s;
	char *m;
	size_t len;
	size_t *loff;	       /* nlines + 1 entries; loff[nlines] == len + 1 */
	unsigned char *lstart; /* Python: the line starts a statement */
	size_t nlines;
};

struct arg {
	size_t a, e;   /* the argument, trimmed */
	size_t ka, ke; /* its keyword, when ke > ka */
};

/* Python's scopes: the def and class lines that enclose a line. */
struct pyscope {
	size_t indent, name, nlen;
	int cls;
};

struct pytrack {
	struct pyscope v[SCOPE_MAX];
	size_t n;
	size_t next; /* the first line not yet looked at */
};

/* C++'s scopes: the braces that enclose an offset, and what opened
 * each. */
enum { SC_NS, SC_CLASS, SC_FUNC, SC_OTHER, SC_EXTERN };

struct cxxscope {
	int kind;
	size_t name, nlen; /* in the masked text; qualified names keep :: */
};

struct cxxtrack {
	struct cxxscope v[SCOPE_MAX];
	size_t n, over; /* over: scopes deeper than SCOPE_MAX */
	size_t pos;	/* the next offset to look at */
	size_t stmt;	/* where the current statement began */
};

/* One file's harvest: what a site function gets. */
struct run {
	const struct ctx *cx;
	struct src *x;
	const char *module, *file;
	struct tg_decls *out;
	struct tg_err *err;
	struct pytrack pt;
	struct cxxtrack *ct;
	size_t constants;      /* py_constant look-ups so far */
	size_t work, work_max; /* bytes re-read by the sites, and the most */
	size_t ndecls;	       /* declarations of this file */
	size_t stopped;	       /* 1 + the line where a limit was reached */
	const char *why;       /* which limit */
};

/* ---- small text helpers -------------------------------------------- */

static inline int
ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int
ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

static inline int
space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* Line (0-based) of offset off. */
static inline size_t
line_of(const struct src *x, size_t off)
{
	size_t lo = 0, hi = x->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->loff[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Blank m[a..e), newlines kept. */
static inline void
blank(char *m, size_t a, size_t e)
{
	for (; a < e; a++)
		if (m[a] != '\n')
			m[a] = ' ';
}

/* ---- decl.c: the budget and the declarations ------------------------ */

/* Count cost against the file's budget: 1 (stop) past it. */
int tg_decl_spend(struct run *r, size_t cost, size_t line);

/* What tg_message_split_args looked at for the call opening at open. */
size_t tg_decl_call_cost(const struct src *x, size_t open, int found,
			 size_t close);

/* Add a declaration at 0-based line (its replacement read from the
 * message); takes symbol and message, NULL symbol meaning out of
 * memory. 1 when the file's limit stops it. */
int tg_decl_emit(struct run *r, char *symbol, size_t line, char *message,
		 const char *kind);

/* ---- harvest_py.c, harvest_cxx.c: the harvesters --------------------- */

extern const struct harvester tg_harvest_py_ops;
extern const struct harvester tg_harvest_cxx_ops;

/* ---- message.c: arguments, messages, replacements -------------------- */

extern const char tg_message_repl_pattern[];

/* The ')' that closes the '(' (or '[', '{') at open in masked text,
 * within SPAN_MAX, in *close; the arguments, split at top-level commas,
 * in args (the first ARGS_MAX). Returns 0 when there is no such ')'. */
int tg_message_split_args(const char *m, size_t len, size_t open,
			  struct arg *args, size_t *nargs, size_t *close);

/* The message as stored: control characters and whitespace runs made
 * one space, trimmed, bytes that are not UTF-8 made '?'. A new string,
 * or NULL when out of memory. */
char *tg_message_finish(const char *p, size_t len);

/* Append s[a..b) with whitespace runs made one space, trimmed. */
void tg_message_add_collapsed(struct tg_buf *b, const char *s, size_t a,
			      size_t e);

/* The message of argument g, rendered by the language h; NULL when it
 * holds no literal and need_lit is set. 0 or TG_ENOMEM. */
int tg_message_render_arg(const struct src *x, const struct arg *g,
			  const struct harvester *h, int need_lit, char **out);

/* The replacement msg names, a new string in *out, or NULL. */
int tg_message_replacement(const struct ctx *cx, const char *msg, char **out,
			   struct tg_err *err);

#endif
