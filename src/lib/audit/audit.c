/* audit.c - what the analyzers append to: findings, version branches,
 * suppression comments; and what the command asks of them
 * SPDX-License-Identifier: MIT
 *
 * The result helpers own nothing beyond the result. The driver-side
 * helpers judge a finding for a torch version (tg_audit_rank), match
 * suppressions, tell dead branches against a floor and put a result in
 * its output order; none allocates.
 */
#include "lib/audit/audit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pep/version.h"
#include "lib/util/grow.h"
#include "lib/util/wide.h"

/* A copy of s[0..n), NULL-safe: NULL in, NULL out (*ok kept). */
static char *
dup_n(const char *s, size_t n, int *ok)
{
	char *c;

	if (!s)
		return NULL;
	c = malloc(n + 1);
	if (!c) {
		*ok = 0;
		return NULL;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

int
tg_audit_result_add_finding(struct tg_audit_result *r,
			    const struct tg_audit_finding *f)
{
	struct tg_audit_finding *d;
	int ok = 1;

	if (TG_GROW(r->findings, r->nfindings + 1, r->capfindings))
		return TG_ENOMEM;
	d = &r->findings[r->nfindings];
	*d = *f;
	d->guard_text = dup_n(f->guard_text,
			      f->guard_text ? strlen(f->guard_text) : 0, &ok);
	d->text = dup_n(f->text, f->text ? strlen(f->text) : 0, &ok);
	if (!ok) {
		free(d->guard_text);
		free(d->text);
		return TG_ENOMEM;
	}
	r->nfindings++;
	return 0;
}

int
tg_audit_result_add_branch(struct tg_audit_result *r, size_t first_line,
			   size_t last_line, const char *condition,
			   const char *requires)
{
	struct tg_audit_branch *b;
	int ok = 1;

	if (TG_GROW(r->branches, r->nbranches + 1, r->capbranches))
		return TG_ENOMEM;
	b = &r->branches[r->nbranches];
	b->first_line = first_line;
	b->last_line = last_line;
	b->gate = 0;
	b->condition = dup_n(condition, strlen(condition), &ok);
	b->requires = dup_n(requires, strlen(requires), &ok);
	if (!ok) {
		free(b->condition);
		free(b->requires);
		return TG_ENOMEM;
	}
	r->nbranches++;
	return 0;
}

int
tg_audit_result_add_suppression(struct tg_audit_result *r, size_t line,
				const char *const *ids, size_t nids)
{
	struct tg_audit_suppression *s;
	size_t k;

	if (TG_GROW(r->suppressions, r->nsuppressions + 1, r->capsuppressions))
		return TG_ENOMEM;
	s = &r->suppressions[r->nsuppressions];
	memset(s, 0, sizeof(*s));
	s->line = line;
	if (nids) {
		s->ids = calloc(nids, sizeof(*s->ids));
		if (!s->ids)
			return TG_ENOMEM;
		for (k = 0; k < nids; k++) {
			s->ids[k] = strdup(ids[k]);
			if (!s->ids[k]) {
				while (k--)
					free(s->ids[k]);
				free(s->ids);
				return TG_ENOMEM;
			}
		}
		s->nids = nids;
	}
	r->nsuppressions++;
	return 0;
}

void
tg_audit_result_drop_findings(struct tg_audit_result *r)
{
	size_t k;

	for (k = 0; k < r->nfindings; k++) {
		free(r->findings[k].guard_text);
		free(r->findings[k].text);
	}
	free(r->findings);
	r->findings = NULL;
	r->nfindings = r->capfindings = 0;
}

void
tg_audit_result_release(struct tg_audit_result *r)
{
	size_t k, j;

	tg_audit_result_drop_findings(r);
	for (k = 0; k < r->nbranches; k++) {
		free(r->branches[k].condition);
		free(r->branches[k].requires);
	}
	free(r->branches);
	for (k = 0; k < r->nsuppressions; k++) {
		for (j = 0; j < r->suppressions[k].nids; j++)
			free(r->suppressions[k].ids[j]);
		free(r->suppressions[k].ids);
	}
	free(r->suppressions);
	tg_diag_list_release(&r->notes);
	memset(r, 0, sizeof(*r));
}

void
tg_audit_fix_release(struct tg_audit_fix *x)
{
	size_t k;

	for (k = 0; k < x->nedits; k++)
		free(x->edits[k].text);
	free(x->edits);
	free(x->message);
	memset(x, 0, sizeof(*x));
}

/* Whether the entry's lifecycle names any version (it matters for a
 * require): introduced (not "before"), deprecated or removed. */
static int
version_bound(const struct tg_api *a)
{
	return (a->introduced.version &&
		a->introduced.bound != TG_BOUND_BEFORE) ||
	       a->deprecated.version || a->removed.version;
}

enum tg_audit_rank
tg_audit_rank(const struct tg_api *a, const struct tg_version *torch, int all)
{
	switch (tg_api_status(a, torch)) {
	case TG_API_REMOVED:
		return TG_AUDIT_RANK_REMOVED;
	case TG_API_DEPRECATED:
		return TG_AUDIT_RANK_DEPRECATED;
	default:
		break;
	}
	if (a->is_private)
		return TG_AUDIT_RANK_PRIVATE;
	return all && version_bound(a) ? TG_AUDIT_RANK_BOUND
				       : TG_AUDIT_RANK_NONE;
}

const char *
tg_audit_rank_name(enum tg_audit_rank k)
{
	switch (k) {
	case TG_AUDIT_RANK_BOUND:
		return "version-bound";
	case TG_AUDIT_RANK_PRIVATE:
		return "private";
	case TG_AUDIT_RANK_DEPRECATED:
		return "deprecated";
	case TG_AUDIT_RANK_REMOVED:
		return "removed";
	default:
		return NULL;
	}
}

int
tg_audit_suppressed(struct tg_audit_result *r, const struct tg_audit_finding *f)
{
	size_t k, j;
	int hit = 0;

	for (k = 0; k < r->nsuppressions; k++) {
		struct tg_audit_suppression *s = &r->suppressions[k];

		if (s->line != f->line)
			continue;
		if (!s->nids) {
			s->used = hit = 1;
			continue;
		}
		for (j = 0; j < s->nids; j++)
			if (strcmp(s->ids[j], f->api->id) == 0)
				s->used = hit = 1;
	}
	return hit;
}

/* Whether the clause op ver (one of a branch's specifiers) leaves no
 * version at or above floor: an upper bound at or below it (1, else 0;
 * TG_ENOMEM). */
static int
clause_dead(const char *op, size_t opn, const char *ver, size_t vn,
	    const struct tg_version *floor)
{
	struct tg_version v = TG_VERSION_INIT;
	char buf[64];
	int wild = vn > 2 && memcmp(ver + vn - 2, ".*", 2) == 0, c, dead = 0;

	if (wild) {
		/* ==X.Y.*: the versions below X.(Y+1) */
		size_t k = vn - 2, a;
		unsigned long last;

		for (a = k; a > 0 && ver[a - 1] != '.'; a--)
			;
		if (k - a == 0 || k - a > 9 || a + 12 > sizeof(buf))
			return 0;
		last = strtoul(ver + a, NULL, 10);
		snprintf(buf, sizeof(buf), "%.*s%lu", (int)a, ver, last + 1);
		ver = buf;
		vn = strlen(buf);
	}
	c = tg_version_parse(&v, ver, vn, NULL);
	if (c)
		return c == TG_ENOMEM ? TG_ENOMEM : 0; /* no version: alive */
	c = tg_version_cmp(&v, floor);
	if (opn == 1 && op[0] == '<')
		dead = c <= 0;
	else if (opn == 2 && memcmp(op, "<=", 2) == 0)
		dead = c < 0;
	else if (opn == 2 && memcmp(op, "==", 2) == 0)
		dead = wild ? c <= 0 : c < 0;
	tg_version_release(&v);
	return dead;
}

int
tg_audit_branch_dead(const struct tg_audit_branch *b,
		     const struct tg_version *floor)
{
	const char *p = b->requires;

	/* a comma-separated specifier set: dead when one clause alone
	 * leaves nothing at or above the floor */
	while (p && *p) {
		size_t n = strcspn(p, ","), o = 0;
		int dead = 0;

		while (o < n && strchr("<>=!~", p[o]))
			o++;
		if (o && o < n)
			dead = clause_dead(p, o, p + o, n - o, floor);
		if (dead)
			return dead;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int
cmp_finding(const void *pa, const void *pb)
{
	const struct tg_audit_finding *a = pa, *b = pb;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return strcmp(a->api->id, b->api->id);
}

static int
cmp_branch(const void *pa, const void *pb)
{
	const struct tg_audit_branch *a = pa, *b = pb;

	if (a->first_line != b->first_line)
		return a->first_line < b->first_line ? -1 : 1;
	return a->last_line < b->last_line ? -1 : a->last_line > b->last_line;
}

/* Whether v[0..n) is in cmp's order already. */
static int
sorted(const void *v, size_t n, size_t size,
       int (*cmp)(const void *, const void *))
{
	const char *p = v;
	size_t k;

	for (k = 1; k < n; k++)
		if (cmp(p + (k - 1) * size, p + k * size) > 0)
			return 0;
	return 1;
}

void
tg_audit_result_sort(struct tg_audit_result *r)
{
	/* the analyzers add most files' findings in order already: those
	 * are left as they are, not sorted again (and equal findings keep
	 * the order they were added in, which qsort need not) */
	if (r->nfindings > 1 && !sorted(r->findings, r->nfindings,
					sizeof(*r->findings), cmp_finding))
		qsort(r->findings, r->nfindings, sizeof(*r->findings),
		      cmp_finding);
	if (r->nbranches > 1)
		qsort(r->branches, r->nbranches, sizeof(*r->branches),
		      cmp_branch);
}

int
tg_audit_grid_spec(const unsigned char set[TG_AUDIT_GRID], char *out,
		   size_t outsz)
{
	int lo = -1, hi = -1, k;

	for (k = 0; k < TG_AUDIT_GRID; k++)
		if (set[k]) {
			if (lo < 0)
				lo = k;
			else if (hi != k - 1)
				return 0;
			hi = k;
		}
	if (lo < 0 || (lo == 0 && hi == TG_AUDIT_GRID - 1))
		return 0;
	out[0] = '\0';
	if (lo > 0)
		snprintf(out, outsz, ">=%d.%d", lo / TG_AUDIT_GRID_MINOR,
			 lo % TG_AUDIT_GRID_MINOR);
	if (hi < TG_AUDIT_GRID - 1)
		snprintf(out + strlen(out), outsz - strlen(out), "%s<%d.%d",
			 lo > 0 ? "," : "", (hi + 1) / TG_AUDIT_GRID_MINOR,
			 (hi + 1) % TG_AUDIT_GRID_MINOR);
	return 1;
}

/* The length of the UTF-8 sequence at s[i..len), 0 when invalid. */
static size_t
utf8_len(const unsigned char *s, size_t i, size_t len)
{
	unsigned c = s[i];
	size_t n, k;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (len - i < n)
		return 0;
	for (k = 1; k < n; k++) {
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i + k] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Whether the 8 bytes at s are all ASCII and none is NUL. */
static int
plain8(const unsigned char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	return !(v & UINT64_C(0x8080808080808080)) &&
	       !((v - UINT64_C(0x0101010101010101)) & ~v &
		 UINT64_C(0x8080808080808080));
}

/* plain8 of the 32 bytes at s, in one test: a word with no high bit
 * has a zero byte exactly where (v - 0x01..) & ~v marks one. */
static int
plain32(const unsigned char *s)
{
	const uint64_t ones = UINT64_C(0x0101010101010101),
		       high = UINT64_C(0x8080808080808080);
	uint64_t v[4];

	memcpy(v, s, 32);
	return !((v[0] | v[1] | v[2] | v[3]) & high) &&
	       !((((v[0] - ones) & ~v[0]) | ((v[1] - ones) & ~v[1]) |
		  ((v[2] - ones) & ~v[2]) | ((v[3] - ones) & ~v[3])) &
		 high);
}

/* plain8 of the 64 bytes at s where SSE2 is there (0 elsewhere): no
 * high bit in their OR, no zero byte in their bytewise minimum. */
static int
plain64(const unsigned char *s)
{
#ifdef TG_WIDE
	__m128i a = _mm_loadu_si128((const __m128i *)s),
		b = _mm_loadu_si128((const __m128i *)(s + 16)),
		c = _mm_loadu_si128((const __m128i *)(s + 32)),
		d = _mm_loadu_si128((const __m128i *)(s + 48));
	__m128i any = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)),
		low = _mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d));

	return _mm_movemask_epi8(any) == 0 &&
	       _mm_movemask_epi8(_mm_cmpeq_epi8(low, _mm_setzero_si128())) == 0;
#else
	(void)s;
	return 0;
#endif
}

int
tg_audit_not_text(const char *src, size_t len, size_t *line, size_t *column,
		  const char **why)
{
	const unsigned char *s = (const unsigned char *)src;
	const char *p, *ls;
	size_t i = 0, ln = 1, n;

	/* 64 (SSE2), 32 or eight bytes at a time while they are plain
	 * ASCII; the line and column are counted only for a bad byte */
	while (i < len) {
		if (len - i >= 64 && plain64(s + i)) {
			i += 64;
			continue;
		}
		if (len - i >= 32 && plain32(s + i)) {
			i += 32;
			continue;
		}
		if (len - i >= 8 && plain8(s + i)) {
			i += 8;
			continue;
		}
		if (s[i] == 0) {
			*why = "a NUL byte";
			goto bad;
		}
		n = utf8_len(s, i, len);
		if (!n) {
			*why = "invalid UTF-8";
			goto bad;
		}
		i += n;
	}
	return 0;
bad:
	ls = src;
	for (p = src; (p = memchr(p, '\n', (size_t)(src + i - p))); ls = ++p)
		ln++;
	*line = ln;
	*column = (size_t)(src + i - ls) + 1;
	return 1;
}

const char *
tg_audit_marker(const char *s, size_t n)
{
	static const char key[] = "torchgate";
	const size_t kl = sizeof(key) - 1;
	const char *c, *e = s + n;

	for (c = memchr(s, ':', n); c;
	     c = memchr(c + 1, ':', (size_t)(e - c - 1)))
		if ((size_t)(c - s) >= kl && memcmp(c - kl, key, kl) == 0)
			return c - kl;
	return NULL;
}
