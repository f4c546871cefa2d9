/* fix.c - audit --fix for C, C++ and CUDA: the edits that rewrite one use
 * SPDX-License-Identifier: MIT
 *
 * Given a finding and its entry's "fix" (table.h, struct tg_api_fix),
 * the edits of the source's bytes that rewrite it, found with the C/C++
 * tokenizer (lex/clex) from the use's start, as the analyzer found it
 * (code, never a comment or a literal: the caller leaves mentions and
 * guarded uses alone before asking). Every byte outside the edits stays
 * as it was: CRLF, line continuations, comments between arguments.
 *
 * What it rewrites: with "replace", the tokens from the use's start that
 * spell its "from" (token for token; blanks and backslash-newlines
 * between them free, a comment not) become its "to"
 * (.type().scalarType() -> .scalar_type(), .data<T>() ->
 * .data_ptr<T>()); without, a use whose text is exactly the entry's id
 * (AT_CHECK) becomes the id of the fix's "to" (TORCH_CHECK). Then an
 * inserted argument goes into the call's parentheses at its place
 * (AT_ERROR(...) -> TORCH_CHECK(false, ...)). A use spelled otherwise
 * (another name of the entry's usage patterns, a form the fix does not
 * name) is left with its reason.
 *
 * A call's arguments are read at parenthesis depth one, split at its
 * commas; a '<' there may open template arguments whose commas are no
 * separators, so where it matters (an insertion after the first
 * argument, a most-positional count) such a call is left. A call with
 * a preprocessor directive inside is left. A call followed by "; else"
 * is left: the replacement may be a macro that expands to an unbraced
 * if statement (TORCH_CHECK), which would take the else.
 *
 * Worst case: the tokens of the use and its call's parentheses, once;
 * no allocation but the edits' texts.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/clex.h"

#define ARGS_MAX 64

struct call {
	size_t open, close; /* offsets of '(' and ')' */
	size_t start[ARGS_MAX], end[ARGS_MAX];
	size_t n;
	int angle;     /* a '<' at depth one: commas may not separate */
	int then_else; /* followed by "; else" */
	int directive; /* a directive inside the parentheses */
	int too_many;  /* more than ARGS_MAX arguments */
};

static int
bad(const struct tg_clex_tok *t)
{
	return t->kind == TG_CLEX_ERROR ||
	       (t->flags &
		(TG_CLEX_UNTERMINATED | TG_CLEX_UNBALANCED | TG_CLEX_BAD_RAW));
}

static int
punct_is(const char *s, const struct tg_clex_tok *t, const char *p)
{
	size_t n = strlen(p);

	return t->kind == TG_CLEX_PUNCT && t->len == n &&
	       memcmp(s + t->off, p, n) == 0;
}

/* The next token that is no comment: 1, or 0 at the end. */
static int
next_code(struct tg_clex *lx, struct tg_clex_tok *t)
{
	do {
		if (!tg_clex_next(lx, t) || t->kind == TG_CLEX_END)
			return 0;
	} while (t->kind == TG_CLEX_COMMENT);
	return 1;
}

/* Whether the tokens of src from start spell those of from, into
 * [*b, *e): 1, 0 when they do not, -1 when a comment or directive comes
 * between them. */
static int
spells(const char *src, size_t len, size_t start, const char *from, size_t *b,
       size_t *e)
{
	struct tg_clex ls, lf;
	struct tg_clex_tok ts, tf;
	const char *s = src + start;
	int first = 1;

	tg_clex_init(&ls, s, len - start);
	tg_clex_init(&lf, from, strlen(from));
	for (;;) {
		if (!tg_clex_next(&lf, &tf) || tf.kind == TG_CLEX_END)
			return !first;
		if (!tg_clex_next(&ls, &ts) || ts.kind == TG_CLEX_END ||
		    bad(&ts))
			return 0;
		if (ts.kind == TG_CLEX_COMMENT || ts.kind == TG_CLEX_DIRECTIVE)
			return -1;
		if (ts.kind != tf.kind || ts.len != tf.len ||
		    memcmp(s + ts.off, from + tf.off, ts.len) != 0)
			return 0;
		if (first)
			*b = start + ts.off;
		first = 0;
		*e = start + ts.off + ts.len;
	}
}

/* The call whose name ends at end: 1 with *c filled, 0 when the next
 * token is no '(' or the parentheses do not close. */
