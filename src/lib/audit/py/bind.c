/* bind.c - the Python analyzer's bindings: imports and aliases
 * SPDX-License-Identifier: MIT
 *
 * One scope for the whole file, in source order (a name bound inside a
 * function counts after it for the rest of the file), but a def's
 * parameters hide the torch names they spell in its body (the def's
 * block puts them back when it ends; the names in its header are no
 * uses: shadow_params). A name that a try's body bound to torch and a
 * handler of that try that guards binds again (a fallback: "except
 * ImportError: get_global_rank = _get_global_rank") keeps the body's
 * binding, and the try guards its later uses (bind_set); so does a name
 * a module-level try's body binds otherwise (def custom_fwd(...) wrapping
 * torch.amp.custom_fwd, from apex.amp import custom_fwd, custom_fwd =
 * mine) that such a handler imports from torch: it stays the body's
 * name, no torch name. Such a body's line is read for its bindings even
 * where it holds no hot name (binds_alternative). Only names bound to a
 * table root, and those first alternatives, are kept, at most
 * BINDINGS_MAX; a root name is bound to itself until something else
 * binds it. Star imports of a torch module make every entry directly
 * under it a bare name (STARS_MAX modules).
 *
 * The statements that bind: import, from ... import (each with its
 * import finding), NAME = chain (an alias when the chain is torch), the
 * targets of assignments, def and class, and of for, with ... as and
 * except ... as (header_targets), which end an alias.
 *
 * Worst case: a binding is a hash lookup (an open-addressing table kept
 * under half full, a byte filter before it); memory is the bindings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/py/internal.h"
#include "lib/util/grow.h"

static void
slot_put(uint32_t *slots, size_t nslots, size_t h, size_t v)
{
	size_t k;

	for (k = h & (nslots - 1); slots[k]; k = (k + 1) & (nslots - 1))
		;
	slots[k] = (uint32_t)v;
}

/* Room for one more binding: the array and the table grow as a file
 * binds more names (most bind a few), the table kept under half full.
 * 0, or TG_ENOMEM. */
int
tg_audit_py_bind_room(struct state *st)
{
	size_t k;

	if (TG_GROW(st->bind, st->nbind + 1, st->capbind))
		return TG_ENOMEM;
	if (2 * (st->nbind + 1) > st->nslots) {
		size_t ns = st->nslots ? 2 * st->nslots : BIND_SLOTS0;
		uint32_t *sl = calloc(ns, sizeof(*sl));

		if (!sl)
			return TG_ENOMEM;
		for (k = 0; k < st->nbind; k++)
			slot_put(sl, ns,
				 hash_bytes(st->bind[k].name, st->bind[k].nlen),
				 k + 1);
		free(st->slots);
		st->slots = sl;
		st->nslots = ns;
	}
	return 0;
}

struct binding *
tg_audit_py_bind_find(const struct state *st, const char *s, size_t n)
{
	size_t k;

	if (!bound_bit(st, s, n))
		return NULL;
	k = hash_bytes(s, n) & (st->nslots - 1);

	for (;;) {
		uint32_t v = st->slots[k];
		struct binding *b;

		if (!v)
			return NULL;
		b = &st->bind[v - 1];
		if (b->nlen == n && memcmp(b->name, s, n) == 0)
			return b;
		k = (k + 1) & (st->nslots - 1);
	}
}

/* Where a binding made now is made: the innermost try, or if whose
 * test guards. */
static struct bind_site
bind_here(const struct state *st)
{
	struct bind_site w = {0, 0};
	size_t k;

	for (k = st->nblocks; k-- > 0;) {
		const struct block *b = &st->blocks[k];

		if (b->kind == B_TRY ||
		    (b->kind == B_IF && b->guard == TG_AUDIT_GUARDED)) {
			w.block = b->serial;
			w.clause = (size_t)b->clause;
			break;
		}
	}
	return w;
}

/* The block of which a binding made now is an alternative to binding
 * b (bind_set), or NULL. */
static const struct block *
alternative_of(const struct state *st, const struct binding *b)
{
	size_t k;

	for (k = st->nblocks; b->site.block && k-- > 0;) {
		const struct block *a = &st->blocks[k];

		if (a->kind == B_OTHER || a->serial != b->site.block)
			continue;
		if (a->kind == B_TRY)
			return a->clause == 1 && b->site.clause == 0 &&
				       a->guard != TG_AUDIT_UNGUARDED
				   ? a
				   : NULL;
		return (size_t)a->clause != b->site.clause ? a : NULL;
	}
	return NULL;
}

