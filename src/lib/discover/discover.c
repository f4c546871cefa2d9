/* discover.c - the deprecations an installed torch declares about itself
 * SPDX-License-Identifier: MIT
 *
 * Each file is read whole (at most TG_DISCOVER_FILE_MAX bytes) and
 * masked: a copy of the same length in which comments, the bodies of
 * string literals and, in C++, preprocessor directives are blanked, with
 * every newline kept. Offsets in the copy are offsets in the file, so
 * one PCRE2 pattern per language finds the sites in code only, brackets
 * balance without a string in the way, and the literals are then read
 * from the original text at the same offsets. The name a declaration
 * applies to comes from a scope tracker that moves forward with the
 * sites: indentation and def/class lines for Python, braces and the
 * statement before each '{' for C++. Neither is a parser; both are
 * right for the code torch ships and degrade to a shorter name, never a
 * wrong file or line, on code they do not understand.
 *
 * Messages: the string literals of the argument, joined as Python or
 * C++ joins them; a Python message given by a name (NAME, NAME.format())
 * is looked up in the same file's assignments; the replacement is what
 * "use X instead" and its kin name, backquoted, quoted or code-like.
 *
 * Limits: the walk (util/walk) goes TG_DISCOVER_DEPTH_MAX deep, looks
 * at TG_DISCOVER_FILES_MAX directory entries, never follows a symlink
 * out of the tree, and notes a loop; a directory reached twice is
 * walked once. A file that cannot hold a
 * site (no "deprecated" or "warnings" in Python, no "deprecat" or
 * "DEPRECAT" in C++) is not masked at all, and most cannot. A
 * call's arguments are looked for within SPAN_MAX bytes of its '(';
 * messages keep MESSAGE_MAX bytes; scopes nest SCOPE_MAX deep; the sites
 * of one file may re-read WORK_PER_BYTE bytes per byte of it and make
 * DECLS_PER_FILE_MAX declarations, then the file stops with a note. The
 * worst case is thus linear in the bytes read, plus scan.c's regex limits
 * per match; Debian's 1.13 (15 MB of Python, 45 MB of headers) takes
 * about 0.2 s.
 */
#include "lib/discover/discover.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/lex/pylex.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"
#include "lib/util/scan.h"
#include "lib/util/walk.h"

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

/* Sites in masked Python: a decorator whose last name is "deprecated"
 * (typing_extensions.deprecated, warnings.deprecated, a module's own
 * _deprecation.deprecated), and warnings.warn. That the '@' starts its
 * line is checked after the match: a '^' in the alternation would make
 * PCRE2 try every offset. */
static const char py_pattern[] =
    "(@[ \\t]*(?:[A-Za-z_][A-Za-z_0-9]*[ \\t]*\\.[ \\t]*)*"
    "deprecated[ \\t]*\\()"
    "|(\\bwarnings[ \\t]*\\.[ \\t]*warn[ \\t]*\\()";

/* Sites in masked C++. */
static const char cxx_pattern[] = "(\\bC10_DEPRECATED_MESSAGE\\s*\\()"
				  "|(\\bTORCH_WARN_DEPRECATION\\s*\\()"
				  "|(\\[\\[)[^\\[\\]]*?\\bdeprecated\\b";

/* "use X instead" and its kin; X backquoted, quoted (one word), or
 * code-like. */
static const char repl_pattern[] =
    "(?i)\\b(?:use|replaced\\s+(?:by|with)|in\\s+favou?r\\s+of"
    "|renamed\\s+to|superseded\\s+by|migrate\\s+to|switch\\s+to)"
    "\\s+(?:(?:the|a|an)\\s+)?"
    "(?:`([^`]+)`|'([^'\"\\s]+)'|\"([^'\"\\s]+)\""
    "|([A-Za-z_~][\\w.:~]*"
    "(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?"
    "(?:\\([^()]*(?:\\([^()]*\\)[^()]*)*\\)|\\.\\w+)*)(\\{?))"
    "(\\s+instead\\b)?";

struct ctx {
	struct tg_scan_re *py, *cxx, *repl;
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

/* ---- declarations and notes ---------------------------------------- */

static void
decl_release(struct tg_decl *d)
{
	free(d->symbol);
	free(d->file);
	free(d->message);
	free(d->replacement);
}

void
tg_discover_release(struct tg_decls *d)
{
	size_t k;

	for (k = 0; k < d->n; k++)
		decl_release(&d->v[k]);
	for (k = 0; k < d->nnotes; k++)
		free(d->notes[k]);
	free(d->v);
	free(d->notes);
	memset(d, 0, sizeof(*d));
}

/* Append a declaration; takes symbol, message and repl, copies file. */
static int
decl_add(struct tg_decls *d, char *symbol, const char *file, size_t line,
	 char *message, char *repl, const char *kind, struct tg_err *err)
{
	struct tg_decl *x;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct tg_decl *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			goto nomem;
		d->v = v;
		d->cap = cap;
	}
	x = &d->v[d->n];
	x->file = tg_str_ndup(file, strlen(file));
	if (!x->file)
		goto nomem;
	x->symbol = symbol;
	x->line = line;
	x->message = message;
	x->replacement = repl;
	x->kind = kind;
	d->n++;
	return 0;
nomem:
	free(symbol);
	free(message);
	free(repl);
	return tg_err_set(err, TG_ENOMEM, "out of memory");
}

static int note(struct tg_decls *d, struct tg_err *err, const char *fmt, ...)
    TG_PRINTF(3, 4);

static int
note(struct tg_decls *d, struct tg_err *err, const char *fmt, ...)
{
	char buf[TG_ERR_MSG_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (d->nnotes == d->notes_cap) {
		size_t cap = d->notes_cap ? 2 * d->notes_cap : 8;
		char **v = realloc(d->notes, cap * sizeof(*v));

		if (!v)
			return tg_err_set(err, TG_ENOMEM, "out of memory");
		d->notes = v;
		d->notes_cap = cap;
	}
	d->notes[d->nnotes] = tg_str_ndup(buf, strlen(buf));
	if (!d->notes[d->nnotes])
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	d->nnotes++;
	return 0;
}

/* ---- small text helpers -------------------------------------------- */

static int
ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

static int
space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Case-insensitive: whether s holds needle (ASCII). */
static int
contains_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle), k;

	for (; *s; s++) {
		for (k = 0; k < n && s[k] && lower(s[k]) == needle[k]; k++)
			;
		if (k == n)
			return 1;
	}
	return 0;
}

/* The message as stored: control characters and whitespace runs made
 * one space, trimmed, bytes that are not UTF-8 made '?'. A new string,
 * or NULL when out of memory. */
static char *
finish_text(const char *p, size_t len)
{
	char *out = malloc(len + 1);
	size_t i, n = 0, bad, at = 0;
	int gap = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f || c == ' ') {
			gap = n > 0;
			continue;
		}
		if (gap)
			out[n++] = ' ';
		gap = 0;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	while (at < n && !tg_str_utf8_valid(out + at, n - at, &bad)) {
		out[at + bad] = '?';
		at += bad + 1;
	}
	return out;
}

/* Append s[a..b) with whitespace runs made one space, trimmed. */
static void
add_collapsed(struct tg_buf *b, const char *s, size_t a, size_t e)
{
	int gap = 0, any = 0;

	for (; a < e; a++) {
		if (space((unsigned char)s[a])) {
			gap = any;
			continue;
		}
		if (gap)
			tg_buf_addc(b, ' ');
		gap = 0;
		any = 1;
		tg_buf_addc(b, s[a]);
	}
}

/* Line (0-based) of offset off. */
static size_t
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

static int
src_lines(struct src *x)
{
	size_t i, n = 1;

	for (i = 0; i < x->len; i++)
		n += x->s[i] == '\n';
	x->loff = malloc((n + 1) * sizeof(*x->loff));
	x->lstart = calloc(n + 1, 1);
	x->m = malloc(x->len + 1);
	if (!x->loff || !x->lstart || !x->m)
		return TG_ENOMEM;
	x->nlines = n;
	x->loff[0] = 0;
	for (i = 0, n = 1; i < x->len; i++)
		if (x->s[i] == '\n')
			x->loff[n++] = i + 1;
	x->loff[n] = x->len + 1;
	memcpy(x->m, x->s, x->len);
	x->m[x->len] = '\0';
	return 0;
}

