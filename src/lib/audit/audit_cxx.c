/* audit_cxx.c - uses of the table's C++ entries in C, C++ and CUDA source
 * SPDX-License-Identifier: MIT
 *
 * One pass of lex/clex over the file makes two masked copies of it, lines
 * kept: the code (comments and literal bodies blanked, directives kept
 * but for their comments) and the mentions (only comment text and
 * literal bodies kept). The table's usage patterns of each C++ entry run
 * over the code copy (findings in code) and, but for methods, over the
 * mention copy (findings in a comment or string); a method entry is
 * mentioned by its id. The patterns are compiled once, in an index
 * (tg_audit_cxx_index_new), JIT-compiled, with the literals one of
 * which each of their matches must hold (literal_set: "(?:c10|at)::
 * optional" gives two names). Per file, one pass over the source
 * (prefilter: three bytes at every other byte, then four) finds which
 * patterns' literals occur in it, and where; a file in which none does
 * (nor "torchgate:", nor a version test, nor a method's id) is not even
 * tokenized, and only the patterns found run, each only near the places
 * of its literals (or, when it cannot be known how far before its
 * literal a match starts, or there are too many places, over the bytes
 * between the first and the last).
 * tg_audit_cxx_index_only narrows the patterns to the entries a caller
 * can report (but for files with a suppression comment).
 *
 * Methods (.type(), .data<T>()) are judged by their receiver, from the
 * masked text before the '.' or '->': a call such as x.device() or
 * x.options(), a name such as scalar or options or ending in _device,
 * a name declared auto from such a call, or a name declared in
 * the 64 KiB before the use with a type that is not a tensor (Scalar,
 * Device, TensorOptions, ...) is not at::Tensor; anything else is
 * assumed to be one (a guess, written down in torchgate-audit(1)).
 *
 * The same pass follows #if/#ifdef/#ifndef/#elif/#else/#endif: a branch
 * whose chain tests a torch version macro (a name holding TORCH_VERSION)
 * or a generated *_HAS_* macro, or #ifdef/#ifndef/defined() of a table
 * macro, guards what it holds. A chain whose conditions are exact
 * expressions in TORCH_VERSION_MAJOR and TORCH_VERSION_MINOR (any
 * prefix) is evaluated over the versions 0.0 to 9.99; a branch that runs
 * for one interval of them becomes a tg_audit_branch with that interval
 * as a specifier set. Comments "torchgate: ignore[id,...]" become
 * suppressions.
 *
 * One finding per place: where two entries match the same span, the one
 * whose id the other extends wins (c10::optional, not its pseudo-entry
 * c10::optional.std_alias, which records a fact about the same name).
 *
 * Limits: at most FINDINGS_MAX findings a file (a note says so), 64
 * nested conditionals followed (deeper ones guard nothing), REGIONS_MAX
 * guarded branches. Memory: about three times the file, the offset of
 * each newline and of each place (at most PLACES_MAX). Time: one token
 * pass, a search near each place of each pattern found, and a binary
 * search of the newlines per finding. Bad input is never an
 * error: pcre2's limits end a match with a note, never the analysis.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/clex.h"
#include "lib/util/scan.h"

#define FINDINGS_MAX 10000
#define REGIONS_MAX 65536
#define DEPTH_MAX 64
#define TEXT_MAX 200
#define LITERAL_MAX 64
#define LOOKBACK 65536
#define GRID_MINOR TG_AUDIT_GRID_MINOR
#define GRID TG_AUDIT_GRID

/* A closed branch that guards lines first..last. */
struct region {
	size_t first, last;
	size_t line;	 /* of the directive that makes it a guard */
	size_t off, len; /* that directive's first line, in src */
};

/* An open conditional chain. */
struct frame {
	size_t line;	 /* of the current branch's directive */
	size_t off, len; /* the current branch's directive text */
	int guard;	 /* some condition of the chain is a guard */
	size_t gline, goff, glen;
	int exact; /* every condition so far read exactly */
	unsigned char rest[GRID], cur[GRID];
	int is_else;
	size_t if_line;
};

struct cx {
	const struct tg_table *t;
	const char *src, *path;
	size_t len;
	char *code, *ment;
	unsigned char *strbits; /* a bit per byte: inside a literal */
	struct tg_audit_result *r;
	struct frame *fr;
	size_t depth; /* open chains, fr[0..min(depth, DEPTH_MAX)) */
	struct region *reg;
	size_t nreg, capreg;
	size_t added; /* findings this file */
	int full;     /* FINDINGS_MAX reached, noted */
	int dedupe;   /* look for the same finding from another pattern */
	/* where each line but the last ends: the offsets of the newlines */
	size_t *nl, nnl;
	int oom;
};

static int
is_ident(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c >= 0x80;
}

/* Line and 1-based column of off: the newlines before it, counted by a
 * binary search of the file's newlines. */
static void
position(const struct cx *x, size_t off, size_t *line, size_t *col)
{
	size_t lo = 0, hi = x->nnl;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->nl[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - (lo ? x->nl[lo - 1] + 1 : 0) + 1;
}

/* The offsets of src's newlines into x->nl, and each also into m: 0 or
 * TG_ENOMEM. */
static int
newlines(struct cx *x, char *m)
{
	const char *p, *end = x->src + x->len;
	size_t cap = x->len / 32 + 16;

	x->nl = malloc(cap * sizeof(*x->nl));
	if (!x->nl)
		return TG_ENOMEM;
	for (p = x->src; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (x->nnl == cap) {
			size_t *v = realloc(x->nl, 2 * cap * sizeof(*v));

			if (!v)
				return TG_ENOMEM;
			x->nl = v;
			cap *= 2;
		}
		x->nl[x->nnl++] = (size_t)(p - x->src);
		m[p - x->src] = '\n';
	}
	return 0;
}

/* Blank m[a..e) to spaces but its newlines (a line at a time). */
static void
blank(char *m, size_t a, size_t e)
{
	char *p = m + a, *end = m + e, *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		memset(p, ' ', (size_t)((nl ? nl : end) - p));
		if (!nl)
			break;
	}
}

/* Blank the comments inside a directive's text s[a..e) in m. */
static void
blank_directive_comments(const char *s, char *m, size_t a, size_t e)
{
	char q = 0;
	size_t i;

	for (i = a; i < e; i++) {
		if (q) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == q)
				q = 0;
		} else if (s[i] == '"' || s[i] == '\'') {
			q = s[i];
		} else if (s[i] == '/' && i + 1 < e && s[i + 1] == '/') {
			blank(m, i, e);
			return;
		} else if (s[i] == '/' && i + 1 < e && s[i + 1] == '*') {
			size_t j = i + 2;

			while (j + 1 < e && !(s[j] == '*' && s[j + 1] == '/'))
				j++;
			j = j + 2 <= e ? j + 2 : e;
			blank(m, i, j);
			i = j - 1;
		}
	}
}

/* Keep s[a..e) in the mention copy. */
static void
keep(struct cx *x, size_t a, size_t e, int literal)
{
	size_t i;

	memcpy(x->ment + a, x->src + a, e - a);
	if (literal)
		for (i = a; i < e; i++)
			x->strbits[i / 8] |= (unsigned char)(1u << (i % 8));
}

static int
in_literal(const struct cx *x, size_t off)
{
	return (x->strbits[off / 8] >> (off % 8)) & 1;
}

/* ------------------------------------------------------------------ */
/* Conditions */

/* The condition of a directive: s[a..e) after the keyword, with
 * continuations and comments as spaces, into out (at most outsz - 1
 * bytes; longer conditions are cut, which makes them inexact). */
static size_t
condition_text(const char *m, size_t a, size_t e, char *out, size_t outsz)
{
	size_t n = 0;

	for (; a < e && n + 1 < outsz; a++) {
		char c = m[a];

		if (c == '\\' && a + 1 < e &&
		    (m[a + 1] == '\n' || m[a + 1] == '\r'))
			c = ' ';
		else if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		out[n++] = c;
	}
	out[n] = '\0';
	return n;
}

static int
word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* Whether name s[0..n) ends with suffix. */
static int
ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static int
has_sub(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, w, k) == 0)
			return 1;
	return 0;
}

static int
table_macro(const struct tg_table *t, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		if (t->apis[k].cxx && strcmp(t->apis[k].kind, "macro") == 0 &&
		    word_is(s, n, t->apis[k].id))
			return 1;
	return 0;
}

/* Whether a condition is a guard: a name holding TORCH_VERSION, a
 * *_HAS_* or HAS_* name, or (ifdef: the whole condition is a name) a
 * table macro tested for definition. */
static int
is_guard(const struct tg_table *t, const char *c, int ifdef)
{
	size_t i = 0, a;
	int after_defined = 0;

	while (c[i]) {
		if (!is_ident((unsigned char)c[i]) ||
		    (c[i] >= '0' && c[i] <= '9')) {
			if (c[i] != ' ' && c[i] != '(')
				after_defined = 0;
			i++;
			continue;
		}
		a = i;
		while (c[i] && is_ident((unsigned char)c[i]))
			i++;
		if (has_sub(c + a, i - a, "TORCH_VERSION") ||
		    has_sub(c + a, i - a, "_HAS_") ||
		    (i - a > 4 && memcmp(c + a, "HAS_", 4) == 0))
			return 1;
		if ((ifdef || after_defined) && table_macro(t, c + a, i - a))
			return 1;
		after_defined = word_is(c + a, i - a, "defined");
	}
	return 0;
}

