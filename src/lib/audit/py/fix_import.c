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
 * with a reason). Worst case: the tokens of the file, kept once, and
 * passes over them in proportion to the names followed; nothing runs
 * for a file without a refused use of this kind.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/lex/pylex.h"
#include "lib/util/grow.h"

#define HEADS_MAX 256
#define STORED_MAX 16
#define NONE SIZE_MAX

/* A statement: code tokens [a, b) of toks (b > a), and the token that
 * ends it (NEWLINE, ';' or END) at term. */
struct stmt {
	size_t a, b, term;
	int alone;  /* first on its logical line, ended by NEWLINE */
	int import; /* an import statement parsed into items */
	int bad;    /* an import statement not understood */
	int done;   /* rewritten with the `import torch` it needs */
};

/* One name an import statement binds. */
struct item {
	size_t stmt;
	size_t a, b;	   /* its tokens [a, b), a name or `x as y` */
	size_t name;	   /* the token of the name it imports (from) */
	size_t bound;	   /* the token of the name it binds */
	size_t last;	   /* its last code token */
	char *target;	   /* what that name stands for */
	int plain_torch;   /* `import torch` or `import torch.x` */
	size_t head;	   /* into heads, or NONE */
	int drop, finding; /* dropped; an import finding is on it */
	/* `import P.M` whose finding asks for `import P` (module_imports):
	 * the entry; whether P replaces it (else it is dropped); why it is
	 * kept */
	const struct tg_api *mod;
	int repl;
	const char *mod_why;
};

/* A name the refused uses start with. */
struct head {
	const char *s;
	size_t n;
	const char *target; /* one item's (all agree), or NULL */
	int other;	    /* bound otherwise, or items disagree */
	int nitems;
	int not_alone;	/* an item in a statement sharing its line */
	int need_torch; /* a use rewritten to the whole name */
	int string_use;
	size_t nocc;   /* occurrences in code, outside imports */
	size_t nfreed; /* uses rewritten to the whole name */
	size_t nfixed; /* uses fixed */
};

struct ed {
	size_t start, end;
	char *text;
	size_t len;
	size_t owner; /* the finding, or NONE */
};

struct fx {
	const char *s;
	size_t len;
	struct tg_pylex_tok *t;
	size_t nt, capt;
	struct stmt *st;
	size_t nst, capst;
	struct item *it;
	size_t nit, capit;
	struct head h[HEADS_MAX];
	size_t nh;
	struct ed *e;
	size_t ne, cape;
	int torch_other; /* torch bound otherwise, or a star import */
	const struct tg_api *stored[STORED_MAX]; /* entries assigned to */
	size_t nstored;
	size_t fixed_end; /* the end of the uses fixed so far */
	size_t mod_torch; /* the first module-level `import torch`'s offset */
	int rc;
};

static int
is_code(const struct tg_pylex_tok *t)
{
	return t->kind == TG_PYLEX_NAME || t->kind == TG_PYLEX_NUMBER ||
	       t->kind == TG_PYLEX_STRING || t->kind == TG_PYLEX_OP ||
	       t->kind == TG_PYLEX_ERROR;
}

/* Whether token i is the name or operator s (a string literal). */
#define teq(x, i, s) teq_n((x), (i), (s), sizeof(s) - 1)

static int
teq_n(const struct fx *x, size_t i, const char *s, size_t n)
{
	return i < x->nt && x->t[i].len == n &&
	       (x->t[i].kind == TG_PYLEX_NAME || x->t[i].kind == TG_PYLEX_OP) &&
	       memcmp(x->s + x->t[i].off, s, n) == 0;
}

static int
tname(const struct fx *x, size_t i)
{
	return i < x->nt && x->t[i].kind == TG_PYLEX_NAME;
}

/* The next code token of statement s after i, or s->b. */
static size_t
next_code(const struct fx *x, const struct stmt *s, size_t i)
{
	for (i++; i < s->b && !is_code(&x->t[i]); i++)
		;
	return i;
}

/* The code token before i in statement s, or NONE. */
static size_t
prev_code(const struct fx *x, const struct stmt *s, size_t i)
{
	while (i > s->a) {
		i--;
		if (is_code(&x->t[i]))
			return i;
	}
	return NONE;
}

