/* guards.c - the Python analyzer's guards and the block stack
 * SPDX-License-Identifier: MIT
 *
 * The block stack moves by the indentation of a logical line's first
 * token (pylex makes no INDENT or DEDENT); a compound header
 * (if/elif/else/try/except/finally, and the others only as blocks)
 * pushes or switches a block. The innermost block that guards wins; a
 * try's handlers are seen after its body, so the body's findings are
 * patched when an except clause is read (they are the last ones
 * appended). A guard: try/except ImportError (or AttributeError...),
 * hasattr, getattr, dir, TYPE_CHECKING, HAS_*, a torch version test;
 * a bare except or except Exception is soft. Inside a line: "G and X"
 * and "X if G else Y" (line_intervals). Version branches are the
 * if/elif/else clauses whose test version.c reads; their lines and
 * specifier sets go to the result, for dead-branch filtering.
 *
 * Limits: BLOCKS_MAX blocks deep (deeper ones are not tracked),
 * INTERVALS_MAX guards in a line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/py/internal.h"

/* The guard of a finding at token index ti (SIZE_MAX: none). */
enum tg_audit_guard
tg_audit_py_guard_of(const struct state *st, size_t ti, const char **text,
		     size_t *line)
{
	const struct block *soft = NULL;
	size_t k;

	size_t at = st->field_of != SIZE_MAX ? st->field_of : ti;

	for (k = 0; at != SIZE_MAX && k < st->niv; k++)
		if (at >= st->iv[k].a && at < st->iv[k].b) {
			*text = st->iv[k].text;
			*line = st->field_of != SIZE_MAX ? st->field_line
							 : st->t[ti].line;
			return TG_AUDIT_GUARDED;
		}
	for (k = st->nblocks; k-- > 0;) {
		const struct block *b = &st->blocks[k];

		if (b->kind == B_TRY && b->clause == 3)
			continue;
		if (b->guard == TG_AUDIT_GUARDED) {
			*text = b->gtext;
			*line = b->gline;
			return TG_AUDIT_GUARDED;
		}
		if (b->guard == TG_AUDIT_SOFT && !soft)
			soft = b;
	}
	if (soft) {
		*text = soft->gtext;
		*line = soft->gline;
		return TG_AUDIT_SOFT;
	}
	*text = NULL;
	*line = 0;
	return TG_AUDIT_UNGUARDED;
}

int
tg_audit_py_ci_contains(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), k, j;

	for (k = 0; k + m <= n; k++) {
		char c0 = s[k];

		/* the first byte alone rules out most places */
		if (c0 >= 'A' && c0 <= 'Z')
			c0 = (char)(c0 - 'A' + 'a');
		if (c0 != needle[0])
			continue;
		for (j = 1; j < m; j++) {
			char c = s[k + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == m)
			return 1;
	}
	return 0;
}

/* Whether s[0..n) holds "torch" as a word of an identifier: not
 * followed by a letter of the same case as its last (TORCH_MAJOR,
 * torch_version, is_torch_min_version, torchVersion; not
 * torchvision_version_major or TORCHVISION_VERSION, a version of
 * another package). */
int
tg_audit_py_torch_word(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k + 5 <= n; k++) {
		char h = s[k + 4], c = k + 5 < n ? s[k + 5] : '_';
		int lower = h >= 'a' && h <= 'z';

		if ((s[k] | 0x20) == 't' &&
		    tg_audit_py_ci_contains(s + k, 5, "torch") &&
		    !(lower ? c >= 'a' && c <= 'z' : c >= 'A' && c <= 'Z'))
			return 1;
	}
	return 0;
}

/* A torch version name: TORCH_VERSION, TORCH_MAJOR, torch_version,
 * is_torch_min_version, _TORCH_GREATER_EQUAL_2_0. */
int
tg_audit_py_version_name(const char *s, size_t n)
{
	return tg_audit_py_torch_word(s, n) &&
	       (tg_audit_py_ci_contains(s, n, "version") ||
		tg_audit_py_ci_contains(s, n, "major") ||
		tg_audit_py_ci_contains(s, n, "minor") ||
		tg_audit_py_ci_contains(s, n, "greater") ||
		tg_audit_py_ci_contains(s, n, "less"));
}

/* Whether tokens k..e are torch.__version__ (through any alias of
 * torch), not another package's __version__. */
int
tg_audit_py_torch_version_attr(const struct state *st, size_t k, size_t e)
{
	size_t tn = 0;
	const char *tg;

	if (e != k + 2 || !tok_is(st, e, "__version__"))
		return 0;
	tg = tg_audit_py_resolve_head(st, st->s + st->t[k].off, st->t[k].len,
				      &tn, NULL);
	return tg && tn == 5 && memcmp(tg, "torch", 5) == 0;
}