/* An exact evaluator for version conditions: integers, names ending in
 * TORCH_VERSION_MAJOR / _MINOR, ( ) ! * + - < <= > >= == != && ||. */
struct ev {
	const char *s;
	size_t i;
	long major, minor;
	int bad;
};

static void
ev_space(struct ev *e)
{
	while (e->s[e->i] == ' ')
		e->i++;
}

static int
ev_take(struct ev *e, const char *op)
{
	size_t n = strlen(op);

	ev_space(e);
	if (strncmp(e->s + e->i, op, n))
		return 0;
	/* "<" is not "<=", "!" is not "!=", "&" alone is not "&&" */
	if (n == 1 && (op[0] == '<' || op[0] == '>' || op[0] == '!') &&
	    e->s[e->i + 1] == '=')
		return 0;
	e->i += n;
	return 1;
}

static long ev_or(struct ev *e, int depth);

static long
ev_primary(struct ev *e, int depth)
{
	long v = 0;
	size_t a;

	ev_space(e);
	if (depth > 32) {
		e->bad = 1;
		return 0;
	}
	if (ev_take(e, "!"))
		return !ev_primary(e, depth + 1);
	if (ev_take(e, "-"))
		return -ev_primary(e, depth + 1);
	if (ev_take(e, "(")) {
		v = ev_or(e, depth + 1);
		if (!ev_take(e, ")"))
			e->bad = 1;
		return v;
	}
	a = e->i;
	if (e->s[a] >= '0' && e->s[a] <= '9') {
		while (e->s[e->i] >= '0' && e->s[e->i] <= '9' && v < 100000)
			v = v * 10 + (e->s[e->i++] - '0');
		while (e->s[e->i] == 'L' || e->s[e->i] == 'U' ||
		       e->s[e->i] == 'l' || e->s[e->i] == 'u')
			e->i++;
		if (is_ident((unsigned char)e->s[e->i]))
			e->bad = 1;
		return v;
	}
	while (is_ident((unsigned char)e->s[e->i]))
		e->i++;
	if (ends_with(e->s + a, e->i - a, "TORCH_VERSION_MAJOR") && e->i > a)
		return e->major;
	if (ends_with(e->s + a, e->i - a, "TORCH_VERSION_MINOR") && e->i > a)
		return e->minor;
	e->bad = 1;
	return 0;
}

static long
ev_mul(struct ev *e, int d)
{
	long v = ev_primary(e, d);

	while (!e->bad && ev_take(e, "*"))
		v *= ev_primary(e, d);
	return v;
}

static long
ev_add(struct ev *e, int d)
{
	long v = ev_mul(e, d);

	for (;;) {
		if (e->bad)
			return v;
		if (ev_take(e, "+"))
			v += ev_mul(e, d);
		else if (ev_take(e, "-"))
			v -= ev_mul(e, d);
		else
			return v;
	}
}

static long
ev_rel(struct ev *e, int d)
{
	long v = ev_add(e, d);

	for (;;) {
		if (e->bad)
			return v;
		if (ev_take(e, "<="))
			v = v <= ev_add(e, d);
		else if (ev_take(e, ">="))
			v = v >= ev_add(e, d);
		else if (ev_take(e, "<"))
			v = v < ev_add(e, d);
		else if (ev_take(e, ">"))
			v = v > ev_add(e, d);
		else
			return v;
	}
}

static long
ev_eq(struct ev *e, int d)
{
	long v = ev_rel(e, d);

	for (;;) {
		if (e->bad)
			return v;
		if (ev_take(e, "=="))
			v = v == ev_rel(e, d);
		else if (ev_take(e, "!="))
			v = v != ev_rel(e, d);
		else
			return v;
	}
}

static long
ev_and(struct ev *e, int d)
{
	long v = ev_eq(e, d), w;

	while (!e->bad && ev_take(e, "&&")) {
		w = ev_eq(e, d);
		v = v && w;
	}
	return v;
}

static long
ev_or(struct ev *e, int d)
{
	long v = ev_and(e, d), w;

	while (!e->bad && ev_take(e, "||")) {
		w = ev_and(e, d);
		v = v || w;
	}
	return v;
}

/* The versions major.minor for which condition c holds, into set;
 * 0 when c is not an exact version condition. */