static int
add_ed(struct fx *x, size_t start, size_t end, const char *text, size_t n,
       size_t owner)
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

	return add_ed(c->x, start, end, text, n, c->owner);
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

static int
tokenize(struct fx *x)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;

	tg_pylex_init(&lx, x->s, x->len);
	while (tg_pylex_next(&lx, &t)) {
		if (TG_GROW(x->t, x->nt + 1, x->capt))
			return x->rc = TG_ENOMEM;
		x->t[x->nt++] = t;
		if (t.kind == TG_PYLEX_END)
			break;
	}
	return 0;
}

/* Cut the tokens into statements. */
static int
statements(struct fx *x)
{
	size_t i, a = NONE;
	int fresh = 1, fresh_a = 1;

	for (i = 0; i < x->nt; i++) {
		const struct tg_pylex_tok *t = &x->t[i];
		int semi = t->kind == TG_PYLEX_OP && t->depth == 0 &&
			   t->len == 1 && x->s[t->off] == ';';

		if (t->kind == TG_PYLEX_NEWLINE || t->kind == TG_PYLEX_END ||
		    semi) {
			if (a != NONE) {
				struct stmt *s;

				if (TG_GROW(x->st, x->nst + 1, x->capst))
					return x->rc = TG_ENOMEM;
				s = &x->st[x->nst++];
				memset(s, 0, sizeof(*s));
				s->a = a;
				s->b = i;
				s->term = i;
				s->alone = fresh_a && !semi;
			}
			fresh = !semi;
			a = NONE;
			continue;
		}
		if (a == NONE && is_code(t)) {
			a = i;
			fresh_a = fresh;
		}
	}
	return 0;
}

static size_t
head_find(const struct fx *x, const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < x->nh; k++)
		if (x->h[k].n == n && memcmp(x->h[k].s, s, n) == 0)
			return k;
	return NONE;
}

static void
mark_bound(struct fx *x, size_t i)
{
	size_t k;

	if (!tname(x, i))
		return;
	if (x->t[i].len == 5 && memcmp(x->s + x->t[i].off, "torch", 5) == 0)
		x->torch_other = 1;
	k = head_find(x, x->s + x->t[i].off, x->t[i].len);
	if (k != NONE)
		x->h[k].other = 1;
}

/* Append the text of tokens [a, b) (names and dots) to *out. */
static char *
dotted(const struct fx *x, size_t a, size_t b, const char *suffix, size_t sn)
{
	size_t i, n = 0;
	char *s, *p;

	for (i = a; i < b; i++)
		n += x->t[i].len;
	if (!(s = malloc(n + sn + 2)))
		return NULL;
	p = s;
	for (i = a; i < b; i++) {
		memcpy(p, x->s + x->t[i].off, x->t[i].len);
		p += x->t[i].len;
	}
	if (sn) {
		*p++ = '.';
		memcpy(p, suffix, sn);
		p += sn;
	}
	*p = '\0';
	return s;
}

static int
add_item(struct fx *x, size_t st, size_t a, size_t b, size_t bound, size_t last,
	 char *target, int plain_torch)
{
	struct item *it;

	if (!target || TG_GROW(x->it, x->nit + 1, x->capit)) {
		free(target);
		return x->rc = TG_ENOMEM;
	}
	it = &x->it[x->nit++];
	memset(it, 0, sizeof(*it));
	it->stmt = st;
	it->a = a;
	it->b = b;
	it->name = a;
	it->bound = bound;
	it->last = last;
	it->target = target;
	it->plain_torch = plain_torch;
	it->head = NONE;
	return 0;
}

/* A dotted name from i in s: its end (the token after), or NONE. */
static size_t
read_dotted(const struct fx *x, const struct stmt *s, size_t i)
{
	if (i >= s->b || !tname(x, i))
		return NONE;
	for (;;) {
		size_t d = next_code(x, s, i);

		if (d >= s->b || !teq(x, d, "."))
			return d;
		i = next_code(x, s, d);
		if (i >= s->b || !tname(x, i))
			return NONE;
	}
}

/* Parse statement k as an import into items: 1, 0 when it is none, 2
 * when it is one not understood (its names bound otherwise), -1 on
 * memory. The
 * tokens of a dotted name are contiguous code tokens (no comment in a
 * name). */