static int bind_status(const struct state *st, const char *target, size_t tn,
		       int dep);

static const struct bind_guard no_fallback = {TG_AUDIT_UNGUARDED, 0, ""};

/* Whether a binding made now at site is the first of two alternatives
 * that a later one may meet (bind_set): made at the module's level in
 * a try's body or the first branch of an if that guards. */
static int
first_alternative(const struct state *st, struct bind_site site)
{
	size_t k;

	if (!site.block || site.clause != 0)
		return 0;
	/* but the block a def or class header opens, that of its name */
	for (k = 0; k < st->nblocks; k++)
		if (st->blocks[k].kind == B_OTHER &&
		    !(k + 1 == st->nblocks && st->n &&
		      st->blocks[k].line == st->t[0].line))
			return 0;
	return 1;
}

/* Bind name to target (NULL: to something that is not torch), as made
 * at site, with guard fb. A name that was never bound to torch and is
 * not a root needs no record, but where a handler or another branch
 * may bind it to torch after (first_alternative: a try's body defines
 * custom_fwd itself, its handler imports torch.cuda.amp's): that one is
 * then the fallback, the body's name the meaning (bind_set). */
void
tg_audit_py_bind_put(struct state *st, const char *s, size_t n,
		     const char *target, size_t tn, struct bind_site site,
		     const struct bind_guard *fb)
{
	struct binding *b = tg_audit_py_bind_find(st, s, n);
	size_t k;
	char *c = NULL;

	if (!b && !target && !is_root(st, s, n) && !first_alternative(st, site))
		return;
	if (target && !(c = strndup(target, tn))) {
		st->rc = TG_ENOMEM;
		return;
	}
	if (!b) {
		if (st->nbind >= BINDINGS_MAX) {
			free(c);
			if (!st->noted_bind++)
				st->rc = tg_diag_add(
				    &st->r->notes, TG_SEV_NOTE, 0, st->path, 0,
				    0, "audit-limit", NULL,
				    "more than %d names bound to "
				    "torch: later ones not followed",
				    BINDINGS_MAX);
			return;
		}
		if (tg_audit_py_bind_room(st)) {
			free(c);
			st->rc = TG_ENOMEM;
			return;
		}
		b = &st->bind[st->nbind++];
		b->name = s;
		b->nlen = n;
		b->target = NULL;
		k = filter_key(s, n);
		st->bound_bits[k >> 3] |= (unsigned char)(1u << (k & 7));
		hot_set(st->hot, s, n);
		slot_put(st->slots, st->nslots, hash_bytes(s, n), st->nbind);
	}
	free(b->target);
	b->target = c;
	b->site = site;
	b->fb = *fb;
}

/* Bind name to target where the code binds it (bind_put).
 *
 * A name bound to torch, then bound again in an alternative to that
 * binding, has two meanings, and the block that chooses between them
 * guards its later uses: a try whose body bound it and a handler that
 * guards binds it again (at any depth: a try in the handler), or an if
 * whose test guards (hasattr, a version) and another of its branches.
 * The meaning kept: a try's body's (what the name is wherever the body's
 * import works: try: from torch.distributed import get_global_rank /
 * except ImportError: get_global_rank = _get_global_rank, a later
 * get_global_rank(...) is the public name), unless it is an entry some
 * torch removed (try: from torch._six import inf / except ImportError:
 * from torch import inf: torch.inf); an if's first branch's, unless it
 * is deprecated or removed and the other is a torch name that is not
 * (the branch a current torch takes). */
static void
bind_set(struct state *st, const char *s, size_t n, const char *target,
	 size_t tn)
{
	struct binding *b = tg_audit_py_bind_find(st, s, n);
	const struct block *a = b ? alternative_of(st, b) : NULL;
	int take;

	if (!a) {
		tg_audit_py_bind_put(st, s, n, target, tn, bind_here(st),
				     &no_fallback);
		return;
	}
	if (b->fb.kind != TG_AUDIT_GUARDED) {
		b->fb.kind = a->guard;
		b->fb.line = a->gline;
		snprintf(b->fb.text, sizeof(b->fb.text), "%s", a->gtext);
	}
	if (!b->target)
		return;
	if (a->kind == B_TRY)
		take = bind_status(st, b->target, strlen(b->target), 0);
	else
		take = target &&
		       bind_status(st, b->target, strlen(b->target), 1) &&
		       !bind_status(st, target, tn, 1);
	if (take) {
		struct bind_guard g = b->fb;

		tg_audit_py_bind_put(st, s, n, target, tn, b->site, &g);
	}
}

