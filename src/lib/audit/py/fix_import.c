/* fix_import.c - audit --fix for Python: uses through the names imports
 * bind, and the imports themselves (the file-level step)
 * SPDX-License-Identifier: MIT
 *
 * fix.c rewrites a use spelled as its entry's whole dotted name. This
 * file, struct tg_lang_fix's file hook, runs once per file after it and
 * takes the uses fix.c refused because they go through a name an
 * import binds: a module alias (`import torch.cuda.amp as amp`, `from
 * torch.cuda import amp`, then `amp.autocast()`), a from-import (`from
 * torch.cuda.amp import custom_fwd, GradScaler as GS`, then
 * `@custom_fwd`, `GS(...)`), and the import findings of those names.
 * They need the whole file: which imports bind the name, whether
 * anything else binds it, whether every other use of it is fixed too,
 * whether `torch` is the module wherever the rewrite writes it.
 *
 * The design. The file is tokenized once (lex/pylex) and cut into
 * statements (at NEWLINE and at ';' outside brackets). Import
 * statements that stand alone on their logical line are parsed into
 * items (`a.b as c`, `name as alias`), each with the name it binds and
 * the dotted path that name stands for. Every other place that binds a
 * name (an assignment's targets, def and class names and parameters,
 * for and with/except targets, lambda parameters, :=, global,
 * nonlocal, del, an import this file does not parse) marks it "bound
 * otherwise". For a use whose head H is not `torch`:
 *
 * - H must be bound by imports only, all standing for one path T, and
 *   T plus the rest of the use's text must be the entry's id;
 * - when the replacement's id starts with T (an alias of a package of
 *   it, `import torch as th`), the use keeps H: `th.amp.autocast(...)`;
 * - else it becomes the replacement's whole dotted name
 *   (`torch.amp.custom_fwd(device_type="cuda")`, `torch.amp.
 *   GradScaler("cuda", ...)`), arguments inserted as fix.c inserts them,
 *   which needs `torch` bound to the module: nothing in the file may
 *   bind `torch` but `import torch[.x]` (and no star import), else no
 *   such use is fixed;
 * - in the guarded form (the replacement newer than the floor: the plan
 *   gives the compat name, u->guarded) it becomes the compat name, its
 *   shape checked as fix_guard.c checks it and nothing inserted (the
 *   block's def passes the argument); it needs no `torch`, and counts as
 *   rewritten to a whole name for dropping the import.
 *
 * `import torch` is added once per import statement S that binds a
 * name such uses rewrote, unless a module-level `import torch[.x]`
 * comes before S (S's name is bound only by S, so the use runs after
 * S): right after S, at S's indentation, or in S's place when S is
 * dropped. For S inside a block (a function's lazy import) and a
 * module-level `import torch` after it, none is added: the function
 * runs after the module's imports, and a local `import torch` would
 * make `torch` local to the whole function.
 *
 * An import item is dropped when every occurrence of its name in code
 * is a use rewritten to the whole replacement name, no string names it
 * (`__all__`, a string annotation, an f-string that may hold it), the
 * file is no `__init__.py` (whose imports may be re-exports), and it is
 * an import finding or a name whose uses were fixed. The statement loses
 * the item and its comma, with the line when the item had the line to
 * itself; parentheses, backslash continuations and comments stay. A
 * statement left with no item is removed with its lines, its comments
 * kept on lines of their own. An import finding is fixed when its item
 * is dropped; else it is left with the reason it is kept. Strings,
 * comments and guarded uses are never touched (guarded and mention
 * findings are not REFUSED); every other byte stays as it was.
 *
 * `import torch.M` of a module torch removed, which has no fix (the plan
 * hands its import finding over with "torch" as its name:
 * module_imports), is dropped like an item once every occurrence of
 * torch.M in code is a use fixed to another name, `import torch` in its
 * place unless a module-level `import torch[.x]` comes before it.
 *
 * Limits: at most HEADS_MAX names followed per file (the rest left
 * with a reason); a file longer than TG_PYLEX_LEN_MAX (4 GiB) is not
 * read: its uses stay refused. Worst case: the tokens of the file, kept
 * once, and passes over them in proportion to the names followed;
 * nothing runs for a file without a refused use of this kind.
 *
 * The step is in three files that share fix_import.h (struct fx: the
 * file's tokens, statements, import items, names followed and edits).
 * fix_import_read.c reads the file (tokens, statements, import items,
 * heads, bindings, occurrences); this file decides (each use through
 * its head, in the guarded form too; the imports of modules torch
 * removed; the items dropped; why an import finding is kept) and hands
 * the edits over; fix_import_edit.c writes the edits of the imports (a
 * statement removed, items dropped, `import torch` added). Calls go one
 * way: this file calls the other two, which call neither it nor each
 * other.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/audit/py/fix_import.h"
#include "lib/lex/pylex.h"

/* The add of fix.c's span rewrite, into x owned by the finding in
 * x->rc's place: fix.c's callback has no owner, so it is passed here. */