/* Whether token i starts a guard test; its text into text. */
static int
guard_signal(const struct state *st, size_t i, char *text, size_t cap)
{
	const struct tg_pylex_tok *t = &st->t[i];
	const char *s = st->s + t->off;
	size_t tn;

	if (t->kind != TG_PYLEX_NAME)
		return 0;
	if ((tok_is(st, i, "hasattr") || tok_is(st, i, "getattr") ||
	     tok_is(st, i, "dir")) &&
	    tok_op(st, i + 1, "(") && tok_name(st, i + 2) &&
	    tg_audit_py_resolve_head(st, st->s + st->t[i + 2].off,
				     st->t[i + 2].len, &tn, NULL)) {
		size_t e = tg_audit_py_chain_end(st, i + 2);

		snprintf(text, cap, "%.*s(%.*s%s)", (int)t->len, s,
			 (int)(st->t[e].off + st->t[e].len - st->t[i + 2].off),
			 st->s + st->t[i + 2].off,
			 tok_is(st, i, "dir") ? "" : ", ...");
		return 1;
	}
	/* torch.__version__, through any alias; not another package's */
	if (tok_is(st, i, "__version__") && i >= 2 && tok_op(st, i - 1, ".") &&
	    (i == 2 || !tok_op(st, i - 3, ".")) &&
	    tg_audit_py_torch_version_attr(st, i - 2, i)) {
		snprintf(text, cap, "torch version");
		return 1;
	}
	if (tok_is(st, i, "TYPE_CHECKING")) {
		snprintf(text, cap, "TYPE_CHECKING");
		return 1;
	}
	if (tg_audit_py_version_name(s, t->len)) {
		snprintf(text, cap, "torch version (%.*s)", (int)t->len, s);
		return 1;
	}
	if (t->len > 4 && memcmp(s, "HAS_", 4) == 0) {
		snprintf(text, cap, "%.*s", (int)t->len, s);
		return 1;
	}
	return 0;
}

/* Whether tokens [a, b) hold a guard test; its text. */
static int
guard_test(const struct state *st, size_t a, size_t b, char *text, size_t cap)
{
	size_t i;

	for (i = a; i < b; i++)
		if (guard_signal(st, i, text, cap))
			return 1;
	return 0;
}

/* The guards inside one line: "G and X" and "X if G else Y". */
void
tg_audit_py_line_intervals(struct state *st, size_t a, size_t b)
{
	size_t i, j;
	char text[80];

	st->niv = 0;
	for (i = a; i < b && st->niv < INTERVALS_MAX; i++) {
		size_t d, gs, ge;
		/* only a keyword starts one: to the next (most lines hold
		 * neither "and" nor "if") */
		const unsigned char *kw = memchr(st->tc + i, TC_KEYWORD, b - i);

		if (!kw)
			break;
		i = (size_t)(kw - st->tc);
		d = st->t[i].depth;
		if (tok_kw(st, i, "and")) {
			/* a guard earlier in the same group */
			for (j = i; j-- > a;) {
				if (st->t[j].depth < d)
					break;
				if (st->t[j].depth == d &&
				    (tok_kw(st, j, "or") || tok_op(st, j, ",")))
					break;
				if (guard_signal(st, j, text, sizeof(text)))
					break;
			}
			if (j == SIZE_MAX || j < a ||
			    !guard_signal(st, j, text, sizeof(text)))
				continue;
			for (ge = i + 1;
			     ge < b && st->t[ge].depth >= d &&
			     !(st->t[ge].depth == d &&
			       (tok_kw(st, ge, "or") || tok_op(st, ge, ",")));
			     ge++)
				;
			st->iv[st->niv].a = i + 1;
			st->iv[st->niv].b = ge;
			snprintf(st->iv[st->niv].text, sizeof(st->iv[0].text),
				 "%s and ...", text);
			st->niv++;
		} else if (tok_kw(st, i, "if") && i > a) {
			for (ge = i + 1;
			     ge < b && st->t[ge].depth >= d &&
			     !(st->t[ge].depth == d && tok_kw(st, ge, "else"));
			     ge++)
				;
			if (!guard_test(st, i + 1, ge, text, sizeof(text)))
				continue;
			for (gs = i; gs > a && st->t[gs - 1].depth >= d; gs--)
				;
			for (; ge < b && st->t[ge].depth >= d; ge++)
				if (st->t[ge].depth == d && tok_op(st, ge, ","))
					break;
			st->iv[st->niv].a = gs;
			st->iv[st->niv].b = ge;
			snprintf(st->iv[st->niv].text, sizeof(st->iv[0].text),
				 "if %s (conditional "
				 "expression)",
				 text);
			st->niv++;
		}
	}
}

static void
join_spec(char *dst, size_t cap, const char *a, const char *b)
{
	if (!a[0])
		snprintf(dst, cap, "%s", b);
	else if (!b[0])
		snprintf(dst, cap, "%s", a);
	else
		snprintf(dst, cap, "%s,%s", a, b);
}

/* The current clause of block b ended at the last line: its branch. */
static void
close_clause(struct state *st, struct block *b)
{
	if (b->kind == B_IF && b->vb && b->req[0] && !st->rc) {
		st->rc = tg_audit_result_add_branch(
		    st->r, b->cl_line,
		    st->last_line > b->cl_line ? st->last_line : b->cl_line,
		    b->cond, b->req);
		/* a gate: at the module's level, raising */
		if (!st->rc && b == &st->blocks[0] && b->raises)
			st->r->branches[st->r->nbranches - 1].gate = 1;
	}
	b->vb = 0;
	b->raises = 0;
}

/* What leaves a block: return, raise, continue, break,
 * pytest.skip(...), self.skipTest(...). */
static const char *const leavers[] = {"return", "raise",       "continue",
				      "break",	"pytest.skip", "self.skipTest"};

