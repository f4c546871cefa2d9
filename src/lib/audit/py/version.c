/* version.c - the Python analyzer's torch version tests
 * SPDX-License-Identifier: MIT
 *
 * A test is read exactly when it is one comparison of a torch version
 * (torch.__version__ through any alias, a parsed version, a
 * TORCH_VERSION-like name, tuples) or an "and" of them (read_test);
 * tuple compares are read as if the name held a tuple as long as the
 * literal: TORCH_VERSION > (2, 4) is >=2.5. Failing that, a test the grid
 * decides (read_test_grid: "or", "not", TORCH_MAJOR and TORCH_MINOR
 * apart, is_torch_min_version(...) calls): each comparison is evaluated
 * at every point major.minor of the grid (audit.h), and the points where
 * the whole test holds must be one interval.
 *
 * Worst case: a test is evaluated at TG_AUDIT_GRID points, its depth
 * bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/py/internal.h"

/* Whether name token e (the end of a chain) is a function that parses
 * a version: parse (packaging.version), Version, parse_version
 * (pkg_resources), LooseVersion, digit_version (mmcv/mmengine). */
static int
parse_func(const struct state *st, size_t e)
{
	return tok_is(st, e, "parse") || tok_is(st, e, "Version") ||
	       tok_is(st, e, "parse_version") ||
	       tok_is(st, e, "LooseVersion") || tok_is(st, e, "digit_version");
}

/* One side of a version comparison at [a, b): 1 a version name, 2
 * parse(torch.__version__), 3 torch.__version__ itself, 4 a tuple
 * (into ver), 5 parse("X") (into ver), 6 an integer compared with a
 * MAJOR name (into ver), 0 none. */
static int
version_side(const struct state *st, size_t a, size_t b, char *ver, size_t cap)
{
	size_t e;

	if (a >= b)
		return 0;
	if (tok_op(st, a, "(")) {
		size_t k = a + 1, n = 0, c = tg_audit_py_closer(st, a);

		if (c + 1 != b)
			return 0;
		ver[0] = '\0';
		for (; k < c; k++) {
			if (st->t[k].kind == TG_PYLEX_NUMBER && n < 4 &&
			    strlen(ver) + st->t[k].len + 2 < cap) {
				if (n++)
					strcat(ver, ".");
				strncat(ver, st->s + st->t[k].off,
					st->t[k].len);
				if (!tok_op(st, k + 1, ",") && k + 1 != c)
					return 0;
				if (tok_op(st, k + 1, ","))
					k++;
			} else {
				return 0;
			}
		}
		return n ? 4 : 0;
	}
	if (st->t[a].kind == TG_PYLEX_NUMBER && b == a + 1 &&
	    st->t[a].len < cap) {
		memcpy(ver, st->s + st->t[a].off, st->t[a].len);
		ver[st->t[a].len] = '\0';
		return 6;
	}
	if (!tok_name(st, a))
		return 0;
	e = tg_audit_py_chain_end(st, a);
	if (e + 1 == b) {
		if (tok_is(st, e, "__version__"))
			return tg_audit_py_torch_version_attr(st, a, e) ? 3 : 0;
		if (tg_audit_py_version_name(st->s + st->t[e].off,
					     st->t[e].len))
			return 1;
		return 0;
	}
	if (tok_op(st, e + 1, "(") && tg_audit_py_closer(st, e + 1) + 1 == b &&
	    parse_func(st, e)) {
		size_t k = e + 2;

		if (st->t[k].kind == TG_PYLEX_STRING && k + 1 == b - 1) {
			const struct tg_pylex_tok *s = &st->t[k];
			size_t bo = s->off + s->pre + s->quote,
			       eo = s->off + s->len - s->quote, j;

			if (s->flags & TG_PYLEX_UNTERMINATED || eo <= bo ||
			    eo - bo >= cap)
				return 0;
			for (j = bo; j < eo; j++)
				if (!ident_char((unsigned char)st->s[j]) &&
				    st->s[j] != '.' && st->s[j] != '+')
					return 0;
			memcpy(ver, st->s + bo, eo - bo);
			ver[eo - bo] = '\0';
			return 5;
		}
		if (tok_name(st, k)) {
			size_t ke = tg_audit_py_chain_end(st, k);

			if (ke + 2 == b &&
			    tg_audit_py_torch_version_attr(st, k, ke))
				return 2;
		}
	}
	return 0;
}

