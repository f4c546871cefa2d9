/* fix.c - audit --fix for Python: the edits that rewrite one use
 * SPDX-License-Identifier: MIT
 *
 * Given a finding and its entry's "fix" (table.h, struct tg_api_fix),
 * the edits of the source's bytes that rewrite it: the dotted name
 * replaced by the fix's "to", and an argument inserted into the call's
 * parentheses, found with the tokenizer (lex/pylex) from the end of the
 * name. Every byte outside the edits stays as it was.
 *
 * What it rewrites (issue 27's first step): a use whose text in the
 * source, src[start..end), is exactly the entry's dotted name, so that
 * its first name is the torch module (the analyzer resolved it to the
 * entry): attribute chains, calls, decorators bare and called,
 * annotations in code. Anything else (an alias, a from-import, a name
 * split over lines, an import statement) is left with its reason; the
 * caller leaves mentions and guarded uses alone before asking.
 *
 * A call's arguments are read at bracket depth one inside its
 * parentheses: positional ones, keywords (NAME '='), *args and
 * **kwargs, and a generator expression (a top-level 'for'), which
 * takes no second argument. An insertion is refused where it would not
 * mean what the table says: more positional arguments than the fix
 * allows, fewer than the place it inserts at, *args before that place,
 * a keyword the call passes already or may pass through **kwargs.
 *
 * Worst case: the tokens of the call's parentheses, once; no
 * allocation but the edits' texts, which add copies.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/pylex.h"

/* The arguments of a call: where each top-level one starts and ends
 * (its first token's offset, its last token's end). */
#define ARGS_MAX 64

struct arg {
	size_t start, end;
	int star;	/* 1: *x, 2: **x */
	const char *kw; /* keyword: its name in the source */
	size_t kwlen;	/* its length */
	int positional; /* neither keyword nor starred */
	int has_tokens; /* not an empty trailing segment */
};

struct call {
	const char *src;
	size_t open, close; /* offsets of '(' and ')' */
	struct arg a[ARGS_MAX];
	size_t n;
	int generator; /* a top-level 'for': one generator argument */
};

static int
tok_is(const char *src, const struct tg_pylex_tok *t, enum tg_pylex_kind k,
       const char *s)
{
	size_t n = strlen(s);

	return t->kind == k && t->len == n && memcmp(src + t->off, s, n) == 0;
}

/* The token after the name that ends at end, on its logical line:
 * the tokenizer starts there afresh, in code (so a newline at its depth
 * 0 is a NEWLINE, the end of the line, never an NL to skip). */
static void
next_tok(const char *src, size_t len, size_t end, struct tg_pylex *lx,
	 struct tg_pylex_tok *t)
{
	tg_pylex_init(lx, src + end, len - end);
	lx->code = 1;
	tg_pylex_next(lx, t);
}

/* The call whose name ends at end: 1 with *c filled, 0 when the next
 * token is no '(' on the same logical line or the parentheses do not
 * close, -1 when it has more than ARGS_MAX arguments. A '(' on a later
 * line (inside brackets of the caller's) is not taken: the name's own
 * statement may end there. */