void
tg_audit_py_pop_block(struct state *st)
{
	struct block *b = &st->blocks[st->nblocks - 1];
	size_t k;

	close_clause(st, b);
	/* "if not FLAG: return": the rest of the enclosing clause (or the
	 * module) runs only with the flag */
	if (b->kind == B_IF && !b->clause && b->not_flag && b->last_exits) {
		const struct flag *f = &st->flags[b->not_flag - 1];
		struct block *p =
		    st->nblocks > 1 ? &st->blocks[st->nblocks - 2] : NULL;
		size_t *ex = p ? &p->exit_flag : &st->top_exit;
		size_t *el = p ? &p->eline : &st->top_eline;
		char *et = p ? p->etext : st->top_etext;

		if (!*ex) {
			*ex = b->not_flag;
			*el = b->line;
			snprintf(et, sizeof(p->etext), "if not %.*s: %s",
				 (int)f->nlen, f->name,
				 leavers[b->last_exits - 1]);
		}
	}
	/* a def's body ends: the names its parameters hid are torch's
	 * again */
	for (k = b->nshadows; k-- > 0;) {
		struct shadow *h = &b->shadows[k];

		tg_audit_py_bind_put(st, h->name, h->nlen, h->target,
				     strlen(h->target), h->site, &h->fb);
		free(h->target);
	}
	st->nblocks--;
}

/* The colon ending a compound header at [a, b): its index, or b. */
size_t
tg_audit_py_header_colon(const struct state *st, size_t a, size_t b)
{
	size_t i, d = st->t[a].depth, e = b < st->n ? b : st->n;
	const unsigned char *c;

	/* from one ':' to the next (tok_op: a ':' token's code is ':') */
	for (i = a; i < e && (c = memchr(st->tc + i, ':', e - i)); i++) {
		i = (size_t)(c - st->tc);
		if (st->t[i].depth == d)
			return i;
	}
	return b;
}

/* Whether a use guarded by g is guarded less than by try block b. */
static int
less_than_try(enum tg_audit_guard g, const struct block *b)
{
	if (g >= b->guard && g != TG_AUDIT_SOFT)
		return 0;
	return !(g == TG_AUDIT_GUARDED ||
		 (g == TG_AUDIT_SOFT && b->guard == TG_AUDIT_SOFT));
}

/* Patch the findings of the try block b that are guarded less than it
 * now is. A finding a flag guards keeps the flag's guard, but what
 * guarded it before (put back should the flag turn out bad,
 * tg_audit_py_flags_check) is patched as the finding would have been:
 * without the flag, the try guards it. */
static void
patch_try(struct state *st, const struct block *b)
{
	size_t k;

	for (k = b->first; k < st->r->nfindings && !st->rc; k++) {
		struct tg_audit_finding *f = &st->r->findings[k];
		char *c;

		if (!less_than_try(f->guard, b))
			continue;
		c = strdup(b->gtext);
		if (!c) {
			st->rc = TG_ENOMEM;
			return;
		}
		free(f->guard_text);
		f->guard_text = c;
		f->guard = b->guard;
		f->guard_line = b->gline;
	}
	for (k = st->nfuses; k-- > 0 && st->fuses[k].finding >= b->first;) {
		struct flag_use *u = &st->fuses[k];

		if (!less_than_try(u->guard, b))
			continue;
		u->guard = b->guard;
		u->line = b->gline;
		u->has_text = 1;
		snprintf(u->text, sizeof(u->text), "%s", b->gtext);
	}
}

/* "except ...:" of try block b, tokens [a, c). */
static void
except_clause(struct state *st, struct block *b, size_t a, size_t c)
{
	static const char *const hard[] = {"ImportError", "ModuleNotFoundError",
					   "AttributeError"};
	enum tg_audit_guard g = TG_AUDIT_SOFT;
	char text[96];
	size_t i, k;

	snprintf(text, sizeof(text), "try/bare except");
	b->catches_import = 0;
	for (i = a + 1; i < c; i++) {
		if (tok_kw(st, i, "as"))
			break;
		for (k = 0; k < 3; k++)
			if (tok_is(st, i, hard[k])) {
				g = TG_AUDIT_GUARDED;
				b->catches_import |= k < 2;
				snprintf(text, sizeof(text), "try/except %s",
					 hard[k]);
			}
		if (g == TG_AUDIT_SOFT && tok_name(st, i)) {
			if (tok_is(st, i, "Exception") ||
			    tok_is(st, i, "BaseException"))
				snprintf(text, sizeof(text), "try/except %.*s",
					 (int)st->t[i].len,
					 st->s + st->t[i].off);
			else if (strcmp(text, "try/bare except") == 0)
				g = TG_AUDIT_UNGUARDED;
		}
	}
	if (g == TG_AUDIT_UNGUARDED)
		return;
	if (g > b->guard || b->guard == TG_AUDIT_UNGUARDED ||
	    (g == TG_AUDIT_GUARDED && b->guard == TG_AUDIT_SOFT)) {
		if (b->guard == TG_AUDIT_GUARDED && g == TG_AUDIT_SOFT)
			return;
		b->guard = g;
		snprintf(b->gtext, sizeof(b->gtext), "%s", text);
		patch_try(st, b);
	}
}

/* push_block zeroes a block around its shadows: nshadows comes next */
_Static_assert(offsetof(struct block, nshadows) ==
		   offsetof(struct block, shadows) +
		       SHADOWS_MAX * sizeof(struct shadow),
	       "struct block: nshadows right after shadows");

static struct block *
push_block(struct state *st, int kind, size_t indent, size_t line)
{
	struct block *b;

	if (st->nblocks >= BLOCKS_MAX)
		return NULL;
	b = &st->blocks[st->nblocks++];
	/* all zero but the shadows past nshadows (none), which nothing
	 * reads: more than half of the block's bytes */
	memset(b, 0, offsetof(struct block, shadows));
	memset(&b->nshadows, 0, sizeof(*b) - offsetof(struct block, nshadows));
	b->kind = kind;
	b->indent = indent;
	b->line = line;
	b->gline = line;
	b->first = st->r->nfindings;
	if (kind != B_OTHER)
		b->serial = ++st->nserial;
	return b;
}