static void
src_release(struct src *x)
{
	free(x->m);
	free(x->loff);
	free(x->lstart);
}

/* Blank m[a..e), newlines kept. */
static void
blank(char *m, size_t a, size_t e)
{
	for (; a < e; a++)
		if (m[a] != '\n')
			m[a] = ' ';
}

struct arg {
	size_t a, e;   /* the argument, trimmed */
	size_t ka, ke; /* its keyword, when ke > ka */
};

/* The ')' that closes the '(' (or '[', '{') at open in masked text,
 * within SPAN_MAX, in *close; the arguments, split at top-level commas,
 * in args (the first ARGS_MAX). Returns 0 when there is no such ')'. */
static int
split_args(const char *m, size_t len, size_t open, struct arg *args,
	   size_t *nargs, size_t *close)
{
	size_t i, depth = 0, start = open + 1, n = 0;
	size_t lim = len - open > SPAN_MAX ? open + SPAN_MAX : len;

	for (i = open + 1; i < lim; i++) {
		char c = m[i];
		int end = 0;

		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (depth == 0)
				end = 1;
			else
				depth--;
		}
		if (!end && !(c == ',' && depth == 0))
			continue;
		if (n < ARGS_MAX) {
			size_t a = start, e = i;

			while (a < e && space((unsigned char)m[a]))
				a++;
			while (e > a && space((unsigned char)m[e - 1]))
				e--;
			if (a < e || !end) {
				args[n].a = a;
				args[n].e = e;
				args[n].ka = args[n].ke = 0;
				n++;
			}
		}
		start = i + 1;
		if (end) {
			*nargs = n;
			*close = i;
			return 1;
		}
	}
	return 0;
}

/* ---- Python --------------------------------------------------------- */

struct pystr {
	size_t body, body_end, end;
	int raw;
};

/* Whether a string literal (with its prefix) starts at s[i], read by
 * the tokenizer; a quote right after a name or number starts none (the
 * name is not a prefix). */
static int
py_string_at(const char *s, size_t len, size_t i, struct pystr *ps)
{
	struct tg_pylex_tok t;

	if (i > 0 && ident_char((unsigned char)s[i - 1]))
		return 0;
	if (!tg_pylex_string(s, len, i, &t))
		return 0;
	ps->raw = (t.flags & TG_PYLEX_RAW) != 0;
	ps->body = t.off + t.pre + t.quote;
	ps->end = t.off + t.len;
	ps->body_end =
	    t.flags & TG_PYLEX_UNTERMINATED ? ps->end : ps->end - t.quote;
	if (ps->body_end < ps->body)
		ps->body_end = ps->body;
	return 1;
}

/* Mask comments and literal bodies from the tokens; mark the lines that
 * start a statement: those after a newline token outside brackets (a
 * backslash continuation makes none, a newline in a string is none). */
static void
py_mask(struct src *x)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	size_t k;

	x->lstart[0] = 1;
	tg_pylex_init(&lx, x->s, x->len);
	while (tg_pylex_next(&lx, &t) && t.kind != TG_PYLEX_END) {
		switch (t.kind) {
		case TG_PYLEX_COMMENT:
			for (k = t.off; k < x->len && x->s[k] != '\n'; k++)
				x->m[k] = ' ';
			break;
		case TG_PYLEX_STRING:
			k = t.flags & TG_PYLEX_UNTERMINATED
				? t.off + t.len
				: t.off + t.len - t.quote;
			if (t.off + t.pre + t.quote < k)
				blank(x->m, t.off + t.pre + t.quote, k);
			break;
		case TG_PYLEX_NEWLINE:
		case TG_PYLEX_NL:
			if (t.len && t.line < x->nlines)
				x->lstart[t.line] = t.depth == 0;
			break;
		default:
			break;
		}
	}
}

/* Indentation of line l and the offset of its first character; 0 when
 * the line is blank in the masked text. */
static int
py_line_head(const struct src *x, size_t l, size_t *indent, size_t *first)
{
	size_t i = x->loff[l], col = 0;

	for (; i < x->len; i++) {
		char c = x->m[i];

		if (c == ' ')
			col++;
		else if (c == '\t')
			col = (col / 8 + 1) * 8;
		else if (c == '\f')
			col = 0;
		else if (c != '\r')
			break;
	}
	if (i >= x->len || x->m[i] == '\n')
		return 0;
	*indent = col;
	*first = i;
	return 1;
}

/* Whether masked text at p is "def NAME", "async def NAME" or
 * "class NAME". */
static int
py_def_at(const struct src *x, size_t p, size_t *name, size_t *nlen, int *cls)
{
	const char *m = x->m;
	size_t i = p;

	if (x->len - i > 6 && strncmp(m + i, "async", 5) == 0 &&
	    (m[i + 5] == ' ' || m[i + 5] == '\t')) {
		for (i += 5; i < x->len && (m[i] == ' ' || m[i] == '\t'); i++)
			;
	}
	if (x->len - i > 4 && strncmp(m + i, "def", 3) == 0 &&
	    (m[i + 3] == ' ' || m[i + 3] == '\t')) {
		*cls = 0;
		i += 3;
	} else if (x->len - i > 6 && strncmp(m + i, "class", 5) == 0 &&
		   (m[i + 5] == ' ' || m[i + 5] == '\t')) {
		*cls = 1;
		i += 5;
	} else {
		return 0;
	}
	while (i < x->len && (m[i] == ' ' || m[i] == '\t'))
		i++;
	*name = i;
	while (i < x->len && ident_char((unsigned char)m[i]))
		i++;
	*nlen = i - *name;
	return *nlen > 0;
}

struct pyscope {
	size_t indent, name, nlen;
	int cls;
};

struct pytrack {
	struct pyscope v[SCOPE_MAX];
	size_t n;
	size_t next; /* the first line not yet looked at */
};

/* Move the scope stack forward through line upto (included). */
static void
py_track(struct pytrack *t, const struct src *x, size_t upto)
{
	for (; t->next <= upto && t->next < x->nlines; t->next++) {
		size_t ind, p, name, nlen;
		int cls;

		if (!x->lstart[t->next] || !py_line_head(x, t->next, &ind, &p))
			continue;
		while (t->n && t->v[t->n - 1].indent >= ind)
			t->n--;
		if (py_def_at(x, p, &name, &nlen, &cls) && t->n < SCOPE_MAX) {
			t->v[t->n].indent = ind;
			t->v[t->n].name = name;
			t->v[t->n].nlen = nlen;
			t->v[t->n].cls = cls;
			t->n++;
		}
	}
}

/* The def or class that the decorator closing at close applies to. */
static int
py_decorated(const struct src *x, size_t close, size_t *name, size_t *nlen,
	     int *cls)
{
	size_t l = line_of(x, close) + 1, seen = 0, ind, p;

	for (; l < x->nlines && seen < LOOKAHEAD_LINES &&
	       l - line_of(x, close) < 64 * LOOKAHEAD_LINES;
	     l++) {
		if (!x->lstart[l] || !py_line_head(x, l, &ind, &p))
			continue;
		seen++;
		if (x->m[p] == '@')
			continue;
		return py_def_at(x, p, name, nlen, cls);
	}
	return 0;
}

static int
is_ctor(const char *p, size_t n)
{
	return (n == 8 && strncmp(p, "__init__", 8) == 0) ||
	       (n == 7 && strncmp(p, "__new__", 7) == 0);
}

/* module + enclosing classes + the first enclosing def, or the
 * decorated name when no def encloses it; a constructor is its class. */