static int
eval_grid(const char *c, unsigned char set[GRID])
{
	struct ev e;
	int k;

	if (!has_sub(c, strlen(c), "TORCH_VERSION_MAJOR") &&
	    !has_sub(c, strlen(c), "TORCH_VERSION_MINOR"))
		return 0;
	for (k = 0; k < GRID; k++) {
		e.s = c;
		e.i = 0;
		e.major = k / GRID_MINOR;
		e.minor = k % GRID_MINOR;
		e.bad = 0;
		set[k] = ev_or(&e, 0) != 0;
		ev_space(&e);
		if (e.bad || e.s[e.i])
			return 0;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Findings */

static int note(struct cx *x, const char *rule, const char *fmt, ...)
    TG_PRINTF(3, 4);

/* A note about the file as a whole. */
static int
note(struct cx *x, const char *rule, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (tg_diag_addv(&x->r->notes, TG_SEV_NOTE, 0, x->path, 0, 0, rule,
			 NULL, fmt, ap))
		x->oom = 1;
	va_end(ap);
	return x->oom ? TG_ENOMEM : 0;
}

/* The closest guarding branch around line, or NULL. */
static const struct region *
guard_for(const struct cx *x, size_t line)
{
	const struct region *best = NULL;
	size_t k;

	for (k = 0; k < x->nreg; k++)
		if (x->reg[k].first <= line && line <= x->reg[k].last &&
		    (!best || x->reg[k].first > best->first))
			best = &x->reg[k];
	return best;
}

/* An open chain that guards line (still open at the end of the file),
 * or a closed region. */
static int
guard_of(const struct cx *x, size_t line, size_t *gline, size_t *off,
	 size_t *len)
{
	const struct region *g = guard_for(x, line);

	if (!g)
		return 0;
	*gline = g->line;
	*off = g->off;
	*len = g->len;
	return 1;
}

/* A finding's kind, but for an #include and a function's call: from the
 * entry's kind, once per pattern (kind_of). */
static const char *
base_kind(const struct tg_api *a)
{
	static const char *const kinds[][2] = {
	    {"method", "method"}, {"macro", "macro"}, {"build", "build"},
	    {"type", "type"},	  {"class", "type"},  {"function", "function"},
	};
	size_t k;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strcmp(a->kind, kinds[k][0]) == 0)
			return kinds[k][1];
	return "reference";
}

/* The kind of a finding of m[b..e) whose pattern's kind is base
 * (function: base is a function's). */
static const char *
kind_of(const struct cx *x, const char *base, int function, const char *m,
	size_t b, size_t e)
{
	if (m[b] == '#')
		return "include";
	if (!function)
		return base;
	if (e > b && m[e - 1] == '(')
		return "call";
	while (e < x->len && (m[e] == ' ' || m[e] == '\t'))
		e++;
	return e < x->len && m[e] == '(' ? "call" : "reference";
}

static int
add(struct cx *x, const struct tg_api *a, size_t b, size_t e,
    enum tg_audit_in in, const char *kind)
{
	struct tg_audit_finding f;
	char text[TEXT_MAX + 1], gtext[TEXT_MAX + 64];
	size_t n = e - b, k, gl = 0, go = 0, glen = 0;
	const char *m = in == TG_AUDIT_IN_CODE ? x->code : x->ment;

	if (x->added >= FINDINGS_MAX) {
		if (!x->full) {
			x->full = 1;
			return note(x, "audit-limit",
				    "more than %d findings; the rest of the "
				    "file is not reported",
				    FINDINGS_MAX);
		}
		return 0;
	}
	memset(&f, 0, sizeof(f));
	f.api = a;
	position(x, b, &f.line, &f.column);
	/* the same entry at the same place from two of its patterns: an
	 * entry's findings are the last ones added (none to look at while
	 * its first pattern of this pass runs: a pattern's matches do not
	 * overlap) */
	for (k = x->r->nfindings;
	     x->dedupe && k-- > x->r->nfindings - x->added;) {
		const struct tg_audit_finding *o = &x->r->findings[k];

		if (o->api != a)
			break;
		if (o->line == f.line && o->column == f.column && o->in == in)
			return 0;
	}
	f.in = in;
	f.kind = kind;
	for (k = 0; k < n && k < TEXT_MAX && m[b + k] != '\n'; k++)
		text[k] = m[b + k] == '\t' ? ' ' : m[b + k];
	text[k] = '\0';
	f.text = text;
	if (guard_of(x, f.line, &gl, &go, &glen)) {
		size_t w = 0;

		for (k = 0; k < glen && w < TEXT_MAX; k++)
			if (x->src[go + k] != '\r')
				gtext[w++] = x->src[go + k] == '\t'
						 ? ' '
						 : x->src[go + k];
		gtext[w] = '\0';
		f.guard = TG_AUDIT_GUARDED;
		f.guard_text = gtext;
		f.guard_line = gl;
	}
	if (tg_audit_result_add_finding(x->r, &f)) {
		x->oom = 1;
		return TG_ENOMEM;
	}
	x->added++;
	return 0;
}

/* A set of literals one of which every match of a pattern contains;
 * n == 0: none known (any text may match). pre: at most how many bytes
 * of a match come before that literal (WIDTH_ANY: no bound known). */
#define LITS_MAX 16
#define WIDTH_ANY ((size_t)-1)
struct litset {
	char s[LITS_MAX][LITERAL_MAX + 1];
	size_t n;
	size_t pre;
};

/* a + b of two widths, either of which may be WIDTH_ANY */
static size_t
width_add(size_t a, size_t b)
{
	return a == WIDTH_ANY || b == WIDTH_ANY || b > WIDTH_ANY - 1 - a
		   ? WIDTH_ANY
		   : a + b;
}

/* The most bytes an escape p[i..i+2) matches (the patterns are not
 * compiled in UTF mode: a class matches one byte): 0 for \b and \B, 1
 * for an escaped punctuation byte, a class (\d, \w, \s, \h, \v and
 * theirs negated) or \n, \t, \r, \f; WIDTH_ANY for the rest (\R,
 * \x{...}, \p{...}, \Q, backreferences...). */
static size_t
escape_width(const char *p, size_t i)
{
	char c = p[i + 1];

	if (!is_ident((unsigned char)c))
		return 1;
	if (c == 'b' || c == 'B')
		return 0;
	if (strchr("dDwWsShHvVntrf", c))
		return 1;
	return WIDTH_ANY;
}

/* The most times the quantifier "{...}" at p[i] repeats its atom, and
 * its end (past the '}'): "{m}" m, "{m,n}" n, "{m,}" WIDTH_ANY, and
 * WIDTH_ANY for anything else (a '{' that PCRE2 reads as a byte). */
static size_t
repeat_max(const char *p, size_t i, size_t e, size_t *end)
{
	size_t k = i + 1, n = 0, digits = 0, comma = 0;

	for (; k < e && p[k] != '}'; k++) {
		if (p[k] == ',' && !comma++) {
			n = 0;
			digits = 0;
		} else if (p[k] >= '0' && p[k] <= '9' && n < 1000) {
			n = n * 10 + (size_t)(p[k] - '0');
			digits++;
		} else {
			n = WIDTH_ANY;
			break;
		}
	}
	while (k < e && p[k] != '}')
		k++;
	*end = k < e ? k + 1 : e;
	return k >= e || !digits || n >= 1000 ? WIDTH_ANY : n;
}

/* The shortest member's length; 0 for an empty set. */
static size_t
set_min(const struct litset *l)
{
	size_t k, m = l->n ? (size_t)-1 : 0;

	for (k = 0; k < l->n; k++)
		if (strlen(l->s[k]) < m)
			m = strlen(l->s[k]);
	return m;
}

/* The longest member's length. */
static size_t
set_max(const struct litset *l)
{
	size_t k, m = 0;

	for (k = 0; k < l->n; k++)
		if (strlen(l->s[k]) > m)
			m = strlen(l->s[k]);
	return m;
}

/* Keep cur as best when it is better: a longer shortest member, then
 * a longer longest member, then fewer members. */
static void
set_offer(struct litset *best, const struct litset *cur)
{
	size_t m = set_min(cur), b = set_min(best);

	if (m > b || (m && m == b && set_max(cur) > set_max(best)) ||
	    (m && m == b && set_max(cur) == set_max(best) && cur->n < best->n))
		*best = *cur;
}

/* cur = cur x add (each member followed by each of add's); 0 when the
 * product is too large (cur is then left as it was). */
static int
set_append(struct litset *cur, const struct litset *add)
{
	struct litset out;
	size_t i, j;

	if (cur->n * add->n > LITS_MAX)
		return 0;
	out.n = 0;
	out.pre = cur->pre;
	for (i = 0; i < cur->n; i++)
		for (j = 0; j < add->n; j++) {
			size_t a = strlen(cur->s[i]), b = strlen(add->s[j]);

			if (a + b > LITERAL_MAX)
				return 0;
			memcpy(out.s[out.n], cur->s[i], a);
			memcpy(out.s[out.n] + a, add->s[j], b + 1);
			out.n++;
		}
	*cur = out;
	return 1;
}

/* The end of the group or class that starts at p[i] ('(' or '['), past
 * its closing byte; the string's end when it is not closed. */
static size_t
skip_group(const char *p, size_t i, size_t e)
{
	int depth = 0;

	while (i < e) {
		if (p[i] == '\\' && i + 1 < e) {
			i += 2;
			continue;
		}
		if (p[i] == '[') {
			i++;
			if (i < e && p[i] == '^')
				i++;
			if (i < e && p[i] == ']')
				i++;
			while (i < e && p[i] != ']')
				i += p[i] == '\\' && i + 1 < e ? 2 : 1;
			if (i < e)
				i++;
			if (!depth)
				return i;
			continue;
		}
		if (p[i] == '(')
			depth++;
		else if (p[i] == ')' && --depth == 0)
			return i + 1;
		i++;
	}
	return e;
}

/* A group's body p[a..e) as a set when it is literal alternatives
 * (letters, digits, escaped punctuation; no nesting): 1, else 0. */
static int
group_set(const char *p, size_t a, size_t e, struct litset *out)
{
	size_t i = a, w = 0;

	out->n = 1;
	out->s[0][0] = '\0';
	while (i < e) {
		char c = p[i];

		if (c == '|') {
			if (out->n == LITS_MAX)
				return 0;
			out->s[out->n - 1][w] = '\0';
			out->n++;
			w = 0;
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < e &&
		    !is_ident((unsigned char)p[i + 1]))
			c = p[++i];
		else if (!is_ident((unsigned char)c) && c != ':' && c != '/' &&
			 c != '-' && c != '<' && c != '>' && c != '=' &&
			 c != ',' && c != '#' && c != '"' && c != '\'')
			return 0;
		if (w == LITERAL_MAX)
			return 0;
		out->s[out->n - 1][w++] = c;
		i++;
	}
	out->s[out->n - 1][w] = '\0';
	return 1;
}

/* One alternative p[a..e) (no '|' at its top): the best run of literal
 * bytes and literal groups, into best. */
static void
branch_set(const char *p, size_t a, size_t e, struct litset *best)
{
	struct litset cur, atom;
	size_t i = a, width = 0; /* the most bytes matched before p[i] */

	best->n = 0;
	best->pre = WIDTH_ANY;
	cur.n = 1;
	cur.s[0][0] = '\0';
	cur.pre = 0;
#define BREAK_RUN()                                                            \
	do {                                                                   \
		set_offer(best, &cur);                                         \
		cur.n = 1;                                                     \
		cur.s[0][0] = '\0';                                            \
	} while (0)
	while (i < e) {
		char c = p[i], q;
		size_t next, w; /* the atom p[i..next): the most it matches */
		int fresh;	/* cur is empty: a run would start here */

		atom.n = 0;
		w = 1;
		if (c == '\\' && i + 1 < e) {
			next = i + 2;
			w = escape_width(p, i);
			if (!is_ident((unsigned char)p[i + 1])) {
				atom.n = 1;
				atom.s[0][0] = p[i + 1];
				atom.s[0][1] = '\0';
			}
		} else if (c == '(') {
			next = skip_group(p, i, e);
			w = WIDTH_ANY;
			/* (?:...) or (...) of literal alternatives */
			if (next > i + 1 && p[next - 1] == ')') {
				size_t b = i + 1;

				if (b + 1 < next && p[b] == '?' &&
				    p[b + 1] == ':')
					b += 2;
				else if (b < next && p[b] == '?') {
					/* lookaround, flags: none; a
					 * lookaround matches no byte */
					if (b + 2 < next &&
					    (p[b + 1] == '=' ||
					     p[b + 1] == '!' ||
					     (p[b + 1] == '<' &&
					      (p[b + 2] == '=' ||
					       p[b + 2] == '!'))))
						w = 0;
					b = next;
				}
				if (b < next - 1 &&
				    !group_set(p, b, next - 1, &atom))
					atom.n = 0;
				if (atom.n)
					w = set_max(&atom);
			}
		} else if (c == '[') {
			next = skip_group(p, i, e);
		} else if (c == '.' || c == '^' || c == '$' || c == '+' ||
			   c == '*' || c == '?' || c == '{' || c == '|') {
			next = i + 1;
			/* a quantifier after a quantifier (lazy, possessive)
			 * adds nothing; a stray one: no bound */
			w = c == '.' ? 1 : c == '^' || c == '$' ? 0 : WIDTH_ANY;
			if (c == '{')
				while (next < e && p[next - 1] != '}')
					next++;
		} else {
			next = i + 1;
			atom.n = 1;
			atom.s[0][0] = c;
			atom.s[0][1] = '\0';
		}
		q = next < e ? p[next] : '\0';
		fresh = cur.n == 1 && !cur.s[0][0];
		if (q == '?' || q == '*' || q == '{') {
			atom.n = 0; /* optional: not required */
		} else if (atom.n && !set_append(&cur, &atom)) {
			BREAK_RUN();
			fresh = 1;
			if (!set_append(&cur, &atom))
				atom.n = 0;
		}
		if (atom.n && fresh)
			cur.pre = width; /* a run starts at this atom */
		if (!atom.n || q == '+')
			BREAK_RUN();
		/* its quantifier: '?' at most once, "{m}" and "{m,n}" so
		 * many times, '*', '+' and the rest any number (a lazy or
		 * possessive mark after it is an atom of no bound) */
		if (q == '?') {
			next++;
		} else if (q == '*' || q == '+') {
			w = WIDTH_ANY;
			next++;
		} else if (q == '{') {
			size_t n = repeat_max(p, next, e, &next);

			w = n == WIDTH_ANY || w == WIDTH_ANY ? WIDTH_ANY
							     : w * n;
		}
		width = width_add(width, w);
		i = next;
	}
	BREAK_RUN();
#undef BREAK_RUN
}

/* The literals one of which every match of p[a..e) contains, into best
 * (n == 0: none known): the best run of each alternative at the top,
 * and their union when there are several. */
static void
literal_set(const char *p, size_t a, size_t e, struct litset *best)
{
	struct litset one;
	size_t i = a, start = a, k;

	best->n = 0;
	for (;;) {
		if (i < e && (p[i] == '(' || p[i] == '[')) {
			i = skip_group(p, i, e);
			continue;
		}
		if (i < e && p[i] == '\\') {
			i += i + 1 < e ? 2 : 1;
			continue;
		}
		if (i < e && p[i] != '|') {
			i++;
			continue;
		}
		if (start == a && i == e) {
			branch_set(p, a, e, best);
			return;
		}
		branch_set(p, start, i, &one);
		if (!one.n || best->n + one.n > LITS_MAX) {
			best->n = 0;
			return;
		}
		for (k = 0; k < one.n; k++)
			memcpy(best->s[best->n++], one.s[k], LITERAL_MAX + 1);
		if (best->n == one.n || one.pre > best->pre)
			best->pre = one.pre;
		if (i >= e)
			return;
		start = ++i;
	}
}

/* Names and types that are not tensors, for a method's receiver. */
static const char *const not_tensor_calls[] = {
    "device", "options", "dtype",   "scalar_type", "layout", "get_device",
    "type",   "item",	 "storage", "toScalar",	   NULL};
static const char *const not_tensor_names[] = {
    "scalar", "options", "opts", "device", "dev", "dtype", "node", NULL};
static const char *const not_tensor_types[] = {
    "Scalar", "TensorOptions", "Device",   "ScalarType", "DeviceType", "Layout",
    "IValue", "TypeMeta",      "Storage",  "handle",	 "object",     "Value",
    "Node",   "TypePtr",       "TypeMeta", "Generator",	 NULL};

static int
in_list(const char *const *l, const char *s, size_t n)
{
	for (; *l; l++)
		if (word_is(s, n, *l))
			return 1;
	return 0;
}

/* "auto NAME = ...;" with the initializer at init: 1 when it ends in a
 * call of not_tensor_calls (auto dev = t.device();), else 0. */
static int
auto_not_tensor(const struct cx *x, size_t init)
{
	const char *m = x->code;
	size_t k = init, lim = init + 512 < x->len ? init + 512 : x->len, e;

	while (k < lim && (m[k] == ' ' || m[k] == '\t'))
		k++;
	if (k >= lim || m[k] != '=')
		return 0;
	while (k < lim && m[k] != ';')
		k++;
	if (k >= lim)
		return 0;
	while (k > init &&
	       (m[k - 1] == ' ' || m[k - 1] == '\t' || m[k - 1] == '\n'))
		k--;
	/* "name()" with nothing inside the parentheses */
	if (k < init + 3 || m[k - 1] != ')' || m[k - 2] != '(')
		return 0;
	e = k - 2;
	k = e;
	while (k > init && is_ident((unsigned char)m[k - 1]))
		k--;
	return in_list(not_tensor_calls, m + k, e - k);
}

/* Whether the name s[0..n) ends in "_device", "_dev", "_options",
 * "_opts" or "_dtype" (ref_device, out_opts). */
static int
not_tensor_suffix(const char *s, size_t n)
{
	static const char *const sfx[] = {"_device", "_dev",   "_options",
					  "_opts",   "_dtype", NULL};
	size_t k;

	for (k = 0; sfx[k]; k++)
		if (ends_with(s, n, sfx[k]))
			return 1;
	return 0;
}

/* The declared type of the name s[a..e) in the LOOKBACK bytes before
 * use: 1 not a tensor, 0 a Tensor or not known. */
static int
declared_not_tensor(const struct cx *x, size_t a, size_t e, size_t use)
{
	const char *m = x->code;
	size_t n = e - a, from = use > LOOKBACK ? use - LOOKBACK : 0, i;
	int verdict = 0;

	for (i = from; i + n <= use; i++) {
		size_t j, te;
		const char *q = memmem(m + i, use - i, m + a, n);

		if (!q)
			break;
		i = (size_t)(q - m);
		if ((i > 0 && is_ident(m[i - 1])) ||
		    is_ident((unsigned char)m[i + n]))
			continue;
		j = i;
		while (j > 0 &&
		       (m[j - 1] == ' ' || m[j - 1] == '\t' ||
			m[j - 1] == '&' || m[j - 1] == '*' || m[j - 1] == '\n'))
			j--;
		te = j;
		while (j > 0 && is_ident((unsigned char)m[j - 1]))
			j--;
		if (te == j || word_is(m + j, te - j, "const") ||
		    word_is(m + j, te - j, "return"))
			continue;
		if (word_is(m + j, te - j, "auto")) {
			verdict = auto_not_tensor(x, i + n);
			continue;
		}
		if (in_list(not_tensor_types, m + j, te - j))
			verdict = 1;
		else if (word_is(m + j, te - j, "Tensor"))
			verdict = 0;
	}
	return verdict;
}

/* Whether the receiver of the method access at dot (the '.' or '-' of
 * "->") is known not to be a tensor. */
static int
receiver_not_tensor(const struct cx *x, size_t dot)
{
	const char *m = x->code;
	size_t j = dot, e, a;

	while (j > 0 &&
	       (m[j - 1] == ' ' || m[j - 1] == '\t' || m[j - 1] == '\n'))
		j--;
	if (j > 0 && m[j - 1] == ')') {
		/* a call: the name before its '(' */
		size_t d = 0, lim = j > 4096 ? j - 4096 : 0;

		while (j > lim) {
			j--;
			if (m[j] == ')')
				d++;
			else if (m[j] == '(' && --d == 0)
				break;
		}
		if (d)
			return 0;
		while (j > 0 && (m[j - 1] == ' ' || m[j - 1] == '\t'))
			j--;
		e = j;
		while (j > 0 && is_ident((unsigned char)m[j - 1]))
			j--;
		return in_list(not_tensor_calls, m + j, e - j);
	}
	e = j;
	while (j > 0 && is_ident((unsigned char)m[j - 1]))
		j--;
	a = j;
	if (a == e)
		return 0;
	if (in_list(not_tensor_names, m + a, e - a) ||
	    not_tensor_suffix(m + a, e - a))
		return 1;
	return declared_not_tensor(x, a, e, a);
}

struct each {
	struct cx *x;
	const struct tg_api *a;
	enum tg_audit_in in; /* CODE, or a mention */
	const char *kind;    /* base_kind */
	int method, function;
};

static int
on_match(void *ctx, const char *s, const size_t *ov, size_t ngroups)
{
	struct each *m = ctx;
	struct cx *x = m->x;
	size_t b = ov[0], e = ov[1];
	enum tg_audit_in in = m->in;

	(void)s;
	(void)ngroups;
	if (e == b)
		return 0;
	if (in != TG_AUDIT_IN_CODE)
		in =
		    in_literal(x, b) ? TG_AUDIT_IN_STRING : TG_AUDIT_IN_COMMENT;
	if (m->method && in == TG_AUDIT_IN_CODE) {
		size_t dot = b;

		if (receiver_not_tensor(x, dot))
			return 0;
		b += x->code[b] == '-' ? 2 : 1; /* at the method's name */
		while (b < e && (x->code[b] == ' ' || x->code[b] == '\t'))
			b++;
	}
	if (add(x, m->a, b, e, in,
		kind_of(x, m->kind, m->function,
			in == TG_AUDIT_IN_CODE ? x->code : x->ment, b, e)))
		return TG_ENOMEM;
	return x->full ? 1 : 0;
}

/* A usage pattern of a C++ entry, compiled once, with the literals one
 * of which each of its matches holds. */
struct pat {
	const struct tg_api *a;
	struct tg_scan_re *re; /* NULL: it does not compile */
	struct litset lits;
	int always; /* no literal to look for: it runs on every file */
	int wanted; /* its entry is looked for (tg_audit_cxx_index_only) */
	const char *kind;     /* base_kind of its entry */
	int method, function; /* its entry's kind is "method", "function" */
};

/* A literal the prefilter looks for: one of pattern pat's, or (pat ==
 * npats) a trigger that makes a file worth reading without any pattern:
 * "TORCH_VERSION_M" (a version branch), or (pat == npats + 1)
 * "torchgate:", a suppression, which makes every entry looked for in
 * that file, or (pat == npats + 2 + j) the id of the method entry whose
 * first pattern is j (its mentions). */
struct lit {
	const char *s;
	size_t len;
	size_t pat;
	/* its first eight bytes (fewer: masked), compared as one word, and
	 * the next eight (head2, mask2) */
	uint64_t head, mask, head2, mask2;
};

struct tg_audit_cxx_index {
	struct pat *pats;
	size_t npats;
	struct lit *lits;
	size_t nlits;
	unsigned char keybits[65536 / 8]; /* keys (key4) some literal has */
	/* by the key of three bytes (key3): bit j set when they are bytes
	 * j to j + 2 of some literal, j < 2 */
	unsigned char triples[65536];
	/* per key: its first literal + 1, of those of 4 to 7 bytes by key4
	 * (head), of those of 8 or more by key8 (head8); the rest of a
	 * chain in next (the next literal + 1) */
	unsigned short head[65536], head8[65536];
	unsigned short *next;
	int read_all; /* a wanted method's id is too short a key */
	const struct tg_table *t;
};

#define SUPPRESSION_KEY "torchgate:"
#define BRANCH_KEY "TORCH_VERSION_M"

/* Run pattern p over text (the code or the mention copy): where at is
 * not NULL, only near the places of its literals at[0..nat) (a match
 * holds one at most lits.pre bytes after its start); else its matches
 * starting at from to to (the caller knows none starts elsewhere), found
 * by the JIT's own search, which stops at each byte a match can start
 * with: at every 'c', 'a' and 't' for (?:c10|at|torch)::optional, where
 * a search near its places costs a tenth. */
static int
run_pattern(struct cx *x, const struct pat *p, const char *text, size_t from,
	    size_t to, const size_t *at, size_t nat, enum tg_audit_in in,
	    struct tg_err *err)
{
	struct tg_err e2 = TG_ERR_INIT;
	struct each m;
	int rc;

	if (!p->re) {
		size_t k;

		/* said where the file holds one of its literals */
		for (k = 0; !p->always && k < p->lits.n; k++)
			if (memmem(text, x->len, p->lits.s[k],
				   strlen(p->lits.s[k])))
				break;
		if (!p->always && k == p->lits.n)
			return 0;
		return note(x, "audit-pattern",
			    "a usage pattern of '%s' does not compile",
			    p->a->id);
	}
	m.x = x;
	m.a = p->a;
	m.in = in;
	m.kind = p->kind;
	m.method = p->method;
	m.function = p->function;
	rc = at ? tg_scan_re_each_near(p->re, text, x->len, at, nat,
				       p->lits.pre, on_match, &m, &e2)
		: tg_scan_re_each_from(p->re, text, x->len, from, to, on_match,
				       &m, &e2);
	if (rc == TG_ENOMEM || x->oom)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc)
		return note(x, "audit-limit",
			    "a usage pattern of '%s' ran past the match "
			    "limits; its other uses are not reported",
			    p->a->id);
	return 0;
}