struct span_ctx {
	struct fx *x;
	size_t owner;
};

static int
span_add(void *ctx, size_t start, size_t end, const char *text, size_t n)
{
	struct span_ctx *c = ctx;

	return tg_audit_py_fix_add_ed(c->x, start, end, text, n, c->owner);
}

static void
drop_owned(struct fx *x, size_t owner)
{
	size_t k, m = 0;

	for (k = 0; k < x->ne; k++)
		if (x->e[k].owner == owner)
			free(x->e[k].text);
		else
			x->e[m++] = x->e[k];
	x->ne = m;
}

/* The token starting at offset off, or NONE. */
static size_t
tok_at(const struct fx *x, size_t off)
{
	size_t lo = 0, hi = x->nt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->t[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nt && x->t[lo].off == off ? lo : NONE;
}

/* The statement holding token i, or NONE. */
static size_t
stmt_of(const struct fx *x, size_t i)
{
	size_t lo = 0, hi = x->nst;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->st[mid].b <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->nst && x->st[lo].a <= i ? lo : NONE;
}

static int
is_init_py(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	b = b ? b + 1 : path;
	return b && strcmp(b, "__init__.py") == 0;
}

static int
add_none(void *ctx, size_t start, size_t end, const char *text, size_t n)
{
	(void)ctx;
	(void)start;
	(void)end;
	(void)text;
	(void)n;
	return 0;
}

/* Use f written as the compat name name (the guarded form: the
 * argument the fix inserts is the block's): its shape checked as the
 * plain fix checks it, no edit of it made, then the name alone; with an
 * inserted argument, a call or a decorator only (the compat name is a
 * function there), as fix_guard.c's use hook says. */
static int
guarded_span(struct fx *x, const struct tg_audit_finding *f, const char *name,
	     struct span_ctx *sc, const char **why)
{
	int rc =
	    tg_audit_py_fix_span(x->s, x->len, f, name, add_none, NULL, why);

	if (rc || *why)
		return rc;
	if (f->api->fix.insert && strcmp(f->kind, "call") != 0 &&
	    strcmp(f->kind, "decorator") != 0) {
		*why = "not a call or a decorator, and the compat name of a "
		       "fix that inserts an argument is a function";
		return 0;
	}
	return span_add(sc, f->start, f->end, name, strlen(name));
}

/* Fix use k through its head, or say why not. */
static int
fix_use(struct fx *x, const struct tg_audit_finding *f,
	struct tg_lang_fix_use *u, size_t k, size_t hh)
{
	struct head *h = &x->h[hh];
	const char *why = NULL, *to = u->to;
	const char *rest = x->s + f->start + h->n;
	size_t restn = f->end - f->start - h->n, tl, ti, si, pv;
	char *name = NULL;
	struct span_ctx sc;
	int full = 0, rc;

	ti = tok_at(x, f->start);
	si = ti == NONE ? NONE : stmt_of(x, ti);
	if (si == NONE || x->st[si].import || x->st[si].bad) {
		u->why = "import form not fixable: the use is not read as "
			 "code";
		return 0;
	}
	pv = prev_code(x, &x->st[si], ti);
	if (pv != NONE && TEQ(x, pv, ".")) {
		u->why = "an attribute of something else: not fixable";
		return 0;
	}
	if (h->nitems == 0) {
		u->why = h->other
			     ? "a use through a name an assignment or a "
			       "parameter binds: left (it follows the "
			       "value bound)"
			     : "import form not fixable: no import this "
			       "file reads binds the name (a star import?)";
		return 0;
	}
	if (h->other) {
		u->why = "import form not fixable: the name is bound "
			 "otherwise too in this file";
		return 0;
	}
	tl = strlen(h->target);
	if (strlen(f->api->id) != tl + restn ||
	    memcmp(f->api->id, h->target, tl) != 0 ||
	    memcmp(f->api->id + tl, rest, restn) != 0) {
		u->why = "import form not fixable: the import does not spell "
			 "the entry's name";
		return 0;
	}
	if (u->guarded) {
		/* the compat name a block binds: the whole use becomes it,
		 * whatever binds torch */
		if (!(name = strdup(to)))
			return x->rc = TG_ENOMEM;
		full = 1;
	} else if (!f->api->fix.to)
		name = NULL;
	else if (strncmp(to, h->target, tl) == 0 && to[tl] == '.') {
		/* an alias of a package of the replacement: kept */
		size_t m = strlen(to) - tl;

		if (!(name = malloc(h->n + m + 1)))
			return x->rc = TG_ENOMEM;
		memcpy(name, h->s, h->n);
		memcpy(name + h->n, to + tl, m + 1);
	} else {
		if (x->torch_other) {
			u->why = "import form not fixable: torch is bound "
				 "otherwise in this file (or a star import "
				 "may bind it)";
			return 0;
		}
		if (h->not_alone) {
			u->why = "import form not fixable: its import shares "
				 "its line with another statement";
			return 0;
		}
		if (!(name = strdup(to)))
			return x->rc = TG_ENOMEM;
		full = 1;
	}
	if (f->start < x->fixed_end) {
		size_t i;

		/* findings out of order, or two on one text */
		for (i = 0; i < x->ne; i++)
			if (x->e[i].start < f->end && f->start < x->e[i].end)
				break;
		if (i < x->ne) {
			free(name);
			u->why = "overlaps another fix";
			return 0;
		}
	}
	sc.x = x;
	sc.owner = k;
	if (u->guarded)
		rc = guarded_span(x, f, name, &sc, &why);
	else
		rc = tg_audit_py_fix_span(x->s, x->len, f, name, span_add, &sc,
					  &why);
	free(name);
	if (rc)
		return x->rc = TG_ENOMEM;
	if (x->rc)
		return x->rc;
	if (why) {
		drop_owned(x, k);
		u->why = why;
		return 0;
	}
	u->state = TG_LANG_FIX_DONE;
	if (f->end > x->fixed_end)
		x->fixed_end = f->end;
	h->nfixed++;
	h->nfreed += full;
	h->need_torch |= full && !u->guarded;
	return 0;
}

/* Whether the code tokens of statement s from i spell id (names and
 * dots), not as an attribute of something else. */
static int
spells_at(const struct fx *x, const struct stmt *s, size_t i, const char *id)
{
	size_t n = 0, idn = strlen(id), pv = prev_code(x, s, i);

	if (pv != NONE && TEQ(x, pv, "."))
		return 0;
	for (; i < s->b && n < idn; i = next_code(x, s, i)) {
		if (x->t[i].len > idn - n ||
		    memcmp(id + n, x->s + x->t[i].off, x->t[i].len) != 0)
			return 0;
		n += x->t[i].len;
	}
	return n == idn;
}

/* Whether a use at offset off is fixed with its name replaced: a
 * finding starting there (f sorted by start) that is DONE, of an entry
 * whose fix writes another name. */
static int
fixed_at(const struct tg_audit_finding *f, const struct tg_lang_fix_use *u,
	 size_t n, size_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].start < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && f[lo].start == off; lo++)
		if (u[lo].state == TG_LANG_FIX_DONE && f[lo].api->fix.to)
			return 1;
	return 0;
}