static const char *const cmp_ops[] = {">=", "<=", ">", "<", "==", "!="};

/* Whether tokens [a, b) are one string literal whose body starts with a
 * digit: a version compared as a string ("2.4"; not "parrots"). */
static int
version_string(const struct state *st, size_t a, size_t b)
{
	const struct tg_pylex_tok *t = &st->t[a];
	size_t bo = t->off + t->pre + t->quote;

	return b == a + 1 && t->kind == TG_PYLEX_STRING &&
	       !(t->flags & TG_PYLEX_UNTERMINATED) && bo < t->off + t->len &&
	       st->s[bo] >= '0' && st->s[bo] <= '9';
}

/* op index flipped (operands swapped) and negated. */
static const int flip_op[] = {1, 0, 3, 2, 4, 5};
static const int neg_op[] = {3, 2, 1, 0, 5, 4};

/* Increment the last numeric component of ver. */
static void
bump_last(char *ver, size_t cap)
{
	char *d = strrchr(ver, '.');
	char *p = d ? d + 1 : ver;
	unsigned long v = strtoul(p, NULL, 10);

	snprintf(p, cap - (size_t)(p - ver), "%lu", v + 1);
}

/* The specifier of "torch OP ver" for the side kind (4 or 6: tuple
 * semantics, a tuple as long as the literal; 5: PEP 440). */
static void
make_spec(int op, const char *ver, int kind, char *out, size_t cap)
{
	char v[40];

	snprintf(v, sizeof(v), "%.30s", ver);
	if (kind == 4 || kind == 6) {
		switch (op) {
		case 0:
			snprintf(out, cap, ">=%s", v);
			break;
		case 1:
			bump_last(v, sizeof(v));
			snprintf(out, cap, "<%s", v);
			break;
		case 2:
			bump_last(v, sizeof(v));
			snprintf(out, cap, ">=%s", v);
			break;
		case 3:
			snprintf(out, cap, "<%s", v);
			break;
		case 4:
			snprintf(out, cap, "==%s.*", v);
			break;
		default:
			snprintf(out, cap, "!=%s.*", v);
			break;
		}
		return;
	}
	snprintf(out, cap, "%s%s", cmp_ops[op], v);
}

/* One comparison at [a, b): its specifier and that of its negation. 1
 * when read exactly. */
static int
read_compare(struct state *st, size_t a, size_t b, char *pos, char *neg,
	     size_t cap)
{
	size_t i, d = st->t[a].depth;
	int op = -1, lk, rk;
	char lv[64], rv[64];

	for (i = a; i < b; i++)
		if (st->t[i].depth == d && st->t[i].kind == TG_PYLEX_OP) {
			size_t k;

			for (k = 0; k < 6; k++)
				if (tok_op(st, i, cmp_ops[k]))
					break;
			if (k < 6) {
				op = (int)k;
				break;
			}
		}
	if (op < 0)
		return 0;
	lk = version_side(st, a, i, lv, sizeof(lv));
	rk = version_side(st, i + 1, b, rv, sizeof(rv));
	if ((lk == 3 && version_string(st, i + 1, b)) ||
	    (rk == 3 && version_string(st, a, i))) {
		if (!st->rc)
			st->rc = tg_diag_add(
			    &st->r->notes, TG_SEV_NOTE, 0, st->path,
			    st->t[a].line, st->t[a].col + 1,
			    "audit-string-version", NULL,
			    "torch.__version__ compared as a string: not "
			    "read as a version branch");
		return 0;
	}
	if (lk >= 4 && lk != 6) {
		int t = lk;
		char tv[64];

		memcpy(tv, lv, sizeof(tv));
		lk = rk;
		memcpy(lv, rv, sizeof(lv));
		rk = t;
		memcpy(rv, tv, sizeof(rv));
		op = flip_op[op];
	}
	if (!((lk == 1 && rk == 4) || (lk == 2 && rk == 5)))
		if (!(lk == 1 && rk == 6 &&
		      tg_audit_py_ci_contains(
			  st->s + st->t[a].off,
			  st->t[i - 1].off + st->t[i - 1].len - st->t[a].off,
			  "major")))
			return 0;
	make_spec(op, rv, rk, pos, cap);
	make_spec(neg_op[op], rv, rk, neg, cap);
	return 1;
}