/* if/elif test [a, c) of block b: guard and version branch. */
/* Whether tokens [a, b) can be a test of the torch version at all: a
 * name with "torch" as a word (version_name, is_torch_min_version) or
 * __version__, which every comparison read_test reads and every test
 * read_test_grid finds version-dependent has (most tests have none). */
static int
version_signal(const struct state *st, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (st->t[i].kind == TG_PYLEX_NAME &&
		    (tg_audit_py_torch_word(st->s + st->t[i].off,
					    st->t[i].len) ||
		     tok_is(st, i, "__version__")))
			return 1;
	return 0;
}

static void flag_test(struct state *st, struct block *b, size_t a, size_t c,
		      int elif);

static void
if_test(struct state *st, struct block *b, size_t a, size_t c, int elif)
{
	char text[80], pos[160], neg[160];

	flag_test(st, b, a, c, elif);
	if (b->guard == TG_AUDIT_UNGUARDED &&
	    guard_test(st, a, c, text, sizeof(text))) {
		b->guard = TG_AUDIT_GUARDED;
		snprintf(b->gtext, sizeof(b->gtext), "%s %s",
			 elif ? "elif" : "if", text);
		b->gline = st->t[a].line;
	}
	b->cl_line = st->t[a].line;
	copy_text(b->cond, sizeof(b->cond), st->s + st->t[a].off,
		  c > a ? st->t[c - 1].off + st->t[c - 1].len - st->t[a].off
			: 0);
	if (a < c && version_signal(st, a, c) &&
	    (tg_audit_py_read_test(st, a, c, pos, neg, sizeof(pos)) ||
	     tg_audit_py_read_test_grid(st, a, c, pos, neg, sizeof(pos)))) {
		join_spec(b->req, sizeof(b->req), b->neg, pos);
		if (neg[0]) {
			char nn[160];

			join_spec(nn, sizeof(nn), b->neg, neg);
			memcpy(b->neg, nn, sizeof(nn));
		}
		b->vb = 1;
	} else {
		memcpy(b->req, b->neg, sizeof(b->req));
		b->vb = b->req[0] != 0;
	}
}

/* Move the block stack to the logical line [0, n). Returns where the
 * code of the line starts (after a header's colon for a one-line
 * suite, else 0); *header tells it was a compound header. */
size_t
tg_audit_py_blocks_line(struct state *st, int *header)
{
	size_t indent = st->t[0].col, c, a = 0;
	struct block *top;
	int clause = 0;

	*header = 0;
	if (tok_kw(st, 0, "async"))
		a = 1;
	while (st->nblocks) {
		top = &st->blocks[st->nblocks - 1];
		if (top->indent < indent)
			break;
		if (top->indent == indent &&
		    ((top->kind == B_TRY &&
		      (tok_kw(st, 0, "except") || tok_kw(st, 0, "else") ||
		       tok_kw(st, 0, "finally"))) ||
		     (top->kind == B_IF &&
		      (tok_kw(st, 0, "elif") || tok_kw(st, 0, "else"))) ||
		     (top->kind == B_OTHER && tok_kw(st, 0, "else")))) {
			clause = 1;
			break;
		}
		tg_audit_py_pop_block(st);
	}
	if (!clause && !(tok_kw(st, 0, "if") || tok_kw(st, 0, "try") ||
			 tok_kw(st, a, "def") || tok_kw(st, 0, "class") ||
			 tok_kw(st, a, "with") || tok_kw(st, a, "for") ||
			 tok_kw(st, 0, "while")))
		return 0; /* no compound statement's header */
	c = tg_audit_py_header_colon(st, 0, st->n);
	if (clause) {
		top = &st->blocks[st->nblocks - 1];
		*header = 1;
		close_clause(st, top);
		/* the clauses after "if not FLAG:" run only with the flag */
		top->exit_flag = 0;
		top->flag = top->kind == B_IF ? top->not_flag : 0;
		if (top->flag)
			snprintf(top->ftext, sizeof(top->ftext),
				 "else of if not %.*s",
				 (int)st->flags[top->flag - 1].nlen,
				 st->flags[top->flag - 1].name);
		top->fline = top->line;
		if (top->kind == B_TRY) {
			if (tok_kw(st, 0, "except")) {
				top->clause = 1;
				except_clause(st, top, 0, c);
			} else if (tok_kw(st, 0, "else")) {
				top->clause = 2;
			} else {
				top->clause = 3;
			}
		} else if (top->kind == B_IF) {
			top->clause++;
			if (tok_kw(st, 0, "elif")) {
				if_test(st, top, 1, c, 1);
			} else {
				top->cl_line = st->t[0].line;
				snprintf(top->cond, sizeof(top->cond), "else");
				memcpy(top->req, top->neg, sizeof(top->req));
				top->vb = top->req[0] != 0;
			}
		}
	} else if (tok_kw(st, 0, "if")) {
		*header = 1;
		top = push_block(st, B_IF, indent, st->t[0].line);
		if (top)
			if_test(st, top, 1, c, 0);
	} else if (tok_kw(st, 0, "try")) {
		*header = 1;
		push_block(st, B_TRY, indent, st->t[0].line);
	} else if (tok_kw(st, a, "def") || tok_kw(st, 0, "class") ||
		   tok_kw(st, a, "with") || tok_kw(st, a, "for") ||
		   tok_kw(st, 0, "while")) {
		*header = 1;
		push_block(st, B_OTHER, indent, st->t[0].line);
	} else {
		return 0;
	}
	if (tok_kw(st, a, "def") || tok_kw(st, 0, "class"))
		return 0; /* its line holds names that are not code uses */
	return c + 1 < st->n ? c + 1 : 0;
}