void
tg_audit_cxx_index_free(struct tg_audit_cxx_index *ix)
{
	size_t k;

	if (!ix)
		return;
	for (k = 0; k < ix->npats; k++)
		tg_scan_re_free(ix->pats[k].re);
	free(ix->pats);
	free(ix->lits);
	free(ix->next);
	free(ix);
}

/* The prefilter's key of the four bytes at s: a 16-bit hash. */
static unsigned
key4(const char *s)
{
	uint32_t v;

	memcpy(&v, s, 4);
	return (unsigned)((v * UINT32_C(2654435761)) >> 16);
}

/* The key of eight bytes w: a 16-bit hash. */
static unsigned
key8(uint64_t w)
{
	return (unsigned)((w * UINT64_C(0x9E3779B97F4A7C15)) >> 48);
}

/* The key of the three bytes at s: a 16-bit hash of them. */
static inline unsigned
key3(const char *s)
{
	uint32_t v = (uint32_t)(unsigned char)s[0] |
		     (uint32_t)(unsigned char)s[1] << 8 |
		     (uint32_t)(unsigned char)s[2] << 16;

	return (unsigned)(((v << 8) * UINT32_C(2654435761)) >> 16);
}

/* key3 of s where four bytes can be read there: one load. */
static inline unsigned
key3_of4(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;

	memcpy(&v, s, 4);
	return (unsigned)(((v << 8) * UINT32_C(2654435761)) >> 16);
#else
	return key3(s);
#endif
}