enum gkind { G_NONE, G_MAJOR, G_MINOR, G_VERSION, G_NUMBER, G_TUPLE };

struct gside {
	enum gkind kind;
	long v[3]; /* G_NUMBER: v[0]; G_TUPLE: major, minor, patch */
};

/* The digits of s[0..n) as a version "X[.Y[.Z]]" into v: 1, or 0 when
 * it is anything else (a pre-release, a local label, more parts). */
static int
grid_version(const char *s, size_t n, long v[3])
{
	size_t i = 0, k = 0;

	v[0] = v[1] = v[2] = 0;
	while (k < 3) {
		size_t a = i;

		while (i < n && s[i] >= '0' && s[i] <= '9' && i - a < 6)
			v[k] = v[k] * 10 + (s[i++] - '0');
		if (i == a)
			return 0;
		k++;
		if (i == n)
			return 1;
		if (s[i++] != '.')
			return 0;
	}
	return 0;
}

/* An integer literal token. */
static int
grid_int(const struct state *st, size_t i, long *v)
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t k;

	if (t->kind != TG_PYLEX_NUMBER || t->len > 6)
		return 0;
	*v = 0;
	for (k = 0; k < t->len; k++) {
		char c = st->s[t->off + k];

		if (c < '0' || c > '9')
			return 0;
		*v = *v * 10 + (c - '0');
	}
	return 1;
}

/* A string literal token holding a version, into v. */
static int
grid_str(const struct state *st, size_t i, long v[3])
{
	const struct tg_pylex_tok *t = &st->t[i];
	size_t bo = t->off + t->pre + t->quote;

	if (t->kind != TG_PYLEX_STRING || (t->flags & TG_PYLEX_UNTERMINATED) ||
	    t->len < (size_t)t->pre + 2u * t->quote)
		return 0;
	return grid_version(st->s + bo, t->off + t->len - t->quote - bo, v);
}

/* Numbers (n, n[, n]) in tokens [a, c) into v (c the closer). */
static int
grid_tuple(const struct state *st, size_t a, size_t c, long v[3])
{
	size_t k = a, n = 0;

	v[0] = v[1] = v[2] = 0;
	while (k < c) {
		if (n == 3 || !grid_int(st, k, &v[n]))
			return 0;
		n++;
		k++;
		if (k < c && !tok_op(st, k, ","))
			return 0;
		k++;
	}
	return n > 0;
}

