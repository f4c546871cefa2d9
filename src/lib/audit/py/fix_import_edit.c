/* fix_import_edit.c - audit --fix for Python, the file-level step: the
 * edits of the imports
 * SPDX-License-Identifier: MIT
 *
 * The edits fix_import.c asks for, appended to x's list (struct fx,
 * fix_import.h), each owned by a finding or by none: the edit list
 * itself (tg_audit_py_fix_add_ed, which fix.c's span rewrite of a use
 * goes through too); an import statement removed with its lines, its
 * comments kept on lines of their own, `import torch` (or `pass`, when
 * it was its block's only statement) in its place; `import torch`
 * added on a line of its own after a statement, at its indentation;
 * items dropped from a statement that keeps others, each with its comma
 * and its line when it had the line to itself. Parentheses, backslash
 * continuations and comments stay: an item whose range would remove a
 * comment is kept (its drop flag cleared, which fix_import.c then reads
 * as the reason). Line ends follow the file's ("\r\n" or "\n").
 *
 * Worst case: one pass over a statement's tokens per edit, and over the
 * items for each statement that drops some.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/py/fix_import.h"
#include "lib/lex/pylex.h"
#include "lib/util/grow.h"

int
tg_audit_py_fix_add_ed(struct fx *x, size_t start, size_t end, const char *text,
		       size_t n, size_t owner)
{
	char *c;

	if (TG_GROW(x->e, x->ne + 1, x->cape) || !(c = malloc(n + 1)))
		return x->rc = TG_ENOMEM;
	memcpy(c, text, n);
	c[n] = '\0';
	x->e[x->ne].start = start;
	x->e[x->ne].end = end;
	x->e[x->ne].text = c;
	x->e[x->ne].len = n;
	x->e[x->ne].owner = owner;
	x->ne++;
	return 0;
}

static size_t
line_start(const struct fx *x, size_t off)
{
	while (off > 0 && x->s[off - 1] != '\n')
		off--;
	return off;
}

/* Where the statement's last line ends: after its newline. */
static size_t
stmt_end(const struct fx *x, const struct stmt *s)
{
	const struct tg_pylex_tok *t = &x->t[s->term];

	return t->off + t->len;
}

/* The end of line that ends at or after off: "\r\n" or "\n". */
static const char *
eol_at(const struct fx *x, size_t off)
{
	while (off < x->len && x->s[off] != '\n')
		off++;
	return off > 0 && off < x->len && x->s[off - 1] == '\r' ? "\r\n" : "\n";
}

/* Whether the bytes [from, to) hold a comment. */
static int
holds_comment(const struct fx *x, size_t from, size_t to)
{
	size_t lo = 0, hi = x->nt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->t[mid].off < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < x->nt && x->t[lo].off < to; lo++)
		if (x->t[lo].kind == TG_PYLEX_COMMENT)
			return 1;
	return 0;
}

/* Append indent, text and eol to b (sized by the caller). */
static void
put_line(char *b, size_t *bl, const char *ind, size_t indn, const char *text,
	 size_t tn, const char *eol)
{
	memcpy(b + *bl, ind, indn);
	*bl += indn;
	memcpy(b + *bl, text, tn);
	*bl += tn;
	memcpy(b + *bl, eol, strlen(eol));
	*bl += strlen(eol);
}

/* Whether statement k is the only one of its block: the one before
 * ends with ':' and the one after (if any) is indented less. */
static int
only_in_block(const struct fx *x, size_t k)
{
	const struct stmt *p, *s = &x->st[k];

	if (k == 0)
		return 0;
	p = &x->st[k - 1];
	if (!TEQ(x, prev_code(x, p, p->b), ":"))
		return 0;
	return k + 1 == x->nst || x->t[x->st[k + 1].a].col < x->t[s->a].col;
}

/* Statement k (alone on its lines) removed with its lines, `import
 * torch` in its place when torch, its comments kept on lines of their
 * own. */
int
tg_audit_py_fix_remove_stmt(struct fx *x, size_t k, int torch)
{
	const struct stmt *s = &x->st[k];
	size_t ls = line_start(x, x->t[s->a].off), ind = x->t[s->a].off - ls;
	const char *eol = eol_at(x, x->t[s->a].off);
	size_t i, cap = 32 + ind, bl = 0;
	int final_eol = x->t[s->term].len > 0, rc;
	char *b;

	for (i = s->a; i < s->term; i++)
		if (x->t[i].kind == TG_PYLEX_COMMENT)
			cap += ind + x->t[i].len + 2;
	if (!(b = malloc(cap)))
		return x->rc = TG_ENOMEM;
	if (torch)
		put_line(b, &bl, x->s + ls, ind, "import torch", 12, eol);
	else if (only_in_block(x, k))
		put_line(b, &bl, x->s + ls, ind, "pass", 4, eol);
	for (i = s->a; i < s->term; i++)
		if (x->t[i].kind == TG_PYLEX_COMMENT)
			put_line(b, &bl, x->s + ls, ind, x->s + x->t[i].off,
				 x->t[i].len, eol);
	if (!final_eol && bl >= strlen(eol))
		bl -= strlen(eol);
	rc = tg_audit_py_fix_add_ed(x, ls, stmt_end(x, s), b, bl, NONE);
	free(b);
	return rc;
}