/* Add literal l (of pattern pat, or a trigger) to the prefilter's
 * keys. */
static void
add_lit(struct tg_audit_cxx_index *ix, const char *l, size_t pat)
{
	struct lit *e = &ix->lits[ix->nlits++];
	unsigned key = key4(l), j;

	e->s = l;
	e->len = strlen(l);
	e->pat = pat;
	e->head = e->mask = e->head2 = e->mask2 = 0;
	memcpy(&e->head, l, e->len < 8 ? e->len : 8);
	memset(&e->mask, 0xff, e->len < 8 ? e->len : 8);
	if (e->len > 8) {
		memcpy(&e->head2, l + 8, e->len < 16 ? e->len - 8 : 8);
		memset(&e->mask2, 0xff, e->len < 16 ? e->len - 8 : 8);
	}
	if (e->len >= 8) {
		unsigned k8 = key8(e->head);

		ix->next[ix->nlits - 1] = ix->head8[k8];
		ix->head8[k8] = (unsigned short)ix->nlits;
	} else {
		ix->next[ix->nlits - 1] = ix->head[key];
		ix->head[key] = (unsigned short)ix->nlits;
	}
	/* the first four bytes gate both chains */
	ix->keybits[key >> 3] |= (unsigned char)(1u << (key & 7));
	for (j = 0; j < 2; j++)
		ix->triples[key3(l + j)] |= (unsigned char)(1u << j);
}

/* Whether pattern literal l can be looked for in the source: four bytes
 * at least (the prefilter's key), and no space (the masked copies blank
 * bytes to spaces, so it might occur only there). */
static int
usable(const char *l)
{
	return strlen(l) >= 4 && !strchr(l, ' ');
}

/* Whether entry a's id extends entry p's: "c10::optional.std_alias" of
 * "c10::optional" (a pseudo-entry for a fact about the same name). */
static int
extends(const struct tg_api *a, const struct tg_api *p)
{
	size_t n = strlen(p->id);

	return strncmp(a->id, p->id, n) == 0 && a->id[n] == '.';
}

/* The prefilter's keys: the literals of the wanted patterns, the ids
 * of the wanted method entries, and the triggers. */
static void
build_keys(struct tg_audit_cxx_index *ix)
{
	const struct tg_table *t = ix->t;
	size_t k, j;

	ix->nlits = 0;
	ix->read_all = 0;
	memset(ix->keybits, 0, sizeof(ix->keybits));
	memset(ix->triples, 0, sizeof(ix->triples));
	memset(ix->head, 0, sizeof(ix->head));
	memset(ix->head8, 0, sizeof(ix->head8));
	for (k = 0; k < ix->npats; k++)
		for (j = 0; ix->pats[k].wanted && !ix->pats[k].always &&
			    j < ix->pats[k].lits.n;
		     j++)
			add_lit(ix, ix->pats[k].lits.s[j], k);
	for (k = 0, j = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (!a->cxx)
			continue;
		while (j < ix->npats && ix->pats[j].a != a)
			j++;
		/* a method entry without patterns is not wanted: never
		 * looked for (nothing finds it in code either) */
		if (strcmp(a->kind, "method") != 0 || j >= ix->npats ||
		    !ix->pats[j].wanted)
			continue;
		if (strlen(a->id) >= 4)
			add_lit(ix, a->id, ix->npats + 2 + j);
		else
			ix->read_all = 1; /* too short a key: every file */
	}
	add_lit(ix, BRANCH_KEY, ix->npats);
	add_lit(ix, SUPPRESSION_KEY, ix->npats + 1);
}

void
tg_audit_cxx_index_only(struct tg_audit_cxx_index *ix,
			int (*want)(const struct tg_api *a, void *ctx),
			void *ctx)
{
	size_t k, j;

	for (k = 0; k < ix->npats; k++)
		ix->pats[k].wanted = want(ix->pats[k].a, ctx);
	/* an entry that a wanted one extends is wanted too: it wins their
	 * shared spans (one_per_span), as it does with every entry */
	for (k = 0; k < ix->npats; k++)
		for (j = 0; ix->pats[k].wanted && j < ix->npats; j++)
			if (!ix->pats[j].wanted &&
			    extends(ix->pats[k].a, ix->pats[j].a))
				ix->pats[j].wanted = 1;
	build_keys(ix);
}

