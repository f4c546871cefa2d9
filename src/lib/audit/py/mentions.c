/* mentions.c - the Python analyzer's comments and strings
 * SPDX-License-Identifier: MIT
 *
 * Mentions: a table name written in a comment or a string ("root." and
 * the chain after it, matched as code is); suppression comments
 * "torchgate: ignore[id,...]". The expressions of f-string fields are
 * code (scan_fields: each field tokenized on its own, at most FIELD_TOKS
 * tokens, its guards those of the string); the rest of an f-string is
 * text for mentions.
 *
 * Worst case: linear in the text; a mention's chain is at most
 * NAME_MAX_LEN bytes.
 */
#include <stdint.h>
#include <string.h>

#include "lib/audit/py/internal.h"

/* Mentions of table names in text[0..n) (a comment or a string body)
 * that starts at line, col. */
void
tg_audit_py_scan_mentions(struct state *st, const char *text, size_t n,
			  size_t line, size_t col, enum tg_audit_in in,
			  size_t ti)
{
	const char *end = text + n, *d, *from = text;
	size_t r;

	/* a mention is "root." : each '.' (memchr) with a root before it */
	for (d = memchr(text, '.', n); d && d + 1 < end;
	     d = memchr(d + 1, '.', (size_t)(end - d - 1))) {
		for (r = 0; r < st->ix->nroots; r++) {
			const char *root = st->ix->roots[r];
			size_t rl = st->ix->rootlen[r];
			const char *p, *q;
			char full[NAME_MAX_LEN];
			size_t comp[CHAIN_MAX + 1], fl = 0, nc, kc, pos, l2, c2;
			const struct tg_api *a;

			if ((size_t)(d - from) < rl)
				continue;
			p = d - rl;
			/* the byte before the dot first (most dots end a
			 * sentence or another name) */
			if (d[-1] != root[rl - 1] || memcmp(p, root, rl) != 0 ||
			    (p > text && (ident_char((unsigned char)p[-1]) ||
					  p[-1] == '.')))
				continue;
			q = p;
			while (q < end && fl + 1 < sizeof(full) &&
			       (ident_char((unsigned char)*q) ||
				(*q == '.' && q + 1 < end &&
				 ident_char((unsigned char)q[1]))))
				full[fl++] = *q++;
			nc = split_comps(full, fl, comp);
			a = tg_audit_py_match_longest(st, full, nc, comp, 2,
						      &kc);
			if (a) {
				/* line and column of p */
				pos = (size_t)(p - text);
				l2 = line;
				c2 = col + pos;
				{
					const char *nl = p;

					while (nl > text && nl[-1] != '\n')
						nl--;
					if (nl != text) {
						const char *z;

						l2 = line;
						for (z = text; z < nl; z++)
							if (*z == '\n')
								l2++;
						c2 = (size_t)(p - nl);
					}
				}
				/* the names matched: full holds the chain's
				 * bytes from p on */
				tg_audit_py_emit(
				    st, a, l2, c2, in, "reference", ti, p,
				    (size_t)(q - p), (size_t)(p - st->s),
				    (size_t)(p - st->s) + comp[kc] - 1);
			}
			/* the chain is read: on after it */
			from = q;
			if (q > d + 1)
				d = q - 1;
			break;
		}
	}
}

void
tg_audit_py_scan_suppression(struct state *st, const struct tg_pylex_tok *t)
{
	const char *c = st->s + t->off, *e = c + t->len, *p;
	const char *ids[64];
	char idbuf[64][128];
	size_t nids = 0;

	p = tg_audit_marker(c, t->len);
	if (!p)
		return;
	p += 10;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (e - p < 6 || memcmp(p, "ignore", 6) != 0)
		return;
	p += 6;
	if (p < e && *p == '[') {
		p++;
		while (p < e && *p != ']') {
			const char *a;

			while (p < e && (*p == ' ' || *p == ','))
				p++;
			a = p;
			while (p < e && *p != ',' && *p != ']' && *p != ' ')
				p++;
			if (p > a && nids < 64) {
				copy_text(idbuf[nids], sizeof(idbuf[0]), a,
					  (size_t)(p - a));
				ids[nids] = idbuf[nids];
				nids++;
			}
			while (p < e && *p == ' ')
				p++;
		}
	} else if (p < e && ident_char((unsigned char)*p)) {
		return; /* "ignored", not ours */
	}
	if (!st->rc)
		st->rc =
		    tg_audit_result_add_suppression(st->r, t->line, ids, nids);
}

#define FIELD_TOKS 256 /* tokens of one f-string field read as code */

/* Line and 0-based column of byte off of string token t. */
static void
str_pos(const struct state *st, const struct tg_pylex_tok *t, size_t off,
	size_t *line, size_t *col)
{
	size_t k, ls = SIZE_MAX;

	*line = t->line;
	for (k = t->off; k < off; k++)
		if (st->s[k] == '\n') {
			(*line)++;
			ls = k + 1;
		}
	*col = ls == SIZE_MAX ? t->col + (off - t->off) : off - ls;
}