static int
parse_import(struct fx *x, size_t k)
{
	struct stmt *s = &x->st[k];
	size_t i = s->a, first = x->nit;

	if (teq(x, i, "import")) {
		for (i = next_code(x, s, i);;) {
			size_t a = i, e = read_dotted(x, s, i), bound = i;
			size_t last;
			char *target;
			int plain;

			if (e == NONE)
				goto bad;
			if (teq(x, e, "as")) {
				bound = next_code(x, s, e);
				if (!tname(x, bound))
					goto bad;
				target = dotted(x, a, e, NULL, 0);
				i = next_code(x, s, bound);
				plain = 0;
				last = bound;
			} else {
				target = dotted(x, a, a + 1, NULL, 0);
				plain =
				    x->t[a].len == 5 &&
				    memcmp(x->s + x->t[a].off, "torch", 5) == 0;
				i = e;
				last = prev_code(x, s, e);
			}
			if (add_item(x, k, a, i, bound, last, target, plain))
				return -1;
			if (i >= s->b)
				break;
			if (!teq(x, i, ","))
				goto bad;
			i = next_code(x, s, i);
		}
		return 1;
	}
	if (teq(x, i, "from")) {
		size_t m = next_code(x, s, i), me;
		char *mod;
		int paren = 0;

		if (teq(x, m, ".") || teq(x, m, "..."))
			goto bad; /* relative: no torch name */
		me = read_dotted(x, s, m);
		if (me == NONE || !teq(x, me, "import"))
			goto bad;
		if (!(mod = dotted(x, m, me, NULL, 0)))
			return x->rc = TG_ENOMEM, -1;
		i = next_code(x, s, me);
		if (teq(x, i, "*")) {
			x->torch_other = 1;
			free(mod);
			goto bad;
		}
		if (teq(x, i, "(")) {
			paren = 1;
			i = next_code(x, s, i);
		}
		for (;;) {
			size_t a = i, bound = i, e;

			if (paren && teq(x, i, ")"))
				break;
			if (!tname(x, i)) {
				free(mod);
				goto bad;
			}
			e = next_code(x, s, i);
			if (teq(x, e, "as")) {
				bound = next_code(x, s, e);
				if (!tname(x, bound)) {
					free(mod);
					goto bad;
				}
				e = next_code(x, s, bound);
			}
			if (add_item(x, k, a, e, bound, bound,
				     dotted(x, m, me, x->s + x->t[a].off,
					    x->t[a].len),
				     0)) {
				free(mod);
				return -1;
			}
			i = e;
			if (i >= s->b || (paren && teq(x, i, ")")))
				break;
			if (!teq(x, i, ",")) {
				free(mod);
				goto bad;
			}
			i = next_code(x, s, i);
			if (i >= s->b && !paren)
				break;
		}
		free(mod);
		return 1;
	}
	return 0;
bad:
	while (x->nit > first)
		free(x->it[--x->nit].target);
	s->bad = 1;
	return 2;
}

static int
is_aug(const struct fx *x, size_t i)
{
	const struct tg_pylex_tok *t = &x->t[i];
	const char *p = x->s + t->off;

	if (t->kind != TG_PYLEX_OP)
		return 0;
	if (t->len == 1)
		return p[0] == '=';
	return p[t->len - 1] == '=' &&
	       !(t->len == 2 &&
		 (p[0] == '=' || p[0] == '<' || p[0] == '>' || p[0] == '!'));
}

/* Whether statement s holds a name bindings() may mark (torch or a
 * head): most statements hold none, and are not read for bindings. */
static int
may_bind(const struct fx *x, const struct stmt *s)
{
	size_t i;

	for (i = s->a; i < s->b; i++)
		if (tname(x, i) &&
		    ((x->t[i].len == 5 &&
		      memcmp(x->s + x->t[i].off, "torch", 5) == 0) ||
		     head_find(x, x->s + x->t[i].off, x->t[i].len) != NONE))
			return 1;
	return 0;
}