/* `import torch` on a line of its own after statement k, at its
 * indentation. */
int
tg_audit_py_fix_torch_after(struct fx *x, size_t k)
{
	const struct stmt *s = &x->st[k];
	size_t ls = line_start(x, x->t[s->a].off), ind = x->t[s->a].off - ls;
	const char *eol = eol_at(x, x->t[s->a].off);
	size_t bl = 0;
	char *b;
	int rc;

	if (!(b = malloc(ind + 32)))
		return x->rc = TG_ENOMEM;
	if (x->t[s->term].len == 0) {
		/* the file's last line, without its end */
		memcpy(b, eol, strlen(eol));
		bl = strlen(eol);
		put_line(b, &bl, x->s + ls, ind, "import torch", 12, "");
	} else
		put_line(b, &bl, x->s + ls, ind, "import torch", 12, eol);
	rc = tg_audit_py_fix_add_ed(x, stmt_end(x, s), stmt_end(x, s), b, bl,
				    NONE);
	free(b);
	return rc;
}

/* The edit that drops item i of a statement that keeps others: 0 with
 * [*from, *to), or 1 when it would remove a comment (kept). The items
 * of the statement are it[first..]. */
static int
drop_range(const struct fx *x, size_t first, size_t i, size_t *from, size_t *to)
{
	const struct item *it = &x->it[i];
	const struct stmt *s = &x->st[it->stmt];
	size_t c = next_code(x, s, it->last), j, kept = NONE;

	if (c < s->b && TEQ(x, c, ",")) {
		/* the item and its comma, then blanks; its line too when it
		 * held nothing else */
		size_t p = tok_end(x, c), ls = line_start(x, x->t[it->a].off);
		size_t q;

		*from = x->t[it->a].off;
		while (p < x->len && (x->s[p] == ' ' || x->s[p] == '\t'))
			p++;
		*to = p;
		if (p < x->len && (x->s[p] == '\n' || x->s[p] == '\r')) {
			for (q = ls;
			     q < *from && (x->s[q] == ' ' || x->s[q] == '\t');
			     q++)
				;
			if (q == *from) {
				*from = ls;
				*to = p + (x->s[p] == '\r' && p + 1 < x->len &&
						   x->s[p + 1] == '\n'
					       ? 2
					       : 1);
			} else {
				size_t pv = prev_code(x, s, it->a);

				/* keep what precedes on the line: from the
				 * comma before the item */
				if (pv != NONE && TEQ(x, pv, ",")) {
					*from = tok_end(x, pv);
					*to = tok_end(x, c);
				}
			}
		}
		return holds_comment(x, *from, *to);
	}
	/* the last item, no comma after it: from the end of the last item
	 * kept (those between are dropped with it) */
	for (j = first; j < i; j++)
		if (!x->it[j].drop)
			kept = j;
	if (kept == NONE)
		return 1;
	*from = tok_end(x, x->it[kept].last);
	*to = tok_end(x, it->last);
	return holds_comment(x, *from, *to);
}

/* The items dropped from statement k that keeps others. */
int
tg_audit_py_fix_drop_items(struct fx *x, size_t k)
{
	size_t i, j, first = NONE, from, to, e0 = x->ne;
	int rc;

	for (i = 0; i < x->nit && first == NONE; i++)
		if (x->it[i].stmt == k)
			first = i;
	for (i = first; i < x->nit && x->it[i].stmt == k; i++) {
		if (!x->it[i].drop)
			continue;
		if (drop_range(x, first, i, &from, &to)) {
			x->it[i].drop = 0;
			continue;
		}
		/* a range over earlier items' own: theirs go */
		for (j = e0; j < x->ne; j++)
			if (x->e[j].start >= from && x->e[j].end <= to) {
				free(x->e[j].text);
				x->e[j--] = x->e[--x->ne];
			}
		if ((rc = tg_audit_py_fix_add_ed(x, from, to, "", 0, NONE)))
			return rc;
	}
	return 0;
}