static char *
py_symbol(const struct src *x, const char *module, const struct pytrack *t,
	  size_t name, size_t nlen, int name_cls)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t k, cut = 0;
	int prev_cls = 0, last_ctor = 0, stopped = 0;

	tg_buf_adds(&b, module);
	for (k = 0; k < t->n && !stopped; k++) {
		const struct pyscope *sc = &t->v[k];

		cut = b.len;
		last_ctor = prev_cls && is_ctor(x->m + sc->name, sc->nlen);
		if (b.len)
			tg_buf_addc(&b, '.');
		tg_buf_add(&b, x->m + sc->name, sc->nlen);
		prev_cls = sc->cls;
		stopped = !sc->cls;
	}
	if (!stopped && nlen) {
		cut = b.len;
		last_ctor = prev_cls && !name_cls && is_ctor(x->m + name, nlen);
		if (b.len)
			tg_buf_addc(&b, '.');
		tg_buf_add(&b, x->m + name, nlen);
	}
	if (last_ctor)
		b.len = cut;
	if (!b.len)
		tg_buf_adds(&b, "(unknown)");
	if (!b.data)
		return NULL;
	b.data[b.len] = '\0';
	return tg_buf_detach(&b);
}

static void
py_decode(const char *s, const struct pystr *ps, struct tg_buf *out)
{
	size_t k;

	for (k = ps->body; k < ps->body_end; k++) {
		char e;

		if (ps->raw || s[k] != '\\' || k + 1 >= ps->body_end) {
			tg_buf_addc(out, s[k]);
			continue;
		}
		e = s[++k];
		switch (e) {
		case '\n':
			break;
		case 'n':
		case 't':
		case 'r':
			tg_buf_addc(out, ' ');
			break;
		case '\\':
		case '\'':
		case '"':
			tg_buf_addc(out, e);
			break;
		default:
			tg_buf_addc(out, '\\');
			tg_buf_addc(out, e);
			break;
		}
	}
}

/* Render the expression x->m[a..e) as a message: its string literals
 * (adjacent or joined by '+'), other '+' operands as {...}; stops at
 * any other operator ('%', '.format', 'if'). *lit says whether a
 * literal was seen. */
static void
py_render(const struct src *x, size_t a, size_t e, struct tg_buf *out, int *lit,
	  int depth)
{
	const char *m = x->m;
	size_t i = a;
	int operand = 1, after_lit = 0;

	while (i < e) {
		struct pystr ps;
		char c = m[i];

		if (space((unsigned char)c) || c == '\\') {
			i++;
			continue;
		}
		if ((operand || after_lit) && py_string_at(x->s, e, i, &ps)) {
			py_decode(x->s, &ps, out);
			*lit = 1;
			i = ps.end > i ? ps.end : i + 1;
			operand = 0;
			after_lit = 1;
			continue;
		}
		if (c == '+') {
			operand = 1;
			after_lit = 0;
			i++;
			continue;
		}
		if (!operand)
			break;
		if (c == '(') {
			struct arg args[ARGS_MAX];
			size_t n, close;

			if (depth >= RENDER_DEPTH ||
			    !split_args(m, e, i, args, &n, &close) || n != 1)
				break;
			py_render(x, args[0].a, args[0].e, out, lit, depth + 1);
			i = close + 1;
		} else {
			size_t st = i, d = 0;

			for (; i < e; i++) {
				c = m[i];
				if (c == '(' || c == '[' || c == '{')
					d++;
				else if ((c == ')' || c == ']' || c == '}') &&
					 d)
					d--;
				else if (d == 0 &&
					 !ident_char((unsigned char)c) &&
					 c != '.')
					break;
			}
			if (i == st)
				break;
			tg_buf_addc(out, '{');
			add_collapsed(out, x->s, st, i);
			tg_buf_addc(out, '}');
		}
		operand = 0;
		after_lit = 0;
	}
}

/* The message of argument g; NULL when it holds no literal and need_lit
 * is set. */
static int render_arg(const struct src *x, const struct arg *g, int cxx,
		      int need_lit, char **out);

/* The right-hand side of "NAME = ..." when logical line l is one. */
static int
py_assignment(const struct src *x, size_t l, size_t a, size_t n,
	      struct arg *rhs)
{
	const char *m = x->m;
	size_t ind, p, i;

	if (!x->lstart[l] || !py_line_head(x, l, &ind, &p) || x->len - p <= n ||
	    strncmp(m + p, m + a, n) != 0)
		return 0;
	for (i = p + n; i < x->len && (m[i] == ' ' || m[i] == '\t'); i++)
		;
	if (i + 1 >= x->len || m[i] != '=' || m[i + 1] == '=')
		return 0;
	for (i++; i < x->len && space((unsigned char)m[i]) && m[i] != '\n'; i++)
		;
	rhs->a = i;
	for (l++; l < x->nlines && !x->lstart[l]; l++)
		;
	rhs->e = l < x->nlines ? x->loff[l] : x->len;
	while (rhs->e > rhs->a && space((unsigned char)m[rhs->e - 1]))
		rhs->e--;
	rhs->ka = rhs->ke = 0;
	return ind == 0 ? 2 : 1;
}

/* A message given by name (NAME, NAME.format(...), NAME % ...): the
 * nearest assignment NAME = ... that starts a line before the call, else
 * the first module-level one after it, rendered in its place (its first
 * SPAN_MAX bytes). At most CONSTANTS_MAX look-ups per file, each a pass
 * over the line starts; *cost counts the lines and bytes looked at. */
static int
py_constant(const struct src *x, const struct arg *g, size_t line,
	    size_t *looked, size_t *cost, char **out)
{
	const char *m = x->m;
	struct arg rhs;
	size_t l, i, n;
	int found = 0;

	*out = NULL;
	for (i = g->a; i < g->e && ident_char((unsigned char)m[i]); i++)
		;
	n = i - g->a;
	while (i < g->e && space((unsigned char)m[i]))
		i++;
	if (n == 0 || !ident_start((unsigned char)m[g->a]) ||
	    (i < g->e && m[i] != '%' &&
	     (g->e - i < 8 || strncmp(m + i, ".format(", 8) != 0)))
		return 0;
	if (++*looked > CONSTANTS_MAX)
		return 0;
	for (l = line; !found && l > 0;) {
		l--;
		found = py_assignment(x, l, g->a, n, &rhs) != 0;
	}
	*cost += line - l;
	for (l = line + 1; !found && l < x->nlines; l++)
		found = py_assignment(x, l, g->a, n, &rhs) == 2;
	*cost += l - line;
	if (!found)
		return 0;
	if (rhs.e - rhs.a > SPAN_MAX)
		rhs.e = rhs.a + SPAN_MAX;
	*cost += rhs.e - rhs.a;
	return render_arg(x, &rhs, 0, 1, out);
}

/* Mark keyword arguments: "NAME =" (not "=="). */
static void
py_keywords(const struct src *x, struct arg *args, size_t n)
{
	size_t k, i;

	for (k = 0; k < n; k++) {
		i = args[k].a;
		if (!ident_start((unsigned char)x->m[i]))
			continue;
		while (i < args[k].e && ident_char((unsigned char)x->m[i]))
			i++;
		args[k].ke = i;
		while (i < args[k].e && space((unsigned char)x->m[i]))
			i++;
		if (i < args[k].e && x->m[i] == '=' &&
		    (i + 1 >= args[k].e || x->m[i + 1] != '=')) {
			args[k].ka = args[k].a;
			for (i++;
			     i < args[k].e && space((unsigned char)x->m[i]);
			     i++)
				;
			args[k].a = i;
		} else {
			args[k].ke = 0;
		}
	}
}

static int
kw_is(const struct src *x, const struct arg *g, const char *name)
{
	size_t n = strlen(name);

	return g->ke > g->ka && g->ke - g->ka == n &&
	       strncmp(x->m + g->ka, name, n) == 0;
}

/* A positional argument that only holds a version ("1.13"). */
static int
version_like(const char *msg)
{
	if (!(*msg >= '0' && *msg <= '9'))
		return 0;
	for (; *msg; msg++)
		if (!((*msg >= '0' && *msg <= '9') || *msg == '.'))
			return 0;
	return 1;
}

/* Whether the category expression names FutureWarning or
 * DeprecationWarning (its last dotted part). */