static int
read_call(const char *src, size_t len, size_t end, struct call *c)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t, prev;
	struct arg *cur = NULL;
	int first = 1;

	memset(c, 0, sizeof(*c));
	c->src = src;
	next_tok(src, len, end, &lx, &t);
	if (!tok_is(src + end, &t, TG_PYLEX_OP, "("))
		return 0;
	c->open = end + t.off;
	memset(&prev, 0, sizeof(prev));
	for (;;) {
		if (!tg_pylex_next(&lx, &t) || t.kind == TG_PYLEX_END ||
		    t.kind == TG_PYLEX_ERROR ||
		    (t.flags & (TG_PYLEX_UNTERMINATED | TG_PYLEX_UNBALANCED)))
			return 0;
		if (t.kind == TG_PYLEX_NL || t.kind == TG_PYLEX_COMMENT ||
		    t.kind == TG_PYLEX_NEWLINE)
			continue;
		if (t.kind == TG_PYLEX_OP && t.depth == 0 &&
		    (src[end + t.off] == ')' || src[end + t.off] == ']' ||
		     src[end + t.off] == '}')) {
			c->close = end + t.off;
			return 1;
		}
		if (t.depth == 1 && tok_is(src + end, &t, TG_PYLEX_OP, ",")) {
			cur = NULL;
			first = 1;
			continue;
		}
		if (!cur) {
			if (c->n == ARGS_MAX)
				return -1;
			cur = &c->a[c->n++];
			cur->start = end + t.off;
			cur->has_tokens = 1;
			cur->positional = 1;
		}
		if (t.depth == 1 && first) {
			if (tok_is(src + end, &t, TG_PYLEX_OP, "*")) {
				cur->star = 1;
				cur->positional = 0;
			} else if (tok_is(src + end, &t, TG_PYLEX_OP, "**")) {
				cur->star = 2;
				cur->positional = 0;
			}
		} else if (t.depth == 1 && prev.kind == TG_PYLEX_NAME &&
			   tok_is(src + end, &t, TG_PYLEX_OP, "=") &&
			   cur->start == end + prev.off) {
			cur->kw = src + end + prev.off;
			cur->kwlen = prev.len;
			cur->positional = 0;
		}
		if (t.depth == 1 && tok_is(src + end, &t, TG_PYLEX_NAME, "for"))
			c->generator = 1;
		first = 0;
		cur->end = end + t.off + t.len;
		prev = t;
	}
}

/* Add "a" "b" "c" concatenated as one edit of [start, end). */
static int
add3(int (*add)(void *, size_t, size_t, const char *, size_t), void *ctx,
     size_t start, size_t end, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s = malloc(la + lb + lc + 1);
	int rc;

	if (!s)
		return TG_ENOMEM;
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	rc = add(ctx, start, end, s, la + lb + lc);
	free(s);
	return rc;
}

/* What follows an argument inserted first: nothing when the call has
 * none, a comma alone when its arguments start on a later line, else a
 * comma and a space. */
static const char *
first_sep(const struct call *c)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		if (c->a[k].has_tokens)
			return c->src[c->open + 1] == '\n' ||
				       c->src[c->open + 1] == '\r'
				   ? ","
				   : ", ";
	return "";
}

/* In keyword arguments text ("a=1" or "a=1, b='x'", as the table's
 * loader checks it), the argument after the one at p, or NULL: past
 * the ", " that ends p's literal (a string literal may hold ", "). */
static const char *
next_kw(const char *p)
{
	p = strchr(p, '=') + 1;
	if (*p == '"' || *p == '\'')
		p = strchr(p + 1, *p) + 1;
	p = strstr(p, ", ");
	return p ? p + 2 : NULL;
}

/* Whether keyword arguments text names the keyword kw[0..n). */
static int
inserts_kw(const char *text, const char *kw, size_t n)
{
	const char *p;

	for (p = text; p; p = next_kw(p))
		if ((size_t)(strchr(p, '=') - p) == n && memcmp(p, kw, n) == 0)
			return 1;
	return 0;
}

/* The insertion of x->insert into call c: one edit, or *why. */
static int
insert_arg(const struct tg_api_fix *x, const struct call *c,
	   int (*add)(void *, size_t, size_t, const char *, size_t), void *ctx,
	   const char **why)
{
	size_t k, npos = 0;
	size_t last_pos = (size_t)-1;
	int dstar = 0, star = 0;

	if (c->generator) {
		*why = "a call with a generator argument: not fixable";
		return 0;
	}
	for (k = 0; k < c->n; k++) {
		const struct arg *a = &c->a[k];

		if (!a->has_tokens)
			continue;
		if (a->star == 2)
			dstar = 1;
		if (a->star == 1)
			star = 1;
		if (a->positional && !star) {
			npos++;
			last_pos = k;
		}
		if (a->kw && x->insert_kw &&
		    inserts_kw(x->insert, a->kw, a->kwlen)) {
			*why = "the call passes the inserted keyword already";
			return 0;
		}
	}
	if (x->max_positional >= 0 && npos > (size_t)x->max_positional) {
		*why = "a call with positional arguments the replacement "
		       "reads in another order";
		return 0;
	}
	if (x->insert_kw) {
		if (dstar) {
			*why = "a call with **kwargs, which may pass the "
			       "inserted keyword";
			return 0;
		}
		if (npos)
			return add3(add, ctx, c->a[last_pos].end,
				    c->a[last_pos].end, ", ", x->insert, "");
		return add3(add, ctx, c->open + 1, c->open + 1, x->insert,
			    first_sep(c), "");
	}
	if (star) {
		*why = "a call with *args: the place of the inserted argument "
		       "is unknown";
		return 0;
	}
	if ((size_t)x->at > npos) {
		*why = "a call with fewer positional arguments than the "
		       "place of the inserted one";
		return 0;
	}
	if ((size_t)x->at < npos) {
		/* before the at-th positional argument (positional ones come
		 * first) */
		size_t i, seen = 0;

		for (i = 0; i < c->n; i++)
			if (c->a[i].positional && seen++ == (size_t)x->at)
				break;
		return add3(add, ctx, c->a[i].start, c->a[i].start, x->insert,
			    ", ", "");
	}
	if (npos)
		return add3(add, ctx, c->a[last_pos].end, c->a[last_pos].end,
			    ", ", x->insert, "");
	return add3(add, ctx, c->open + 1, c->open + 1, x->insert, first_sep(c),
		    "");
}