/* The imports `import torch.M` of a module torch removed (the plan
 * asks for `import torch`, its package): dropped when every use
 * through them is fixed with its name replaced (torch._six.inf ->
 * torch.inf), `import torch` in their place unless a module-level
 * `import torch[.x]` comes before (`import torch.M` binds torch as
 * `import torch` does; inside a block it is replaced, the binding
 * local as before). Else kept, with why. */
static void
module_imports(struct fx *x, const struct tg_audit_finding *f,
	       const struct tg_lang_fix_use *u, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < x->nit; i++) {
		struct item *it = &x->it[i];
		const struct stmt *s = &x->st[it->stmt];
		int left = 0, before = 0;

		if (!it->mod)
			continue;
		if (!s->alone) {
			it->mod_why = "import kept: the statement shares its "
				      "line with another";
			continue;
		}
		for (k = 0; k < x->nst && !left; k++) {
			const struct stmt *o = &x->st[k];

			if (o->import)
				continue;
			for (j = o->a; j < o->b && !left; j++)
				left = tname(x, j) &&
				       spells_at(x, o, j, it->mod->id) &&
				       !fixed_at(f, u, n, x->t[j].off);
		}
		/* a use of the module itself left in code (audit reads
		 * getattr(torch, "_six") as torch._six) */
		for (k = 0; k < n && !left; k++)
			left = f[k].api == it->mod &&
			       f[k].in == TG_AUDIT_IN_CODE &&
			       strcmp(f[k].kind, "import") != 0 &&
			       u[k].state != TG_LANG_FIX_DONE;
		if (left) {
			it->mod_why = "import kept: a use through the module "
				      "is left";
			continue;
		}
		/* another module-level import that binds torch before it */
		for (j = 0; j < x->nit && x->t[s->a].col == 0; j++)
			before |= j != i && x->it[j].plain_torch &&
				  x->t[x->st[x->it[j].stmt].a].col == 0 &&
				  x->t[x->it[j].a].off < x->t[it->a].off;
		it->drop = 1;
		it->repl = !before;
	}
}