/* Mark the names statement k binds (an over-approximation). */
static void
bindings(struct fx *x, size_t k)
{
	const struct stmt *s = &x->st[k];
	size_t i, last_eq = NONE, colon = NONE;
	size_t d0 = x->t[s->a].depth;

	for (i = s->a; i < s->b; i++) {
		if (!is_code(&x->t[i]))
			continue;
		if (teq(x, i, "import") &&
		    !(i > s->a && teq(x, prev_code(x, s, i), "."))) {
			/* an import this file did not parse */
			size_t j;

			for (j = s->a; j < s->b; j++)
				mark_bound(x, j);
			return;
		}
		if (x->t[i].depth == d0 && is_aug(x, i))
			last_eq = i;
		if (x->t[i].depth == d0 && colon == NONE && last_eq == NONE &&
		    teq(x, i, ":"))
			colon = i;
	}
	if (teq(x, s->a, "global") || teq(x, s->a, "nonlocal") ||
	    teq(x, s->a, "del")) {
		for (i = s->a; i < s->b; i++)
			mark_bound(x, i);
		return;
	}
	if (last_eq != NONE) {
		/* the targets: before the last '=' (before the ':' of an
		 * annotated assignment), names not followed by . ( [ */
		size_t end = colon != NONE ? colon : last_eq;

		for (i = s->a; i < end; i++) {
			size_t nx = next_code(x, s, i), pv;

			if (!tname(x, i))
				continue;
			pv = prev_code(x, s, i);
			if (pv != NONE && teq(x, pv, "."))
				continue;
			if (nx < s->b && (teq(x, nx, ".") || teq(x, nx, "(") ||
					  teq(x, nx, "[")))
				continue;
			mark_bound(x, i);
		}
	} else if (colon != NONE && tname(x, s->a) &&
		   next_code(x, s, s->a) == colon)
		mark_bound(x, s->a); /* x: T */
	for (i = s->a; i < s->b; i++) {
		size_t nx;

		if (!is_code(&x->t[i]))
			continue;
		nx = next_code(x, s, i);
		if (teq(x, i, "def") || teq(x, i, "class") || teq(x, i, "as")) {
			mark_bound(x, nx);
		} else if (teq(x, i, ":=")) {
			mark_bound(x, prev_code(x, s, i));
		} else if (teq(x, i, "for")) {
			size_t j;

			for (j = nx;
			     j < s->b && !(teq(x, j, "in") &&
					   x->t[j].depth == x->t[i].depth);
			     j++)
				mark_bound(x, j);
		} else if (teq(x, i, "lambda")) {
			size_t j;

			for (j = nx;
			     j < s->b && !(teq(x, j, ":") &&
					   x->t[j].depth == x->t[i].depth);
			     j++)
				mark_bound(x, j);
		}
	}
	if (teq(x, s->a, "def") ||
	    (teq(x, s->a, "async") && teq(x, next_code(x, s, s->a), "def"))) {
		/* parameters: names right after ( , * ** / at the depth of
		 * the def's parentheses */
		for (i = s->a; i < s->b; i++) {
			size_t pv;

			if (!tname(x, i) || x->t[i].depth != d0 + 1)
				continue;
			pv = prev_code(x, s, i);
			if (pv != NONE && (teq(x, pv, "(") || teq(x, pv, ",") ||
					   teq(x, pv, "*") ||
					   teq(x, pv, "**") || teq(x, pv, "/")))
				mark_bound(x, i);
		}
	}
}

/* Whether string token i may name head h: its body is the name, or an
 * f-string holds it as a word. */
