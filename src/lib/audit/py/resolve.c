/* resolve.c - the Python analyzer's chains: references resolved
 * SPDX-License-Identifier: MIT
 *
 * A chain of names (a.b.c) is resolved through the binding of its head
 * (bind.c) to a dotted name, and matches its longest prefix that is a
 * name of the index; failing that prefix, the same prefix without its
 * next-to-last component when that is a module-like name under a package
 * of two or more components (torch.cuda.amp.autocast_mode.autocast is
 * torch.cuda.amp.autocast: packages re-export what their submodules
 * define). getattr(CHAIN, "name") with a literal name is a use of
 * CHAIN.name (check_getattr), guarded by itself when it has a default.
 * A string annotation's body is read as dotted names. What the use is
 * (decorator, annotation, call, attribute, reference) is read from the
 * tokens around the chain.
 *
 * Worst case: linear in the line's tokens; a chain has at most CHAIN_MAX
 * components and NAME_MAX_LEN bytes.
 */
#include <stdint.h>
#include <string.h>

#include "lib/audit/py/internal.h"

/* The entry for the dotted name full[0..n) (ncomp components, comp[k]
 * the offset of component k): its longest prefix of at least minc
 * components that is a name, directly or without its next-to-last
 * component (a re-export). *kc gets the components matched. */
const struct tg_api *
tg_audit_py_match_longest(const struct state *st, const char *full,
			  size_t ncomp, const size_t *comp, size_t minc,
			  size_t *kc)
{
	/* hp[k]: the hash of the first k components; a prefix's hash goes
	 * on from the one before it */
	uint32_t hp[CHAIN_MAX + 1];
	size_t k, top = 0;

	/* the longest prefix whose last component may end a name (both
	 * lookups below end with it); most chains have none */
	for (k = ncomp; k >= minc && k >= 1; k--)
		if (leaf_may(st->ix, full + comp[k - 1],
			     comp[k] - 1 - comp[k - 1])) {
			top = k;
			break;
		}
	if (!top)
		return NULL;
	hp[0] = HASH0;
	for (k = 1; k <= top; k++)
		hp[k] =
		    hash_more(k > 1 ? hash_more(hp[k - 1], ".", 1) : HASH0,
			      full + comp[k - 1], comp[k] - 1 - comp[k - 1]);
	for (k = top; k >= minc && k >= 1; k--) {
		size_t end = comp[k] - 1;
		const struct tg_api *a;

		if (!leaf_may(st->ix, full + comp[k - 1], end - comp[k - 1])) {
			if (k == 1)
				break;
			continue;
		}
		a = index_find_h(st->ix, full, end, hp[k]);

		if (!a && k >= 4) {
			/* package.submodule.Name -> package.Name */
			char buf[NAME_MAX_LEN];
			size_t a0 = comp[k - 2], a1 = comp[k - 1];
			unsigned char c0 = (unsigned char)full[a0];

			if ((c0 >= 'a' && c0 <= 'z') || c0 == '_') {
				memcpy(buf, full, a0);
				memcpy(buf + a0, full + a1, end - a1);
				a = index_find_h(
				    st->ix, buf, a0 + end - a1,
				    hash_more(hash_more(hp[k - 2], ".", 1),
					      full + a1, end - a1));
			}
		}
		if (a) {
			*kc = k;
			return a;
		}
		if (k == 1)
			break;
	}
	return NULL;
}

/* The chain of names starting at token i: its last token index. */
size_t
tg_audit_py_chain_end(const struct state *st, size_t i)
{
	size_t k = i, nc = 1;

	while (nc < CHAIN_MAX && tok_op(st, k + 1, ".") &&
	       tok_name(st, k + 2)) {
		k += 2;
		nc++;
	}
	return k;
}

/* Resolve the chain tokens i..e (names at i, i+2, ...) into full;
 * *ntarget the components the head stood for, *via the head's binding
 * (NULL: a root or a star import's name). 0, and *via NULL, when the
 * head is not torch. */