/* Whether the logical line ends right after the name that ends at
 * end (a comment may follow). */
static int
ends_line(const char *src, size_t len, size_t end)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;

	next_tok(src, len, end, &lx, &t);
	if (t.kind == TG_PYLEX_COMMENT)
		tg_pylex_next(&lx, &t);
	return t.kind == TG_PYLEX_NEWLINE || t.kind == TG_PYLEX_END;
}

static int
has_space(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' ||
		    s[k] == '\r' || s[k] == '\\' || s[k] == '\f')
			return 1;
	return 0;
}

/* Whether t[0..n) is id's package, one or more names more, and id's
 * last name (torch.cuda.amp.autocast_mode.autocast for
 * torch.cuda.amp.autocast), names and dots only. */
static int
through_submodule(const char *t, size_t n, const char *id)
{
	const char *dot = strrchr(id, '.');
	size_t pl, ll, k;

	if (!dot)
		return 0;
	pl = (size_t)(dot - id) + 1; /* "torch.cuda.amp." */
	ll = strlen(dot);	     /* ".autocast" */
	if (n <= pl + ll || memcmp(t, id, pl) != 0 ||
	    memcmp(t + n - ll, dot, ll) != 0)
		return 0;
	for (k = pl; k < n - ll; k++)
		if (!(t[k] == '.' || t[k] == '_' ||
		      (t[k] >= '0' && t[k] <= '9') ||
		      ((t[k] | 32) >= 'a' && (t[k] | 32) <= 'z')))
			return 0;
	return t[pl] != '.' && t[n - ll - 1] != '.';
}

int
tg_audit_py_fix_use(const char *src, size_t len,
		    const struct tg_audit_finding *f, const char *to,
		    int (*add)(void *ctx, size_t start, size_t end,
			       const char *text, size_t len),
		    void *ctx, const char **why)
{
	const struct tg_api_fix *x = &f->api->fix;
	const char *id = f->api->id;
	size_t idlen = strlen(id);

	*why = NULL;
	if (f->in != TG_AUDIT_IN_CODE) {
		*why = "a mention in a comment or string: never rewritten";
		return 0;
	}
	if (strcmp(f->kind, "import") == 0) {
		*why = "import form not fixable yet";
		return 0;
	}
	if (strcmp(f->kind, "call") != 0 && strcmp(f->kind, "attribute") != 0 &&
	    strcmp(f->kind, "decorator") != 0 &&
	    strcmp(f->kind, "reference") != 0 &&
	    strcmp(f->kind, "annotation") != 0) {
		*why = "this kind of use is not fixable yet";
		return 0;
	}
	if (f->end > len || f->start >= f->end) {
		*why = "the use's text is not known";
		return 0;
	}
	if (through_submodule(src + f->start, f->end - f->start, id)) {
		/* the entry's own object through the submodule that
		 * defines it (torch.cuda.amp.autocast_mode.autocast): the
		 * whole text is the entry's name */
		if (f->start > 0 && src[f->start - 1] == '.') {
			*why = "an attribute of something else: not fixable";
			return 0;
		}
		return tg_audit_py_fix_span(src, len, f, to, add, ctx, why);
	}
	/* a fix that keeps the name (a behaviour's keyword inserted)
	 * reads the call after it, however the name is spelled */
	if (x->to && (f->end - f->start != idlen ||
		      memcmp(src + f->start, id, idlen) != 0)) {
		*why = f->end - f->start < 6 ||
			       memcmp(src + f->start, "torch.", 6) != 0
			   ? "import form not fixable yet (an alias or a "
			     "from-import)"
		       : has_space(src + f->start, f->end - f->start)
			   ? "a dotted name spelled over spaces or lines: "
			     "not fixable yet"
			   : "another spelling of the entry's name (another "
			     "module's): not fixable yet";
		return 0;
	}
	if (f->start > 0 && src[f->start - 1] == '.') {
		*why = "an attribute of something else: not fixable";
		return 0;
	}
	return tg_audit_py_fix_span(src, len, f, x->to ? to : NULL, add, ctx,
				    why);
}