/* The mentions in bytes [a, e) of string token t (token ti). */
static void
str_mentions(struct state *st, const struct tg_pylex_tok *t, size_t ti,
	     size_t a, size_t e)
{
	size_t line, col;

	if (e <= a)
		return;
	str_pos(st, t, a, &line, &col);
	tg_audit_py_scan_mentions(st, st->s + a, e - a, line, col,
				  TG_AUDIT_IN_STRING, ti);
}

/* The expression of the field whose '{' is at byte at, read as code:
 * its tokens up to the '}', '!', ':' or '=' that ends it at depth 0,
 * scanned for references. The byte after the expression. */
static size_t
read_field_code(struct state *st, const struct tg_pylex_tok *t, size_t ti,
		size_t at, size_t end)
{
	struct tg_pylex lx;
	struct tg_pylex_tok ft[FIELD_TOKS], *save_t, tok;
	unsigned char fann[FIELD_TOKS], ftc[FIELD_TOKS], *save_ann, *save_tc;
	size_t nf = 0, save_n, save_params, stop = end, line, col;

	str_pos(st, t, at + 1, &line, &col);
	tg_pylex_init(&lx, st->s, end);
	lx.pos = at + 1;
	lx.line = line;
	lx.lstart = at + 1 - col;
	lx.code = 1;
	while (nf < FIELD_TOKS && tg_pylex_next(&lx, &tok)) {
		if (tok.kind == TG_PYLEX_END || tok.kind == TG_PYLEX_NEWLINE ||
		    tok.kind == TG_PYLEX_ERROR || tok.off >= end) {
			stop = tok.off < end ? tok.off : end;
			break;
		}
		if (tok.kind == TG_PYLEX_NL || tok.kind == TG_PYLEX_COMMENT)
			continue;
		if (tok.kind == TG_PYLEX_OP && tok.depth == 0 && tok.len == 1 &&
		    (st->s[tok.off] == '}' || st->s[tok.off] == '!' ||
		     st->s[tok.off] == ':' ||
		     (st->s[tok.off] == '=' && tok.off + 1 < end &&
		      strchr("}!:", st->s[tok.off + 1])))) {
			stop = tok.off;
			break;
		}
		ftc[nf] = tok_code(st->ix, st->s, &tok);
		ft[nf++] = tok;
	}
	if (!nf)
		return stop;
	memset(fann, 0, nf);
	save_t = st->t;
	save_ann = st->ann;
	save_tc = st->tc;
	save_n = st->n;
	if (st->field_of == SIZE_MAX) {
		st->field_of = ti;
		st->field_line = t->line;
	}
	st->t = ft;
	st->ann = fann;
	st->tc = ftc;
	st->n = nf;
	save_params = st->params_at;
	st->params_at = SIZE_MAX;
	tg_audit_py_scan_refs(st, 0, nf);
	st->params_at = save_params;
	st->t = save_t;
	st->ann = save_ann;
	st->tc = save_tc;
	st->n = save_n;
	return stop; /* field_of: scan_fields puts it back */
}

/* An f-string (token ti): its literal text scanned for mentions, the
 * expressions of its replacement fields as code (PEP 701: nested
 * strings of any quote, format specs with fields of their own). */
void
tg_audit_py_scan_fields(struct state *st, size_t ti)
{
	const struct tg_pylex_tok t = st->t[ti];
	size_t i = t.off + t.pre + t.quote, end = t.off + t.len, lit = i;
	int raw = (t.flags & TG_PYLEX_RAW) != 0;
	size_t outer = st->field_of;

	if (!(t.flags & TG_PYLEX_UNTERMINATED) && end >= i + t.quote)
		end -= t.quote;
	while (i < end && !st->rc) {
		char c = st->s[i];

		if (c == '\\' && !raw && i + 2 < end && st->s[i + 1] == 'N' &&
		    st->s[i + 2] == '{') {
			/* \N{NAME}: an escape's braces, no field */
			for (i += 3; i < end && st->s[i] != '}'; i++)
				;
			i++;
			continue;
		}
		if (c == '\\') {
			i += 2;
			continue;
		}
		if ((c == '{' || c == '}') && i + 1 < end &&
		    st->s[i + 1] == c) {
			i += 2; /* {{ or }} */
			continue;
		}
		if (c == '{') {
			str_mentions(st, &t, ti, lit, i);
			i = read_field_code(st, &t, ti, i, end);
			/* the rest: a conversion, a format spec (its own
			 * fields are found as the loop goes on), the '}' */
			if (i < end && st->s[i] == '=')
				i++;
			if (i < end && st->s[i] == '!')
				i += 2;
			if (i < end && st->s[i] == ':')
				i++;
			lit = i;
			continue;
		}
		i++;
	}
	str_mentions(st, &t, ti, lit, end);
	st->field_of = outer;
}