/* The dotted name a head name stands for: its binding, itself for a
 * root, or NULL. *via (where not NULL) gets the binding, NULL for a
 * root or an unbound name. */
const char *
tg_audit_py_resolve_head(const struct state *st, const char *s, size_t n,
			 size_t *tn, const struct binding **via)
{
	const struct binding *b = tg_audit_py_bind_find(st, s, n);

	if (via)
		*via = b;
	if (b) {
		if (!b->target)
			return NULL;
		*tn = strlen(b->target);
		return b->target;
	}
	if (is_root(st, s, n)) {
		*tn = n;
		return s;
	}
	return NULL;
}

/* Whether the dotted name target[0..tn) is under an entry that some
 * torch removed (or, with dep, deprecated). */
static int
bind_status(const struct state *st, const char *target, size_t tn, int dep)
{
	size_t comp[CHAIN_MAX + 1], kc, nc = split_comps(target, tn, comp);
	const struct tg_api *a =
	    tg_audit_py_match_longest(st, target, nc, comp, 1, &kc);

	return a && (a->removed.version || (dep && a->deprecated.version));
}

/* The dotted module written at tokens i.. (names and dots): its text
 * into buf, the index after it. Relative imports start with '.'. */
static size_t
read_module(const struct state *st, size_t i, size_t b, char *buf, size_t *bl,
	    int *relative)
{
	size_t n = 0;

	*relative = 0;
	while (i < b && (tok_op(st, i, ".") || tok_op(st, i, "..."))) {
		*relative = 1;
		i++;
	}
	while (i < b && tok_name(st, i) && !tok_kw(st, i, "import")) {
		size_t l = st->t[i].len;

		if (n + l + 2 >= NAME_MAX_LEN)
			break;
		if (n)
			buf[n++] = '.';
		memcpy(buf + n, st->s + st->t[i].off, l);
		n += l;
		i++;
		if (!tok_op(st, i, "."))
			break;
		i++;
	}
	buf[n] = '\0'; /* callers strcspn it */
	*bl = n;
	return i;
}

static int
head_is_root(const struct state *st, const char *mod, size_t ml)
{
	return is_root(st, mod,
		       strcspn(mod, ".") < ml ? strcspn(mod, ".") : ml);
}

/* The import finding of full[0..fl) at token ti: a module written
 * there (module: its names are tokens ti, ti + 2, ..., and the span is
 * those the entry matched), or a name imported from one (the span is
 * the name's token). */
static void
import_finding(struct state *st, const char *full, size_t fl, size_t ti,
	       size_t minc, int module, int *done)
{
	size_t comp[CHAIN_MAX + 1], nc = split_comps(full, fl, comp), kc;
	const struct tg_api *a =
	    tg_audit_py_match_longest(st, full, nc, comp, minc, &kc);

	if (a && !*done) {
		tg_audit_py_emit(
		    st, a, st->t[ti].line, st->t[ti].col, TG_AUDIT_IN_CODE,
		    "import", ti, full, fl, st->t[ti].off,
		    module ? chain_span_end(st, ti, kc, ti + 2 * (nc - 1))
			   : st->t[ti].off + st->t[ti].len);
		if (done != NULL && kc < nc)
			*done = 1; /* only the module: once per statement */
	}
}

/* Module mod[0..ml) is torch or under it: the file imports torch (the
 * first such line is kept). */
static void
note_torch_import(struct state *st, const char *mod, size_t ml, size_t line)
{
	if ((ml == 5 || (ml > 5 && mod[5] == '.')) &&
	    memcmp(mod, "torch", 5) == 0 && !st->r->torch_import_line)
		st->r->torch_import_line = line;
}

int
tg_audit_py_binds_alternative(const struct state *st)
{
	size_t i;

	if (!first_alternative(st, bind_here(st)))
		return 0;
	for (i = 0; i < st->n; i++)
		if (((i == 0 || (tok_op(st, i - 1, ";") && !st->t[i].depth)) &&
		     (tok_kw(st, i, "import") || tok_kw(st, i, "from"))) ||
		    (tok_op(st, i, "=") && !st->t[i].depth))
			return 1;
	return 0;
}