static int
py_category_ok(const struct src *x, const struct arg *g)
{
	size_t e = g->e, a;

	while (e > g->a && !ident_char((unsigned char)x->m[e - 1]))
		e--;
	for (a = e; a > g->a && ident_char((unsigned char)x->m[a - 1]); a--)
		;
	return (e - a == 13 && strncmp(x->m + a, "FutureWarning", 13) == 0) ||
	       (e - a == 18 &&
		strncmp(x->m + a, "DeprecationWarning", 18) == 0);
}

struct cxxtrack;

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

/* Count cost against the file's budget: 1 (stop) past it. */
static int
spend(struct run *r, size_t cost, size_t line)
{
	r->work += cost;
	if (r->work <= r->work_max)
		return 0;
	r->stopped = line + 1;
	r->why = "more to read than 32 bytes per byte of the file";
	return 1;
}

/* What split_args looked at for the call opening at open. */
static size_t
call_cost(const struct src *x, size_t open, int found, size_t close)
{
	if (found)
		return close - open + 1;
	return x->len - open > SPAN_MAX ? SPAN_MAX : x->len - open;
}

static int replacement(const struct ctx *cx, const char *msg, char **out,
		       struct tg_err *err);

static int
emit(struct run *r, char *symbol, size_t line, char *message, const char *kind)
{
	char *repl = NULL;
	int rc;

	if (!symbol) {
		free(message);
		return tg_err_set(r->err, TG_ENOMEM, "out of memory");
	}
	if (++r->ndecls > DECLS_PER_FILE_MAX) {
		free(symbol);
		free(message);
		r->stopped = line + 1;
		r->why = "more than 10000 declarations";
		return 1;
	}
	if (message) {
		rc = replacement(r->cx, message, &repl, r->err);
		if (rc) {
			free(symbol);
			free(message);
			return rc;
		}
	}
	return decl_add(r->out, symbol, r->file, line + 1, message, repl, kind,
			r->err);
}

static int
py_site(void *vr, const char *m, const size_t *ov, size_t ng)
{
	struct run *r = vr;
	struct src *x = r->x;
	struct arg args[ARGS_MAX];
	size_t n = 0, close = 0, k, line, name = 0, nlen = 0;
	int decorator = ov[2] != TG_SCAN_UNSET, cls = 0, ok = 0, rc, found;
	char *message = NULL;

	(void)m;
	(void)ng;
	line = line_of(x, decorator ? ov[2] : ov[4]);
	if (decorator) {
		for (k = ov[2];
		     k > 0 && (x->m[k - 1] == ' ' || x->m[k - 1] == '\t'); k--)
			;
		if (k > 0 && x->m[k - 1] != '\n')
			return 0; /* a matrix product, not a decorator */
	}
	found = split_args(x->m, x->len, ov[1] - 1, args, &n, &close);
	if (spend(r, call_cost(x, ov[1] - 1, found, close), line))
		return 1;
	if (!found)
		return 0;
	py_keywords(x, args, n);
	py_track(&r->pt, x, line);
	if (decorator) {
		for (k = 0; k < n && !message; k++)
			if (kw_is(x, &args[k], "message") ||
			    kw_is(x, &args[k], "msg") ||
			    kw_is(x, &args[k], "instructions") ||
			    kw_is(x, &args[k], "reason"))
				if ((rc = render_arg(x, &args[k], 0, 1,
						     &message)) != 0)
					return tg_err_set(r->err, rc,
							  "out of memory");
		for (k = 0; k < n && !message; k++) {
			if (args[k].ke > args[k].ka)
				continue;
			if ((rc = render_arg(x, &args[k], 0, 1, &message)) != 0)
				return tg_err_set(r->err, rc, "out of memory");
			if (message && version_like(message)) {
				free(message);
				message = NULL;
			}
		}
		py_decorated(x, close, &name, &nlen, &cls);
		ok = 1;
	} else {
		const struct arg *msg = NULL, *cat = NULL;
		size_t pos = 0, cost = 0;

		/* warn(message, category=None, stacklevel=1, ...) */
		for (k = 0; k < n; k++) {
			if (kw_is(x, &args[k], "message"))
				msg = &args[k];
			else if (kw_is(x, &args[k], "category"))
				cat = &args[k];
			else if (args[k].ke > args[k].ka)
				continue;
			else if (pos++ == 0)
				msg = &args[k];
			else if (pos == 2)
				cat = &args[k];
		}
		if (msg && (rc = py_constant(x, msg, line, &r->constants, &cost,
					     &message)) != 0)
			return tg_err_set(r->err, rc, "out of memory");
		if (spend(r, cost, line)) {
			free(message);
			return 1;
		}
		if (msg && !message &&
		    (rc = render_arg(x, msg, 0, 0, &message)) != 0)
			return tg_err_set(r->err, rc, "out of memory");
		ok = (cat && py_category_ok(x, cat)) ||
		     (message && contains_ci(message, "deprecat"));
	}
	if (!ok) {
		free(message);
		return 0;
	}
	return emit(r, py_symbol(x, r->module, &r->pt, name, nlen, cls), line,
		    message, decorator ? TG_DECL_DECORATOR : TG_DECL_WARN);
}

/* ---- C++ ------------------------------------------------------------ */

/* Whether the identifier s[a..e) is a string-literal prefix; *raw for
 * an R one. */
static int
cxx_prefix(const char *s, size_t a, size_t e, int *raw)
{
	static const char *const pre[] = {"L",	"u",  "U",  "u8", "R",
					  "LR", "uR", "UR", "u8R"};
	size_t k;

	for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strlen(pre[k]) == e - a &&
		    strncmp(s + a, pre[k], e - a) == 0) {
			*raw = pre[k][e - a - 1] == 'R';
			return 1;
		}
	return 0;
}

/* The end of the literal whose opening quote is at q (one past its
 * closing quote); raw strings end at )delim". */
static size_t
cxx_literal_end(const char *s, size_t len, size_t q, int raw)
{
	size_t k;

	if (raw) {
		char delim[18];
		size_t d = 0;

		for (k = q + 1; k < len && s[k] != '(' && d < 16; k++)
			delim[d++] = s[k];
		if (k >= len || s[k] != '(')
			return q + 1;
		delim[d] = '\0';
		for (k++; k < len; k++)
			if (s[k] == ')' && len - k > d + 1 &&
			    strncmp(s + k + 1, delim, d) == 0 &&
			    s[k + 1 + d] == '"')
				return k + d + 2;
		return len;
	}
	for (k = q + 1; k < len && s[k] != s[q] && s[k] != '\n'; k++)
		if (s[k] == '\\')
			k++;
	return k < len && s[k] == s[q] ? k + 1 : (k < len ? k : len);
}

/* Mask comments, literal bodies and preprocessor directives. */
static void
cxx_mask(struct src *x)
{
	const char *s = x->s;
	char *m = x->m;
	size_t i = 0, len = x->len;
	int bol = 1, directive = 0;

	while (i < len) {
		char c = s[i];

		if (c == '\n') {
			directive = 0;
			bol = 1;
			i++;
		} else if (c == '\\' && i + 1 < len &&
			   (s[i + 1] == '\n' || s[i + 1] == '\r')) {
			/* A continuation: the directive goes on. */
			m[i] = ' ';
			i++;
			if (s[i] == '\r')
				m[i++] = ' ';
			if (i < len && s[i] == '\n')
				i++;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			for (; i < len && s[i] != '\n'; i++)
				m[i] = ' ';
		} else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			size_t k;

			for (k = i + 2; k + 1 < len; k++)
				if (s[k] == '*' && s[k + 1] == '/')
					break;
			k = k + 1 < len ? k + 2 : len;
			blank(m, i, k);
			i = k;
		} else if (directive) {
			if (c == '"' || c == '\'') {
				size_t k = cxx_literal_end(s, len, i, 0);

				blank(m, i, k);
				i = k > i ? k : i + 1;
			} else {
				m[i++] = ' ';
			}
		} else if (c == '#' && bol) {
			directive = 1;
			m[i++] = ' ';
		} else if (c == '"' || c == '\'') {
			size_t k = cxx_literal_end(s, len, i, 0);

			bol = 0;
			if (k > i + 1)
				blank(m, i + 1, k - (s[k - 1] == c));
			i = k > i ? k : i + 1;
		} else if (ident_char((unsigned char)c)) {
			size_t a = i;
			int raw = 0;

			bol = 0;
			if (c >= '0' && c <= '9') {
				/* A number: 1'000 is not a char literal. */
				while (i < len &&
				       (ident_char((unsigned char)s[i]) ||
					s[i] == '.' || s[i] == '\''))
					i++;
				continue;
			}
			while (i < len && ident_char((unsigned char)s[i]))
				i++;
			if (i < len && (s[i] == '"' || s[i] == '\'') &&
			    cxx_prefix(s, a, i, &raw)) {
				size_t k = cxx_literal_end(s, len, i,
							   raw && s[i] == '"');

				if (k > i + 1)
					blank(m, i + 1, k - (s[k - 1] == s[i]));
				i = k > i ? k : i + 1;
			}
		} else {
			if (!space((unsigned char)c))
				bol = 0;
			i++;
		}
	}
}