int
tg_audit_cxx_index_new(struct tg_audit_cxx_index **out,
		       const struct tg_table *t, struct tg_err *err)
{
	struct tg_audit_cxx_index *ix;
	size_t k, j, n = 0, nl = 0;
	int rc = TG_ENOMEM;

	*out = NULL;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		goto out;
	ix->t = t;
	for (k = 0; k < t->n; k++)
		if (t->apis[k].cxx)
			n += t->apis[k].nusage;
	nl = n * LITS_MAX + t->n + 2;
	ix->pats = calloc(n ? n : 1, sizeof(*ix->pats));
	ix->lits = calloc(nl, sizeof(*ix->lits));
	ix->next = calloc(nl, sizeof(*ix->next));
	if (!ix->pats || !ix->lits || !ix->next)
		goto out;
	if (nl >= 65535) {
		rc = TG_ELIMIT;
		goto out;
	}
	for (k = 0; k < t->n; k++) {
		const struct tg_api *a = &t->apis[k];

		if (!a->cxx)
			continue;
		for (j = 0; j < a->nusage; j++) {
			struct pat *p = &ix->pats[ix->npats++];
			struct tg_err e2 = TG_ERR_INIT;
			size_t m;

			p->a = a;
			p->kind = base_kind(a);
			p->method = strcmp(a->kind, "method") == 0;
			p->function = strcmp(a->kind, "function") == 0;
			literal_set(a->usage[j], 0, strlen(a->usage[j]),
				    &p->lits);
			p->always = !p->lits.n;
			for (m = 0; m < p->lits.n; m++)
				if (!usable(p->lits.s[m]))
					p->always = 1;
			if (tg_scan_compile_padded(&p->re, a->usage[j], &e2) ==
			    TG_ENOMEM)
				goto out;
		}
	}
	for (k = 0; k < ix->npats; k++)
		ix->pats[k].wanted = 1;
	build_keys(ix);
	rc = 0;
	*out = ix;
	ix = NULL;
out:
	tg_audit_cxx_index_free(ix);
	if (rc)
		tg_err_set(err, rc, "cannot index the API table: %s",
			   rc == TG_ENOMEM ? "out of memory"
					   : "too many usage patterns");
	return rc;
}

/* What the prefilter found. */
#define CANDIDATES 256	    /* places looked up before they are looked at */
#define FOUND_ANY 1	    /* a pattern's literal or a trigger */
#define FOUND_SUPPRESSION 2 /* "torchgate:": every entry is looked for */

/* Where the prefilter found the wanted patterns' literals: each place
 * (the pattern, the literal's offset), in the text's order, at most
 * PLACES_MAX of them; over: more, or no memory for them (the patterns
 * then run over the bytes between their first and last places). */
#define PLACES_MAX 65536
struct place {
	size_t pat, at;
};
struct places {
	struct place *v;
	size_t n, cap;
	int over;
};

static void
place_add(struct places *pl, size_t pat, size_t at)
{
	if (pl->over)
		return;
	if (pl->n == pl->cap) {
		size_t nc = pl->cap ? 2 * pl->cap : 64;
		struct place *v;

		if (nc > PLACES_MAX || !(v = realloc(pl->v, nc * sizeof(*v)))) {
			pl->over = 1;
			return;
		}
		pl->v = v;
		pl->cap = nc;
	}
	pl->v[pl->n].pat = pat;
	pl->v[pl->n].at = at;
	pl->n++;
}

/* The literal after literal k - 1 in the prefilter's walk at a place
 * of key key: the rest of its chain, then from a long literal's chain
 * on to the short ones of key (+ 1, 0 at the end). */
static unsigned
next_lit(const struct tg_audit_cxx_index *ix, unsigned k, unsigned key)
{
	unsigned n = ix->next[k - 1];

	if (!n && ix->lits[k - 1].len >= 8)
		n = ix->head[key];
	return n;
}

/* Whether literal l (no longer than len - at) starts at src + at, whose
 * first eight bytes are word (when there are eight): a word or two
 * compared, then memcmp for a literal of more than 16 bytes. */
static inline int
lit_here(const struct lit *l, const char *src, size_t len, size_t at,
	 uint64_t word)
{
	uint64_t w2;

	if (len - at < 16)
		return memcmp(src + at, l->s, l->len) == 0;
	if ((word & l->mask) != l->head)
		return 0;
	if (l->len <= 8)
		return 1;
	memcpy(&w2, src + at + 8, 8);
	return (w2 & l->mask2) == l->head2 &&
	       (l->len <= 16 ||
		memcmp(src + at + 16, l->s + 16, l->len - 16) == 0);
}

/* Which literals start at src + at (its four bytes' key is set): those
 * of eight bytes or more by the key of the eight bytes, compared as one
 * word, then the shorter ones of the four-byte key; a method id or a
 * trigger found already is passed over. Marks what it finds in found
 * and *any, and where a pattern's literals are found first and last in
 * first and last. */
static inline void
lits_at(const struct tg_audit_cxx_index *ix, const char *src, size_t len,
	size_t at, unsigned char *found, size_t *first, size_t *last,
	struct places *pl, int *any)
{
	unsigned key = key4(src + at), k;
	uint64_t word = 0;

	if (!(ix->keybits[key >> 3] & (1u << (key & 7))))
		return;
	k = ix->head[key];
	if (len - at >= 8) {
		memcpy(&word, src + at, 8);
		k = ix->head8[key8(word)];
		if (!k)
			k = ix->head[key];
	}
	for (; k; k = next_lit(ix, k, key)) {
		const struct lit *l = &ix->lits[k - 1];

		/* found already: a method id's literal, or a trigger whose
		 * bits are set (a pattern's literal is looked for on: its
		 * last place bounds where the pattern runs) */
		if (l->pat < ix->npats	      ? 0
		    : l->pat >= ix->npats + 2 ? found[l->pat - 2]
		    : l->pat == ix->npats + 1 ? (*any & FOUND_SUPPRESSION) != 0
					      : (*any & FOUND_ANY) != 0)
			continue;
		if (l->len > len - at)
			continue;
		if (lit_here(l, src, len, at, word)) {
			if (l->pat < ix->npats) {
				if (!found[l->pat])
					first[l->pat] = at;
				found[l->pat] = 1;
				last[l->pat] = at;
				place_add(pl, l->pat, at);
			} else if (l->pat >= ix->npats + 2)
				found[l->pat - 2] = 1;
			*any |= l->pat == ix->npats + 1
				    ? FOUND_ANY | FOUND_SUPPRESSION
				    : FOUND_ANY;
		}
	}
}

/* Which wanted patterns' literals occur in src, into found[k] (a wanted
 * pattern that has none is always found), and whose method ids, into
 * found[npats + j] (j the entry's first pattern), and where the first
 * and the last literal of a pattern found by them start into first[k]
 * and last[k]. Every literal is four bytes or more, so one of its
 * three-byte runs at offsets 0 and 1 starts at an even place: one pass
 * looks up the key of the three bytes at every other byte (key3, of
 * one four-byte load but at the last three bytes), and where some
 * literal has them at offset j, lits_at looks at the place j bytes
 * before (each place is so looked at once at most, in the text's order,
 * and the lookups do not wait for each other, as a skip loop's do: they
 * are made for CANDIDATES places at a time, the places found looked at
 * after). Three bytes keep a twentieth of the places on the bench's
 * headers where two bytes at every third kept a fifth, which cost more
 * than the lookups they saved. With a suppression, every pattern is found (each runs, so that
 * a suppression that matched nothing is told). FOUND_* bits; 0 when
 * the file cannot hold a finding, a suppression or a version branch. */
static int
prefilter(const struct tg_audit_cxx_index *ix, const char *src, size_t len,
	  unsigned char *found, size_t *first, size_t *last, struct places *pl)
{
	size_t i, k;
	int any = ix->read_all;

	memset(found, 0, 2 * ix->npats);
	for (k = 0; k < ix->npats; k++) {
		found[k] = ix->pats[k].wanted && ix->pats[k].always;
		any |= found[k];
	}
	for (i = 0; i + 2 < len;) {
		size_t at[CANDIDATES], n = 0, c;
		unsigned char bits[CANDIDATES];

		/* a batch of the places whose three bytes some literal has,
		 * kept without a branch on each (which would be mispredicted
		 * often), then looked at */
		for (; i + 3 < len && n < CANDIDATES; i += 2) {
			unsigned m = ix->triples[key3_of4(src + i)];

			at[n] = i;
			bits[n] = (unsigned char)m;
			n += m != 0;
		}
		if (i + 3 == len && n < CANDIDATES) {
			/* the last three bytes */
			unsigned m = ix->triples[key3(src + i)];

			at[n] = i;
			bits[n] = (unsigned char)m;
			n += m != 0;
			i += 2;
		}
		/* the places in order: a pattern's first literal is the
		 * first in the text */
		for (c = 0; c < n; c++) {
			if ((bits[c] & 2) && at[c] >= 1 && at[c] + 3 <= len)
				lits_at(ix, src, len, at[c] - 1, found, first,
					last, pl, &any);
			if ((bits[c] & 1) && at[c] + 4 <= len)
				lits_at(ix, src, len, at[c], found, first, last,
					pl, &any);
		}
	}
	if (any & FOUND_SUPPRESSION)
		memset(found, 1, 2 * ix->npats);
	return any;
}