int
tg_audit_py_fix_is_store(const char *src, size_t len, size_t end)
{
	static const char *const aug[] = {
	    "+=", "-=", "*=", "/=",  "//=", "%=",  "@=",
	    "&=", "|=", "^=", ">>=", "<<=", "**=", NULL};
	size_t k;

	while (end < len && (src[end] == ' ' || src[end] == '\t'))
		end++;
	if (end >= len)
		return 0;
	if (src[end] == '=')
		return end + 1 >= len || src[end + 1] != '=';
	for (k = 0; aug[k]; k++)
		if (len - end >= strlen(aug[k]) &&
		    memcmp(src + end, aug[k], strlen(aug[k])) == 0)
			return 1;
	return 0;
}

int
tg_audit_py_fix_span(const char *src, size_t len,
		     const struct tg_audit_finding *f, const char *name,
		     int (*add)(void *ctx, size_t start, size_t end,
				const char *text, size_t len),
		     void *ctx, const char **why)
{
	const struct tg_api_fix *x = &f->api->fix;
	struct call c;
	int rc, is_call;

	*why = NULL;
	if (tg_audit_py_fix_is_store(src, len, f->end)) {
		/* a monkeypatch (F.upsample = wrap(F.upsample)): the name
		 * assigned is the old one's, whatever its replacement */
		*why = "an assignment to the name: not fixable";
		return 0;
	}
	is_call = 0;
	if (x->insert && f->in_fstring && strpbrk(x->insert, "'\"\\")) {
		/* before Python 3.12 a field may hold neither the string's
		 * own quote nor a backslash; the other quote kind may be
		 * taken by an enclosing f-string already */
		*why = "inside an f-string: the inserted text's quotes need "
		       "Python 3.12 there";
		return 0;
	}
	if (x->insert && name && strcmp(f->kind, "annotation") == 0)
		/* a type names the class, no call: the name alone
		 * (Optional[torch.amp.GradScaler], which the old class
		 * derives from) */
		return add(ctx, f->start, f->end, name, strlen(name));
	if (x->insert && strcmp(f->kind, "call") != 0 &&
	    strcmp(f->kind, "decorator") != 0 &&
	    strcmp(f->kind, "annotation") != 0) {
		/* an attribute, a reference: whatever follows is no call
		 * of the use (a '(' on the next line starts another
		 * statement); an annotation is read below */
		*why = "not a call, and the fix inserts an argument";
		return 0;
	}
	if (x->insert) {
		rc = read_call(src, len, f->end, &c);
		if (rc < 0) {
			*why = "a call with too many arguments to read";
			return 0;
		}
		is_call = rc;
		if (!is_call &&
		    !(x->bare_call && strcmp(f->kind, "decorator") == 0)) {
			*why = strcmp(f->kind, "call") == 0
				   ? "a call whose parentheses cannot be read"
				   : "not a call, and the fix inserts an "
				     "argument";
			return 0;
		}
	}
	if (x->insert && !is_call && !ends_line(src, len, f->end)) {
		*why = "a decorator that goes on after the name (an attribute "
		       "or a subscript of it): not fixable";
		return 0;
	}
	if (x->insert && !is_call) {
		/* a bare decorator: NAME(TEXT), the name and the call as
		 * two edits (the check after fixing finds the name's end) */
		rc = name ? add(ctx, f->start, f->end, name, strlen(name)) : 0;
		return rc ? rc
			  : add3(add, ctx, f->end, f->end, "(", x->insert, ")");
	}
	if (name) {
		rc = add(ctx, f->start, f->end, name, strlen(name));
		if (rc)
			return rc;
	}
	if (x->insert)
		return insert_arg(x, &c, add, ctx, why);
	return 0;
}

