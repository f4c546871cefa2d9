/* fix_import_read.c - audit --fix for Python, the file-level step: the
 * file read
 * SPDX-License-Identifier: MIT
 *
 * What fix_import.c decides from, read once per file into struct fx
 * (fix_import.h): the tokens (lex/pylex), kept once; the statements, cut
 * at NEWLINE and at ';' outside brackets; the import statements that
 * stand alone parsed into items, each with the name it binds and the
 * dotted path that name stands for (a relative or star import, or one
 * not understood, marks its names bound otherwise); the heads, the names
 * the refused uses and the import findings' items start with; every
 * other place that binds a head or `torch` (an over-approximation:
 * assignment targets, def, class, parameters, for, with/except, lambda,
 * :=, global, nonlocal, del); and each head's occurrences in code and
 * in strings. It decides nothing and writes no edit.
 *
 * Limits: HEADS_MAX heads (the rest not followed). Worst case: one pass
 * of the tokenizer, then passes over the tokens in proportion to the
 * heads (a string token is tested against each).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/audit/py/fix_import.h"
#include "lib/lex/pylex.h"
#include "lib/util/grow.h"

static int
tokenize(struct fx *x)
{
	struct tg_pylex lx;

	/* the tokens lexed into the array in one call (tg_pylex_fill), which
	 * grows when they fill it. It starts with room for a token per 6
	 * bytes (the bench tree's Python files over 20 KB have one per 9,
	 * nine in ten one per 6 or fewer), so that a large file's array is
	 * not copied at each doubling (12 of the 120 million instructions
	 * of the 37 files the bench tree's JSON audit reads so) */
	if (TG_GROW(x->t, x->len / 6 + 16, x->capt))
		return x->rc = TG_ENOMEM;
	tg_pylex_init(&lx, x->s, x->len);
	while (!tg_pylex_fill(&lx, x->t, x->capt, &x->nt))
		if (TG_GROW(x->t, x->nt + 1, x->capt))
			return x->rc = TG_ENOMEM;
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
		if (x->h[k].n == n && x->h[k].s[0] == s[0] &&
		    memcmp(x->h[k].s, s, n) == 0)
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

		if (d >= s->b || !TEQ(x, d, "."))
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

	if (TEQ(x, i, "import")) {
		for (i = next_code(x, s, i);;) {
			size_t a = i, e = read_dotted(x, s, i), bound = i;
			size_t last;
			char *target;
			int plain;

			if (e == NONE)
				goto bad;
			if (TEQ(x, e, "as")) {
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
			if (!TEQ(x, i, ","))
				goto bad;
			i = next_code(x, s, i);
		}
		return 1;
	}
	if (TEQ(x, i, "from")) {
		size_t m = next_code(x, s, i), me;
		char *mod;
		int paren = 0;

		if (TEQ(x, m, ".") || TEQ(x, m, "..."))
			goto bad; /* relative: no torch name */
		me = read_dotted(x, s, m);
		if (me == NONE || !TEQ(x, me, "import"))
			goto bad;
		if (!(mod = dotted(x, m, me, NULL, 0)))
			return x->rc = TG_ENOMEM, -1;
		i = next_code(x, s, me);
		if (TEQ(x, i, "*")) {
			x->torch_other = 1;
			free(mod);
			goto bad;
		}
		if (TEQ(x, i, "(")) {
			paren = 1;
			i = next_code(x, s, i);
		}
		for (;;) {
			size_t a = i, bound = i, e;

			if (paren && TEQ(x, i, ")"))
				break;
			if (!tname(x, i)) {
				free(mod);
				goto bad;
			}
			e = next_code(x, s, i);
			if (TEQ(x, e, "as")) {
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
			if (i >= s->b || (paren && TEQ(x, i, ")")))
				break;
			if (!TEQ(x, i, ",")) {
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
		if (TEQ(x, i, "import") &&
		    !(i > s->a && TEQ(x, prev_code(x, s, i), "."))) {
			/* an import this file did not parse */
			size_t j;

			for (j = s->a; j < s->b; j++)
				mark_bound(x, j);
			return;
		}
		if (x->t[i].depth == d0 && is_aug(x, i))
			last_eq = i;
		if (x->t[i].depth == d0 && colon == NONE && last_eq == NONE &&
		    TEQ(x, i, ":"))
			colon = i;
	}
	if (TEQ(x, s->a, "global") || TEQ(x, s->a, "nonlocal") ||
	    TEQ(x, s->a, "del")) {
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
			if (pv != NONE && TEQ(x, pv, "."))
				continue;
			if (nx < s->b && (TEQ(x, nx, ".") || TEQ(x, nx, "(") ||
					  TEQ(x, nx, "[")))
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
		if (TEQ(x, i, "def") || TEQ(x, i, "class") || TEQ(x, i, "as")) {
			mark_bound(x, nx);
		} else if (TEQ(x, i, ":=")) {
			mark_bound(x, prev_code(x, s, i));
		} else if (TEQ(x, i, "for")) {
			size_t j;

			for (j = nx;
			     j < s->b && !(TEQ(x, j, "in") &&
					   x->t[j].depth == x->t[i].depth);
			     j++)
				mark_bound(x, j);
		} else if (TEQ(x, i, "lambda")) {
			size_t j;

			for (j = nx;
			     j < s->b && !(TEQ(x, j, ":") &&
					   x->t[j].depth == x->t[i].depth);
			     j++)
				mark_bound(x, j);
		}
	}
	if (TEQ(x, s->a, "def") ||
	    (TEQ(x, s->a, "async") && TEQ(x, next_code(x, s, s->a), "def"))) {
		/* parameters: names right after ( , * ** / at the depth of
		 * the def's parentheses */
		for (i = s->a; i < s->b; i++) {
			size_t pv;

			if (!tname(x, i) || x->t[i].depth != d0 + 1)
				continue;
			pv = prev_code(x, s, i);
			if (pv != NONE && (TEQ(x, pv, "(") || TEQ(x, pv, ",") ||
					   TEQ(x, pv, "*") ||
					   TEQ(x, pv, "**") || TEQ(x, pv, "/")))
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
int
tg_audit_py_fix_read_file(struct fx *x, const struct tg_audit_finding *f,
			  const struct tg_lang_fix_use *u, size_t n, size_t *uh,
			  size_t *ui)
{
	size_t k, i;
	int may;

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
		/* the occurrences, and whether the statement holds a name
		 * bindings() may mark (torch or a head: most hold none, and
		 * are not read for bindings), in one pass over its tokens */
		may = 0;
		for (i = s->a; i < s->b; i++) {
			const struct tg_pylex_tok *t = &x->t[i];
			size_t hh, pv;

			if (t->kind == TG_PYLEX_STRING) {
				for (hh = 0; hh < x->nh; hh++)
					if (string_names(x, i, &x->h[hh]))
						x->h[hh].string_use = 1;
				continue;
			}
			if (t->kind != TG_PYLEX_NAME)
				continue;
			if (t->len == 5 &&
			    memcmp(x->s + t->off, "torch", 5) == 0) {
				may = 1; /* never a head */
				continue;
			}
			hh = head_find(x, x->s + t->off, t->len);
			if (hh == NONE)
				continue;
			may = 1;
			pv = prev_code(x, s, i);
			if (pv != NONE && TEQ(x, pv, "."))
				continue;
			x->h[hh].nocc++;
		}
		if (may)
			bindings(x, k);
	}
	return 0;
}