/* Flag guards. A flag is a name that a handler catching ImportError
 * (or ModuleNotFoundError) of a try at the module's level sets False:
 *
 *     try:
 *         from torch.distributed.tensor import DTensor
 *         HAVE_DTENSOR = True
 *     except ImportError:
 *         HAVE_DTENSOR = False
 *
 * Where it is true, no handler that clears it ran, so the names the
 * bodies of those tries bound are bound: their uses under "if FLAG:",
 * "if FLAG and ...:", the other clauses of "if not FLAG:", after "if not
 * FLAG: return" (raise, continue, break, pytest.skip, self.skipTest) in
 * the same block, and in a def a skip decorator skips without the flag
 * (skipIf(not FLAG, ...), skipif(not FLAG, ...), skipUnless(FLAG, ...)),
 * on the def or on its class (not the class body's own statements,
 * which run at import, skipped or not), are guarded. Only those names: the flag says
 * nothing of other uses. The flag is known from its handler on (a use
 * above it is not guarded), and tg_audit_py_flags_check withdraws every
 * guard of a flag that is bound anywhere else in the file but as "FLAG
 * = False" or, at the module's level, "FLAG = True" before its first try
 * or inside a try's body (a def's parameter, a local, a later "FLAG =
 * True", an import, a for target...): such a flag may be true without
 * the import. One flag per block's clause and one early exit; at most
 * FLAGS_MAX flags of FLAG_TRIES tries each. */

/* Token i as a flag that is not known bad: its index + 1, or 0. */
static size_t
flag_at(const struct state *st, size_t i)
{
	size_t k;

	if (!tok_name(st, i))
		return 0;
	for (k = 0; k < st->nflags; k++)
		if (!st->flags[k].bad &&
		    tok_isn(st, i, st->flags[k].name, st->flags[k].nlen))
			return k + 1;
	return 0;
}

static int
at_module_level(const struct state *st)
{
	size_t k;

	for (k = 0; k < st->nblocks; k++)
		if (st->blocks[k].kind == B_OTHER)
			return 0;
	return 1;
}

/* Whether tokens [a, c) hold, at the depth of a, a word that could
 * make "FLAG and X" true without the flag (or, a conditional
 * expression, a lambda). */
static int
test_has_or(const struct state *st, size_t a, size_t c)
{
	size_t i, d = st->t[a].depth;

	for (i = a; i < c; i++)
		if (st->t[i].depth == d &&
		    (tok_kw(st, i, "or") || tok_kw(st, i, "if") ||
		     tok_kw(st, i, "else") || tok_kw(st, i, "lambda")))
			return 1;
	return 0;
}

/* The test [a, c) of block b's if (elif: its elif): a flag guard. */
static void
flag_test(struct state *st, struct block *b, size_t a, size_t c, int elif)
{
	size_t fk;

	if (!elif) {
		b->not_flag = 0;
		b->flag = 0;
	}
	if (c == a + 2 && tok_kw(st, a, "not") && (fk = flag_at(st, a + 1))) {
		if (!elif) {
			b->not_flag = fk;
			b->body_indent = 0;
			b->last_exits = 0;
		}
	} else if ((fk = flag_at(st, a)) &&
		   (c == a + 1 ||
		    (tok_kw(st, a + 1, "and") && !test_has_or(st, a, c)))) {
		b->flag = fk;
		b->fline = st->t[a].line;
		snprintf(b->ftext, sizeof(b->ftext), "%s %.*s%s",
			 elif ? "elif" : "if", (int)st->flags[fk - 1].nlen,
			 st->flags[fk - 1].name, c == a + 1 ? "" : " and ...");
	}
}

/* Whether the statement at token i leaves the block: its leavers[]
 * index + 1, else 0. */
static int
leaves(const struct state *st, size_t i)
{
	int k;

	for (k = 0; k < 4; k++)
		if (tok_kw(st, i, leavers[k]))
			return k + 1;
	if (tok_op(st, i + 1, ".") && tok_op(st, i + 3, "(")) {
		if (tok_is(st, i, "pytest") && tok_is(st, i + 2, "skip"))
			return 5;
		if (tok_is(st, i, "self") && tok_is(st, i + 2, "skipTest"))
			return 6;
	}
	return 0;
}

/* A decorator line "@...skipIf(not FLAG, ...)", "@...skipif(not FLAG,
 * ...)" or "@...skipUnless(FLAG, ...)": its flag + 1, else 0. */
static size_t
skip_decorator(struct state *st)
{
	size_t i = tg_audit_py_chain_end(st, 1), fk;
	const struct tg_pylex_tok *t = &st->t[i];
	int unless;

	if (!tok_name(st, 1) || !tok_op(st, i + 1, "("))
		return 0;
	unless = tok_is(st, i, "skipUnless");
	if (!unless && !tok_is(st, i, "skipIf") && !tok_is(st, i, "skipif"))
		return 0;
	i += 2;
	if (!unless) {
		if (!tok_kw(st, i, "not"))
			return 0;
		i++;
	}
	if (!(fk = flag_at(st, i)) ||
	    !(tok_op(st, i + 1, ",") || tok_op(st, i + 1, ")")))
		return 0;
	snprintf(st->deco_text, sizeof(st->deco_text), "%.*s(%s%.*s)",
		 (int)t->len, st->s + t->off, unless ? "" : "not ",
		 (int)st->flags[fk - 1].nlen, st->flags[fk - 1].name);
	st->deco_line = st->t[0].line;
	return fk;
}