/* Render a C++ argument x->m[a..e): its string literals concatenated
 * (original text, escapes decoded), anything else as {...}. */
static void
cxx_render(const struct src *x, size_t a, size_t e, struct tg_buf *out,
	   int *lit)
{
	const char *s = x->s, *m = x->m;
	size_t i = a;

	while (i < e) {
		size_t st, q = 0, d = 0, k;
		int raw = 0, found = 0;

		while (i < e && space((unsigned char)m[i]))
			i++;
		if (i >= e)
			break;
		/* Find the next literal at depth 0: a quote, maybe after a
		 * prefix. Everything before it is one non-literal operand. */
		for (st = i; i < e; i++) {
			char c = m[i];

			if (c == '(' || c == '[' || c == '{')
				d++;
			else if ((c == ')' || c == ']' || c == '}') && d)
				d--;
			else if (c == '"' && d == 0) {
				size_t p = i;

				while (p > st &&
				       ident_char((unsigned char)m[p - 1]))
					p--;
				if (p < i && !cxx_prefix(m, p, i, &raw))
					p = i;
				q = i;
				i = p;
				found = 1;
				break;
			}
		}
		if (i > st) {
			size_t b = i;

			while (b > st && space((unsigned char)m[b - 1]))
				b--;
			tg_buf_addc(out, '{');
			add_collapsed(out, m, st, b);
			tg_buf_addc(out, '}');
		}
		if (!found)
			break;
		/* The masked body holds no quote: the next one closes it. */
		for (k = q + 1; k < e && m[k] != '"'; k++)
			;
		if (k >= e)
			break;
		*lit = 1;
		if (raw) {
			size_t b = q + 1, d2;

			while (b < k && s[b] != '(')
				b++;
			d2 = b - (q + 1);
			if (b < k && k - b >= d2 + 2)
				tg_buf_add(out, s + b + 1,
					   k - (b + 1) - d2 - 1);
		} else {
			size_t j;

			for (j = q + 1; j < k; j++) {
				if (s[j] != '\\' || j + 1 >= k) {
					tg_buf_addc(out, s[j]);
					continue;
				}
				switch (s[++j]) {
				case '\n':
				case '\r':
					break;
				case 'n':
				case 't':
				case 'r':
					tg_buf_addc(out, ' ');
					break;
				case '\\':
				case '\'':
				case '"':
				case '?':
					tg_buf_addc(out, s[j]);
					break;
				default:
					tg_buf_addc(out, '\\');
					tg_buf_addc(out, s[j]);
					break;
				}
			}
		}
		i = k + 1;
	}
}

static int
render_arg(const struct src *x, const struct arg *g, int cxx, int need_lit,
	   char **out)
{
	struct tg_buf b = TG_BUF_INIT;
	int lit = 0;

	*out = NULL;
	tg_buf_init(&b, MESSAGE_MAX);
	if (cxx)
		cxx_render(x, g->a, g->e, &b, &lit);
	else
		py_render(x, g->a, g->e, &b, &lit, 0);
	if (b.len && (lit || !need_lit)) {
		*out = finish_text(b.data, b.len);
		if (!*out) {
			tg_buf_release(&b);
			return TG_ENOMEM;
		}
	}
	tg_buf_release(&b);
	return 0;
}

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

enum { T_ID, T_NUM, T_STR, T_COLON2, T_PUNCT };

struct tok {
	int type;
	size_t a, e;
};

/* Tokens of masked m[a..e): attributes [[...]] left out. */
static size_t
tokenize(const char *m, size_t a, size_t e, struct tok *t, size_t max)
{
	size_t n = 0, i = a;

	while (i < e && n < max) {
		char c = m[i];
		size_t st = i;

		if (space((unsigned char)c)) {
			i++;
			continue;
		}
		if (c == '[' && i + 1 < e && m[i + 1] == '[') {
			size_t d = 0;

			for (; i < e; i++) {
				if (m[i] == '[')
					d++;
				else if (m[i] == ']' && --d == 0)
					break;
			}
			i++;
			continue;
		}
		if (ident_start((unsigned char)c)) {
			while (i < e && ident_char((unsigned char)m[i]))
				i++;
			t[n].type = T_ID;
		} else if (c >= '0' && c <= '9') {
			while (i < e && (ident_char((unsigned char)m[i]) ||
					 m[i] == '.' || m[i] == '\''))
				i++;
			t[n].type = T_NUM;
		} else if (c == '"' || c == '\'') {
			for (i++; i < e && m[i] != c; i++)
				;
			i = i < e ? i + 1 : e;
			t[n].type = T_STR;
		} else if (c == ':' && i + 1 < e && m[i + 1] == ':') {
			i += 2;
			t[n].type = T_COLON2;
		} else {
			i++;
			t[n].type = T_PUNCT;
		}
		t[n].a = st;
		t[n].e = i;
		n++;
	}
	return n;
}

static int
tok_is(const char *m, const struct tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->e - t->a == n && strncmp(m + t->a, word, n) == 0;
}

static int
punct(const char *m, const struct tok *t, char c)
{
	return t->type == T_PUNCT && m[t->a] == c;
}

/* An identifier that names no function: a macro (upper case), or a
 * keyword that takes parentheses. */
static int
not_a_name(const char *m, const struct tok *t)
{
	static const char *const kw[] = {
	    "decltype",	     "alignas",	 "__attribute__",
	    "__declspec",    "noexcept", "sizeof",
	    "alignof",	     "throw",	 "requires",
	    "static_assert", "if",	 "for",
	    "while",	     "switch",	 "return",
	    "void",	     "catch",	 "explicit",
	    "__pragma",	     "_Pragma"};
	size_t k, lowercase = 0, letters = 0;

	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (tok_is(m, t, kw[k]))
			return 1;
	for (k = t->a; k < t->e; k++) {
		lowercase += m[k] >= 'a' && m[k] <= 'z';
		letters += ident_start((unsigned char)m[k]) && m[k] != '_';
	}
	return lowercase == 0 && letters > 0 && t->e - t->a > 1;
}

/* Skip the balanced group opening at token k ('(' or '<'); the index
 * of its closing token, or n. */
static size_t
skip_group(const char *m, const struct tok *t, size_t n, size_t k)
{
	char o = m[t[k].a], c = o == '(' ? ')' : '>';
	size_t d = 0, paren = 0;

	for (; k < n; k++) {
		if (t[k].type != T_PUNCT)
			continue;
		if (o == '<' && m[t[k].a] == '(')
			paren++;
		else if (o == '<' && m[t[k].a] == ')' && paren)
			paren--;
		else if (paren)
			continue;
		else if (m[t[k].a] == o)
			d++;
		else if (m[t[k].a] == c && --d == 0)
			return k;
	}
	return n;
}

