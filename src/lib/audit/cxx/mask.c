/* mask.c - the C/C++/CUDA analyzer's masked copies of a file
 * SPDX-License-Identifier: MIT
 *
 * One pass of lex/clex over the file makes two masked copies of it,
 * lines kept: the code (comments and literal bodies blanked, directives
 * kept but for their comments) and the mentions (only comment text and
 * literal bodies kept). The same pass hands each directive to the
 * conditionals (cond.c) and each comment to suppression: "torchgate:
 * ignore[id,...]" becomes a suppression. Positions (line, column) of a
 * byte come from a binary search of the file's newlines.
 *
 * Worst case: one token pass; memory about three times the file, plus
 * the offset of each newline.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"
#include "lib/util/grow.h"

/* Line and 1-based column of off: the newlines before it, counted by a
 * binary search of the file's newlines. */
void
tg_audit_cxx_position(const struct cx *x, size_t off, size_t *line, size_t *col)
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
int
tg_audit_cxx_newlines(struct cx *x, char *m)
{
	const char *p, *end = x->src + x->len;
	size_t cap = 0;

	/* room for a line in 32 bytes at first */
	if (TG_GROW(x->nl, x->len / 32 + 16, cap))
		return TG_ENOMEM;
	for (p = x->src; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
		if (TG_GROW(x->nl, x->nnl + 1, cap))
			return TG_ENOMEM;
		x->nl[x->nnl++] = (size_t)(p - x->src);
		m[p - x->src] = '\n';
	}
	return 0;
}

/* Blank m[a..e) to spaces but its newlines (a line at a time). */
void
tg_audit_cxx_blank(char *m, size_t a, size_t e)
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
			tg_audit_cxx_blank(m, i, e);
			return;
		} else if (s[i] == '/' && i + 1 < e && s[i + 1] == '*') {
			size_t j = i + 2;

			while (j + 1 < e && !(s[j] == '*' && s[j + 1] == '/'))
				j++;
			j = j + 2 <= e ? j + 2 : e;
			tg_audit_cxx_blank(m, i, j);
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

int
tg_audit_cxx_mask(struct cx *x)
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
			tg_audit_cxx_blank(x->code, t.off, t.off + t.len);
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
			tg_audit_cxx_blank(x->code, q, e);
			keep(x, q, e, 1);
			break;
		case TG_CLEX_DIRECTIVE:
			blank_directive_comments(x->src, x->code, t.off,
						 t.off + t.len);
			if ((rc = tg_audit_cxx_directive(x, &t)))
				return rc;
			break;
		default:
			break;
		}
	}
	/* chains open at the end of the file guard to its last line */
	while (x->depth) {
		if (x->depth <= DEPTH_MAX &&
		    tg_audit_cxx_add_region(x, &x->fr[x->depth - 1], lx.line))
			return TG_ENOMEM;
		x->depth--;
	}
	return 0;
}