/* "FLAG = False" in a handler that catches ImportError (or
 * ModuleNotFoundError) of a try at the module's level: the flag, and the
 * try its bodies' names are bound in. A handler of other exceptions
 * (except Exception: FLAG = False after except ImportError: pass) does
 * not say the import failed. */
static void
flag_register(struct state *st)
{
	struct block *b = st->nblocks ? &st->blocks[st->nblocks - 1] : NULL;
	const char *s = st->s + st->t[0].off;
	size_t n = st->t[0].len, k;
	struct flag *f = NULL;

	if (!b || b->kind != B_TRY || b->clause != 1 || !b->catches_import ||
	    !at_module_level(st))
		return;
	for (k = 0; k < st->nflags; k++)
		if (st->flags[k].nlen == n &&
		    memcmp(st->flags[k].name, s, n) == 0)
			f = &st->flags[k];
	if (!f) {
		if (st->nflags == FLAGS_MAX)
			return;
		f = &st->flags[st->nflags++];
		memset(f, 0, sizeof(*f));
		f->name = s;
		f->nlen = n;
	}
	if (f->ntries && f->tries[f->ntries - 1].serial == b->serial)
		return;
	if (f->ntries == FLAG_TRIES) {
		f->bad = 1;
		return;
	}
	f->tries[f->ntries].serial = b->serial;
	f->tries[f->ntries].line = b->line;
	f->tries[f->ntries].handler = st->t[0].line;
	f->ntries++;
}

/* After the block stack moved to a logical line (not the part of a
 * longer one): what it says of flags. */
void
tg_audit_py_flag_line(struct state *st)
{
	struct block *top = st->nblocks ? &st->blocks[st->nblocks - 1] : NULL;
	size_t a = tok_kw(st, 0, "async") ? 1 : 0;

	if (st->n == 3 && tok_name(st, 0) && tok_op(st, 1, "=") &&
	    tok_is(st, 2, "False"))
		flag_register(st);
	if (tok_op(st, 0, "@")) {
		if (!st->deco_flag)
			st->deco_flag = skip_decorator(st);
		return;
	}
	if (top && top->line == st->t[0].line && top->kind == B_OTHER &&
	    tok_kw(st, a, "def"))
		top->is_def = 1;
	if (top && top->line == st->t[0].line && top->kind == B_OTHER &&
	    (tok_kw(st, a, "def") || tok_kw(st, 0, "class")) && st->deco_flag) {
		top->flag = st->deco_flag;
		top->flag_class = !top->is_def;
		top->fline = st->deco_line;
		memcpy(top->ftext, st->deco_text, sizeof(top->ftext));
	}
	st->deco_flag = 0;
	/* a raise directly in an if's clause (a gate where the clause is
	 * a version branch at the module's level): on a line of its own
	 * (the innermost block is the if's), or after the header's colon */
	if (top && top->kind == B_IF) {
		if (top->cl_line == st->t[0].line ||
		    top->line == st->t[0].line) {
			size_t c = tg_audit_py_header_colon(st, 0, st->n);

			if (c + 1 < st->n && tok_kw(st, c + 1, "raise"))
				top->raises = 1;
		} else if (tok_kw(st, 0, "raise")) {
			top->raises = 1;
		}
	}
	/* the body of "if not FLAG:": whether its last statement leaves */
	if (!top || top->kind != B_IF || top->clause || !top->not_flag)
		return;
	if (top->line == st->t[0].line) {
		size_t c = tg_audit_py_header_colon(st, 0, st->n);

		if (c + 1 < st->n) {
			top->last_exits = leaves(st, c + 1);
			top->body_indent = SIZE_MAX;
		}
		return;
	}
	if (!top->body_indent)
		top->body_indent = st->t[0].col;
	if (st->t[0].col == top->body_indent)
		top->last_exits = leaves(st, 0);
}

/* Whether flag fk guards the uses of binding via: made in the body of
 * one of the flag's tries. */
static int
covers(const struct state *st, size_t fk, const struct binding *via)
{
	const struct flag *f = &st->flags[fk - 1];
	size_t k;

	if (f->bad)
		return 0;
	for (k = 0; k < f->ntries; k++)
		if (f->tries[k].serial == via->site.block)
			return 1;
	return 0;
}

/* Whether a flag guards a use of binding via here: its text, line and
 * the flag's index. */
int
tg_audit_py_flag_guard(struct state *st, const struct binding *via,
		       const char **text, size_t *line, size_t *fk)
{
	size_t k;
	int in_def = 0; /* a def inside block k */

	if (!via || !via->target || via->site.clause != 0 || !via->site.block)
		return 0;
	for (k = st->nblocks; k-- > 0; in_def |= st->blocks[k].is_def) {
		const struct block *b = &st->blocks[k];

		if (b->flag && (!b->flag_class || in_def) &&
		    covers(st, b->flag, via)) {
			*text = b->ftext;
			*line = b->fline;
			*fk = b->flag - 1;
			return 1;
		}
		if (b->exit_flag && covers(st, b->exit_flag, via)) {
			*text = b->etext;
			*line = b->eline;
			*fk = b->exit_flag - 1;
			return 1;
		}
	}
	if (st->top_exit && covers(st, st->top_exit, via)) {
		*text = st->top_etext;
		*line = st->top_eline;
		*fk = st->top_exit - 1;
		return 1;
	}
	return 0;
}