/* The reason an import finding's item is kept. */
static const char *
kept_why(const struct fx *x, const struct item *it, int init_py)
{
	const struct head *h = it->head == NONE ? NULL : &x->h[it->head];

	if (it->mod)
		return it->mod_why ? it->mod_why
				   : "import kept: removing it would remove a "
				     "comment";
	if (init_py)
		return "import kept: an __init__.py's imports may be "
		       "re-exported";
	if (!h && it->plain_torch)
		return "import form not fixable yet: an import of the module "
		       "itself (import torch.x)";
	if (!h)
		return "import kept: too many imported names to follow";
	if (h->other)
		return "import kept: the name is bound otherwise too in this "
		       "file";
	if (h->string_use)
		return "import kept: a string names it (__all__, an "
		       "annotation, an f-string)";
	if (!x->st[it->stmt].alone)
		return "import kept: the statement shares its line with "
		       "another";
	if (h->nfreed == h->nocc)
		return "import kept: removing it would remove a comment";
	return "import kept: a use of the name is left";
}

int
tg_audit_py_fix_file(const char *src, size_t len, const char *path,
		     const struct tg_audit_finding *f,
		     struct tg_lang_fix_use *u, size_t n,
		     int (*add)(void *ctx, size_t start, size_t end,
				const char *text, size_t len),
		     void *ctx)
{
	struct fx *x = NULL;
	size_t *uh = NULL, *ui = NULL, k, i;
	int rc = 0, any = 0, init_py = is_init_py(path);

	/* the lexer reads no further (32-bit positions) */
	for (k = 0; k < n && !any && len <= TG_PYLEX_LEN_MAX; k++)
		any = u[k].state == TG_LANG_FIX_REFUSED &&
		      f[k].in == TG_AUDIT_IN_CODE && f[k].end <= len &&
		      f[k].start < f[k].end &&
		      (strcmp(f[k].kind, "import") == 0 ||
		       !(f[k].end - f[k].start > 6 &&
			 memcmp(src + f[k].start, "torch.", 6) == 0));
	if (!any)
		return 0;
	x = calloc(1, sizeof(*x));
	uh = calloc(n, sizeof(*uh));
	ui = calloc(n, sizeof(*ui));
	if (!x || !uh || !ui) {
		rc = TG_ENOMEM;
		goto out;
	}
	x->s = src;
	x->len = len;
	if ((rc = tg_audit_py_fix_read_file(x, f, u, n, uh, ui)))
		goto out;
	/* an entry the file assigns to (a monkeypatch) is left: its reads
	 * may be what was patched */
	for (k = 0; k < n; k++)
		if (f[k].in == TG_AUDIT_IN_CODE && f[k].end <= len &&
		    strcmp(f[k].kind, "import") != 0 &&
		    tg_audit_py_fix_is_store(src, len, f[k].end) &&
		    x->nstored < STORED_MAX)
			x->stored[x->nstored++] = f[k].api;
	for (k = 0; k < n; k++) {
		if (uh[k] == NONE)
			continue;
		for (i = 0; i < x->nstored && x->stored[i] != f[k].api; i++)
			;
		if (i < x->nstored || x->nstored == STORED_MAX) {
			u[k].why = "the file assigns to the name (a "
				   "monkeypatch): its uses are left";
			continue;
		}
		if ((rc = fix_use(x, &f[k], &u[k], k, uh[k])))
			goto out;
	}
	/* the items dropped */
	for (i = 0; i < x->nit; i++) {
		struct item *it = &x->it[i];
		const struct head *h;

		if (it->head == NONE)
			continue;
		h = &x->h[it->head];
		it->drop = (it->finding || h->nfixed) && !init_py &&
			   !h->other && !h->string_use &&
			   x->st[it->stmt].alone && h->nfreed == h->nocc;
	}
	module_imports(x, f, u, n);
	/* each import statement: `import torch` after it (or in its
	 * place) when it binds a name a use was rewritten to the whole
	 * name of, unless torch is bound before; its items dropped */
	for (k = 0; k < x->nst; k++) {
		struct stmt *s = &x->st[k];
		size_t at = x->t[s->a].off, nall = 0, ndrop = 0;
		int want = 0, repl = 0, indented = x->t[s->a].col != 0;

		if (!s->import || !s->alone)
			continue;
		for (i = 0; i < x->nit; i++)
			if (x->it[i].stmt == k) {
				nall++;
				ndrop += x->it[i].drop;
				want |= x->it[i].head != NONE &&
					x->h[x->it[i].head].need_torch;
				repl |= x->it[i].drop && x->it[i].repl;
			}
		if (want && x->mod_torch != NONE &&
		    (x->mod_torch < at || indented))
			want = 0;
		want |= repl;
		if (want && !indented)
			x->mod_torch = at;
		if (ndrop == nall)
			rc = tg_audit_py_fix_remove_stmt(x, k, want);
		else if ((rc = want ? tg_audit_py_fix_torch_after(x, k) : 0) ==
			     0 &&
			 ndrop)
			rc = tg_audit_py_fix_drop_items(x, k);
		if (rc)
			goto out;
	}
	/* the import findings */
	for (k = 0; k < n; k++) {
		if (u[k].state != TG_LANG_FIX_REFUSED ||
		    strcmp(f[k].kind, "import") != 0)
			continue;
		if (ui[k] == NONE)
			u[k].why = "import form not fixable: an import this "
				   "file does not read";
		else if (x->it[ui[k]].drop)
			u[k].state = TG_LANG_FIX_DONE;
		else
			u[k].why = kept_why(x, &x->it[ui[k]], init_py);
	}
	for (i = 0; i < x->ne && !rc; i++)
		rc = add(ctx, x->e[i].start, x->e[i].end, x->e[i].text,
			 x->e[i].len);
out:
	if (x) {
		rc = rc ? rc : x->rc;
		for (i = 0; i < x->ne; i++)
			free(x->e[i].text);
		for (i = 0; i < x->nit; i++)
			free(x->it[i].target);
		free(x->e);
		free(x->it);
		free(x->st);
		free(x->t);
		free(x);
	}
	free(uh);
	free(ui);
	return rc;
}