/* scan.c - pattern search: the one module that uses PCRE2
 * SPDX-License-Identifier: MIT
 *
 * tg_scan_text compiles its pattern for one call (check's evidence cache
 * searches each pattern once per file). Callers that search thousands of
 * texts with one pattern (discover) compile it once: tg_scan_compile,
 * without JIT. The JIT's vector loads read past the subject's end, which
 * valgrind reports as uses of uninitialised memory in every run that
 * matches; such callers filter their texts with memmem() first.
 *
 * Limits: PCRE2's match limit 10^7 and depth limit 10^5 per match, so a
 * pathological pattern fails with a message instead of running for
 * minutes.
 *
 * PCRE2 allocates through a general context whose functions call our
 * malloc and free, so that its failed allocations are told from bad
 * patterns and the allocation-failure test build reaches them.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lib/util/scan.h"

#include <assert.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MATCH_LIMIT 10000000
#define DEPTH_LIMIT 100000

static void *
gc_malloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return malloc(n);
}

static void
gc_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/* Compile pattern (multiline) into *out: 0, TG_EINVAL with msg and
 * *offset, or TG_ENOMEM. jit: also JIT-compile it, which reads up to a
 * vector's width past the subject's end (callers pad their text), with
 * the code for an offset limit (tg_scan_re_each_from's to). The code
 * keeps the allocator of the context it was compiled with. */
static int
compile(pcre2_code **out, const char *pattern, size_t *offset, char *msg,
	size_t msgsz, int jit)
{
	int code;
	PCRE2_SIZE off = 0;
	pcre2_general_context *gc =
	    pcre2_general_context_create(gc_malloc, gc_free, NULL);
	pcre2_compile_context *cc =
	    gc ? pcre2_compile_context_create(gc) : NULL;
	pcre2_code *re = NULL;

	*out = NULL;
	if (cc)
		re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				   PCRE2_MULTILINE |
				       (jit ? PCRE2_USE_OFFSET_LIMIT : 0),
				   &code, &off, cc);
	pcre2_compile_context_free(cc);
	pcre2_general_context_free(gc);
	if (!cc || (!re && code == PCRE2_ERROR_HEAP_FAILED))
		return TG_ENOMEM;
	if (!re) {
		PCRE2_UCHAR buf[256];

		pcre2_get_error_message(code, buf, sizeof(buf));
		if (msg)
			snprintf(msg, msgsz, "%s", (const char *)buf);
		if (offset)
			*offset = (size_t)off;
		return TG_EINVAL;
	}
	if (jit)
		pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* a speed-up only */
	*out = re;
	return 0;
}

int
tg_scan_pattern_check(const char *pattern, size_t *offset, char *msg,
		      size_t msgsz)
{
	pcre2_code *re;
	int rc = compile(&re, pattern, offset, msg, msgsz, 0);

	pcre2_code_free(re);
	return rc;
}

int
tg_scan_text(const char *pattern, const char *s, size_t len, int *matched,
	     struct tg_err *err)
{
	char msg[256];
	size_t off;
	pcre2_code *re;
	pcre2_match_data *md = NULL;
	pcre2_match_context *mc = NULL;
	int rc = compile(&re, pattern, &off, msg, sizeof(msg), 1), r;

	*matched = 0;
	if (rc == TG_ENOMEM)
		return tg_err_set(err, rc, "out of memory");
	if (rc)
		return tg_err_set(err, TG_EINVAL,
				  "bad pattern at offset %zu: %s", off, msg);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	mc = pcre2_match_context_create(NULL);
	if (!md || !mc) {
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
		goto out;
	}
	pcre2_set_match_limit(mc, MATCH_LIMIT);
	pcre2_set_depth_limit(mc, DEPTH_LIMIT);
	r = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, mc);
	if (r >= 0)
		*matched = 1;
	else if (r == PCRE2_ERROR_NOMEMORY)
		rc = tg_err_set(err, TG_ENOMEM, "out of memory");
	else if (r != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR buf[256];

		pcre2_get_error_message(r, buf, sizeof(buf));
		rc = tg_err_set(err, TG_ELIMIT, "pattern search failed: %s",
				(const char *)buf);
	}
out:
	pcre2_match_context_free(mc);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return rc;
}

struct tg_scan_re {
	pcre2_code *code;
	size_t ngroups;	  /* capture groups + 1, at most TG_SCAN_GROUPS_MAX */
	int offset_limit; /* compiled for one (tg_scan_compile_padded) */
};

static int
compile_re(struct tg_scan_re **out, const char *pattern, int jit,
	   struct tg_err *err)
{
	char msg[256];
	size_t off = 0;
	uint32_t ncap = 0;
	struct tg_scan_re *re;
	int rc;

	*out = NULL;
	re = calloc(1, sizeof(*re));
	if (!re)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	rc = compile(&re->code, pattern, &off, msg, sizeof(msg), jit);
	if (rc) {
		free(re);
		return rc == TG_ENOMEM
			   ? tg_err_set(err, rc, "out of memory")
			   : tg_err_set(err, rc,
					"bad pattern at offset %zu: %s", off,
					msg);
	}
	pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &ncap);
	re->offset_limit = jit;
	re->ngroups = (size_t)ncap + 1 < TG_SCAN_GROUPS_MAX
			  ? (size_t)ncap + 1
			  : TG_SCAN_GROUPS_MAX;
	*out = re;
	return 0;
}

int
tg_scan_compile(struct tg_scan_re **out, const char *pattern,
		struct tg_err *err)
{
	return compile_re(out, pattern, 0, err);
}

