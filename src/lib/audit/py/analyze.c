/* analyze.c - the Python analyzer: the driver
 * SPDX-License-Identifier: MIT
 *
 * Owns tg_audit_py and tg_audit_py_indexed. One pass over lex/pylex's
 * tokens, a logical line at a time. The line's tokens (comments and NLs
 * left out) are buffered, at most LINE_TOKS of them: a longer logical
 * line is analyzed in parts, with a note, and its later parts only for
 * references. Per line: the block stack moves (guards.c); imports bind
 * names (bind.c); references are resolved (resolve.c, rules.c);
 * assignments, def and class end an alias. Comments and strings are
 * scanned for mentions and suppression comments (mentions.c). Every
 * finding goes through emit, which decides its guard. A file that cannot
 * hold a finding (may_match) is not tokenized.
 *
 * Not read: a def's parameters in a body on the def's own line (def
 * f(torch): return torch.x) or after type parameters (def f[T](torch)),
 * a lambda's parameters (lambda torch: torch.x reads as a use of
 * torch.x).
 *
 * Worst case: linear in the input; memory is the line buffer, the
 * bindings and the block stack, all bounded, plus the findings.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/py/internal.h"
#include "lib/util/grow.h"

/* The span src[so..eo) of finding f, which starts at f's line and
 * column: its end's line and column (the position after its last
 * byte). */
void
tg_audit_py_span(const struct state *st, struct tg_audit_finding *f, size_t so,
		 size_t eo)
{
	size_t k, nl = SIZE_MAX;

	f->start = so;
	f->end = eo;
	f->end_line = f->line;
	for (k = so; k < eo; k++)
		if (st->s[k] == '\n') {
			f->end_line++;
			nl = k;
		}
	f->end_column =
	    nl == SIZE_MAX ? f->column + (eo - so) : eo - (nl + 1) + 1;
}

/* A flag that guards finding f (about to be appended), which the file
 * may yet show bad (tg_audit_py_flags_check puts back what guarded it
 * before). */
static void
flag_guard(struct state *st, struct tg_audit_finding *f, const char **gt)
{
	const char *ft;
	size_t fl, fk;
	struct flag_use *u;

	if (!tg_audit_py_flag_guard(st, st->via, &ft, &fl, &fk))
		return;
	if (TG_GROW(st->fuses, st->nfuses + 1, st->capfuses)) {
		st->rc = TG_ENOMEM;
		return;
	}
	u = &st->fuses[st->nfuses++];
	u->finding = st->r->nfindings;
	u->flag = fk;
	u->guard = f->guard;
	u->line = f->guard_line;
	u->has_text = *gt != NULL;
	snprintf(u->text, sizeof(u->text), "%s", *gt ? *gt : "");
	f->guard = TG_AUDIT_GUARDED;
	f->guard_line = fl;
	*gt = ft;
}

void
tg_audit_py_emit(struct state *st, const struct tg_api *api, size_t line,
		 size_t col, enum tg_audit_in in, const char *kind, size_t ti,
		 const char *text, size_t tn, size_t so, size_t eo)
{
	struct tg_audit_finding f;
	char buf[TEXT_MAX];
	const char *gt;

	if (st->rc)
		return;
	memset(&f, 0, sizeof(f));
	f.api = api;
	f.line = line;
	f.column = col + 1;
	tg_audit_py_span(st, &f, so, eo);
	f.in = in;
	f.kind = kind;
	f.in_fstring = st->field_of != SIZE_MAX;
	/* a mention is no code use: nothing guards it */
	if (in == TG_AUDIT_IN_CODE) {
		const struct bind_guard *fb = st->via ? &st->via->fb : NULL;

		f.guard = tg_audit_py_guard_of(st, ti, &gt, &f.guard_line);
		if (fb &&
		    (f.guard == TG_AUDIT_UNGUARDED ||
		     (f.guard == TG_AUDIT_SOFT &&
		      fb->kind == TG_AUDIT_GUARDED)) &&
		    fb->kind != TG_AUDIT_UNGUARDED) {
			f.guard = fb->kind;
			gt = fb->text;
			f.guard_line = fb->line;
		}
		if (st->self_guarded && f.guard != TG_AUDIT_GUARDED) {
			f.guard = TG_AUDIT_GUARDED;
			gt = "getattr with a default";
			f.guard_line = line;
		}
		if (f.guard != TG_AUDIT_GUARDED)
			flag_guard(st, &f, &gt);
		if (st->rc) /* out of memory: not a finding less guarded */
			return;
	} else {
		gt = NULL;
	}
	f.guard_text = (char *)gt;
	copy_text(buf, sizeof(buf), text, tn);
	f.text = buf;
	st->rc = tg_audit_result_add_finding(st->r, &f);
}