/* The name a statement head m[a..e) declares or defines: *kind SC_NS,
 * SC_CLASS, SC_FUNC, SC_EXTERN or SC_OTHER; the name in *na..*ne
 * (empty when there is none). decl: the head is a declaration (ends at
 * ';', '=' or '{'), so a variable or alias name counts too. */
static void
head_name(const char *m, size_t a, size_t e, int decl, int *kind, size_t *na,
	  size_t *ne)
{
	struct tok t[TOKENS_MAX];
	size_t n = tokenize(m, a, e, t, TOKENS_MAX), k = 0, j, last = n;
	int seen_eq = 0;

	*kind = SC_OTHER;
	*na = *ne = 0;
	if (n == TOKENS_MAX)
		return;
	for (;;) {
		if (k + 1 < n && t[k].type == T_ID &&
		    punct(m, &t[k + 1], ':') &&
		    (tok_is(m, &t[k], "public") ||
		     tok_is(m, &t[k], "private") ||
		     tok_is(m, &t[k], "protected"))) {
			k += 2;
		} else if (k + 1 < n && tok_is(m, &t[k], "template") &&
			   punct(m, &t[k + 1], '<')) {
			k = skip_group(m, t, n, k + 1) + 1;
		} else if (k + 1 < n && t[k].type == T_ID &&
			   not_a_name(m, &t[k]) && punct(m, &t[k + 1], '(') &&
			   (j = skip_group(m, t, n, k + 1)) + 1 < n &&
			   t[j + 1].type == T_ID &&
			   (tok_is(m, &t[j + 1], "namespace") ||
			    tok_is(m, &t[j + 1], "class") ||
			    tok_is(m, &t[j + 1], "struct") ||
			    tok_is(m, &t[j + 1], "template") ||
			    not_a_name(m, &t[j + 1]))) {
			/* C10_CLANG_DIAGNOSTIC_PUSH() namespace c10 */
			k = j + 1;
		} else {
			break;
		}
	}
	if (k >= n)
		return;
	if (k + 2 == n && tok_is(m, &t[k], "extern") &&
	    t[k + 1].type == T_STR) {
		*kind = SC_EXTERN;
		return;
	}
	if (tok_is(m, &t[k], "inline") && k + 1 < n &&
	    tok_is(m, &t[k + 1], "namespace"))
		k++;
	if (tok_is(m, &t[k], "namespace")) {
		*kind = SC_NS;
		for (j = k + 1;
		     j < n && (t[j].type == T_ID || t[j].type == T_COLON2); j++)
			;
		if (j > k + 1) {
			*na = t[k + 1].a;
			*ne = t[j - 1].e;
		}
		return;
	}
	if (tok_is(m, &t[k], "using") && decl) {
		if (k + 1 < n && t[k + 1].type == T_ID &&
		    !tok_is(m, &t[k + 1], "namespace")) {
			*na = t[k + 1].a;
			*ne = t[k + 1].e;
		}
		return;
	}
	if (tok_is(m, &t[k], "class") || tok_is(m, &t[k], "struct") ||
	    tok_is(m, &t[k], "union") || tok_is(m, &t[k], "enum")) {
		int is_func = 0;

		for (j = k + 1; j < n; j++) {
			if (punct(m, &t[j], ':') || punct(m, &t[j], '<') ||
			    punct(m, &t[j], '{') || punct(m, &t[j], ';'))
				break;
			if (punct(m, &t[j], '(')) {
				if (t[j - 1].type == T_ID &&
				    !not_a_name(m, &t[j - 1])) {
					is_func = 1;
					break;
				}
				j = skip_group(m, t, n, j);
				continue;
			}
			if (t[j].type == T_ID && !tok_is(m, &t[j], "final") &&
			    !tok_is(m, &t[j], "class") &&
			    !tok_is(m, &t[j], "struct"))
				last = j;
		}
		if (!is_func) {
			if (last < n) {
				*na = t[last].a;
				*ne = t[last].e;
			}
			*kind = SC_CLASS;
			return;
		}
		last = n;
	}
	/* A function: the first '(' after a name that is not a macro. */
	for (j = k; j < n; j++) {
		size_t p;

		if (punct(m, &t[j], '=') && !decl)
			seen_eq = 1;
		if (!punct(m, &t[j], '('))
			continue;
		if (seen_eq)
			break;
		if (j == k) {
			j = skip_group(m, t, n, j);
			continue;
		}
		p = j - 1;
		if (t[p].type == T_ID && tok_is(m, &t[p], "operator")) {
			/* operator()(...) */
			*na = t[p].a;
			*ne = j + 1 < n ? t[j + 1].e : t[j].e;
			*kind = SC_FUNC;
			return;
		}
		if (t[p].type == T_ID && p > k &&
		    tok_is(m, &t[p - 1], "operator")) {
			/* operator bool() */
			*na = t[p - 1].a;
			*ne = t[p].e;
			*kind = SC_FUNC;
			return;
		}
		if (t[p].type == T_ID && not_a_name(m, &t[p])) {
			j = skip_group(m, t, n, j);
			continue;
		}
		if (t[p].type == T_PUNCT) {
			size_t q = p;

			while (q > k && t[q].type == T_PUNCT && p - q < 3)
				q--;
			if (tok_is(m, &t[q], "operator")) {
				*na = t[q].a;
				*ne = t[p].e;
				*kind = SC_FUNC;
				return;
			}
			j = skip_group(m, t, n, j);
			continue;
		}
		if (t[p].type != T_ID) {
			j = skip_group(m, t, n, j);
			continue;
		}
		/* Qualified: A::B::name, ~name, Tmpl<T>::name. */
		*ne = t[p].e;
		for (;;) {
			if (p > k && punct(m, &t[p - 1], '~'))
				p--;
			if (p > k + 1 && t[p - 1].type == T_COLON2 &&
			    t[p - 2].type == T_ID)
				p -= 2;
			else
				break;
		}
		*na = t[p].a;
		*kind = SC_FUNC;
		return;
	}
	if (decl && !seen_eq) {
		/* A variable or an enumerator: the last name. */
		for (j = n; j > k; j--)
			if (t[j - 1].type == T_ID &&
			    !not_a_name(m, &t[j - 1])) {
				*na = t[j - 1].a;
				*ne = t[j - 1].e;
				return;
			}
	}
}

/* Move the brace scopes forward to offset upto. */
static void
cxx_track(struct cxxtrack *t, const struct src *x, size_t upto)
{
	const char *m = x->m;

	for (; t->pos < upto && t->pos < x->len; t->pos++) {
		char c = m[t->pos];

		if (c == '{') {
			struct cxxscope sc = {SC_OTHER, 0, 0};
			int opaque = t->over > 0;
			size_t na, ne;

			if (t->n && (t->v[t->n - 1].kind == SC_FUNC ||
				     t->v[t->n - 1].kind == SC_OTHER))
				opaque = 1;
			if (!opaque) {
				head_name(m, t->stmt, t->pos, 0, &sc.kind, &na,
					  &ne);
				sc.name = na;
				sc.nlen = ne - na;
			}
			if (t->n < SCOPE_MAX && !t->over)
				t->v[t->n++] = sc;
			else
				t->over++;
			t->stmt = t->pos + 1;
		} else if (c == '}') {
			if (t->over)
				t->over--;
			else if (t->n)
				t->n--;
			t->stmt = t->pos + 1;
		} else if (c == ';') {
			t->stmt = t->pos + 1;
		}
	}
}

/* Append m[a..e) without whitespace. */
static void
add_name(struct tg_buf *b, const char *m, size_t a, size_t e)
{
	for (; a < e; a++)
		if (!space((unsigned char)m[a]))
			tg_buf_addc(b, m[a]);
}

/* Namespaces and classes, then the enclosing function when there is
 * one (then name is left out: a local), then name. */
