/* specifier.c - PEP 440 specifier sets and their matching rules
 * SPDX-License-Identifier: MIT
 *
 * Each specifier becomes, at parse time, one or two bound versions (lo,
 * hi) so that matching is a few comparisons: the same ranges that
 * packaging 26.x's _ranges.bounds_for_spec builds. A set matches when every
 * specifier does. Worst case: one parse per specifier and a handful of
 * version comparisons per match; no limit on the number of specifiers
 * beyond the caller's bound on the text. A set is one block (the array
 * and the texts) and a version per bound, or pieces of the caller's
 * arena (tg_spec_set_parse_arena).
 */
#include "lib/pep/spec.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/pyspace.h"
#include "lib/util/str.h"

static const struct {
	const char *text;
	enum tg_spec_op op;
} ops[] = {
    /* longest first, as packaging's startswith chain */
    {"===", TG_OP_ARBITRARY}, {"~=", TG_OP_COMPATIBLE}, {"==", TG_OP_EQ},
    {"!=", TG_OP_NE},	      {"<=", TG_OP_LE},		{">=", TG_OP_GE},
    {"<", TG_OP_LT},	      {">", TG_OP_GT},
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The text of a bound, written into room the caller made large enough:
 * at most BOUND_SLACK bytes longer than the canonical text of the
 * version it comes from (".dev0" and a digit each number may gain). */
struct bound_text {
	char *p;
	size_t n;
};

#define BOUND_SLACK 16

static void
put(struct bound_text *t, const char *s, size_t n)
{
	memcpy(t->p + t->n, s, n);
	t->n += n;
}

/* Append digits n, plus one if bump. */
static void
add_num(struct bound_text *t, struct tg_num n, int bump)
{
	size_t start = t->n, i;

	put(t, n.p, n.n);
	if (!bump)
		return;
	for (i = t->n; i > start; i--) {
		if (t->p[i - 1] != '9') {
			t->p[i - 1]++;
			return;
		}
		t->p[i - 1] = '0';
	}
	/* all nines: 99 -> 100 */
	t->p[start] = '1';
	t->p[t->n++] = '0';
}

enum bound_kind {
	B_DEV0,	       /* v without local, .dev0 appended (v has no dev) */
	B_NEXT_DEV,    /* v with dev+1 */
	B_NEXT_POST,   /* v with post+1, .dev0 */
	B_PREFIX_DEV0, /* epoch + release[:nrel] (last bumped?) + .dev0 */
};

/* Build the version text for a derived bound of v and parse it into out
 * (from a when not NULL). nrel and bump apply to B_PREFIX_DEV0. The
 * text is on the stack unless v is long. */
static int
make_bound(struct tg_arena *a, const struct tg_version *v, enum bound_kind kind,
	   size_t nrel, int bump, struct tg_version *out)
{
	static const char *const pre_names[] = {"", "a", "b", "rc"};
	char small[128];
	size_t k, room = strlen(v->str) + BOUND_SLACK;
	struct bound_text t = {small, 0};
	int rc;

	if (room > sizeof(small) && !(t.p = malloc(room)))
		return TG_ENOMEM;
	if (!(v->epoch.n == 1 && v->epoch.p[0] == '0')) {
		add_num(&t, v->epoch, 0);
		put(&t, "!", 1);
	}
	if (kind != B_PREFIX_DEV0)
		nrel = v->nrelease;
	for (k = 0; k < nrel; k++) {
		if (k)
			put(&t, ".", 1);
		add_num(&t, v->release[k],
			kind == B_PREFIX_DEV0 && bump && k + 1 == nrel);
	}
	if (kind != B_PREFIX_DEV0 && v->pre != TG_PRE_NONE) {
		put(&t, pre_names[v->pre], strlen(pre_names[v->pre]));
		add_num(&t, v->pre_n, 0);
	}
	if (kind != B_PREFIX_DEV0 && v->has_post) {
		put(&t, ".post", 5);
		add_num(&t, v->post_n, kind == B_NEXT_POST);
	}
	put(&t, ".dev", 4);
	if (kind == B_NEXT_DEV)
		add_num(&t, v->dev_n, 1);
	else
		put(&t, "0", 1);
	assert(t.n <= room);
	rc = tg_version_parse_arena(out, t.p, t.n, a, NULL);
	if (t.p != small)
		free(t.p);
	return rc;
}

static void release_versions(struct tg_spec *sp);

void
tg_spec_release(struct tg_spec *sp)
{
	free(sp->text);
	release_versions(sp);
}

/* Whether s[b..e) is v?(N!)?N(.N)* : the part before ".*". */
static int
plain_release(const char *s, size_t b, size_t e)
{
	size_t i = b, j;

	if (i < e && (s[i] == 'v' || s[i] == 'V'))
		i++;
	for (j = i; j < e && is_digit(s[j]); j++)
		;
	if (j > i && j < e && s[j] == '!')
		i = j + 1;
	for (;;) {
		for (j = i; j < e && is_digit(s[j]); j++)
			;
		if (j == i)
			return 0;
		if (j == e)
			return 1;
		if (s[j] != '.')
			return 0;
		i = j + 1;
	}
}

/* The versions of sp, not its text. */
static void
release_versions(struct tg_spec *sp)
{
	tg_version_release(&sp->v);
	tg_version_release(&sp->lo);
	tg_version_release(&sp->hi);
}

/* tg_spec_parse, with the text put into text (room for len + 1 bytes:
 * the operator and the stripped version are never longer than s) when
 * not NULL, the caller's to free; else into a string of sp's own. The
 * versions are pieces of a when a is not NULL. */
static int
spec_parse(struct tg_spec *sp, const char *s, size_t len, char *text,
	   struct tg_arena *a, struct tg_err *err)
{
	size_t k, oplen = 0, vb, ve, i;
	const char *why = NULL;
	char q[TG_STR_QUOTE_SIZE];
	int rc;

	memset(sp, 0, sizeof(*sp));
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (!len || s[0] != ops[k].text[0])
			continue; /* the first byte tells most apart */
		oplen = strlen(ops[k].text);
		if (len >= oplen && memcmp(s, ops[k].text, oplen) == 0)
			break;
	}
	if (k == sizeof(ops) / sizeof(ops[0])) {
		why = "expected an operator (~= == != <= >= < > ===)";
		goto bad;
	}
	sp->op = ops[k].op;
	vb = tg_pyspace_lstrip(s, oplen, len);
	ve = tg_pyspace_rstrip(s, vb, len);
	if (sp->op == TG_OP_ARBITRARY) {
		for (i = vb; i < ve; i++) {
			if (s[i] == ';' || s[i] == ')' ||
			    tg_pyspace_at(s, i, ve)) {
				why = "'===' takes one word";
				goto bad;
			}
		}
	} else if (ve - vb >= 2 && s[ve - 2] == '.' && s[ve - 1] == '*') {
		if (sp->op != TG_OP_EQ && sp->op != TG_OP_NE) {
			why = "'.*' is allowed only with '==' and '!='";
			goto bad;
		}
		if (!plain_release(s, vb, ve - 2)) {
			why = "'.*' cannot follow a pre, post, dev or local "
			      "segment";
			goto bad;
		}
		sp->wildcard = 1;
		if ((rc = tg_version_parse_arena(&sp->v, s + vb, ve - vb - 2, a,
						 NULL)) == TG_ENOMEM)
			return tg_err_set(err, rc, "out of memory");
		if (rc)
			goto bad;
	} else {
		if ((rc = tg_version_parse_arena(&sp->v, s + vb, ve - vb, a,
						 NULL)) == TG_ENOMEM)
			return tg_err_set(err, rc, "out of memory");
		if (rc) {
			why = "not a valid version";
			goto bad;
		}
		sp->has_local = memchr(s + vb, '+', ve - vb) != NULL;
		if (sp->has_local && sp->op != TG_OP_EQ && sp->op != TG_OP_NE) {
			why = "a local label is allowed only with '==' and "
			      "'!='";
			goto bad;
		}
		if (sp->op == TG_OP_COMPATIBLE && sp->v.nrelease < 2) {
			why = "'~=' needs at least two release numbers";
			goto bad;
		}
	}
	/* text: operator + stripped version, as packaging's str() */
	sp->text = text ? text : malloc(oplen + (ve - vb) + 1);
	if (!sp->text) {
		tg_spec_release(sp);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	memcpy(sp->text, s, oplen);
	memcpy(sp->text + oplen, s + vb, ve - vb);
	sp->text[oplen + (ve - vb)] = '\0';
	sp->ver = sp->text + oplen;

	rc = 0;
	if (sp->wildcard) {
		rc = make_bound(a, &sp->v, B_PREFIX_DEV0, sp->v.nrelease, 0,
				&sp->lo);
		rc = rc ? rc
			: make_bound(a, &sp->v, B_PREFIX_DEV0, sp->v.nrelease,
				     1, &sp->hi);
	} else if (sp->op == TG_OP_COMPATIBLE) {
		rc = make_bound(a, &sp->v, B_PREFIX_DEV0, sp->v.nrelease - 1, 1,
				&sp->hi);
	} else if (sp->op == TG_OP_LT && !tg_version_is_prerelease(&sp->v)) {
		rc = make_bound(a, &sp->v, B_DEV0, 0, 0, &sp->hi);
	} else if (sp->op == TG_OP_GT && sp->v.has_dev) {
		rc = make_bound(a, &sp->v, B_NEXT_DEV, 0, 0, &sp->lo);
	} else if (sp->op == TG_OP_GT && sp->v.has_post) {
		rc = make_bound(a, &sp->v, B_NEXT_POST, 0, 0, &sp->lo);
	}
	if (rc) {
		if (text)
			sp->text = NULL; /* the caller's */
		tg_spec_release(sp);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	return 0;
bad:
	tg_spec_release(sp);
	tg_str_quote(q, s, len);
	if (why)
		return tg_err_set(err, TG_EINVAL, "invalid specifier '%s': %s",
				  q, why);
	return tg_err_set(err, TG_EINVAL, "invalid specifier '%s'", q);
}

int
tg_spec_parse(struct tg_spec *sp, const char *s, size_t len, struct tg_err *err)
{
	return spec_parse(sp, s, len, NULL, NULL, err);
}

int
tg_spec_set_parse(struct tg_specset *set, const char *s, size_t len,
		  struct tg_err *err)
{
	return tg_spec_set_parse_arena(set, s, len, NULL, err);
}

/* The specifiers and their texts are one block: the array, then the
 * texts (each at most its part of s, plus a NUL). */
int
tg_spec_set_parse_arena(struct tg_specset *set, const char *s, size_t len,
			struct tg_arena *a, struct tg_err *err)
{
	size_t size;

	size_t i = 0, n = 1, b, e, cut;
	char *text;
	int rc = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < len; i++)
		n += s[i] == ',';
	if (n > SIZE_MAX / 4 / sizeof(*set->specs) || len > SIZE_MAX / 4)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	size = n * sizeof(*set->specs) + len + n;
	if (a) {
		set->specs = tg_arena_alloc(a, size);
		if (set->specs)
			memset(set->specs, 0, size);
	} else {
		set->specs = calloc(1, size);
	}
	set->in_arena = a != NULL;
	if (!set->specs)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	text = (char *)(set->specs + n);
	for (i = 0; i + 3 <= len; i++)
		if (memcmp(s + i, "===", 3) == 0)
			set->has_arbitrary = 1;
	for (i = 0; i <= len; i = cut + 1) {
		const char *comma = memchr(s + i, ',', len - i);

		cut = comma ? (size_t)(comma - s) : len;
		b = tg_pyspace_lstrip(s, i, cut);
		e = tg_pyspace_rstrip(s, b, cut);
		if (b == e)
			continue;
		rc =
		    spec_parse(&set->specs[set->n], s + b, e - b, text, a, err);
		if (!rc)
			text += strlen(text) + 1;
		if (rc) {
			if (err && err->code)
				err->pos = b, err->has_pos = 1;
			tg_spec_set_release(set);
			return rc;
		}
		set->n++;
	}
	return 0;
}

void
tg_spec_set_release(struct tg_specset *set)
{
	size_t k;

	if (!set)
		return;
	for (k = 0; k < set->n; k++)
		release_versions(&set->specs[k]); /* texts: in the block */
	if (!set->in_arena)
		free(set->specs);
	memset(set, 0, sizeof(*set));
}

static int
num_eq(struct tg_num a, struct tg_num b)
{
	return tg_version_num_cmp(a, b) == 0;
}

/* v is s, or a local build of s (same public version). */
static int
local_family(const struct tg_version *v, const struct tg_version *s)
{
	return tg_version_same_release(v, s) && v->pre == s->pre &&
	       num_eq(v->pre_n, s->pre_n) && v->has_post == s->has_post &&
	       num_eq(v->post_n, s->post_n) && v->has_dev == s->has_dev &&
	       num_eq(v->dev_n, s->dev_n);
}

static int
eq_match(const struct tg_spec *sp, const struct tg_version *v)
{
	int c;

	if (sp->wildcard)
		return tg_version_cmp(v, &sp->lo) >= 0 &&
		       tg_version_cmp(v, &sp->hi) < 0;
	c = tg_version_cmp(v, &sp->v);
	if (c < 0)
		return 0;
	return c == 0 || (!sp->has_local && local_family(v, &sp->v));
}

static int
ascii_ieq(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i;

	if (an != bn)
		return 0;
	for (i = 0; i < an; i++) {
		char x = a[i], y = b[i];

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
	}
	return 1;
}

int
tg_spec_match(const struct tg_spec *sp, const char *item, size_t len,
	      const struct tg_version *v)
{
	int c;

	if (sp->op == TG_OP_ARBITRARY)
		return ascii_ieq(item, len, sp->ver, strlen(sp->ver));
	if (!v)
		return 0;
	switch (sp->op) {
	case TG_OP_EQ:
		return eq_match(sp, v);
	case TG_OP_NE:
		return !eq_match(sp, v);
	case TG_OP_GE:
		return tg_version_cmp(v, &sp->v) >= 0;
	case TG_OP_LE:
		return tg_version_cmp(v, &sp->v) <= 0 ||
		       local_family(v, &sp->v);
	case TG_OP_LT:
		return tg_version_cmp(v, sp->hi.str ? &sp->hi : &sp->v) < 0;
	case TG_OP_GT:
		if (sp->lo.str)
			return tg_version_cmp(v, &sp->lo) >= 0;
		c = tg_version_cmp(v, &sp->v);
		/* above V, and not V's post or local builds */
		return c > 0 &&
		       !(tg_version_same_release(v, &sp->v) &&
			 v->pre == sp->v.pre && num_eq(v->pre_n, sp->v.pre_n));
	case TG_OP_COMPATIBLE:
		return tg_version_cmp(v, &sp->v) >= 0 &&
		       tg_version_cmp(v, &sp->hi) < 0;
	case TG_OP_ARBITRARY:
		break;
	}
	return 0;
}

int
tg_spec_set_contains(const struct tg_specset *set, const char *item, size_t len,
		     const struct tg_version *v, enum tg_prereleases pre)
{
	size_t k;

	if (pre == TG_PRE_DENY && v && tg_version_is_prerelease(v))
		return 0;
	if (set->n == 0)
		return 1; /* an empty set admits anything, text or version */
	for (k = 0; k < set->n; k++)
		if (!tg_spec_match(&set->specs[k], item, len, v))
			return 0;
	return 1;
}

static int
cmp_text(const void *a, const void *b)
{
	const struct tg_spec *const *x = a, *const *y = b;

	return strcmp((*x)->text, (*y)->text);
}

/* The identity packaging gives a specifier for de-duplication: operator
 * and version with trailing zeros dropped (kept for "~="); text for "==="
 * and wildcards. */
static int
canonical(const struct tg_spec *sp, struct tg_buf *out)
{
	const struct tg_version *v = &sp->v;
	size_t n = v->nrelease, head;
	const char *rest;

	tg_buf_clear(out);
	if (sp->op == TG_OP_ARBITRARY || sp->wildcard)
		return tg_buf_adds(out, sp->text);
	if (tg_buf_add(out, sp->text, (size_t)(sp->ver - sp->text)))
		return TG_ENOMEM;
	if (sp->op == TG_OP_COMPATIBLE)
		return tg_buf_adds(out, v->str);
	while (n > 1 && v->release[n - 1].n == 1 &&
	       v->release[n - 1].p[0] == '0')
		n--;
	/* v->str up to release[n-1], then what follows the whole release */
	head = (size_t)(v->release[n - 1].p + v->release[n - 1].n - v->str);
	rest = v->release[v->nrelease - 1].p + v->release[v->nrelease - 1].n;
	tg_buf_add(out, v->str, head);
	tg_buf_adds(out, rest);
	return tg_buf_error(out);
}

int
tg_spec_set_format(const struct tg_specset *set, struct tg_buf *out)
{
	const struct tg_spec **order = NULL;
	struct tg_buf a = TG_BUF_INIT, b = TG_BUF_INIT;
	size_t k, j, written = 0;
	int rc = 0, dup;

	if (set->n == 0)
		return 0;
	order = malloc(set->n * sizeof(*order));
	if (!order)
		return TG_ENOMEM;
	for (k = 0; k < set->n; k++)
		order[k] = &set->specs[k];
	qsort(order, set->n, sizeof(*order), cmp_text);
	for (k = 0; !rc && k < set->n; k++) {
		dup = 0;
		if (set->n > 1) {
			rc = canonical(order[k], &a);
			for (j = 0; !rc && !dup && j < k; j++) {
				rc = canonical(order[j], &b);
				dup = !rc && a.len == b.len &&
				      memcmp(a.data, b.data, a.len) == 0;
			}
		}
		if (rc || dup)
			continue;
		if (written++)
			rc = tg_buf_addc(out, ',');
		rc = rc ? rc : tg_buf_adds(out, order[k]->text);
	}
	tg_buf_release(&a);
	tg_buf_release(&b);
	free(order);
	return rc;
}

int
tg_spec_prereleases_parse(const char *name, enum tg_prereleases *out)
{
	if (strcmp(name, "auto") == 0)
		*out = TG_PRE_AUTO;
	else if (strcmp(name, "allow") == 0 || strcmp(name, "true") == 0)
		*out = TG_PRE_ALLOW;
	else if (strcmp(name, "deny") == 0 || strcmp(name, "false") == 0)
		*out = TG_PRE_DENY;
	else
		return TG_EINVAL;
	return 0;
}
