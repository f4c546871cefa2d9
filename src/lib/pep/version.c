/* version.c - PEP 440 versions: parse, normalise, order
 * SPDX-License-Identifier: MIT
 *
 * The parser is a hand-written scanner for packaging 26.x's VERSION_PATTERN
 * (the possessive form used on CPython >= 3.11.5): every optional segment
 * is atomic, so once a segment matched it is never given back, and the
 * scanner takes the first alternative that matches, as the regex does.
 * Ordering follows packaging's _cmpkey: trailing release zeros ignored,
 * dev-only < a < b < rc < final, post after, local labels after none,
 * string local segments before numeric ones.
 * Limits: none beyond memory; the caller bounds its input.
 */
#include "lib/pep/version.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/pyspace.h"
#include "lib/util/str.h"

static const char zero_digit[] = "0";
static const struct tg_num num_zero = {zero_digit, 1};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_sep(char c)
{
	return c == '.' || c == '_' || c == '-';
}

static char
lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive match of the ASCII word w at s[i..e). */
static size_t
match_word(const char *s, size_t i, size_t e, const char *w)
{
	size_t n, k;

	/* most words fail on their first letter: no strlen() for them */
	if (i >= e || lower(s[i]) != w[0])
		return 0;
	n = strlen(w);
	if (e - i < n)
		return 0;
	for (k = 0; k < n; k++)
		if (lower(s[i + k]) != w[k])
			return 0;
	return n;
}

static size_t
skip_digits(const char *s, size_t i, size_t e)
{
	while (i < e && is_digit(s[i]))
		i++;
	return i;
}

/* A span of the input: [b, e). */
struct span {
	size_t b, e;
};

struct pieces {
	int has_epoch;
	struct span epoch;
	size_t nrelease;
	enum tg_pre_kind pre;
	struct span pre_n; /* empty: 0 */
	int has_post;
	struct span post_n;
	int has_dev;
	struct span dev_n;
	int has_local;
	struct span local;
};

static const struct {
	const char *word;
	enum tg_pre_kind kind;
} pre_words[] = {
    /* order of packaging's alternation */
    {"alpha", TG_PRE_A}, {"a", TG_PRE_A},	 {"beta", TG_PRE_B},
    {"b", TG_PRE_B},	 {"preview", TG_PRE_RC}, {"pre", TG_PRE_RC},
    {"c", TG_PRE_RC},	 {"rc", TG_PRE_RC},
};

static const char *const post_words[] = {"post", "rev", "r"};

/* Scan the longest version at s[i..e); returns where it ends, or
 * SIZE_MAX when there is no release number. */
static size_t
scan(const char *s, size_t i, size_t e, struct pieces *p, int allow_local)
{
	size_t j, k, n;
	char c;

	memset(p, 0, sizeof(*p));
	if (i < e && (s[i] == 'v' || s[i] == 'V'))
		i++;
	/* epoch: digits '!' */
	j = skip_digits(s, i, e);
	if (j > i && j < e && s[j] == '!') {
		p->has_epoch = 1;
		p->epoch.b = i;
		p->epoch.e = j;
		i = j + 1;
	}
	/* release: digits ('.' digits)* */
	j = skip_digits(s, i, e);
	if (j == i)
		return SIZE_MAX;
	p->nrelease = 1;
	i = j;
	while (i + 1 < e && s[i] == '.' && is_digit(s[i + 1])) {
		i = skip_digits(s, i + 1, e);
		p->nrelease++;
	}
	/* pre: [._-]? word [._-]? digits? */
	j = i;
	if (j < e && is_sep(s[j]))
		j++;
	c = j < e ? lower(s[j]) : '\0';
	for (k = 0; k < sizeof(pre_words) / sizeof(pre_words[0]); k++) {
		if (c != pre_words[k].word[0])
			continue; /* match_word would fail on it */
		n = match_word(s, j, e, pre_words[k].word);
		if (n) {
			p->pre = pre_words[k].kind;
			j += n;
			if (j < e && is_sep(s[j]))
				j++;
			p->pre_n.b = j;
			j = skip_digits(s, j, e);
			p->pre_n.e = j;
			i = j;
			break;
		}
	}
	/* post: '-' digits | [._-]? word [._-]? digits? */
	if (i + 1 < e && s[i] == '-' && is_digit(s[i + 1])) {
		p->has_post = 1;
		p->post_n.b = i + 1;
		i = p->post_n.e = skip_digits(s, i + 1, e);
	} else {
		j = i;
		if (j < e && is_sep(s[j]))
			j++;
		c = j < e ? lower(s[j]) : '\0';
		for (k = 0; k < sizeof(post_words) / sizeof(post_words[0]);
		     k++) {
			if (c != post_words[k][0])
				continue;
			n = match_word(s, j, e, post_words[k]);
			if (n) {
				p->has_post = 1;
				j += n;
				if (j < e && is_sep(s[j]))
					j++;
				p->post_n.b = j;
				i = p->post_n.e = skip_digits(s, j, e);
				break;
			}
		}
	}
	/* dev: [._-]? "dev" [._-]? digits? */
	j = i;
	if (j < e && is_sep(s[j]))
		j++;
	n = j < e && lower(s[j]) == 'd' ? match_word(s, j, e, "dev") : 0;
	if (n) {
		p->has_dev = 1;
		j += n;
		if (j < e && is_sep(s[j]))
			j++;
		p->dev_n.b = j;
		i = p->dev_n.e = skip_digits(s, j, e);
	}
	/* local: '+' alnum+ ([._-] alnum+)* */
	if (allow_local && i + 1 < e && s[i] == '+' && is_alnum(s[i + 1])) {
		p->has_local = 1;
		p->local.b = ++i;
		for (;;) {
			while (i < e && is_alnum(s[i]))
				i++;
			if (i + 1 < e && is_sep(s[i]) && is_alnum(s[i + 1]))
				i++;
			else
				break;
		}
		p->local.e = i;
	}
	return i;
}