static char *
cxx_symbol(const struct src *x, const struct cxxtrack *t, size_t na, size_t ne)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t k;
	int in_func = 0;

	for (k = 0; k < t->n; k++) {
		const struct cxxscope *sc = &t->v[k];

		if (sc->kind == SC_OTHER)
			break;
		if (sc->nlen) {
			add_name(&b, x->m, sc->name, sc->name + sc->nlen);
			tg_buf_adds(&b, "::");
		}
		if (sc->kind == SC_FUNC) {
			in_func = 1;
			break;
		}
	}
	if (!in_func && ne > na)
		add_name(&b, x->m, na, ne);
	while (b.len >= 2 && b.data[b.len - 1] == ':' &&
	       b.data[b.len - 2] == ':')
		b.len -= 2;
	if (!b.len)
		tg_buf_adds(&b, "(unknown)");
	if (!b.data)
		return NULL;
	b.data[b.len] = '\0';
	return tg_buf_detach(&b);
}

static int
cxx_site(void *vr, const char *mm, const size_t *ov, size_t ng)
{
	struct run *r = vr;
	struct src *x = r->x;
	const char *m = x->m;
	struct arg args[ARGS_MAX];
	size_t n = 0, close = 0, k, start, after, stop, na = 0, ne = 0, d = 0;
	size_t line;
	char *message = NULL;
	const char *kind;
	int sk, rc, c10 = 0, warn = 0, found;

	(void)mm;
	(void)ng;
	if (ov[2] != TG_SCAN_UNSET) {
		kind = TG_DECL_C10;
		start = ov[2];
		c10 = 1;
	} else if (ov[4] != TG_SCAN_UNSET) {
		kind = TG_DECL_TORCH_WARN;
		start = ov[4];
		warn = 1;
	} else {
		kind = TG_DECL_ATTRIBUTE;
		start = ov[6];
	}
	cxx_track(r->ct, x, start);
	line = line_of(x, start);
	if (!c10 && !warn) {
		for (k = ov[1]; k < x->len && space((unsigned char)m[k]); k++)
			;
		if (k < x->len && m[k] == '(') {
			found = split_args(m, x->len, k, args, &n, &close);
			if (spend(r, call_cost(x, k, found, close), line))
				return 1;
			if (!found)
				return 0;
			k = close + 1;
		}
		for (; k + 1 < x->len && k - ov[1] < 256; k++)
			if (m[k] == ']' && m[k + 1] == ']')
				break;
		if (k + 1 >= x->len || m[k] != ']')
			return 0;
		after = k + 2;
	} else {
		found = split_args(m, x->len, ov[1] - 1, args, &n, &close);
		if (spend(r, call_cost(x, ov[1] - 1, found, close), line))
			return 1;
		if (!found)
			return 0;
		after = close + 1;
	}
	if (warn) {
		struct tg_buf b = TG_BUF_INIT;
		int lit = 0;

		tg_buf_init(&b, MESSAGE_MAX);
		for (k = 0; k < n; k++)
			cxx_render(x, args[k].a, args[k].e, &b, &lit);
		if (b.len) {
			message = finish_text(b.data, b.len);
			if (!message) {
				tg_buf_release(&b);
				return tg_err_set(r->err, TG_ENOMEM,
						  "out of memory");
			}
		}
		tg_buf_release(&b);
		return emit(r, cxx_symbol(x, r->ct, 0, 0), line, message, kind);
	}
	if (n > 0 && (rc = render_arg(x, &args[0], 1, 1, &message)) != 0)
		return tg_err_set(r->err, rc, "out of memory");
	if (c10 && !message)
		return 0; /* the macro's own definition, or a parameter */
	/* The declaration: from the statement's start to ';', '{', '}' or
	 * a top-level '='. */
	for (stop = after; stop < x->len && stop - after < HEAD_SPAN_MAX;
	     stop++) {
		char c = m[stop];

		if (c == '(' || c == '[')
			d++;
		else if ((c == ')' || c == ']') && d)
			d--;
		else if (d == 0 && (c == ';' || c == '{' || c == '}'))
			break;
		else if (d == 0 && c == '=' && m[stop + 1] != '=' &&
			 !strchr("=!<>+-*/%&|^", m[stop - 1]))
			break; /* an initializer, not operator== */
	}
	if (spend(r, stop - r->ct->stmt, line)) {
		free(message);
		return 1;
	}
	head_name(m, r->ct->stmt, stop, 1, &sk, &na, &ne);
	return emit(r, cxx_symbol(x, r->ct, na, ne), line, message, kind);
}

/* ---- replacements --------------------------------------------------- */

struct repl_run {
	char *found;
};

static int
repl_site(void *vr, const char *s, const size_t *ov, size_t ng)
{
	static const char *const stop[] = {
	    "it", "this", "that", "them", "these", "those", "one", "something"};
	struct repl_run *r = vr;
	size_t a = TG_SCAN_UNSET, e = 0, k;
	int quoted = 0;

	for (k = 1; k <= 3 && k < ng; k++)
		if (ov[2 * k] != TG_SCAN_UNSET) {
			a = ov[2 * k];
			e = ov[2 * k + 1];
			quoted = 1;
			break;
		}
	if (!quoted && ng > 4 && ov[8] != TG_SCAN_UNSET) {
		int code = 0;

		/* "nn.init.{}": the name is only known at run time. */
		if (ng > 5 && ov[11] > ov[10])
			return 0;
		a = ov[8];
		e = ov[9];
		while (e > a && strchr(".,:;", s[e - 1]))
			e--;
		for (k = a; k < e; k++)
			code |= strchr("._:(~<", s[k]) != NULL ||
				(s[k] >= '0' && s[k] <= '9');
		for (k = 0; k < sizeof(stop) / sizeof(stop[0]); k++)
			if (strlen(stop[k]) == e - a &&
			    strncmp(stop[k], s + a, e - a) == 0)
				return 0;
		if (!code && !(ng > 6 && ov[12] != TG_SCAN_UNSET))
			return 0;
	}
	if (a == TG_SCAN_UNSET)
		return 0;
	while (a < e && space((unsigned char)s[a]))
		a++;
	while (e > a && space((unsigned char)s[e - 1]))
		e--;
	if (a == e)
		return 0;
	/* An f-string field alone names nothing we can read. */
	if (s[a] == '{' && s[e - 1] == '}' &&
	    !memchr(s + a + 1, '{', e - a - 1))
		return 0;
	r->found = tg_str_ndup(s + a, e - a);
	return r->found ? 1 : TG_ENOMEM;
}

static int
replacement(const struct ctx *cx, const char *msg, char **out,
	    struct tg_err *err)
{
	struct repl_run r = {NULL};
	struct tg_err e = TG_ERR_INIT;
	int rc = tg_scan_re_each(cx->repl, msg, strlen(msg), repl_site, &r, &e);

	*out = NULL;
	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc) {
		/* A message past the match limits names no replacement. */
		free(r.found);
		return 0;
	}
	*out = r.found;
	return 0;
}

/* ---- one file ------------------------------------------------------- */

static void
ctx_release(struct ctx *cx)
{
	tg_scan_re_free(cx->py);
	tg_scan_re_free(cx->cxx);
	tg_scan_re_free(cx->repl);
}

static int
ctx_init(struct ctx *cx, struct tg_err *err)
{
	int rc;

	memset(cx, 0, sizeof(*cx));
	if ((rc = tg_scan_compile(&cx->py, py_pattern, err)) != 0 ||
	    (rc = tg_scan_compile(&cx->cxx, cxx_pattern, err)) != 0 ||
	    (rc = tg_scan_compile(&cx->repl, repl_pattern, err)) != 0)
		ctx_release(cx);
	return rc;
}

/* Whether a text can hold a site at all: every site names "deprecated"
 * or "warnings" (Python), "deprecat" or "DEPRECAT" (C++). Most files do
 * not, and are then neither masked nor matched. */
static int
may_declare(const char *text, size_t len, int cxx)
{
	if (cxx)
		return memmem(text, len, "deprecat", 8) ||
		       memmem(text, len, "DEPRECAT", 8);
	return memmem(text, len, "deprecated", 10) ||
	       memmem(text, len, "warnings", 8);
}