void
tg_audit_py_def_alternative(struct state *st)
{
	size_t a = tok_kw(st, 0, "async") ? 1 : 0;

	if ((tok_kw(st, a, "def") || (!a && tok_kw(st, 0, "class"))) &&
	    first_alternative(st, bind_here(st)))
		tg_audit_py_stmt_assign(st, 0, st->n);
}

/* "import a.b [as c], ..." at tokens [a, b). */
void
tg_audit_py_stmt_import(struct state *st, size_t a, size_t b)
{
	size_t i = a + 1;

	while (i < b) {
		char mod[NAME_MAX_LEN];
		size_t ml, at = i;
		int rel, once = 0;

		i = read_module(st, i, b, mod, &ml, &rel);
		if (!ml)
			break;
		note_torch_import(st, mod, ml, st->t[at].line);
		if (head_is_root(st, mod, ml))
			import_finding(st, mod, ml, at, 1, 1, &once);
		if (tok_kw(st, i, "as") && tok_name(st, i + 1)) {
			const struct tg_pylex_tok *n = &st->t[i + 1];

			bind_set(st, st->s + n->off, n->len,
				 head_is_root(st, mod, ml) ? mod : NULL, ml);
			i += 2;
		} else {
			size_t hl = strcspn(mod, ".");

			bind_set(st, st->s + st->t[at].off, st->t[at].len,
				 head_is_root(st, mod, ml) ? mod : NULL,
				 hl < ml ? hl : ml);
		}
		while (i < b && !tok_op(st, i, ","))
			i++;
		i++;
	}
}

/* "from m import x [as y], ..." or "from m import (...)" or "*". */
void
tg_audit_py_stmt_from(struct state *st, size_t a, size_t b)
{
	char mod[NAME_MAX_LEN];
	size_t ml, i, mat = a + 1;
	int rel, torch, once = 0;

	i = read_module(st, a + 1, b, mod, &ml, &rel);
	torch = !rel && ml && head_is_root(st, mod, ml);
	if (!rel)
		note_torch_import(st, mod, ml, st->t[mat].line);
	if (!tok_kw(st, i, "import"))
		return;
	i++;
	if (tok_op(st, i, "*")) {
		if (torch) {
			int dummy = 0;

			import_finding(st, mod, ml, mat, 2, 1, &dummy);
			if (st->nstars < STARS_MAX) {
				st->stars[st->nstars] = strndup(mod, ml);
				if (!st->stars[st->nstars])
					st->rc = TG_ENOMEM;
				else
					st->nstars++;
			}
		}
		return;
	}
	for (; i < b; i++) {
		const struct tg_pylex_tok *n, *as;
		char full[NAME_MAX_LEN];
		size_t fl;

		if (!tok_name(st, i))
			continue;
		n = &st->t[i];
		as = n;
		if (tok_kw(st, i + 1, "as") && tok_name(st, i + 2))
			as = &st->t[i + 2];
		if (torch && ml + n->len + 2 < sizeof(full)) {
			memcpy(full, mod, ml);
			full[ml] = '.';
			memcpy(full + ml + 1, st->s + n->off, n->len);
			fl = ml + 1 + n->len;
			import_finding(st, full, fl, i, 2, 0, &once);
			bind_set(st, st->s + as->off, as->len, full, fl);
		} else {
			bind_set(st, st->s + as->off, as->len, NULL, 0);
		}
		if (as != n)
			i += 2;
	}
}

/* After the references of a statement [a, b): what it binds. */
void
tg_audit_py_stmt_assign(struct state *st, size_t a, size_t b)
{
	size_t i, eq = SIZE_MAX;

	if (tok_kw(st, a, "def") || tok_kw(st, a, "class")) {
		if (tok_name(st, a + 1))
			bind_set(st, st->s + st->t[a + 1].off, st->t[a + 1].len,
				 NULL, 0);
		return;
	}
	if (tok_kw(st, a, "async") && tok_kw(st, a + 1, "def") &&
	    tok_name(st, a + 2)) {
		bind_set(st, st->s + st->t[a + 2].off, st->t[a + 2].len, NULL,
			 0);
		return;
	}
	for (i = a; i < b; i++)
		if (st->t[i].depth == st->t[a].depth && tok_op(st, i, "=")) {
			eq = i;
			break;
		}
	if (eq == SIZE_MAX)
		return;
	/* NAME = chain: an alias when the chain is torch */
	if (eq == a + 1 && tok_name(st, a) && tok_name(st, eq + 1) &&
	    tg_audit_py_chain_end(st, eq + 1) == b - 1) {
		char full[NAME_MAX_LEN];
		size_t fl, ntg;
		const struct binding *via;

		if (tg_audit_py_resolve_chain(st, eq + 1, b - 1, full, &fl,
					      &ntg, &via)) {
			size_t comp[CHAIN_MAX + 1],
			    kc = 0, nc = split_comps(full, fl, comp);

			/* an entry or a module path; not a value inside an
			 * entry (OptState.READY) */
			if (!tg_audit_py_match_longest(st, full, nc, comp, 1,
						       &kc) ||
			    kc == nc) {
				bind_set(st, st->s + st->t[a].off, st->t[a].len,
					 full, fl);
				return;
			}
		}
	}
	/* NAME [, NAME]* = ... or NAME: ann = ...: those names rebound */
	for (i = a; i < eq; i++) {
		if (tok_op(st, i, ":"))
			break;
		if (tok_name(st, i) && (i == a || tok_op(st, i - 1, ",")) &&
		    (i + 1 == eq || tok_op(st, i + 1, ",") ||
		     tok_op(st, i + 1, ":")))
			bind_set(st, st->s + st->t[i].off, st->t[i].len, NULL,
				 0);
	}
}