size_t
tg_version_scan_prefix(const char *s, size_t i, size_t e, int allow_local)
{
	struct pieces p;

	return scan(s, i, e, &p, allow_local);
}

/* The canonical text being written into its block: never more than
 * the version's text plus BUILD_SLACK bytes (see build). */
struct out {
	char *p;
	size_t n, cap;
};

static void
put(struct out *o, const char *s, size_t n)
{
	assert(n <= o->cap - o->n);
	memcpy(o->p + o->n, s, n);
	o->n += n;
}

/* Append the digits of s[sp] without leading zeros; return them. */
static struct tg_num
add_num(struct out *o, const char *s, struct span sp)
{
	size_t i = sp.b, at = o->n;

	while (i + 1 < sp.e && s[i] == '0')
		i++;
	if (i == sp.e) /* empty: implicit 0 */
		put(o, "0", 1);
	else
		put(o, s + i, sp.e - i);
	return (struct tg_num){o->p + at, o->n - at};
}

static int
all_digits(const char *s, size_t b, size_t e)
{
	for (; b < e; b++)
		if (!is_digit(s[b]))
			return 0;
	return 1;
}

/* The canonical text is at most BUILD_SLACK bytes longer than the text
 * it comes from (start..end): a pre-release gains at most 2 ("c" ->
 * "rc0"), a post-release 5 ("r" -> ".post0"), a dev release 2 ("dev"
 * -> ".dev0"); epoch, release and local label only lose bytes (leading
 * zeros). */
#define BUILD_SLACK 16

/* Build v from the pieces of s[start..end) and the text s[0..len): the
 * release and local arrays, the canonical text and the raw text in one
 * block, which v->release points to and tg_version_release frees (a
 * piece of a when a is not NULL). */