size_t
tg_audit_py_lex_errors(const char *src, size_t len)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;

	tg_pylex_init(&lx, src, len);
	while (tg_pylex_next(&lx, &t))
		;
	return lx.errors;
}

/* How many arguments of c hold tokens, and whether m of them in a row
 * are exactly text (an inserted argument, or m keyword arguments). */
static size_t
nargs(const struct call *c, const char *text, size_t m, int *has)
{
	size_t k, n = 0, tl = text ? strlen(text) : 0;

	*has = 0;
	for (k = 0; k < c->n; k++) {
		if (!c->a[k].has_tokens)
			continue;
		n++;
		if (text && m && k + m <= c->n &&
		    c->a[k + m - 1].end - c->a[k].start == tl &&
		    memcmp(c->src + c->a[k].start, text, tl) == 0)
			*has = 1;
	}
	return n;
}

/* How many arguments x inserts: one, or as many keyword arguments as
 * its text holds. */
static size_t
inserted_count(const struct tg_api_fix *x)
{
	const char *p;
	size_t m = 0;

	if (!x->insert_kw)
		return 1;
	for (p = x->insert; p; p = next_kw(p))
		m++;
	return m;
}

/* Whether s[0..n) is a dotted name: NAME ('.' NAME)*, a NAME of
 * letters, digits, '_' and bytes >= 0x80, not starting with a digit. */
static int
is_dotted(const char *s, size_t n)
{
	size_t k;
	int start = 1;

	if (!n)
		return 0;
	for (k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];

		if (c == '.') {
			if (start)
				return 0;
			start = 1;
			continue;
		}
		if (!(c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') ||
		      (!start && c >= '0' && c <= '9')))
			return 0;
		start = 0;
	}
	return !start;
}

const char *
tg_audit_py_fix_check(const char *src, size_t len,
		      const struct tg_audit_finding *f, const char *fixed,
		      size_t flen, size_t at, size_t at_end)
{
	const struct tg_api_fix *x = &f->api->fix;
	size_t before = 0, after, m;
	struct call c;
	int has, was_call = 0;

	/* an import statement is rewritten whole (a name in it may go):
	 * the analysis of the fixed text checks it */
	if (strcmp(f->kind, "import") == 0)
		return NULL;
	/* whatever the name became (the entry's new name, the use's own
	 * text, a name an import binds), it is one dotted name */
	if (at > at_end || at_end > flen || !is_dotted(fixed + at, at_end - at))
		return "a rewritten name does not read back";
	if (!x->insert)
		return NULL;
	/* an argument goes only into a call or a decorator: a fix of
	 * anything else with one inserted it elsewhere (the '(' of the next
	 * statement) */
	if (strcmp(f->kind, "annotation") == 0 &&
	    (f->end > len || read_call(src, len, f->end, &c) != 1))
		return NULL; /* a type: renamed, nothing inserted */
	if (strcmp(f->kind, "call") != 0 && strcmp(f->kind, "decorator") != 0 &&
	    strcmp(f->kind, "annotation") != 0)
		return "an argument inserted into a use that is no call";
	/* the call before (none: a bare decorator) and after: the same
	 * arguments and the inserted one */
	if (f->end <= len && read_call(src, len, f->end, &c) == 1) {
		before = nargs(&c, NULL, 0, &has);
		was_call = 1;
	}
	if (!was_call && strcmp(f->kind, "decorator") != 0)
		return "a rewritten call does not read back as a call";
	if (read_call(fixed, flen, at_end, &c) != 1)
		return "a rewritten call does not read back as a call";
	m = inserted_count(x);
	after = nargs(&c, x->insert, m, &has);
	if (after != before + m || !has)
		return "a rewritten call's arguments do not read back";
	return NULL;
}