/* Harvest one text; a regex past its limits is a note, not an error. */
static int
harvest(const struct ctx *cx, struct tg_decls *out, const char *text,
	size_t len, int cxx, const char *module, const char *file,
	struct tg_err *err)
{
	struct src x = {text, NULL, len, NULL, NULL, 0};
	struct cxxtrack *ct = NULL;
	struct run *r = NULL;
	struct tg_err e = TG_ERR_INIT;
	int rc = 0;

	if (!may_declare(text, len, cxx))
		goto out;
	r = calloc(1, sizeof(*r));
	ct = calloc(1, sizeof(*ct));
	if (!r || !ct || src_lines(&x)) {
		rc = tg_err_set(&e, TG_ENOMEM, "out of memory");
		goto out;
	}
	if (cxx)
		cxx_mask(&x);
	else
		py_mask(&x);
	r->cx = cx;
	r->x = &x;
	r->module = module ? module : "";
	r->file = file;
	r->out = out;
	r->err = &e;
	r->ct = ct;
	r->work_max = len > (SIZE_MAX - WORK_MIN) / WORK_PER_BYTE
			  ? SIZE_MAX
			  : WORK_PER_BYTE * len + WORK_MIN;
	rc = tg_scan_re_each(cxx ? cx->cxx : cx->py, x.m, x.len,
			     cxx ? cxx_site : py_site, r, &e);
	if (!rc && r->stopped)
		rc = note(out, err, "'%s': stopped at line %zu: %s", file,
			  r->stopped, r->why);
out:
	if (rc == TG_ELIMIT)
		rc = note(out, err, "'%s': %s", file, e.msg);
	else if (rc)
		tg_err_set(err, rc, "%s", e.msg);
	free(ct);
	free(r);
	src_release(&x);
	return rc;
}

int
tg_discover_text(struct tg_decls *out, const char *text, size_t len, int cxx,
		 const char *module, const char *file, struct tg_err *err)
{
	struct ctx cx;
	int rc = ctx_init(&cx, err);

	if (rc)
		return rc;
	rc = harvest(&cx, out, text, len, cxx, module, file, err);
	ctx_release(&cx);
	return rc;
}

int
tg_discover_replacement(const char *message, char **out, struct tg_err *err)
{
	struct ctx cx;
	int rc = ctx_init(&cx, err);

	*out = NULL;
	if (rc)
		return rc;
	rc = replacement(&cx, message, out, err);
	ctx_release(&cx);
	return rc;
}

/* ---- the walk ------------------------------------------------------ */

struct walk {
	const struct ctx *cx;
	struct tg_decls *out;
	struct tg_err *err;
	int cxx;
	const char *modroot; /* torch_dir's last component */
	int have_skip;
	dev_t skip_dev;
	ino_t skip_ino;
};

static int
has_ext(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && strcmp(name + n - e, ext) == 0;
}

static int
wanted(const struct walk *w, const char *name)
{
	if (!w->cxx)
		return has_ext(name, ".py");
	return has_ext(name, ".h") || has_ext(name, ".hpp") ||
	       has_ext(name, ".cuh");
}

/* torch/cuda/amp/autocast_mode.py -> torch.cuda.amp.autocast_mode. */
static char *
module_name(const char *root, const char *rel)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t n = strlen(rel) - 3, k; /* without ".py" */

	tg_buf_adds(&b, root);
	if (n > 0) {
		tg_buf_addc(&b, '.');
		for (k = 0; k < n; k++)
			tg_buf_addc(&b, rel[k] == '/' ? '.' : rel[k]);
	}
	if (b.len >= 9 && strcmp(b.data + b.len - 9, ".__init__") == 0)
		b.len -= 9;
	if (!b.data)
		return NULL;
	b.data[b.len] = '\0';
	return tg_buf_detach(&b);
}

static int
scan_file(void *vw, const struct tg_walk_entry *e)
{
	struct walk *w = vw;
	const char *path = e->path;
	char *text = NULL, *module = NULL;
	size_t len;
	struct tg_err er = TG_ERR_INIT;
	int rc;

	if ((size_t)e->st->st_size > TG_DISCOVER_FILE_MAX)
		return note(w->out, w->err, "skipped '%s': larger than 16 MiB",
			    path);
	rc = tg_file_read(path, TG_DISCOVER_FILE_MAX, &text, &len, NULL, &er);
	if (rc == TG_ENOMEM)
		return tg_err_set(w->err, rc, "%s", er.msg);
	if (rc == TG_ELIMIT)
		return note(w->out, w->err, "skipped '%s': larger than 16 MiB",
			    path);
	if (rc)
		return note(w->out, w->err, "skipped %s", er.msg);
	if (!w->cxx && !(module = module_name(w->modroot, e->rel))) {
		free(text);
		return tg_err_set(w->err, TG_ENOMEM, "out of memory");
	}
	rc = harvest(w->cx, w->out, text, len, w->cxx, module, path, w->err);
	free(module);
	free(text);
	return rc;
}

/* The files of the language walked; no __pycache__, and the Python
 * walk leaves the include directory to the header walk. */
static int
want(void *vw, const struct tg_walk_entry *e)
{
	const struct walk *w = vw;

	if (!S_ISDIR(e->st->st_mode))
		return wanted(w, e->name);
	if (!w->cxx && strcmp(e->name, "__pycache__") == 0)
		return 0;
	return !(w->have_skip && e->st->st_dev == w->skip_dev &&
		 e->st->st_ino == w->skip_ino);
}

/* A note for what the walk left out that a user may want to know of;
 * a dangling link, a directory reached twice, a device or FIFO: none.
 * The limits that stop the walk are its error, not a note. */
static int
skipped(void *vw, const struct tg_walk_entry *e, enum tg_walk_why why,
	const char *msg)
{
	struct walk *w = vw;

	switch (why) {
	case TG_WALK_OUTSIDE:
	case TG_WALK_LOOP:
	case TG_WALK_DEPTH:
	case TG_WALK_UNREADABLE:
		return note(w->out, w->err, "skipped '%s': %s", e->path, msg);
	default:
		return 0;
	}
}

/* root: the Python tree, or the include directory, whose entries may be
 * links out of it (Debian's torch/include/ATen -> /usr/include/ATen). */
static int
walk_root(struct walk *w, const char *root, struct tg_err *err)
{
	struct tg_walk_opts o;

	memset(&o, 0, sizeof(o));
	o.max_depth = TG_DISCOVER_DEPTH_MAX;
	o.max_entries = TG_DISCOVER_FILES_MAX;
	o.flags = w->cxx ? TG_WALK_ROOT_LINKS : 0;
	o.want = want;
	o.file = scan_file;
	o.skipped = skipped;
	o.ctx = w;
	return tg_walk(root, &o, err);
}

static int
cmp_decl(const void *pa, const void *pb)
{
	const struct tg_decl *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if ((c = strcmp(a->kind, b->kind)) != 0)
		return c;
	if ((c = strcmp(a->symbol, b->symbol)) != 0)
		return c;
	if (!a->message || !b->message)
		return !!a->message - !!b->message;
	return strcmp(a->message, b->message);
}

int
tg_discover(struct tg_decls *out, const char *torch_dir,
	    const char *include_dir, struct tg_err *err)
{
	struct ctx cx;
	struct walk w;
	struct stat st;
	char *root = NULL;
	size_t n;
	int rc = ctx_init(&cx, err);

	if (rc)
		return rc;
	memset(&w, 0, sizeof(w));
	w.cx = &cx;
	w.out = out;
	w.err = err;
	n = strlen(torch_dir);
	while (n > 1 && torch_dir[n - 1] == '/')
		n--;
	root = tg_str_ndup(torch_dir, n);
	if (!root) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	w.modroot = tg_path_basename(root);
	if (include_dir && stat(include_dir, &st) == 0) {
		w.have_skip = 1;
		w.skip_dev = st.st_dev;
		w.skip_ino = st.st_ino;
	}
	rc = walk_root(&w, torch_dir, err);
	if (rc || !include_dir)
		goto out;
	w.have_skip = 0;
	w.cxx = 1;
	rc = walk_root(&w, include_dir, err);
out:
	if (!rc && out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_decl);
	free(root);
	ctx_release(&cx);
	return rc;
}