static int
build(struct tg_version *v, const char *s, size_t len, size_t start, size_t end,
      const struct pieces *p, struct tg_arena *a, struct tg_err *err)
{
	static const char *const names[] = {"", "a", "b", "rc"};
	struct out o;
	size_t i, k, nloc = 0, head;
	struct span sp;
	char *block;

	if (p->has_local) {
		nloc = 1;
		for (i = p->local.b; i < p->local.e; i++)
			nloc += is_sep(s[i]);
	}
	head = p->nrelease * sizeof(struct tg_num) +
	       nloc * sizeof(struct tg_local_seg);
	o.cap = end - start + BUILD_SLACK;
	block = a ? tg_arena_alloc(a, head + o.cap + 1 + len + 1)
		  : malloc(head + o.cap + 1 + len + 1);
	if (!block)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	v->release = (struct tg_num *)(void *)block;
	v->in_arena = a != NULL;
	v->nrelease = p->nrelease;
	v->local =
	    nloc ? (struct tg_local_seg *)(void *)(v->release + p->nrelease)
		 : NULL;
	v->nlocal = nloc;
	o.p = block + head;
	o.n = 0;
	v->epoch = num_zero;
	if (p->has_epoch) {
		sp = p->epoch;
		while (sp.b + 1 < sp.e && s[sp.b] == '0')
			sp.b++;
		if (sp.e - sp.b != 1 || s[sp.b] != '0') {
			v->epoch = add_num(&o, s, sp);
			put(&o, "!", 1);
		}
	}
	/* release segments */
	i = p->has_epoch ? p->epoch.e + 1 : start;
	for (k = 0; k < p->nrelease; k++) {
		sp.b = i;
		sp.e = i = skip_digits(s, i, end);
		if (k)
			put(&o, ".", 1);
		v->release[k] = add_num(&o, s, sp);
		i++; /* the '.' */
	}
	v->pre = p->pre;
	v->pre_n = num_zero;
	if (p->pre != TG_PRE_NONE) {
		put(&o, names[p->pre], strlen(names[p->pre]));
		v->pre_n = add_num(&o, s, p->pre_n);
	}
	v->has_post = p->has_post;
	v->post_n = num_zero;
	if (p->has_post) {
		put(&o, ".post", 5);
		v->post_n = add_num(&o, s, p->post_n);
	}
	v->has_dev = p->has_dev;
	v->dev_n = num_zero;
	if (p->has_dev) {
		put(&o, ".dev", 4);
		v->dev_n = add_num(&o, s, p->dev_n);
	}
	if (nloc) {
		put(&o, "+", 1);
		i = p->local.b;
		for (k = 0; k < nloc; k++) {
			sp.b = i;
			while (i < p->local.e && !is_sep(s[i]))
				i++;
			sp.e = i++;
			if (k)
				put(&o, ".", 1);
			if (all_digits(s, sp.b, sp.e)) {
				struct tg_num d = add_num(&o, s, sp);

				v->local[k].numeric = 1;
				v->local[k].p = d.p;
				v->local[k].n = d.n;
			} else {
				size_t q;

				v->local[k].numeric = 0;
				v->local[k].p = o.p + o.n;
				v->local[k].n = sp.e - sp.b;
				assert(sp.e - sp.b <= o.cap - o.n);
				for (q = sp.b; q < sp.e; q++)
					o.p[o.n++] = lower(s[q]);
			}
		}
	}
	o.p[o.n] = '\0';
	v->str = o.p;
	v->raw = o.p + o.cap + 1;
	memcpy(v->raw, s, len);
	v->raw[len] = '\0';
	return 0;
}

int
tg_version_parse(struct tg_version *v, const char *s, size_t len,
		 struct tg_err *err)
{
	return tg_version_parse_arena(v, s, len, NULL, err);
}

int
tg_version_parse_arena(struct tg_version *v, const char *s, size_t len,
		       struct tg_arena *a, struct tg_err *err)
{
	struct pieces p;
	size_t b = 0, e = len, bad = 0;
	int rc;

	memset(v, 0, sizeof(*v));
	b = tg_pyspace_lstrip(s, 0, len);
	e = tg_pyspace_rstrip(s, b, len);
	bad = scan(s, b, e, &p, 1);
	if (bad != e) {
		if (bad == SIZE_MAX)
			bad = b;
		return tg_err_set_at(
		    err, TG_EINVAL, bad, "invalid version '%s'",
		    tg_str_quote((char[TG_STR_QUOTE_SIZE]){0}, s, len));
	}
	/* build() expects the release to start after an optional 'v' */
	if (b < e && (s[b] == 'v' || s[b] == 'V'))
		b++;
	rc = build(v, s, len, b, e, &p, a, err);
	if (rc)
		memset(v, 0, sizeof(*v));
	return rc;
}

void
tg_version_release(struct tg_version *v)
{
	if (!v)
		return;
	if (!v->in_arena)
		free(v->release); /* the block of all the rest (build) */
	memset(v, 0, sizeof(*v));
}

int
tg_version_dup(struct tg_version *dst, const struct tg_version *src)
{
	return tg_version_parse(dst, src->str, strlen(src->str), NULL);
}