/* Whether "FLAG = True" at line may stay with flag f: before its first
 * try or inside the body of one (a handler sets it False after). */
static int
true_allowed(const struct flag *f, size_t line)
{
	size_t k;

	if (line < f->tries[0].line)
		return 1;
	for (k = 0; k < f->ntries; k++)
		if (line >= f->tries[k].line && line < f->tries[k].handler)
			return 1;
	return 0;
}

#define OCC_MAX 16

/* The end of a statement read by flags_check: its bindings of flags
 * that are not the allowed ones make those flags bad. */
struct fstmt {
	size_t ntok, eqs, line, nocc;
	int def, import, seen_import, eq1, bool2, is_true;
	struct {
		size_t flag, eqs, at;
		/* tent: a target only if no '.', '(' or '[' follows */
		int bind, top, tent;
	} occ[OCC_MAX];
};

static void
fstmt_end(struct state *st, struct fstmt *m, size_t nscope)
{
	size_t k;

	for (k = 0; k < m->nocc; k++) {
		struct flag *f = &st->flags[m->occ[k].flag];
		int bind =
		    m->occ[k].bind || (m->occ[k].top && m->occ[k].eqs < m->eqs);

		if (!bind)
			continue;
		if (m->ntok == 3 && m->occ[k].at == 0 && m->eq1 && m->bool2 &&
		    (!m->is_true || (nscope == 0 && true_allowed(f, m->line))))
			continue;
		f->bad = 1;
	}
	memset(m, 0, sizeof(*m));
}

static int
aug_assign(const char *s, size_t n)
{
	return n >= 2 && s[n - 1] == '=' &&
	       !(n == 2 &&
		 (s[0] == '=' || s[0] == '!' || s[0] == '<' || s[0] == '>'));
}

/* Whether token t (text s) opens a bracket. */
static int
opener(const struct tg_pylex_tok *t, const char *s)
{
	return t->kind == TG_PYLEX_OP && t->len == 1 &&
	       (*s == '(' || *s == '[' || *s == '{');
}

/* Whether a bracket after token p (kind pk, text ps[0..pn); NULL: the
 * statement's start) is a display (a tuple, a list: what an assignment
 * may unpack into), not a call's or a subscript's. */
static int
display_after(const char *ps, size_t pn, enum tg_pylex_kind pk)
{
	static const char *const kws[] = {
	    "and", "or",     "not",   "in",    "is",	 "if",	   "else",
	    "for", "return", "yield", "await", "lambda", "assert", "del"};
	size_t k;

	if (!ps)
		return 1;
	if (pk == TG_PYLEX_STRING || pk == TG_PYLEX_NUMBER)
		return 0;
	if (pk == TG_PYLEX_OP)
		return !(pn == 1 && (*ps == ')' || *ps == ']' || *ps == '}'));
	for (k = 0; k < sizeof(kws) / sizeof(*kws); k++)
		if (pn == strlen(kws[k]) && memcmp(ps, kws[k], pn) == 0)
			return 1;
	return 0;
}

#define DISP_MAX 64

/* After the file: every flag that guarded a finding is checked against
 * every binding of its name in the file (a second, light pass over the
 * tokens); the guards of a bad one are withdrawn. A binding: an
 * assignment's target, also inside the brackets of a tuple or list
 * target ("(FLAG) = True", "a, [FLAG] = x"), a name after "as" (also in
 * "with x as (a, FLAG)"), a for statement's targets ("for a, FLAG in
 * ..."), a def's parameter, an import, ":=", an augmented assignment. */