int
tg_scan_compile_padded(struct tg_scan_re **out, const char *pattern,
		       struct tg_err *err)
{
	return compile_re(out, pattern, 1, err);
}

void
tg_scan_re_free(struct tg_scan_re *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re);
}

int
tg_scan_re_each(const struct tg_scan_re *re, const char *s, size_t len,
		tg_scan_cb cb, void *ctx, struct tg_err *err)
{
	return tg_scan_re_each_from(re, s, len, 0, SIZE_MAX, cb, ctx, err);
}

/* The matching state of one call: match data and limits. */
struct search {
	const struct tg_scan_re *re;
	const char *s;
	size_t len;
	pcre2_match_data *md;
	pcre2_match_context *mc;
	size_t ov[2 * TG_SCAN_GROUPS_MAX];
};

static int
search_begin(struct search *q, const struct tg_scan_re *re, const char *s,
	     size_t len, struct tg_err *err)
{
	q->re = re;
	q->s = s;
	q->len = len;
	q->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	q->mc = pcre2_match_context_create(NULL);
	if (!q->md || !q->mc)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	pcre2_set_match_limit(q->mc, MATCH_LIMIT);
	pcre2_set_depth_limit(q->mc, DEPTH_LIMIT);
	return 0;
}

static void
search_end(struct search *q)
{
	pcre2_match_context_free(q->mc);
	pcre2_match_data_free(q->md);
}

/* The first match that starts at start to limit (SIZE_MAX: anywhere
 * after start) into q->ov: 1, 0 when there is none, or a TG_E* code. */
static int
search(struct search *q, size_t start, size_t limit, struct tg_err *err)
{
	const PCRE2_SIZE *v;
	size_t k;
	int r;

	if (limit != SIZE_MAX) {
		assert(q->re->offset_limit);
		pcre2_set_offset_limit(q->mc, limit);
	}
	r = pcre2_match(q->re->code, (PCRE2_SPTR)q->s, q->len, start, 0, q->md,
			q->mc);
	if (r == PCRE2_ERROR_NOMATCH)
		return 0;
	if (r == PCRE2_ERROR_NOMEMORY)
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	if (r < 0) {
		PCRE2_UCHAR buf[256];

		pcre2_get_error_message(r, buf, sizeof(buf));
		return tg_err_set(err, TG_ELIMIT,
				  "pattern search failed at offset %zu: %s",
				  start, (const char *)buf);
	}
	/* r == 0: the ovector was too small; the groups it holds are still
	 * right. Groups past r took no part. */
	v = pcre2_get_ovector_pointer(q->md);
	for (k = 0; k < q->re->ngroups; k++) {
		int set = r == 0 || k < (size_t)r;

		q->ov[2 * k] = set ? (size_t)v[2 * k] : TG_SCAN_UNSET;
		q->ov[2 * k + 1] = set ? (size_t)v[2 * k + 1] : TG_SCAN_UNSET;
	}
	return 1;
}

/* Hand q's match to cb: 0 to go on with *next where the next match may
 * start, 1 to stop (0 returned), or cb's TG_E* code. */
static int
deliver(struct search *q, tg_scan_cb cb, void *ctx, size_t *next)
{
	int r = cb(ctx, q->s, q->ov, q->re->ngroups);

	if (r)
		return r < 0 ? r : 1;
	/* an empty match moves on by one byte */
	*next = q->ov[1] > q->ov[0] ? q->ov[1] : q->ov[1] + 1;
	return 0;
}

int
tg_scan_re_each_from(const struct tg_scan_re *re, const char *s, size_t len,
		     size_t from, size_t to, tg_scan_cb cb, void *ctx,
		     struct tg_err *err)
{
	struct search q;
	size_t start = from;
	int rc;

	rc = search_begin(&q, re, s, len, err);
	while (!rc && start <= len && start <= to) {
		rc = search(&q, start, to, err);
		if (rc <= 0)
			break;
		rc = deliver(&q, cb, ctx, &start);
	}
	search_end(&q);
	return rc < 0 ? rc : 0;
}

int
tg_scan_re_each_near(const struct tg_scan_re *re, const char *s, size_t len,
		     const size_t *at, size_t n, size_t pre, tg_scan_cb cb,
		     void *ctx, struct tg_err *err)
{
	struct search q;
	/* where the next match may start, and the starts below tried that
	 * no match has */
	size_t next = 0, tried = 0, i = 0;
	int rc;

	rc = search_begin(&q, re, s, len, err);
	while (!rc && i < n && at[i] <= len) {
		size_t a = at[i], from = a > pre ? a - pre : 0;

		if (from < next)
			from = next;
		if (from < tried)
			from = tried;
		if (from > a) {
			i++;
			continue;
		}
		rc = search(&q, from, a, err);
		if (rc < 0)
			break;
		if (rc == 0) {
			tried = a + 1;
			i++;
			continue;
		}
		/* the same offset again after the match: another may start
		 * between the match's end and it */
		rc = deliver(&q, cb, ctx, &next);
	}
	search_end(&q);
	return rc < 0 ? rc : 0;
}

int
tg_scan_each(const char *pattern, const char *s, size_t len, tg_scan_cb cb,
	     void *ctx, struct tg_err *err)
{
	struct tg_scan_re *re = NULL;
	int rc = tg_scan_compile(&re, pattern, err);

	if (rc)
		return rc;
	rc = tg_scan_re_each(re, s, len, cb, ctx, err);
	tg_scan_re_free(re);
	return rc;
}