/* A method entry mentioned by its id in a comment or string. */
static int
mention_id(struct cx *x, const struct tg_api *a)
{
	size_t n = strlen(a->id), i = 0;
	const char *p;

	while (i + n <= x->len &&
	       (p = memmem(x->ment + i, x->len - i, a->id, n))) {
		size_t b = (size_t)(p - x->ment);

		i = b + n;
		if ((b > 0 && is_ident((unsigned char)x->ment[b - 1])) ||
		    (i < x->len && is_ident((unsigned char)x->ment[i])))
			continue;
		if (add(x, a, b, i,
			in_literal(x, b) ? TG_AUDIT_IN_STRING
					 : TG_AUDIT_IN_COMMENT,
			"method"))
			return TG_ENOMEM;
		if (x->full)
			break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The token pass */

static int
add_region(struct cx *x, const struct frame *f, size_t last)
{
	struct region *g;

	if (!f->guard || last < f->line + 1)
		return 0;
	if (x->nreg == x->capreg) {
		size_t nc = x->capreg ? x->capreg * 2 : 16;
		void *p;

		if (x->nreg >= REGIONS_MAX)
			return 0;
		p = realloc(x->reg, nc * sizeof(*x->reg));
		if (!p)
			return TG_ENOMEM;
		x->reg = p;
		x->capreg = nc;
	}
	g = &x->reg[x->nreg++];
	g->first = f->line + 1;
	g->last = last;
	g->line = f->gline;
	g->off = f->goff;
	g->len = f->glen;
	return 0;
}

/* Close the current branch of f at line end (the next directive's). */
static int
close_branch(struct cx *x, struct frame *f, size_t end)
{
	char req[32], cond[TEXT_MAX + 48];
	size_t k, w = 0;

	if (add_region(x, f, end - 1))
		return TG_ENOMEM;
	if (!f->exact || !tg_audit_grid_spec(f->cur, req, sizeof(req)))
		return 0;
	for (k = 0; k < f->len && w < TEXT_MAX; k++)
		if (x->src[f->off + k] != '\r')
			cond[w++] = x->src[f->off + k] == '\t'
					? ' '
					: x->src[f->off + k];
	cond[w] = '\0';
	if (f->is_else)
		snprintf(cond + w, sizeof(cond) - w, " (of line %zu)",
			 f->if_line);
	if (tg_audit_result_add_branch(x->r, f->line, end - 1, cond, req))
		return TG_ENOMEM;
	return 0;
}

/* The first line of a directive, trimmed: its offset and length. */
static void
first_line(const char *s, size_t off, size_t len, size_t *o, size_t *n)
{
	size_t e = off;

	while (e < off + len && s[e] != '\n')
		e++;
	while (e > off && (s[e - 1] == '\r' || s[e - 1] == ' ' ||
			   s[e - 1] == '\t' || s[e - 1] == '\\'))
		e--;
	*o = off;
	*n = e - off;
}

/* Start a branch (if, elif, else) of f with condition c. */
static void
start_branch(struct cx *x, struct frame *f, const struct tg_clex_tok *t,
	     const char *c, int ifdef, int negate, int is_else)
{
	unsigned char set[GRID];
	size_t o, n, k;
	int g = 0;

	f->line = t->line;
	first_line(x->src, t->off, t->len, &o, &n);
	f->off = o;
	f->len = n;
	f->is_else = is_else;
	if (!is_else) {
		g = is_guard(x->t, c, ifdef);
		if (g && !f->guard) {
			f->guard = 1;
			f->gline = t->line;
			f->goff = o;
			f->glen = n;
		}
		if (f->exact && !ifdef && eval_grid(c, set)) {
			for (k = 0; k < GRID; k++) {
				f->cur[k] = f->rest[k] && set[k];
				f->rest[k] = f->rest[k] && !set[k];
			}
		} else {
			f->exact = 0;
		}
		(void)negate;
	} else if (f->exact) {
		memcpy(f->cur, f->rest, GRID);
		memset(f->rest, 0, GRID);
	}
}

/* A directive token: follow the conditionals. */
static int
directive(struct cx *x, const struct tg_clex_tok *t)
{
	char cond[1024];
	const char *m = x->code;
	size_t i = t->off + 1, e = t->off + t->len, a;
	struct frame *f;
	int is_elif, is_else, is_endif;

	while (i < e && (m[i] == ' ' || m[i] == '\t'))
		i++;
	a = i;
	while (i < e && is_ident((unsigned char)m[i]))
		i++;
	condition_text(m, i, e, cond, sizeof(cond));
	if (word_is(m + a, i - a, "if") || word_is(m + a, i - a, "ifdef") ||
	    word_is(m + a, i - a, "ifndef")) {
		x->depth++;
		if (x->depth > DEPTH_MAX)
			return 0;
		if (!x->fr) {
			/* each frame is cleared as its chain opens */
			x->fr = malloc(DEPTH_MAX * sizeof(*x->fr));
			if (!x->fr)
				return TG_ENOMEM;
		}
		f = &x->fr[x->depth - 1];
		memset(f, 0, sizeof(*f));
		f->exact = 1;
		memset(f->rest, 1, GRID);
		f->if_line = t->line;
		start_branch(x, f, t, cond, i - a > 2, m[a + 2] == 'n', 0);
		/* a test is not a use: #ifndef AT_CHECK is the guard */
		blank(x->code, t->off, t->off + t->len);
		return 0;
	}
	is_elif = word_is(m + a, i - a, "elif");
	is_else = word_is(m + a, i - a, "else");
	is_endif = word_is(m + a, i - a, "endif");
	if (is_elif)
		blank(x->code, t->off, t->off + t->len);
	if (!x->depth || x->depth > DEPTH_MAX) {
		if (x->depth && is_endif)
			x->depth--;
		return 0;
	}
	f = &x->fr[x->depth - 1];
	if (is_elif || is_else) {
		if (close_branch(x, f, t->line))
			return TG_ENOMEM;
		start_branch(x, f, t, cond, 0, 0, is_else);
	} else if (is_endif) {
		if (close_branch(x, f, t->line))
			return TG_ENOMEM;
		x->depth--;
	}
	return 0;
}

/* A comment: a suppression "torchgate: ignore[id, ...]" or "ignore":
 * 1 when it is one, 0 when not, TG_ENOMEM. */
static int
suppression(struct cx *x, const struct tg_clex_tok *t)
{
	static const char key[] = "torchgate:";
	const char *s = x->src + t->off, *p, *e = s + t->len;
	const char *ids[32];
	char buf[1024];
	size_t n = 0, w = 0, line = t->line;

	p = tg_audit_marker(s, t->len);
	if (!p)
		return 0;
	for (const char *q = s; q < p; q++)
		line += *q == '\n';
	p += sizeof(key) - 1;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 6 || memcmp(p, "ignore", 6) ||
	    (p + 6 < e && is_ident((unsigned char)p[6])))
		return 0;
	p += 6;
	if (p < e && *p == '[') {
		p++;
		while (p < e && *p != ']' && n < 32) {
			while (p < e && (*p == ' ' || *p == ','))
				p++;
			if (p >= e || *p == ']')
				break;
			ids[n++] = buf + w;
			while (p < e && *p != ',' && *p != ']' && *p != ' ' &&
			       *p != '\n' && w + 1 < sizeof(buf))
				buf[w++] = *p++;
			buf[w++] = '\0';
			if (w >= sizeof(buf) - 1)
				break;
		}
	}
	if (tg_audit_result_add_suppression(x->r, line, ids, n))
		return TG_ENOMEM;
	return 1;
}

static int
mask(struct cx *x)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	size_t q, e;
	int rc, unterminated = 0;

	tg_clex_init(&lx, x->src, x->len);
	while (tg_clex_next_text(&lx, &t) && t.kind != TG_CLEX_END) {
		/* the first unterminated literal or comment (a compiler
		 * refuses it): what was read as what */
		if ((t.flags & TG_CLEX_UNTERMINATED) && !unterminated++ &&
		    tg_diag_add(&x->r->notes, TG_SEV_NOTE, 0, x->path, t.line,
				t.col + 1, "audit-unterminated", NULL,
				"unterminated %s: %s read as one",
				t.kind == TG_CLEX_COMMENT ? "comment"
				: t.kind == TG_CLEX_CHAR  ? "character literal"
							  : "string",
				t.kind == TG_CLEX_COMMENT ||
					(t.flags & TG_CLEX_RAW)
				    ? "the rest of the file"
				    : "the rest of its line"))
			return TG_ENOMEM;
		switch (t.kind) {
		case TG_CLEX_COMMENT:
			blank(x->code, t.off, t.off + t.len);
			/* a suppression names ids: no mention */
			if ((rc = suppression(x, &t)) < 0)
				return rc;
			if (!rc)
				keep(x, t.off, t.off + t.len, 0);
			break;
		case TG_CLEX_STRING:
		case TG_CLEX_CHAR:
			q = t.body;
			e = t.body + t.body_len;
			if (q < t.off || e > t.off + t.len || q > e) {
				q = t.off + t.pre + 1;
				e = t.off + t.len;
			}
			if (q > e)
				q = e;
			blank(x->code, q, e);
			keep(x, q, e, 1);
			break;
		case TG_CLEX_DIRECTIVE:
			blank_directive_comments(x->src, x->code, t.off,
						 t.off + t.len);
			if ((rc = directive(x, &t)))
				return rc;
			break;
		default:
			break;
		}
	}
	/* chains open at the end of the file guard to its last line */
	while (x->depth) {
		if (x->depth <= DEPTH_MAX &&
		    add_region(x, &x->fr[x->depth - 1], lx.line))
			return TG_ENOMEM;
		x->depth--;
	}
	return 0;
}