static int
read_call(const char *src, size_t len, size_t end, struct call *c)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	const char *s = src + end;
	int open_arg = 0;

	memset(c, 0, sizeof(*c));
	tg_clex_init(&lx, s, len - end);
	if (!next_code(&lx, &t) || !punct_is(s, &t, "("))
		return 0;
	c->open = end + t.off;
	for (;;) {
		if (!tg_clex_next(&lx, &t) || t.kind == TG_CLEX_END || bad(&t))
			return 0;
		if (t.kind == TG_CLEX_COMMENT)
			continue;
		if (t.kind == TG_CLEX_DIRECTIVE) {
			c->directive = 1;
			continue;
		}
		if (t.depth == 0 && punct_is(s, &t, ")")) {
			c->close = end + t.off;
			break;
		}
		if (t.depth == 1 && punct_is(s, &t, ",")) {
			open_arg = 0;
			continue;
		}
		if (t.depth == 1 && punct_is(s, &t, "<"))
			c->angle = 1;
		if (!open_arg) {
			open_arg = 1;
			if (c->n == ARGS_MAX) {
				c->too_many = 1;
				continue;
			}
			c->start[c->n++] = end + t.off;
		}
		if (!c->too_many)
			c->end[c->n - 1] = end + t.off + t.len;
	}
	if (next_code(&lx, &t) && punct_is(s, &t, ";") && next_code(&lx, &t) &&
	    t.kind == TG_CLEX_IDENT && t.len == 4 &&
	    memcmp(s + t.off, "else", 4) == 0)
		c->then_else = 1;
	return 1;
}

/* Add a b c concatenated as one edit of [start, end). */
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

/* Where x->insert goes into call c: *at_off and whether it is appended
 * (after the last argument), or a reason. */
static const char *
insert_place(const struct tg_api_fix *x, const struct call *c, size_t *at_off,
	     int *append)
{
	size_t at = (size_t)x->at;

	if (c->directive)
		return "a call with a preprocessor directive inside: not "
		       "fixable";
	if (c->too_many)
		return "a call with too many arguments to read";
	if (!c->n)
		return "a call without arguments: not fixed";
	if (x->max_positional >= 0 &&
	    (c->angle || c->n > (size_t)x->max_positional))
		return "a call with arguments the replacement reads in "
		       "another order";
	if (at > 0 && c->angle)
		return "a call with template arguments: the place of the "
		       "inserted argument is unknown";
	if (at > c->n)
		return "a call with fewer arguments than the place of the "
		       "inserted one";
	*append = at == c->n;
	*at_off = *append ? c->end[c->n - 1] : c->start[at];
	return NULL;
}

int
tg_audit_cxx_fix_use(const char *src, size_t len,
		     const struct tg_audit_finding *f, const char *to,
		     int (*add)(void *ctx, size_t start, size_t end,
				const char *text, size_t len),
		     void *ctx, const char **why)
{
	const struct tg_api_fix *x = &f->api->fix;
	const char *id = f->api->id, *text;
	size_t idlen = strlen(id), b, e, at_off = 0;
	struct call c;
	int rc, is_call, append = 0;

	*why = NULL;
	if (f->in != TG_AUDIT_IN_CODE) {
		*why = "a mention in a comment or string: never rewritten";
		return 0;
	}
	if (strcmp(f->kind, "include") == 0) {
		*why = "an #include: no replacement";
		return 0;
	}
	if (f->end > len || f->start >= f->end) {
		*why = "the use's text is not known";
		return 0;
	}
	if (x->replace_from) {
		rc = spells(src, len, f->start, x->replace_from, &b, &e);
		if (rc <= 0) {
			*why = rc < 0 ? "a comment or directive inside the "
					"use: not fixable"
				      : "no replacement for this form of the "
					"use";
			return 0;
		}
		text = x->replace_to;
	} else if (x->to) {
		if (f->end - f->start != idlen ||
		    memcmp(src + f->start, id, idlen) != 0) {
			*why = "no replacement for this spelling (only the "
			       "entry's own name is rewritten)";
			return 0;
		}
		if (f->start > 0 &&
		    (src[f->start - 1] == ':' || src[f->start - 1] == '.' ||
		     src[f->start - 1] == '>')) {
			*why = "a member or qualified name: not fixable";
			return 0;
		}
		b = f->start;
		e = f->end;
		text = to;
	} else {
		b = e = f->end;
		text = NULL;
	}
	is_call = read_call(src, len, e, &c);
	if (is_call && c.then_else) {
		*why = "a call followed by \"; else\": the replacement may be "
		       "an if statement, which would take the else";
		return 0;
	}
	if (x->insert) {
		if (!is_call) {
			*why = "not a call whose parentheses can be read, and "
			       "the fix inserts an argument";
			return 0;
		}
		*why = insert_place(x, &c, &at_off, &append);
		if (*why)
			return 0;
	}
	if (text && (rc = add(ctx, b, e, text, strlen(text))))
		return rc;
	if (!x->insert)
		return 0;
	return append ? add3(add, ctx, at_off, at_off, ", ", x->insert, "")
		      : add3(add, ctx, at_off, at_off, x->insert, ", ", "");
}

size_t
tg_audit_cxx_lex_errors(const char *src, size_t len)
{
	struct tg_clex lx;
	struct tg_clex_tok t;
	size_t n = 0;

	tg_clex_init(&lx, src, len);
	while (tg_clex_next(&lx, &t) && t.kind != TG_CLEX_END)
		n += bad(&t);
	return n;
}