/* Mark annotation tokens: a def's parameters after ':', after '->',
 * and a variable annotation NAME: ann [= ...]. */
static void
mark_annotations(struct state *st)
{
	size_t i = 0, d;
	int on = 0;

	memset(st->ann, 0, st->n);
	if (tok_kw(st, 0, "async"))
		i = 1;
	if (tok_kw(st, i, "def")) {
		for (; i < st->n && !tok_op(st, i, "("); i++)
			;
		if (i >= st->n)
			return;
		d = st->t[i].depth + 1;
		for (i++; i < st->n; i++) {
			const struct tg_pylex_tok *t = &st->t[i];

			if (t->depth < d)
				break;
			if (t->depth == d) {
				if (tok_op(st, i, ":")) {
					on = 1;
					continue;
				}
				if (tok_op(st, i, ",") || tok_op(st, i, "=")) {
					on = 0;
					continue;
				}
			}
			st->ann[i] = (unsigned char)on;
		}
		for (; i < st->n; i++)
			if (tok_op(st, i, "->"))
				break;
		for (i++; i < st->n && !(tok_op(st, i, ":") &&
					 st->t[i].depth == st->t[0].depth);
		     i++)
			st->ann[i] = 1;
		return;
	}
	/* NAME(.NAME)*: ann */
	if (!tok_name(st, 0) || tok_kw(st, 0, "lambda"))
		return;
	i = tg_audit_py_chain_end(st, 0);
	if (!tok_op(st, i + 1, ":") ||
	    tg_audit_py_header_colon(st, 0, st->n) != i + 1)
		return;
	{
		static const char *const kws[] = {
		    "if",  "elif",  "else", "try",   "except", "finally",
		    "for", "while", "with", "class", "def",    "lambda"};
		size_t k;

		for (k = 0; k < sizeof(kws) / sizeof(kws[0]); k++)
			if (tok_kw(st, 0, kws[k]))
				return;
	}
	for (i += 2; i < st->n; i++) {
		if (st->t[i].depth == st->t[0].depth && tok_op(st, i, "="))
			break;
		st->ann[i] = 1;
	}
}

/* The statements of the line from token a on, split by ';'. */
static void
statements(struct state *st, size_t a)
{
	size_t i;

	for (i = a; i <= st->n; i++) {
		/* to the next ';' (its token's code is ';'), else the end */
		const unsigned char *c =
		    i < st->n ? memchr(st->tc + i, ';', st->n - i) : NULL;

		i = c ? (size_t)(c - st->tc) : st->n;
		if (i < st->n && st->t[i].depth != st->t[a].depth)
			continue;
		if (i > a) {
			if (tok_kw(st, a, "import")) {
				tg_audit_py_stmt_import(st, a, i);
			} else if (tok_kw(st, a, "from")) {
				tg_audit_py_stmt_from(st, a, i);
			} else {
				tg_audit_py_scan_refs(st, a, i);
				tg_audit_py_stmt_assign(st, a, i);
			}
		}
		a = i + 1;
	}
}