int
tg_version_num_cmp(struct tg_num a, struct tg_num b)
{
	int c;

	if (a.n != b.n)
		return a.n < b.n ? -1 : 1;
	c = memcmp(a.p, b.p, a.n);
	return (c > 0) - (c < 0);
}

static int
num_is_zero(struct tg_num a)
{
	return a.n == 1 && a.p[0] == '0';
}

static size_t
trimmed_len(const struct tg_version *v)
{
	size_t n = v->nrelease;

	while (n > 0 && num_is_zero(v->release[n - 1]))
		n--;
	return n;
}

static int
cmp_release(const struct tg_version *a, const struct tg_version *b)
{
	size_t na = trimmed_len(a), nb = trimmed_len(b), k;
	int c;

	for (k = 0; k < na && k < nb; k++) {
		c = tg_version_num_cmp(a->release[k], b->release[k]);
		if (c)
			return c;
	}
	return (na > nb) - (na < nb);
}

static int
pre_rank(const struct tg_version *v)
{
	if (v->pre == TG_PRE_NONE)
		return (!v->has_post && v->has_dev) ? -1 : 3;
	return (int)v->pre - 1; /* a 0, b 1, rc 2 */
}

static int
icmp(int a, int b)
{
	return (a > b) - (a < b);
}

static int
cmp_local(const struct tg_version *a, const struct tg_version *b)
{
	size_t k;
	int c;

	for (k = 0; k < a->nlocal && k < b->nlocal; k++) {
		const struct tg_local_seg *x = &a->local[k], *y = &b->local[k];

		if (x->numeric != y->numeric)
			return x->numeric ? 1 : -1;
		if (x->numeric) {
			c = tg_version_num_cmp((struct tg_num){x->p, x->n},
					       (struct tg_num){y->p, y->n});
		} else {
			size_t n = x->n < y->n ? x->n : y->n;

			c = memcmp(x->p, y->p, n);
			c = c ? (c > 0) - (c < 0)
			      : icmp((int)(x->n > y->n), (int)(x->n < y->n));
		}
		if (c)
			return c;
	}
	return (a->nlocal > b->nlocal) - (a->nlocal < b->nlocal);
}

int
tg_version_cmp(const struct tg_version *a, const struct tg_version *b)
{
	int c;

	if ((c = tg_version_num_cmp(a->epoch, b->epoch)) != 0)
		return c;
	if ((c = cmp_release(a, b)) != 0)
		return c;
	if ((c = icmp(pre_rank(a), pre_rank(b))) != 0)
		return c;
	if ((c = tg_version_num_cmp(a->pre_n, b->pre_n)) != 0)
		return c;
	if ((c = icmp(a->has_post, b->has_post)) != 0)
		return c;
	if ((c = tg_version_num_cmp(a->post_n, b->post_n)) != 0)
		return c;
	if ((c = icmp(!a->has_dev, !b->has_dev)) != 0)
		return c;
	if ((c = tg_version_num_cmp(a->dev_n, b->dev_n)) != 0)
		return c;
	return cmp_local(a, b);
}

int
tg_version_is_prerelease(const struct tg_version *v)
{
	return v->pre != TG_PRE_NONE || v->has_dev;
}

int
tg_version_same_release(const struct tg_version *a, const struct tg_version *b)
{
	return tg_version_num_cmp(a->epoch, b->epoch) == 0 &&
	       cmp_release(a, b) == 0;
}

/* The text of a version, scanned but not built: what the allocation-free
 * comparison works from. */
struct text {
	const char *s;
	size_t start; /* the release, after whitespace, 'v' and epoch */
	size_t end;
	struct pieces p;
};

static void
text_scan(struct text *t, const char *s, size_t len)
{
	size_t b = tg_pyspace_lstrip(s, 0, len);
	size_t e = tg_pyspace_rstrip(s, b, len);

	t->s = s;
	t->end = e;
	if (scan(s, b, e, &t->p, 1) == SIZE_MAX)
		memset(&t->p, 0, sizeof(t->p)); /* not a version: as "0" */
	if (b < e && (s[b] == 'v' || s[b] == 'V'))
		b++;
	t->start = t->p.has_epoch ? t->p.epoch.e + 1 : b;
}