/* One side of a comparison, tokens [a, b). */
static int
grid_side(const struct state *st, size_t a, size_t b, struct gside *g)
{
	size_t e;

	g->kind = G_NONE;
	if (a >= b)
		return 0;
	if (b == a + 1 && grid_int(st, a, &g->v[0])) {
		g->kind = G_NUMBER;
		return 1;
	}
	if (tok_op(st, a, "(") && tg_audit_py_closer(st, a) + 1 == b) {
		g->kind = G_TUPLE;
		return grid_tuple(st, a + 1, b - 1, g->v);
	}
	if (!tok_name(st, a))
		return 0;
	e = tg_audit_py_chain_end(st, a);
	if (e + 1 == b) {
		const char *n = st->s + st->t[e].off;
		size_t nl = st->t[e].len;

		if (!tg_audit_py_version_name(n, nl))
			return 0;
		g->kind = tg_audit_py_ci_contains(n, nl, "minor")   ? G_MINOR
			  : tg_audit_py_ci_contains(n, nl, "major") ? G_MAJOR
								    : G_VERSION;
		return 1;
	}
	/* parse(...), Version(...), parse_version(...), LooseVersion(...)
	 * of a version string or of torch.__version__ */
	if (tok_op(st, e + 1, "(") && tg_audit_py_closer(st, e + 1) + 1 == b &&
	    parse_func(st, e)) {
		size_t k = e + 2;

		if (k + 1 == b - 1 && grid_str(st, k, g->v)) {
			g->kind = G_TUPLE;
			return 1;
		}
		if (tok_name(st, k) && tg_audit_py_chain_end(st, k) + 2 == b &&
		    tg_audit_py_torch_version_attr(
			st, k, tg_audit_py_chain_end(st, k))) {
			g->kind = G_VERSION;
			return 1;
		}
	}
	return 0;
}

static int
grid_cmp(long x, int op, long y)
{
	switch (op) {
	case 0:
		return x >= y;
	case 1:
		return x <= y;
	case 2:
		return x > y;
	case 3:
		return x < y;
	case 4:
		return x == y;
	default:
		return x != y;
	}
}

/* A comparison of tokens [a, b) at grid point (M, m): 0 or 1, or -1
 * when it is not one the grid decides. */
static int
grid_compare(const struct state *st, size_t a, size_t b, long M, long m)
{
	size_t i, d = st->t[a].depth, k;
	struct gside l, r;
	int op = -1;

	for (i = a; i < b && op < 0; i++)
		for (k = 0; k < 6 && st->t[i].depth == d; k++)
			if (tok_op(st, i, cmp_ops[k])) {
				op = (int)k;
				break;
			}
	if (op < 0)
		return -1;
	i--;
	if (!grid_side(st, a, i, &l) || !grid_side(st, i + 1, b, &r))
		return -1;
	if (l.kind == G_NUMBER || l.kind == G_TUPLE) {
		struct gside t = l;

		l = r;
		r = t;
		op = flip_op[op];
	}
	if ((l.kind == G_MAJOR || l.kind == G_MINOR) && r.kind == G_NUMBER)
		return grid_cmp(l.kind == G_MAJOR ? M : m, op, r.v[0]);
	if (l.kind == G_VERSION && r.kind == G_TUPLE) {
		if (r.v[2])
			return -1; /* a patch level: between grid points */
		return grid_cmp(M * 1000 + m, op, r.v[0] * 1000 + r.v[1]);
	}
	return -1;
}

/* A helper call NAME(...) whose name says "at least this torch":
 * is_torch_min_version("2.4"), min_torch_version("2.6.0"),
 * torch_version_at_least(2, 4). */
static int
grid_helper(const struct state *st, size_t a, size_t b, long M, long m)
{
	size_t e, c;
	const char *n;
	long v[3];

	if (!tok_name(st, a))
		return -1;
	e = tg_audit_py_chain_end(st, a);
	n = st->s + st->t[e].off;
	if (!tok_op(st, e + 1, "(") ||
	    (c = tg_audit_py_closer(st, e + 1)) + 1 != b ||
	    !tg_audit_py_torch_word(n, st->t[e].len) ||
	    !((tg_audit_py_ci_contains(n, st->t[e].len, "min") &&
	       tg_audit_py_ci_contains(n, st->t[e].len, "version")) ||
	      tg_audit_py_ci_contains(n, st->t[e].len, "at_least")))
		return -1;
	if (!(c == e + 3 && grid_str(st, e + 2, v)) &&
	    !grid_tuple(st, e + 2, c, v))
		return -1;
	if (v[2])
		return -1;
	return M * 1000 + m >= v[0] * 1000 + v[1];
}