/* One buffered logical line. */
static void
process_line(struct state *st)
{
	size_t a, start;
	int header = 0;

	if (!st->n)
		return;
	if (!st->hot_line && !st->cont && !st->nstars) {
		/* no use here: only the blocks it opens or closes, and the
		 * names it binds where a handler or a later branch may
		 * bind them to torch after (a def's, an import's, an
		 * assignment's) */
		tg_audit_py_blocks_line(st, &header);
		tg_audit_py_flag_line(st);
		if (header) {
			tg_audit_py_def_alternative(st);
		} else if (tg_audit_py_binds_alternative(st)) {
			mark_annotations(st);
			statements(st, 0);
		}
		goto out;
	}
	if (st->cont) {
		memset(st->ann, 0, st->n);
		st->niv = 0;
		tg_audit_py_scan_refs(st, 0, st->n);
		goto out;
	}
	start = tg_audit_py_blocks_line(st, &header);
	tg_audit_py_flag_line(st);
	mark_annotations(st);
	tg_audit_py_line_intervals(st, 0, st->n);
	/* a header's own tokens: its test and a one-line suite */
	a = header ? start : 0;
	if (header) {
		if (tok_kw(st, 0, "def") || tok_kw(st, 0, "class") ||
		    tok_kw(st, 1, "def")) {
			size_t k = tok_kw(st, 0, "async") ? 2 : 1;

			if (!tok_kw(st, 0, "class") && tok_op(st, k + 1, "("))
				st->params_at = k + 1;
			tg_audit_py_scan_refs(st, k + 1, st->n);
			st->params_at = SIZE_MAX;
			tg_audit_py_stmt_assign(st, 0, st->n);
			if (!start && !tok_kw(st, 0, "class"))
				tg_audit_py_shadow_params(st, k + 1);
			goto out;
		}
		tg_audit_py_scan_refs(st, 0, start ? start : st->n);
		tg_audit_py_header_targets(st, start ? start : st->n);
		if (!start)
			goto out;
	}
	statements(st, a);
out:
	st->last_line = st->t[st->n - 1].line;
	st->n = 0;
	st->hot_line = 0;
}

/* Whether src can hold a finding at all: a use, an import, a mention
 * or a suppression spells a root ("torch" in "torchgate" too), a method
 * its name, a version test a name with "torch" in some case (the
 * other cases of "torch" are not looked for). Most files of a package that does not use torch
 * end here. */
static int
may_match(const struct tg_audit_py_index *ix, const char *src, size_t len)
{
	size_t k;

	for (k = 0; k < ix->nroots; k++)
		if (!ix->root_implied[k] &&
		    memmem(src, len, ix->roots[k], ix->rootlen[k]))
			return 1;
	/* a version branch on TORCH_VERSION or a Torch... name */
	if (memmem(src, len, "TORCH", 5) || memmem(src, len, "Torch", 5))
		return 1;
	for (k = 0; k < ix->nmethods; k++)
		if (memmem(src, len, ix->methods[k].name,
			   strlen(ix->methods[k].name)))
			return 1;
	for (k = 0; k < ix->nparams; k++)
		if (ix->params[k].method && memmem(src, len, ix->params[k].func,
						   strlen(ix->params[k].func)))
			return 1;
	return 0;
}