static int
string_names(const struct fx *x, size_t i, const struct head *h)
{
	const struct tg_pylex_tok *t = &x->t[i];
	const char *b = x->s + t->off + t->pre + t->quote;
	size_t n, k;

	if (t->len < (size_t)t->pre + 2u * t->quote)
		return 0;
	n = t->len - t->pre - 2u * t->quote;
	if (n == h->n && memcmp(b, h->s, n) == 0)
		return 1;
	if (!(t->flags & TG_PYLEX_FSTRING))
		return 0;
	for (k = 0; k + h->n <= n; k++) {
		unsigned char before = k ? (unsigned char)b[k - 1] : ' ';
		unsigned char after =
		    k + h->n < n ? (unsigned char)b[k + h->n] : ' ';

		if (memcmp(b + k, h->s, h->n) == 0 &&
		    !(before == '_' || before >= 0x80 ||
		      (before >= '0' && before <= '9') ||
		      ((before | 32) >= 'a' && (before | 32) <= 'z')) &&
		    !(after == '_' || after >= 0x80 ||
		      (after >= '0' && after <= '9') ||
		      ((after | 32) >= 'a' && (after | 32) <= 'z')))
			return 1;
	}
	return 0;
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

static int
is_init_py(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	b = b ? b + 1 : path;
	return b && strcmp(b, "__init__.py") == 0;
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

static size_t
tok_end(const struct fx *x, size_t i)
{
	return x->t[i].off + x->t[i].len;
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
	if (!teq(x, prev_code(x, p, p->b), ":"))
		return 0;
	return k + 1 == x->nst || x->t[x->st[k + 1].a].col < x->t[s->a].col;
}

/* Statement k (alone on its lines) removed with its lines, `import
 * torch` in its place when torch, its comments kept on lines of their
 * own. */
static int
remove_stmt(struct fx *x, size_t k, int torch)
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
	rc = add_ed(x, ls, stmt_end(x, s), b, bl, NONE);
	free(b);
	return rc;
}

/* `import torch` on a line of its own after statement k, at its
 * indentation. */
static int
torch_after(struct fx *x, size_t k)
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
	rc = add_ed(x, stmt_end(x, s), stmt_end(x, s), b, bl, NONE);
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

	if (c < s->b && teq(x, c, ",")) {
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
				if (pv != NONE && teq(x, pv, ",")) {
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
static int
drop_items(struct fx *x, size_t k)
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
		if ((rc = add_ed(x, from, to, "", 0, NONE)))
			return rc;
	}
	return 0;
}

/* The head of use f (the name its text starts with) into *h, added to
 * the heads when add: 1, or 0 when f is no use through a name (its
 * text is no plain dotted name, or starts with torch). */
static int
use_head(struct fx *x, const struct tg_audit_finding *f, size_t *h, int add)
{
	const char *p = x->s + f->start;
	size_t n = f->end - f->start, hn = 0, k;

	if (f->end > x->len || f->start >= f->end)
		return 0;
	while (hn < n && p[hn] != '.')
		hn++;
	for (k = 0; k < n; k++)
		if (!(p[k] == '.' || p[k] == '_' ||
		      (unsigned char)p[k] >= 0x80 ||
		      (p[k] >= '0' && p[k] <= '9') ||
		      ((p[k] | 32) >= 'a' && (p[k] | 32) <= 'z')))
			return 0;
	if (hn == 0 || (hn == 5 && memcmp(p, "torch", 5) == 0))
		return 0;
	*h = head_find(x, p, hn);
	if (*h == NONE && add) {
		if (x->nh == HEADS_MAX)
			return 0;
		*h = x->nh++;
		memset(&x->h[*h], 0, sizeof(x->h[*h]));
		x->h[*h].s = p;
		x->h[*h].n = hn;
	}
	return *h != NONE;
}

/* The item an import finding f is on, or NONE. */
static size_t
item_of(const struct fx *x, const struct tg_audit_finding *f)
{
	size_t i;

	for (i = 0; i < x->nit; i++)
		if (x->t[x->it[i].a].off <= f->start &&
		    f->start < tok_end(x, x->it[i].last))
			return i;
	return NONE;
}

/* Whether to is the package of the module id (torch of torch._six). */
static int
parent_of(const char *id, const char *to)
{
	size_t n = to ? strlen(to) : 0;

	return n && strncmp(id, to, n) == 0 && id[n] == '.' &&
	       !strchr(id + n + 1, '.');
}

/* Whether item it is `import ID` (no alias): its tokens spell id. */
static int
item_spells(const struct fx *x, const struct item *it, const char *id)
{
	size_t i, n = 0, idn = strlen(id);

	if (!it->plain_torch || it->bound != it->a)
		return 0;
	for (i = it->a; i <= it->last; i++) {
		if (!is_code(&x->t[i]) || n + x->t[i].len > idn ||
		    memcmp(id + n, x->s + x->t[i].off, x->t[i].len) != 0)
			return 0;
		n += x->t[i].len;
	}
	return n == idn;
}

/* Read the file: statements, imports, heads, bindings, occurrences. */
static int
read_file(struct fx *x, const struct tg_audit_finding *f,
	  const struct tg_lang_fix_use *u, size_t n, size_t *uh, size_t *ui)
{
	size_t k, i;

	for (k = 0; k < n; k++) {
		uh[k] = ui[k] = NONE;
		if (u[k].state == TG_LANG_FIX_REFUSED &&
		    f[k].in == TG_AUDIT_IN_CODE &&
		    strcmp(f[k].kind, "import") != 0)
			use_head(x, &f[k], &uh[k], 1);
	}
	if (tokenize(x) || statements(x))
		return x->rc;
	x->mod_torch = NONE;
	for (k = 0; k < x->nst; k++) {
		struct stmt *s = &x->st[k];
		int r = parse_import(x, k);

		if (r < 0)
			return x->rc;
		s->import = r == 1;
	}
	/* import findings: their items, and their names followed too */
	for (k = 0; k < n; k++) {
		if (u[k].state != TG_LANG_FIX_REFUSED ||
		    strcmp(f[k].kind, "import") != 0 ||
		    (ui[k] = item_of(x, &f[k])) == NONE)
			continue;
		x->it[ui[k]].finding = 1;
		if (u[k].to && strcmp(u[k].to, "torch") == 0 &&
		    parent_of(f[k].api->id, u[k].to) &&
		    item_spells(x, &x->it[ui[k]], f[k].api->id))
			x->it[ui[k]].mod = f[k].api;
	}
	for (i = 0; i < x->nit; i++) {
		struct item *it = &x->it[i];
		const struct tg_pylex_tok *b = &x->t[it->bound];

		it->head = head_find(x, x->s + b->off, b->len);
		if (it->head == NONE && it->finding && x->nh < HEADS_MAX &&
		    !(b->len == 5 && memcmp(x->s + b->off, "torch", 5) == 0)) {
			it->head = x->nh++;
			memset(&x->h[it->head], 0, sizeof(x->h[it->head]));
			x->h[it->head].s = x->s + b->off;
			x->h[it->head].n = b->len;
		}
	}
	for (i = 0; i < x->nit; i++) {
		struct item *it = &x->it[i];
		const struct stmt *s = &x->st[it->stmt];
		const struct tg_pylex_tok *b = &x->t[it->bound];
		struct head *h;

		if (b->len == 5 && memcmp(x->s + b->off, "torch", 5) == 0 &&
		    strcmp(it->target, "torch") != 0)
			x->torch_other = 1;
		if (it->plain_torch && x->t[s->a].col == 0 &&
		    (x->mod_torch == NONE || x->t[s->a].off < x->mod_torch))
			x->mod_torch = x->t[s->a].off;
		if (it->head == NONE)
			continue;
		h = &x->h[it->head];
		if (h->target && strcmp(h->target, it->target) != 0)
			h->other = 1;
		h->target = it->target;
		h->nitems++;
		h->not_alone |= !s->alone;
	}
	/* bindings and occurrences outside imports */
	for (k = 0; k < x->nst; k++) {
		const struct stmt *s = &x->st[k];

		if (s->bad) {
			for (i = s->a; i < s->b; i++)
				mark_bound(x, i);
			continue;
		}
		if (s->import)
			continue;
		if (may_bind(x, s))
			bindings(x, k);
		for (i = s->a; i < s->b; i++) {
			size_t hh, pv;

			if (x->t[i].kind == TG_PYLEX_STRING) {
				for (hh = 0; hh < x->nh; hh++)
					if (string_names(x, i, &x->h[hh]))
						x->h[hh].string_use = 1;
				continue;
			}
			if (!tname(x, i))
				continue;
			hh = head_find(x, x->s + x->t[i].off, x->t[i].len);
			if (hh == NONE)
				continue;
			pv = prev_code(x, s, i);
			if (pv != NONE && teq(x, pv, "."))
				continue;
			x->h[hh].nocc++;
		}
	}
	return 0;
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
	if (pv != NONE && teq(x, pv, ".")) {
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

	if (pv != NONE && teq(x, pv, "."))
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

	for (k = 0; k < n && !any; k++)
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
	if ((rc = read_file(x, f, u, n, uh, ui)))
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
			rc = remove_stmt(x, k, want);
		else if ((rc = want ? torch_after(x, k) : 0) == 0 && ndrop)
			rc = drop_items(x, k);
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
