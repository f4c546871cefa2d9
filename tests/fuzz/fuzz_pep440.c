/* fuzz_pep440.c - libFuzzer harness for the version, specifier,
 * requirement and marker parsers
 * SPDX-License-Identifier: MIT
 *
 * The first byte picks the target; the rest is its text. Every parse that
 * succeeds is also printed, compared and matched, so the whole path from
 * text to answer runs under the sanitizers.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/pep/marker.h"
#include "lib/pep/requirement.h"
#include "lib/pep/spec.h"
#include "lib/pep/version.h"
#include "lib/table/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_version(const char *s, size_t n)
{
	struct tg_version a, b, view;
	size_t half = n / 2;

	if (tg_version_parse(&a, s, n, NULL) == 0) {
		if (tg_version_parse(&b, a.str, strlen(a.str), NULL) == 0) {
			/* the canonical form is a fixed point */
			if (strcmp(a.str, b.str) != 0 ||
			    tg_version_cmp(&a, &b) != 0)
				__builtin_trap();
			tg_version_release(&b);
		}
		tg_policy_apply(&a, TG_POLICY_RELEASE, &view);
		(void)tg_version_cmp(&a, &view);
		tg_version_release(&a);
	}
	if (tg_version_parse(&a, s, half, NULL) == 0) {
		if (tg_version_parse(&b, s + half, n - half, NULL) == 0) {
			int x = tg_version_cmp(&a, &b),
			    y = tg_version_cmp(&b, &a);

			if ((x > 0) != (y < 0) || (x == 0) != (y == 0))
				__builtin_trap();
			tg_version_release(&b);
		}
		tg_version_release(&a);
	}
}

static void
fuzz_specifier(const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);
	size_t sn = tab ? (size_t)(tab - s) : n;
	struct tg_specset set;
	struct tg_buf out = TG_BUF_INIT;
	struct tg_version v;

	if (tg_spec_set_parse(&set, s, sn, NULL) != 0)
		return;
	(void)tg_spec_set_format(&set, &out);
	if (tab) {
		const char *item = tab + 1;
		size_t in = n - sn - 1;
		int ok = tg_version_parse(&v, item, in, NULL) == 0;

		(void)tg_spec_set_contains(&set, item, in, ok ? &v : NULL,
					   TG_PRE_AUTO);
		(void)tg_spec_set_contains(&set, item, in, ok ? &v : NULL,
					   TG_PRE_DENY);
		if (ok)
			tg_version_release(&v);
	}
	tg_buf_release(&out);
	tg_spec_set_release(&set);
}

/* The JSON of s parsed, or the error's code, position and message, with
 * the cache mc or without (NULL). */
static void
requirement_answer(const char *s, size_t n, struct tg_requirement_cache *mc,
		   struct tg_buf *out)
{
	struct tg_requirement req;
	struct tg_err err = TG_ERR_INIT;
	struct tg_jsonw w;
	int rc = tg_requirement_parse_cached(&req, s, n, mc, &err);

	if (rc) {
		tg_buf_addf(out, "%d %d %zu %s", rc, err.has_pos,
			    err.has_pos ? err.pos : 0, err.msg);
		return;
	}
	tg_jsonw_init(&w, out);
	(void)tg_requirement_write_json(&req, &w, NULL);
	tg_requirement_release(&req);
}

/* Parsed without a cache, then twice through one (the second finds what
 * the first kept, in its arena): the same answer each time. */
static void
fuzz_requirement(const char *s, size_t n)
{
	struct tg_requirement_cache mc = TG_REQUIREMENT_CACHE_INIT;
	struct tg_buf a = TG_BUF_INIT, b = TG_BUF_INIT, c = TG_BUF_INIT;

	requirement_answer(s, n, NULL, &a);
	requirement_answer(s, n, &mc, &b);
	requirement_answer(s, n, &mc, &c);
	if (!tg_buf_error(&a) && !tg_buf_error(&b) && !tg_buf_error(&c) &&
	    (a.len != b.len || a.len != c.len ||
	     (a.len && (memcmp(a.data, b.data, a.len) != 0 ||
			memcmp(a.data, c.data, a.len) != 0))))
		__builtin_trap();
	tg_buf_release(&a);
	tg_buf_release(&b);
	tg_buf_release(&c);
	tg_requirement_cache_release(&mc);
}

static void
fuzz_marker(const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);
	size_t mn = tab ? (size_t)(tab - s) : n;
	struct tg_marker *m = NULL;
	struct tg_marker_env env = TG_MARKER_ENV_INIT;
	struct tg_buf out = TG_BUF_INIT;
	int r;

	if (tg_marker_parse(&m, s, mn, NULL) != 0)
		return;
	(void)tg_marker_format(m, &out, NULL);
	if (tab &&
	    tg_marker_env_parse_json(&env, tab + 1, n - mn - 1, NULL) == 0)
		(void)tg_marker_evaluate(m, &env, &r, NULL);
	tg_marker_env_release(&env);
	tg_buf_release(&out);
	tg_marker_free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;

	if (size < 1)
		return 0;
	switch (data[0] % 4) {
	case 0:
		fuzz_version(s, size - 1);
		break;
	case 1:
		fuzz_specifier(s, size - 1);
		break;
	case 2:
		fuzz_requirement(s, size - 1);
		break;
	default:
		fuzz_marker(s, size - 1);
		break;
	}
	return 0;
}