/* A finding's place, for sorting: line, column, "in", then as added. */
struct span {
	size_t line, column, k;
	int in;
};

static int
by_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* One finding per span: where two entries matched the same place (the
 * same line, column and "in"), the entry whose id the other's extends
 * wins (c10::optional over c10::optional.std_alias: the use is of the
 * name; the pseudo-entry records a fact about it). Over the findings
 * from first on, the ones this file added: sorted by place, each run of
 * one place compared within itself. 0, or TG_ENOMEM. */
static int
one_per_span(struct tg_audit_result *r, size_t first)
{
	size_t n = r->nfindings - first, i, j, a, b, w = first;
	struct tg_audit_finding *v;
	struct span *sp;
	unsigned char *lose;

	if (n < 2)
		return 0; /* (findings may be NULL: no pointer is formed) */
	v = r->findings + first;
	sp = malloc(n * sizeof(*sp));
	lose = calloc(n, 1);
	if (!sp || !lose) {
		free(sp);
		free(lose);
		return TG_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		sp[i].line = v[i].line;
		sp[i].column = v[i].column;
		sp[i].in = (int)v[i].in;
		sp[i].k = i;
	}
	qsort(sp, n, sizeof(*sp), by_span);
	for (a = 0; a < n; a = b) {
		for (b = a + 1;
		     b < n && sp[b].line == sp[a].line &&
		     sp[b].column == sp[a].column && sp[b].in == sp[a].in;
		     b++)
			;
		/* only an id with a '.' can extend another */
		for (i = a; b - a > 1 && i < b; i++) {
			const struct tg_api *f = v[sp[i].k].api;

			for (j = a;
			     strchr(f->id, '.') && j < b && !lose[sp[i].k]; j++)
				lose[sp[i].k] =
				    j != i && extends(f, v[sp[j].k].api);
		}
	}
	for (i = 0; i < n; i++) {
		if (lose[i]) {
			free(v[i].guard_text);
			free(v[i].text);
			continue;
		}
		r->findings[w++] = v[i];
	}
	r->nfindings = w;
	free(sp);
	free(lose);
	return 0;
}

/* Pattern j's places, where its matches are looked for near them (the
 * places kept, and it has literals whose distance to a match's start is
 * bounded), into *n; else NULL (between its first and last place). */
static const size_t *
near(const struct tg_audit_cxx_index *ix, size_t j, const size_t *at,
     const size_t *by, size_t *n)
{
	const struct pat *p = &ix->pats[j];

	*n = 0;
	if (!at || p->always || p->lits.pre == WIDTH_ANY)
		return NULL;
	*n = by[j + 2] - by[j + 1];
	return at + by[j + 1];
}

int
tg_audit_cxx_indexed(const struct tg_audit_cxx_index *ix, const char *src,
		     size_t len, const char *path, struct tg_audit_result *r,
		     struct tg_err *err)
{
	struct cx x;
	unsigned char *found = NULL;
	size_t *first = NULL, *last, *at = NULL, *by = NULL, k, nat;
	const size_t *near_at;
	struct places pl = {NULL, 0, 0, 0};
	int rc = 0, every;

	memset(&x, 0, sizeof(x));
	x.t = ix->t;
	x.src = src;
	x.len = len;
	x.path = path;
	x.r = r;
	if (!len)
		return 0;
	found = malloc(2 * ix->npats + 1);
	first = malloc(2 * (ix->npats + 1) * sizeof(*first));
	if (!found || !first) {
		free(found);
		free(first);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	/* a file without any pattern's literal or trigger holds nothing to
	 * report: it is not tokenized */
	last = first + ix->npats + 1;
	every = prefilter(ix, src, len, found, first, last, &pl);
	if (!every) {
		free(found);
		free(first);
		free(pl.v);
		return 0;
	}
	/* pattern k's places in at[by[k + 1] .. by[k + 2]), in order: the
	 * places counted by pattern, by[k + 1] the end of k's, then filled
	 * from the last place back (so by[k + 1] ends at their start) */
	if (!pl.over && !(every & FOUND_SUPPRESSION) &&
	    (at = malloc((pl.n + 1) * sizeof(*at))) &&
	    (by = calloc(ix->npats + 2, sizeof(*by)))) {
		for (k = 0; k < pl.n; k++)
			by[pl.v[k].pat + 1]++;
		for (k = 0; k < ix->npats; k++)
			by[k + 1] += by[k];
		for (k = pl.n; k-- > 0;)
			at[--by[pl.v[k].pat + 1]] = pl.v[k].at;
		by[ix->npats + 1] = pl.n;
	} else {
		free(at);
		at = NULL;
	}
	/* where pattern k's matches can start, first[k] to last[k]: a
	 * match holds one of its literals (the masked copies hold one only
	 * where the source does), at most lits.pre bytes after its start;
	 * anywhere when it runs without them (no literals, a suppression) */
	for (k = 0; k < ix->npats; k++) {
		size_t pre = ix->pats[k].lits.pre;

		if (every & FOUND_SUPPRESSION || ix->pats[k].always) {
			first[k] = 0;
			last[k] = SIZE_MAX;
		} else if (found[k]) {
			first[k] = pre == WIDTH_ANY || first[k] < pre
				       ? 0
				       : first[k] - pre;
		}
	}
	/* the patterns are JIT-compiled: the copies are padded */
	x.code = malloc(len + 1 + TG_SCAN_PAD);
	x.ment = malloc(len + 1 + TG_SCAN_PAD);
	x.strbits = calloc(len / 8 + 1, 1);
	if (!x.code || !x.ment || !x.strbits) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	memcpy(x.code, src, len);
	memset(x.code + len, 0, 1 + TG_SCAN_PAD);
	memset(x.ment, ' ', len);
	memset(x.ment + len, 0, 1 + TG_SCAN_PAD);
	if (newlines(&x, x.ment) || mask(&x)) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	every = every & FOUND_SUPPRESSION;
	/* an entry's patterns in order, code first, then its mentions */
	for (k = 0; k < ix->npats && !rc && !x.full;) {
		const struct tg_api *a = ix->pats[k].a;
		int method = ix->pats[k].method;
		size_t e = k, j;

		while (e < ix->npats && ix->pats[e].a == a)
			e++;
		if (!every && !ix->pats[k].wanted) {
			k = e;
			continue;
		}
		x.dedupe = 0;
		for (j = k; j < e && !rc && !x.full; j++)
			if (found[j]) {
				near_at = near(ix, j, at, by, &nat);
				rc = run_pattern(&x, &ix->pats[j], x.code,
						 first[j], last[j], near_at,
						 nat, TG_AUDIT_IN_CODE, err);
				x.dedupe = 1;
			}
		if (method && !rc && !x.full &&
		    (found[ix->npats + k] || ix->read_all))
			rc = mention_id(&x, a);
		x.dedupe = 0;
		for (j = k; !method && j < e && !rc && !x.full; j++)
			if (found[j]) {
				near_at = near(ix, j, at, by, &nat);
				rc = run_pattern(&x, &ix->pats[j], x.ment,
						 first[j], last[j], near_at,
						 nat, TG_AUDIT_IN_COMMENT, err);
				x.dedupe = 1;
			}
		k = e;
	}
	if (rc || x.oom || one_per_span(r, r->nfindings - x.added))
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
out:
	free(found);
	free(first);
	free(pl.v);
	free(at);
	free(by);
	free(x.code);
	free(x.ment);
	free(x.strbits);
	free(x.nl);
	free(x.fr);
	free(x.reg);
	return rc;
}

int
tg_audit_cxx(const struct tg_table *t, const char *src, size_t len,
	     const char *path, struct tg_audit_result *r, struct tg_err *err)
{
	struct tg_audit_cxx_index *ix = NULL;
	int rc;

	if ((rc = tg_audit_cxx_index_new(&ix, t, err)))
		return rc;
	rc = tg_audit_cxx_indexed(ix, src, len, path, r, err);
	tg_audit_cxx_index_free(ix);
	return rc;
}