/* The names a for, with ... as or except ... as header binds, in tokens
 * [0, e) of the line: no longer aliases. The targets of a for are the
 * names before its "in"; of as, the names after it up to the next ','
 * or ':' at its depth (a tuple of names too). */
void
tg_audit_py_header_targets(struct state *st, size_t e)
{
	size_t i = 0, k, d;
	int on = 0;

	if (tok_kw(st, 0, "async"))
		i = 1;
	if (!tok_kw(st, i, "for") && !tok_kw(st, i, "with") &&
	    !tok_kw(st, i, "except"))
		return;
	d = st->t[i].depth;
	on = tok_kw(st, i, "for");
	for (k = i + 1; k < e; k++) {
		const struct tg_pylex_tok *t = &st->t[k];

		if (t->depth == d && tok_kw(st, k, "in") &&
		    tok_kw(st, i, "for"))
			break;
		if (t->depth == d && tok_kw(st, k, "as")) {
			on = 1;
			continue;
		}
		if (t->depth == d &&
		    (tok_op(st, k, ",") || tok_op(st, k, ":")) &&
		    !tok_kw(st, i, "for")) {
			on = 0;
			continue;
		}
		if (on && t->kind == TG_PYLEX_NAME && !tok_op(st, k - 1, ".") &&
		    !tok_op(st, k + 1, ".") && !tok_op(st, k + 1, "(") &&
		    !tok_op(st, k + 1, "["))
			bind_set(st, st->s + t->off, t->len, NULL, 0);
	}
}

/* The parameters of the def whose '(' is token p, on its own header
 * line (its body on the lines below): each one that names a module or
 * entry of torch (an alias, or a root) hides it in the body, which is
 * the top block; the block's end puts it back. */
void
tg_audit_py_shadow_params(struct state *st, size_t p)
{
	struct block *b = st->nblocks ? &st->blocks[st->nblocks - 1] : NULL;
	size_t i, e, tn;

	/* the def's block (none when the stack was full) */
	if (!b || b->line != st->t[0].line || b->indent != st->t[0].col ||
	    !tok_op(st, p, "("))
		return;
	e = tg_audit_py_closer(st, p);
	for (i = p + 1; i < e && !st->rc; i++) {
		const struct tg_pylex_tok *t = &st->t[i];
		const char *s = st->s + t->off, *target;
		const struct binding *bb;
		char *c;

		if (!tg_audit_py_param_name(st, p, i))
			continue;
		if (!(target =
			  tg_audit_py_resolve_head(st, s, t->len, &tn, NULL)))
			continue;
		if (b->nshadows == SHADOWS_MAX)
			break;
		if (!(c = malloc(tn + 1))) {
			st->rc = TG_ENOMEM;
			return;
		}
		memcpy(c, target, tn);
		c[tn] = '\0';
		b->shadows[b->nshadows].name = s;
		b->shadows[b->nshadows].nlen = t->len;
		b->shadows[b->nshadows].target = c;
		bb = tg_audit_py_bind_find(st, s, t->len);
		b->shadows[b->nshadows].site =
		    bb ? bb->site : (struct bind_site){0, 0};
		b->shadows[b->nshadows].fb = bb ? bb->fb : no_fallback;
		b->nshadows++;
		tg_audit_py_bind_put(st, s, t->len, NULL, 0,
				     (struct bind_site){0, 0}, &no_fallback);
	}
}
