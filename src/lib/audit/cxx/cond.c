/* cond.c - the C/C++/CUDA analyzer's conditionals: guards and version branches
 * SPDX-License-Identifier: MIT
 *
 * Follows #if/#ifdef/#ifndef/#elif/#else/#endif: a branch whose chain
 * tests a torch version macro (a name holding TORCH_VERSION) or a
 * generated *_HAS_* macro, or #ifdef/#ifndef/defined() of a table macro,
 * guards what it holds. A chain whose conditions are exact expressions in
 * TORCH_VERSION_MAJOR and TORCH_VERSION_MINOR (any prefix) is evaluated
 * over the versions 0.0 to 9.99 (an exact evaluator: integers, names,
 * arithmetic, comparisons, && || !); a branch that runs for one interval
 * of them becomes a tg_audit_branch with that interval as a specifier
 * set.
 *
 * Limits: DEPTH_MAX nested conditionals followed (deeper ones guard
 * nothing), REGIONS_MAX guarded branches; an expression's depth is
 * bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"
#include "lib/util/grow.h"

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

int
tg_audit_cxx_word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

/* Whether name s[0..n) ends with suffix. */
int
tg_audit_cxx_ends_with(const char *s, size_t n, const char *suffix)
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
		if (t->apis[k].lang == TG_LANG_CXX &&
		    strcmp(t->apis[k].kind, "macro") == 0 &&
		    tg_audit_cxx_word_is(s, n, t->apis[k].id))
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
		after_defined = tg_audit_cxx_word_is(c + a, i - a, "defined");
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
	if (tg_audit_cxx_ends_with(e->s + a, e->i - a, "TORCH_VERSION_MAJOR") &&
	    e->i > a)
		return e->major;
	if (tg_audit_cxx_ends_with(e->s + a, e->i - a, "TORCH_VERSION_MINOR") &&
	    e->i > a)
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

int
tg_audit_cxx_add_region(struct cx *x, const struct frame *f, size_t last)
{
	struct region *g;

	if (!f->guard || last < f->line + 1)
		return 0;
	if (x->nreg >= REGIONS_MAX)
		return 0;
	if (TG_GROW(x->reg, x->nreg + 1, x->capreg))
		return TG_ENOMEM;
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

	if (tg_audit_cxx_add_region(x, f, end - 1))
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
int
tg_audit_cxx_directive(struct cx *x, const struct tg_clex_tok *t)
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
	if (tg_audit_cxx_word_is(m + a, i - a, "if") ||
	    tg_audit_cxx_word_is(m + a, i - a, "ifdef") ||
	    tg_audit_cxx_word_is(m + a, i - a, "ifndef")) {
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
		tg_audit_cxx_blank(x->code, t->off, t->off + t->len);
		return 0;
	}
	is_elif = tg_audit_cxx_word_is(m + a, i - a, "elif");
	is_else = tg_audit_cxx_word_is(m + a, i - a, "else");
	is_endif = tg_audit_cxx_word_is(m + a, i - a, "endif");
	if (is_elif)
		tg_audit_cxx_blank(x->code, t->off, t->off + t->len);
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