void
tg_audit_py_flags_check(struct state *st)
{
	struct tg_pylex lx;
	struct tg_pylex_tok t;
	struct fstmt m;
	size_t scope[BLOCKS_MAX], nscope = 0, k, pending = SIZE_MAX;
	size_t indent = 0;
	int bol = 1, def_open = 0;
	const char *ps = NULL; /* the previous token's text */
	size_t pn = 0;
	enum tg_pylex_kind pk = TG_PYLEX_END;
	/* per bracket depth: every bracket open there is a display */
	unsigned char disp[DISP_MAX];
	/* the targets of a for statement (until its "in" at for_d) and
	 * of "as (...)" (while deeper than as_d): SIZE_MAX when not */
	size_t for_d = SIZE_MAX, as_d = SIZE_MAX;

	if (!st->nfuses || st->rc)
		return;
	memset(&m, 0, sizeof(m));
	memset(disp, 0, sizeof(disp));
	disp[0] = 1;
	tg_pylex_init(&lx, st->s, st->len);
	while (tg_pylex_next(&lx, &t)) {
		const char *s = st->s + t.off;

		if (t.kind == TG_PYLEX_NL || t.kind == TG_PYLEX_COMMENT)
			continue;
		if (t.kind == TG_PYLEX_NEWLINE || t.kind == TG_PYLEX_END ||
		    (t.kind == TG_PYLEX_OP && t.len == 1 && *s == ';' &&
		     !t.depth)) {
			fstmt_end(st, &m, nscope);
			if (def_open && nscope < BLOCKS_MAX)
				scope[nscope++] = indent;
			def_open = 0;
			pending = SIZE_MAX;
			for_d = as_d = SIZE_MAX;
			ps = NULL;
			if (t.kind != TG_PYLEX_OP)
				bol = 1;
			if (t.kind == TG_PYLEX_END)
				break;
			continue;
		}
		if (bol) {
			indent = t.col;
			while (nscope && scope[nscope - 1] >= indent)
				nscope--;
			bol = 0;
		}
		if (pending != SIZE_MAX) {
			if (t.kind == TG_PYLEX_OP &&
			    ((t.len == 2 && memcmp(s, ":=", 2) == 0) ||
			     aug_assign(s, t.len)))
				m.occ[pending].bind = 1;
			/* FLAG.x, FLAG(...), FLAG[...]: not the name bound */
			if (m.occ[pending].tent && t.kind == TG_PYLEX_OP &&
			    t.len == 1 && (*s == '.' || *s == '(' || *s == '['))
				m.occ[pending].bind = m.occ[pending].top = 0;
			pending = SIZE_MAX;
		}
		if (opener(&t, s) && t.depth + 1 < DISP_MAX)
			disp[t.depth + 1] =
			    disp[t.depth] && display_after(ps, pn, pk);
		if (as_d == SIZE_MAX && opener(&t, s) && pn == 2 && ps &&
		    memcmp(ps, "as", 2) == 0)
			as_d = t.depth;
		else if (as_d != SIZE_MAX && t.depth <= as_d)
			as_d = SIZE_MAX;
		if (for_d != SIZE_MAX && t.depth == for_d &&
		    t.kind == TG_PYLEX_NAME && t.len == 2 &&
		    memcmp(s, "in", 2) == 0)
			for_d = SIZE_MAX;
		if (t.kind == TG_PYLEX_NAME && t.len == 3 &&
		    memcmp(s, "for", 3) == 0 &&
		    (m.ntok == 0 ||
		     (m.ntok == 1 && pn == 5 && memcmp(ps, "async", 5) == 0)))
			for_d = t.depth;
		if (m.ntok == 0) {
			m.line = t.line;
			m.def = (t.len == 3 && memcmp(s, "def", 3) == 0) ||
				(t.len == 5 && memcmp(s, "class", 5) == 0) ||
				(t.len == 5 && memcmp(s, "async", 5) == 0);
			m.import =
			    (t.len == 6 && memcmp(s, "import", 6) == 0) ||
			    (t.len == 4 && memcmp(s, "from", 4) == 0);
			if (m.def)
				def_open = 1;
		}
		if (m.ntok == 1)
			m.eq1 =
			    t.kind == TG_PYLEX_OP && t.len == 1 && *s == '=';
		if (m.ntok == 2) {
			m.is_true = t.len == 4 && memcmp(s, "True", 4) == 0;
			m.bool2 = m.is_true ||
				  (t.len == 5 && memcmp(s, "False", 5) == 0);
		}
		if (t.kind == TG_PYLEX_OP && t.len == 1 && *s == '=' &&
		    !t.depth)
			m.eqs++;
		if (t.kind == TG_PYLEX_NAME && t.len == 6 &&
		    memcmp(s, "import", 6) == 0)
			m.seen_import = 1;
		for (k = 0; t.kind == TG_PYLEX_NAME && k < st->nflags; k++) {
			static const char *const binders[] = {
			    "as", "for", "def", "class", "lambda", "import"};
			size_t j, o;

			if (st->flags[k].nlen != t.len ||
			    memcmp(st->flags[k].name, s, t.len) != 0)
				continue;
			if (m.nocc == OCC_MAX) {
				st->flags[k].bad = 1;
				break;
			}
			o = m.nocc++;
			m.occ[o].flag = k;
			m.occ[o].eqs = m.eqs;
			m.occ[o].at = m.ntok;
			m.occ[o].top = !t.depth;
			m.occ[o].bind =
			    (m.import && m.seen_import) || (m.def && t.depth);
			m.occ[o].tent = 0;
			/* an element of a tuple or list target: "(FLAG) =",
			 * "a, [b, FLAG] =" */
			if (t.depth && t.depth < DISP_MAX && disp[t.depth] &&
			    ps && pk == TG_PYLEX_OP && pn == 1 && *ps &&
			    strchr("([{,*", *ps)) {
				m.occ[o].top = 1;
				m.occ[o].tent = 1;
			}
			/* a target of "for ... in" or "as (...)" */
			if ((for_d != SIZE_MAX || as_d != SIZE_MAX) &&
			    !(ps && pn == 1 && *ps == '.')) {
				m.occ[o].bind = 1;
				m.occ[o].tent = 1;
			}
			for (j = 0;
			     ps && j < sizeof(binders) / sizeof(*binders); j++)
				if (pn == strlen(binders[j]) &&
				    memcmp(ps, binders[j], pn) == 0)
					m.occ[o].bind = 1;
			pending = o;
			break;
		}
		ps = s;
		pn = t.len;
		pk = t.kind;
		m.ntok++;
	}
	for (k = 0; k < st->nfuses && !st->rc; k++) {
		const struct flag_use *u = &st->fuses[k];
		struct tg_audit_finding *f = &st->r->findings[u->finding];
		char *c = NULL;

		if (!st->flags[u->flag].bad)
			continue;
		if (u->has_text && !(c = strdup(u->text))) {
			st->rc = TG_ENOMEM;
			return;
		}
		free(f->guard_text);
		f->guard_text = c;
		f->guard = u->guard;
		f->guard_line = u->line;
	}
}
