/* findings.c - the C/C++/CUDA analyzer's findings
 * SPDX-License-Identifier: MIT
 *
 * A pattern's match becomes a finding (add): its kind (from the entry's
 * kind; an #include, a function's call or reference), its text, the
 * guarding branch around its line. A method's match is judged by its
 * receiver first (receiver.c). Mentions: the patterns over the mention
 * copy, and a method entry by its id (mention_id). One finding per
 * place: where two entries match the same span, the one whose id the
 * other extends wins (c10::optional, not its pseudo-entry
 * c10::optional.std_alias, which records a fact about the same name).
 *
 * Limits: at most FINDINGS_MAX findings a file (a note says so); pcre2's
 * limits end a match with a note, never the analysis.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"

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
const char *
tg_audit_cxx_base_kind(const struct tg_api *a)
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

/* The end of the text that names the entry in a match m[b..e): an
 * #include directive up to its header's closing '>' or '"' (the match
 * less trailing blanks), else the name or qualified name (a::b::c) the
 * match starts with ("AT_CHECK" of "AT_CHECK(", "type" of
 * "type().scalarType"; after blanks, where a method's name follows its
 * "->" on the next line, whose end the finding starts at), or the match
 * less trailing blanks where it starts with none. */
static size_t
name_end(const char *m, size_t b, size_t e)
{
	size_t k = b, n;

	while (k < e &&
	       (m[k] == ' ' || m[k] == '\t' || m[k] == '\r' || m[k] == '\n'))
		k++;
	n = k;
	if (m[b] != '#')
		while (k < e) {
			if (is_ident((unsigned char)m[k]))
				k++;
			else if (k > n && k + 2 < e && m[k] == ':' &&
				 m[k + 1] == ':' &&
				 is_ident((unsigned char)m[k + 2]))
				k += 2;
			else
				break;
		}
	if (k > n)
		return k;
	for (k = e; k > b && (m[k - 1] == ' ' || m[k - 1] == '\t' ||
			      m[k - 1] == '\r' || m[k - 1] == '\n');
	     k--)
		;
	return k > b ? k : e;
}

/* A finding of entry a at m[b..e) (the match, or the method's name on),
 * whose text naming the entry ends at se. */
int
tg_audit_cxx_add(struct cx *x, const struct tg_api *a, size_t b, size_t e,
		 size_t se, enum tg_audit_in in, const char *kind)
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
	tg_audit_cxx_position(x, b, &f.line, &f.column);
	f.start = b;
	f.end = se;
	tg_audit_cxx_position(x, se, &f.end_line, &f.end_column);
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

		if (tg_audit_cxx_receiver_not_tensor(x, dot))
			return 0;
		b += x->code[b] == '-' ? 2 : 1; /* at the method's name */
		while (b < e && (x->code[b] == ' ' || x->code[b] == '\t'))
			b++;
	}
	if (tg_audit_cxx_add(
		x, m->a, b, e,
		name_end(in == TG_AUDIT_IN_CODE ? x->code : x->ment, b, e), in,
		kind_of(x, m->kind, m->function,
			in == TG_AUDIT_IN_CODE ? x->code : x->ment, b, e)))
		return TG_ENOMEM;
	return x->full ? 1 : 0;
}

/* Run pattern p over text (the code or the mention copy): where at is
 * not NULL, only near the places of its literals at[0..nat) (a match
 * holds one at most lits.pre bytes after its start); else its matches
 * starting at from to to (the caller knows none starts elsewhere), found
 * by the JIT's own search, which stops at each byte a match can start
 * with: at every 'c', 'a' and 't' for (?:c10|at|torch)::optional, where
 * a search near its places costs a tenth. */
int
tg_audit_cxx_run_pattern(struct cx *x, struct pat *p, const char *text,
			 size_t from, size_t to, const size_t *at, size_t nat,
			 enum tg_audit_in in, struct tg_err *err)
{
	struct tg_err e2 = TG_ERR_INIT;
	const struct tg_scan_re *re;
	struct each m;
	int rc;

	if (tg_audit_cxx_pattern_re(p, &re))
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (!re) {
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
	rc = at ? tg_scan_re_each_near(re, text, x->len, at, nat, p->lits.pre,
				       on_match, &m, &e2)
		: tg_scan_re_each_from(re, text, x->len, from, to, on_match, &m,
				       &e2);
	if (rc == TG_ENOMEM || x->oom)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (rc)
		return note(x, "audit-limit",
			    "a usage pattern of '%s' ran past the match "
			    "limits; its other uses are not reported",
			    p->a->id);
	return 0;
}

/* A method entry mentioned by its id in a comment or string. */
int
tg_audit_cxx_mention_id(struct cx *x, const struct tg_api *a)
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
		if (tg_audit_cxx_add(x, a, b, i, i,
				     in_literal(x, b) ? TG_AUDIT_IN_STRING
						      : TG_AUDIT_IN_COMMENT,
				     "method"))
			return TG_ENOMEM;
		if (x->full)
			break;
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
int
tg_audit_cxx_one_per_span(struct tg_audit_result *r, size_t first)
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
				    j != i &&
				    tg_audit_cxx_extends(f, v[sp[j].k].api);
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