int
tg_audit_py_resolve_chain(const struct state *st, size_t i, size_t e,
			  char *full, size_t *fl, size_t *ntarget,
			  const struct binding **via)
{
	const char *h = st->s + st->t[i].off, *tg = NULL;
	size_t hn = st->t[i].len, tn = 0, k, n;

	tg = tg_audit_py_resolve_head(st, h, hn, &tn, via);
	if (!tg && st->nstars && !*via) {
		/* a bare name from "from torch.x import *" */
		for (k = 0; k < st->nstars && !tg; k++) {
			char buf[NAME_MAX_LEN];
			size_t sl = strlen(st->stars[k]);

			if (sl + hn + 2 > sizeof(buf))
				continue;
			memcpy(buf, st->stars[k], sl);
			buf[sl] = '.';
			memcpy(buf + sl + 1, h, hn);
			if (index_find(st->ix, buf, sl + 1 + hn)) {
				memcpy(full, buf, sl + 1 + hn);
				tn = sl + 1 + hn;
				tg = full;
			}
		}
	}
	if (!tg)
		goto none;
	if (tg != full)
		memmove(full, tg, tn);
	n = tn;
	*ntarget = 1;
	for (k = 0; k < n; k++)
		if (full[k] == '.')
			(*ntarget)++;
	for (k = i + 2; k <= e; k += 2) {
		size_t l = st->t[k].len;

		if (n + l + 2 >= NAME_MAX_LEN)
			goto none;
		full[n++] = '.';
		memcpy(full + n, st->s + st->t[k].off, l);
		n += l;
	}
	*fl = n;
	return 1;
none:
	/* no binding is left pointed at: the caller's *via (st->via) would
	 * outlive a move of the bindings (bind_room) and guard a later
	 * finding that is not this chain's */
	*via = NULL;
	return 0;
}

/* Whether token i is the name of a parameter of the def whose
 * parameters open at token p: a name after '(' or ',' (or '*', '**'
 * after one), at the parameters' own depth. */
int
tg_audit_py_param_name(const struct state *st, size_t p, size_t i)
{
	if (st->t[i].kind != TG_PYLEX_NAME || i <= p ||
	    st->t[i].depth != st->t[p].depth + 1)
		return 0;
	return i == p + 1 || tok_op(st, i - 1, ",") ||
	       ((tok_op(st, i - 1, "*") || tok_op(st, i - 1, "**")) &&
		(i - 1 == p + 1 || tok_op(st, i - 2, ",")));
}

/* A string annotation: its body read as dotted names. */
static void
string_annotation(struct state *st, size_t i)
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t b = t->off + t->pre + t->quote, e = t->off + t->len, k;

	if (!(t->flags & TG_PYLEX_UNTERMINATED))
		e -= t->quote;
	if (t->flags & (TG_PYLEX_BYTES | TG_PYLEX_FSTRING) || e <= b)
		return;
	for (k = b; k < e;) {
		char full[NAME_MAX_LEN];
		size_t comp[CHAIN_MAX + 1], fl = 0, a = k, k0, nc, kc, tn;
		const char *h, *tg;
		const struct tg_api *api;

		if (!ident_char((unsigned char)st->s[k]) ||
		    (k > b && (ident_char((unsigned char)st->s[k - 1]) ||
			       st->s[k - 1] == '.'))) {
			k++;
			continue;
		}
		while (k < e && ident_char((unsigned char)st->s[k]))
			k++;
		h = st->s + a;
		k0 = k;
		tg = tg_audit_py_resolve_head(st, h, k - a, &tn, NULL);
		if (!tg || tn + 1 >= sizeof(full))
			continue;
		memcpy(full, tg, tn);
		fl = tn;
		while (k + 1 < e && st->s[k] == '.' &&
		       ident_char((unsigned char)st->s[k + 1])) {
			size_t c0 = k;

			k++;
			while (k < e && ident_char((unsigned char)st->s[k]))
				k++;
			if (fl + (k - c0) + 1 >= sizeof(full))
				break;
			memcpy(full + fl, st->s + c0, k - c0);
			fl += k - c0;
		}
		nc = split_comps(full, fl, comp);
		api = tg_audit_py_match_longest(st, full, nc, comp, 1, &kc);
		st->via = tg_audit_py_bind_find(st, h, (size_t)(k0 - a));
		if (api)
			tg_audit_py_emit(
			    st, api, t->line, t->col + (a - t->off),
			    TG_AUDIT_IN_CODE, "annotation", i, h, k - a, a,
			    /* full: the head's target, then the bytes
			     * from k0 on */
			    comp[kc] - 1 > tn ? k0 + (comp[kc] - 1 - tn) : k0);
		st->via = NULL;
	}
}

/* getattr(CHAIN, "name"...) with CHAIN (tokens i..e) resolved to
 * full[0..fl): a use of full.name where that is an entry, guarded by
 * itself when it has a default (it copes with the name's absence). */