/* Compare the numbers s[x] and t[y] (an empty span is 0). */
static int
span_num_cmp(const char *s, struct span x, const char *t, struct span y)
{
	int c;

	while (x.b < x.e && s[x.b] == '0')
		x.b++;
	while (y.b < y.e && t[y.b] == '0')
		y.b++;
	if (x.e - x.b != y.e - y.b)
		return x.e - x.b < y.e - y.b ? -1 : 1;
	c = memcmp(s + x.b, t + y.b, x.e - x.b);
	return (c > 0) - (c < 0);
}

/* The next release segment at *i, or an empty span (0) past the end. */
static struct span
next_release(const struct text *t, size_t *i, size_t *left)
{
	struct span sp = {0, 0};

	if (*left == 0)
		return sp;
	sp.b = *i;
	sp.e = skip_digits(t->s, *i, t->end);
	*i = sp.e + 1;
	(*left)--;
	return sp;
}

/* The next local segment at *i (within the local label), or b == e. */
static struct span
next_local(const struct text *t, size_t *i)
{
	struct span sp;

	sp.b = *i;
	while (*i < t->p.local.e && !is_sep(t->s[*i]))
		(*i)++;
	sp.e = *i;
	if (*i < t->p.local.e)
		(*i)++;
	return sp;
}

static int
text_pre_rank(const struct pieces *p)
{
	if (p->pre == TG_PRE_NONE)
		return (!p->has_post && p->has_dev) ? -1 : 3;
	return (int)p->pre - 1;
}

static int
cmp_local_text(const struct text *a, const struct text *b)
{
	size_t i = a->p.local.b, j = b->p.local.b;
	int c;

	if (!a->p.has_local || !b->p.has_local)
		return icmp(a->p.has_local, b->p.has_local);
	for (;;) {
		int ea = i >= a->p.local.e, eb = j >= b->p.local.e;
		struct span x, y;
		int nx, ny;

		if (ea || eb)
			return icmp(!ea, !eb);
		x = next_local(a, &i);
		y = next_local(b, &j);
		nx = all_digits(a->s, x.b, x.e);
		ny = all_digits(b->s, y.b, y.e);
		if (nx != ny)
			return nx ? 1 : -1;
		if (nx) {
			c = span_num_cmp(a->s, x, b->s, y);
		} else {
			size_t k;

			c = 0;
			for (k = 0; !c && x.b + k < x.e && y.b + k < y.e; k++)
				c = icmp((unsigned char)lower(a->s[x.b + k]),
					 (unsigned char)lower(b->s[y.b + k]));
			if (!c)
				c = icmp((int)(x.e - x.b > y.e - y.b),
					 (int)(x.e - x.b < y.e - y.b));
		}
		if (c)
			return c;
	}
}

int
tg_version_cmp_text(const char *a, size_t alen, const char *b, size_t blen)
{
	struct text x, y;
	struct span ex = {0, 0}, ey = {0, 0};
	size_t i, j, lx, ly;
	int c;

	text_scan(&x, a, alen);
	text_scan(&y, b, blen);
	if (x.p.has_epoch)
		ex = x.p.epoch;
	if (y.p.has_epoch)
		ey = y.p.epoch;
	if ((c = span_num_cmp(a, ex, b, ey)) != 0)
		return c;
	/* missing release segments are 0: the same as ignoring trailing
	 * zeros */
	i = x.start;
	j = y.start;
	lx = x.p.nrelease;
	ly = y.p.nrelease;
	while (lx || ly) {
		struct span sx = next_release(&x, &i, &lx);
		struct span sy = next_release(&y, &j, &ly);

		if ((c = span_num_cmp(a, sx, b, sy)) != 0)
			return c;
	}
	if ((c = icmp(text_pre_rank(&x.p), text_pre_rank(&y.p))) != 0)
		return c;
	if ((c = span_num_cmp(a, x.p.pre_n, b, y.p.pre_n)) != 0)
		return c;
	if ((c = icmp(x.p.has_post, y.p.has_post)) != 0)
		return c;
	if ((c = span_num_cmp(a, x.p.post_n, b, y.p.post_n)) != 0)
		return c;
	if ((c = icmp(!x.p.has_dev, !y.p.has_dev)) != 0)
		return c;
	if ((c = span_num_cmp(a, x.p.dev_n, b, y.p.dev_n)) != 0)
		return c;
	return cmp_local_text(&x, &y);
}