/* Tokens [a, b) at depth d as a test at grid point (M, m): 0 or 1, or
 * -1 when not readable. depth bounds the recursion. */
static int
grid_eval(const struct state *st, size_t a, size_t b, long M, long m, int depth)
{
	size_t d, i;
	int x, y;

	if (a >= b || depth > 32)
		return -1;
	d = st->t[a].depth;
	for (i = a; i < b; i++)
		if (st->t[i].depth == d && tok_kw(st, i, "or")) {
			x = grid_eval(st, a, i, M, m, depth + 1);
			y = grid_eval(st, i + 1, b, M, m, depth + 1);
			return x < 0 || y < 0 ? -1 : x || y;
		}
	for (i = a; i < b; i++)
		if (st->t[i].depth == d && tok_kw(st, i, "and")) {
			x = grid_eval(st, a, i, M, m, depth + 1);
			y = grid_eval(st, i + 1, b, M, m, depth + 1);
			return x < 0 || y < 0 ? -1 : x && y;
		}
	if (tok_kw(st, a, "not")) {
		x = grid_eval(st, a + 1, b, M, m, depth + 1);
		return x < 0 ? -1 : !x;
	}
	if (tok_op(st, a, "(") && tg_audit_py_closer(st, a) + 1 == b)
		return grid_eval(st, a + 1, b - 1, M, m, depth + 1);
	x = grid_helper(st, a, b, M, m);
	return x >= 0 ? x : grid_compare(st, a, b, M, m);
}

/* The test [a, b) over the grid: the specifier sets where it holds and
 * where it does not (empty when that is not one interval); 0 when it is
 * not readable or holds everywhere or nowhere. */
int
tg_audit_py_read_test_grid(const struct state *st, size_t a, size_t b,
			   char *pos, char *neg, size_t cap)
{
	unsigned char set[TG_AUDIT_GRID], not_set[TG_AUDIT_GRID];
	size_t k;
	int x;

	pos[0] = neg[0] = '\0';
	for (k = 0; k < TG_AUDIT_GRID; k++) {
		x = grid_eval(st, a, b, (long)(k / TG_AUDIT_GRID_MINOR),
			      (long)(k % TG_AUDIT_GRID_MINOR), 0);
		if (x < 0)
			return 0;
		set[k] = (unsigned char)x;
		not_set[k] = (unsigned char)!x;
	}
	if (!tg_audit_grid_spec(set, pos, cap))
		return 0;
	if (!tg_audit_grid_spec(not_set, neg, cap))
		neg[0] = '\0';
	return 1;
}

/* A whole test [a, b): one comparison, or several joined by "and"
 * (then no negation: *neg empty). */
int
tg_audit_py_read_test(struct state *st, size_t a, size_t b, char *pos,
		      char *neg, size_t cap)
{
	size_t d = st->t[a].depth, i, s = a, n = 0;
	char p1[64], n1[64];

	pos[0] = neg[0] = '\0';
	for (i = a; i <= b; i++) {
		if (i < b && !(tok_kw(st, i, "and") && st->t[i].depth == d)) {
			if (st->t[i].depth == d &&
			    (tok_kw(st, i, "or") || tok_kw(st, i, "not")))
				return 0;
			continue;
		}
		if (!read_compare(st, s, i, p1, n1, sizeof(p1)))
			return 0;
		if (strlen(pos) + strlen(p1) + 2 >= cap)
			return 0;
		if (n++)
			strcat(pos, ",");
		strcat(pos, p1);
		if (n == 1)
			snprintf(neg, cap, "%s", n1);
		else
			neg[0] = '\0';
		s = i + 1;
	}
	return n > 0;
}