static void
check_getattr(struct state *st, size_t i, size_t e, const char *full, size_t fl)
{
	const struct tg_pylex_tok *t;
	char name[NAME_MAX_LEN];
	size_t comp[CHAIN_MAX + 1], nc, kc, bo, eo, k;
	const struct tg_api *api;

	if (e + 2 >= st->n)
		return;
	t = &st->t[e + 2];
	if (i < 2 || !tok_is(st, i - 2, "getattr") || !tok_op(st, i - 1, "(") ||
	    (i > 2 && tok_op(st, i - 3, ".")) || !tok_op(st, e + 1, ",") ||
	    t->kind != TG_PYLEX_STRING ||
	    (t->flags &
	     (TG_PYLEX_FSTRING | TG_PYLEX_BYTES | TG_PYLEX_UNTERMINATED)) ||
	    !(tok_op(st, e + 3, ",") || tok_op(st, e + 3, ")")))
		return;
	bo = t->off + t->pre + t->quote;
	eo = t->off + t->len - t->quote;
	if (eo <= bo || fl + 1 + (eo - bo) >= sizeof(name))
		return;
	for (k = bo; k < eo; k++)
		if (!ident_char((unsigned char)st->s[k]))
			return;
	memcpy(name, full, fl);
	name[fl] = '.';
	memcpy(name + fl + 1, st->s + bo, eo - bo);
	fl += 1 + (eo - bo);
	name[fl] = '\0';
	nc = split_comps(name, fl, comp);
	api = tg_audit_py_match_longest(st, name, nc, comp, nc, &kc);
	if (!api)
		return;
	st->self_guarded = tok_op(st, e + 3, ",");
	tg_audit_py_emit(st, api, st->t[i - 2].line, st->t[i - 2].col,
			 TG_AUDIT_IN_CODE, "getattr", i - 2,
			 st->s + st->t[i - 2].off,
			 t->off + t->len - st->t[i - 2].off, st->t[i - 2].off,
			 t->off + t->len);
	st->self_guarded = 0;
}

/* References in tokens [a, b): chains resolved to table names, methods,
 * strings. */
void
tg_audit_py_scan_refs(struct state *st, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b && !st->rc; i++) {
		const struct tg_pylex_tok *t = &st->t[i];
		char full[NAME_MAX_LEN];
		size_t comp[CHAIN_MAX + 1], e, fl, ntg, nc, kc, m, ntok;
		const struct tg_api *api;
		const char *kind;

		if (t->kind == TG_PYLEX_STRING) {
			if (st->ann[i]) {
				string_annotation(st, i);
			} else if ((t->flags & TG_PYLEX_FSTRING) &&
				   !(t->flags & (TG_PYLEX_BYTES |
						 TG_PYLEX_UNTERMINATED))) {
				/* an unterminated one is text, as the rest
				 * of its line is */
				tg_audit_py_scan_fields(st, i);
			} else {
				size_t bo = t->off + t->pre + t->quote,
				       eo = t->off + t->len;

				if (!(t->flags & TG_PYLEX_UNTERMINATED))
					eo -= t->quote;
				if (eo > bo)
					tg_audit_py_scan_mentions(
					    st, st->s + bo, eo - bo, t->line,
					    t->col + t->pre + t->quote,
					    TG_AUDIT_IN_STRING, i);
			}
			continue;
		}
		if (t->kind != TG_PYLEX_NAME)
			continue;
		/* a head neither bound nor a root resolves to nothing
		 * (resolve_chain): every bound name and root is hot, and so
		 * is every method's name (check_method): most names end
		 * here */
		if (!st->nstars &&
		    !hot_get(st->hot, hot_key(st->s + t->off, t->len)))
			continue;
		if (i > 0 && tok_op(st, i - 1, ".")) {
			if (tok_op(st, i + 1, "("))
				tg_audit_py_check_method(st, i);
			continue;
		}
		/* an assignment target or a keyword, or a def's parameter:
		 * a name, no use */
		if (tok_op(st, i + 1, "=") ||
		    (st->params_at != SIZE_MAX &&
		     tg_audit_py_param_name(st, st->params_at, i)))
			continue;
		e = tg_audit_py_chain_end(st, i);
		if (e >= b)
			e = b - 1;
		if (!tg_audit_py_resolve_chain(st, i, e, full, &fl, &ntg,
					       &st->via))
			continue;
		check_getattr(st, i, e, full, fl);
		nc = split_comps(full, fl, comp);
		api = tg_audit_py_match_longest(st, full, nc, comp, 1, &kc);
		ntok = (e - i) / 2 + 1;
		/* the tokens the match covers */
		m = kc + 1 > ntg ? kc + 1 - ntg : 1;
		if (m > ntok)
			m = ntok;
		if (!api) {
			if (tok_op(st, e + 1, "("))
				tg_audit_py_check_call(st, full, fl, e + 1, i);
			st->via = NULL;
			i = e;
			continue;
		}
		if (i > 0 && tok_op(st, i - 1, "@") && i - 1 == 0)
			kind = "decorator";
		else if (st->ann[i])
			kind = "annotation";
		else if (m == ntok && tok_op(st, e + 1, "("))
			kind = "call";
		else if (ntok > 1)
			kind = "attribute";
		else
			kind = "reference";
		tg_audit_py_emit(st, api, t->line, t->col, TG_AUDIT_IN_CODE,
				 kind, i, st->s + t->off,
				 st->t[e].off + st->t[e].len - t->off, t->off,
				 chain_span_end(st, i, m, e));
		if (tok_op(st, e + 1, "("))
			tg_audit_py_check_call(st, full, fl, e + 1, i);
		st->via = NULL;
		i = e;
	}
}
