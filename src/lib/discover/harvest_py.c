/* harvest_py.c - the deprecations declared in Python source
 * SPDX-License-Identifier: MIT
 *
 * Masks a Python file from lex/pylex's tokens (comments and string
 * bodies blanked, the lines that start a statement marked) and reads
 * each site the pattern finds: @...deprecated(...) decorators and
 * warnings.warn(...) calls with a deprecation category or message. The
 * name a declaration applies to comes from a scope tracker that moves
 * forward with the sites over indentation and def/class lines; it is
 * not a parser, and on code it does not understand it gives a shorter
 * name, never a wrong file or line. A message given by a name (NAME,
 * NAME.format(), NAME % ...) is looked up in the same file's
 * assignments, at most CONSTANTS_MAX times per file; the decorator's
 * def is looked for LOOKAHEAD_LINES statements ahead.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/discover/discover.h"
#include "lib/discover/internal.h"
#include "lib/lex/pylex.h"
#include "lib/util/buf.h"

/* Sites in masked Python: a decorator whose last name is "deprecated"
 * (typing_extensions.deprecated, warnings.deprecated, a module's own
 * _deprecation.deprecated), and warnings.warn. That the '@' starts its
 * line is checked after the match: a '^' in the alternation would make
 * PCRE2 try every offset. */
static const char pattern[] =
    "(@[ \\t]*(?:[A-Za-z_][A-Za-z_0-9]*[ \\t]*\\.[ \\t]*)*"
    "deprecated[ \\t]*\\()"
    "|(\\bwarnings[ \\t]*\\.[ \\t]*warn[ \\t]*\\()";

/* Sites in masked C++. */

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
mask(struct src *x)
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
render(const struct src *x, size_t a, size_t e, struct tg_buf *out, int *lit,
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
			    !tg_message_split_args(m, e, i, args, &n, &close) ||
			    n != 1)
				break;
			render(x, args[0].a, args[0].e, out, lit, depth + 1);
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
			tg_message_add_collapsed(out, x->s, st, i);
			tg_buf_addc(out, '}');
		}
		operand = 0;
		after_lit = 0;
	}
}

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
	return tg_message_render_arg(x, &rhs, &tg_harvest_py_ops, 1, out);
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

static int
site(void *vr, const char *m, const size_t *ov, size_t ng)
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
	found =
	    tg_message_split_args(x->m, x->len, ov[1] - 1, args, &n, &close);
	if (tg_decl_spend(r, tg_decl_call_cost(x, ov[1] - 1, found, close),
			  line))
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
				if ((rc = tg_message_render_arg(
					 x, &args[k], &tg_harvest_py_ops, 1,
					 &message)) != 0)
					return tg_err_set(r->err, rc,
							  "out of memory");
		for (k = 0; k < n && !message; k++) {
			if (args[k].ke > args[k].ka)
				continue;
			if ((rc = tg_message_render_arg(x, &args[k],
							&tg_harvest_py_ops, 1,
							&message)) != 0)
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
		if (tg_decl_spend(r, cost, line)) {
			free(message);
			return 1;
		}
		if (msg && !message &&
		    (rc = tg_message_render_arg(x, msg, &tg_harvest_py_ops, 0,
						&message)) != 0)
			return tg_err_set(r->err, rc, "out of memory");
		ok = (cat && py_category_ok(x, cat)) ||
		     (message && contains_ci(message, "deprecat"));
	}
	if (!ok) {
		free(message);
		return 0;
	}
	return tg_decl_emit(r, py_symbol(x, r->module, &r->pt, name, nlen, cls),
			    line, message,
			    decorator ? TG_DECL_DECORATOR : TG_DECL_WARN);
}

/* ---- C++ ------------------------------------------------------------ */

/* Every site names "deprecated" or "warnings". */
static int
may_declare(const char *text, size_t len)
{
	return memmem(text, len, "deprecated", 10) ||
	       memmem(text, len, "warnings", 8);
}

/* A message's argument: depth 0. */
static void
render_arg(const struct src *x, size_t a, size_t e, struct tg_buf *out,
	   int *lit)
{
	render(x, a, e, out, lit, 0);
}

static const char *const exts[] = {".py", NULL};

const struct harvester tg_harvest_py_ops = {
    .lang = TG_LANG_PYTHON,
    .exts = exts,
    .headers = 0,
    .skip_dir = "__pycache__",
    .modules = 1,
    .pattern = pattern,
    .may_declare = may_declare,
    .mask = mask,
    .site = site,
    .render = render_arg,
};