static int
analyze(const struct tg_audit_py_index *ix, const char *src, size_t len,
	const char *path, struct tg_audit_result *r)
{
	struct state *st;
	struct tg_pylex lx;
	struct tg_pylex_tok tok;
	size_t k, cap = 256;
	int rc;

	if (!may_match(ix, src, len))
		return 0;
	st = malloc(sizeof(*st));
	if (!st)
		return TG_ENOMEM;
	memset(st, 0, offsetof(struct state, blocks));
	st->ix = ix;
	st->s = src;
	st->len = len;
	st->field_of = SIZE_MAX;
	st->params_at = SIZE_MAX;
	memcpy(st->hot, ix->hot, sizeof(st->hot));
	st->path = path;
	st->r = r;
	st->t = malloc(cap * sizeof(*st->t));
	st->ann = malloc(cap);
	st->tc = malloc(cap);
	if (!st->t || !st->ann || !st->tc || tg_audit_py_bind_room(st)) {
		rc = TG_ENOMEM;
		goto out;
	}
	tg_pylex_init(&lx, src, len);
	while (!st->rc) {
		size_t from = st->n;
		int got = tg_pylex_line(&lx, st->t, cap, &st->n, &tok);

		/* the line's new tokens: what makes it hot, what to note
		 * (the state's fields in locals: a byte stored into tc could
		 * be any of them, for all the compiler knows) */
		const struct tg_pylex_tok *tt = st->t;
		unsigned char *tc = st->tc;
		size_t n = st->n;
		int hot = st->hot_line;

		for (k = from; k < n; k++) {
			const struct tg_pylex_tok *t = &tt[k];

			tc[k] = tok_code(ix, src, t);
			if (t->kind == TG_PYLEX_NAME) {
				if (!hot &&
				    hot_get(st->hot,
					    hot_key(src + t->off, t->len)))
					hot = 1;
			} else if (t->kind == TG_PYLEX_STRING) {
				hot = 1;
				/* read on, as Python would not: say where
				 * (once a file) */
				if ((t->flags & TG_PYLEX_UNTERMINATED) &&
				    !st->noted_unterm++)
					st->rc = tg_diag_add(
					    &r->notes, TG_SEV_NOTE, 0, path,
					    t->line, t->col + 1,
					    "audit-unterminated", NULL,
					    "unterminated string: %s read as a "
					    "string",
					    t->flags & TG_PYLEX_TRIPLE
						? "the rest of the file"
						: "the rest of its line");
			}
		}
		st->hot_line = hot;
		if (got < 0 || st->rc)
			break;
		if (got == 0) {
			/* the buffer is full */
			if (cap < LINE_TOKS) {
				struct tg_pylex_tok *nt;
				unsigned char *na, *nc;

				nt = realloc(st->t, cap * 2 * sizeof(*nt));
				if (nt)
					st->t = nt;
				na = realloc(st->ann, cap * 2);
				if (na)
					st->ann = na;
				nc = realloc(st->tc, cap * 2);
				if (nc)
					st->tc = nc;
				if (!nt || !na || !nc) {
					rc = TG_ENOMEM;
					goto out;
				}
				cap *= 2;
			} else {
				if (!st->noted_long++)
					st->rc = tg_diag_add(
					    &r->notes, TG_SEV_NOTE, 0, path,
					    st->t[0].line, st->t[0].col + 1,
					    "audit-limit", NULL,
					    "logical line of more than %d "
					    "tokens: analyzed in parts",
					    LINE_TOKS);
				process_line(st);
				st->cont = 1;
			}
			continue;
		}
		switch (tok.kind) {
		case TG_PYLEX_COMMENT:
			/* a suppression's ids are no mentions */
			if (tg_audit_marker(src + tok.off, tok.len))
				tg_audit_py_scan_suppression(st, &tok);
			else if (tok.len > 1)
				tg_audit_py_scan_mentions(
				    st, src + tok.off + 1, tok.len - 1,
				    tok.line, tok.col + 1, TG_AUDIT_IN_COMMENT,
				    SIZE_MAX);
			break;
		case TG_PYLEX_ERROR:
			if (src[tok.off] == '\0' && !st->noted_nul++)
				st->rc = tg_diag_add(
				    &r->notes, TG_SEV_NOTE, 0, path, tok.line,
				    tok.col + 1, "audit-nul", NULL,
				    "NUL byte in Python source");
			break;
		default: /* NEWLINE, END */
			process_line(st);
			st->cont = 0;
			break;
		}
	}
	while (st->nblocks)
		tg_audit_py_pop_block(st);
	tg_audit_py_flags_check(st);
	if (lx.ended) {
		r->lexed = 1;
		r->lex_errors = lx.errors;
	}
	rc = st->rc;
out:
	while (st->nblocks) {
		struct block *b = &st->blocks[--st->nblocks];

		while (b->nshadows)
			free(b->shadows[--b->nshadows].target);
	}
	for (k = 0; k < st->nbind; k++)
		free(st->bind[k].target);
	for (k = 0; k < st->nstars; k++)
		free(st->stars[k]);
	free(st->fuses);
	free(st->t);
	free(st->ann);
	free(st->tc);
	free(st->slots);
	free(st->bind);
	free(st);
	return rc;
}

int
tg_audit_py_indexed(const struct tg_audit_py_index *ix, const char *src,
		    size_t len, const char *path, struct tg_audit_result *r,
		    struct tg_err *err)
{
	int rc = analyze(ix, src, len, path, r);

	if (rc)
		tg_err_set(err, rc, "cannot audit '%s': out of memory",
			   path ? path : "-");
	return rc;
}

int
tg_audit_py(const struct tg_table *t, const char *src, size_t len,
	    const char *path, struct tg_audit_result *r, struct tg_err *err)
{
	struct tg_audit_py_index *ix = NULL;
	int rc = tg_audit_py_index_new(&ix, t, err);

	if (rc)
		return rc;
	rc = tg_audit_py_indexed(ix, src, len, path, r, err);
	tg_audit_py_index_free(ix);
	return rc;
}
