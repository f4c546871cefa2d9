/* test_scan.c - unit tests for util/scan: searching near given places
 * SPDX-License-Identifier: MIT
 *
 * tg_scan_re_each_near against tg_scan_re_each on the same texts: for
 * patterns each of whose matches holds a literal at most pre bytes
 * after its start, a search near the literal's places finds the same
 * matches in the same order, whether the places overlap, repeat, sit in
 * one match, or a match has bytes before its literal; a callback that
 * stops stops both. The texts are allocated with the padding the
 * JIT-compiled patterns may read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/util/buf.h"
#include "lib/util/scan.h"

struct seen {
	struct tg_buf b;
	int stop_after; /* 0: never */
	int n;
};

static int
note(void *ctx, const char *s, const size_t *ov, size_t ngroups)
{
	struct seen *w = ctx;

	(void)s;
	(void)ngroups;
	tg_buf_addf(&w->b, "%zu-%zu ", ov[0], ov[1]);
	return ++w->n == w->stop_after;
}

struct scase {
	const char *pattern, *text, *literal;
	size_t pre;
	int stop_after;
};

static const struct scase cases[] = {
    {"\\bC10_UNUSED\\b", "C10_UNUSED_X C10_UNUSED\n// C10_UNUSED C10_UNUSEDs",
     "C10_UNUSED", 0, 0},
    {"(?:ab)?cd", "abcd cd xabcdcd abab cd", "cd", 2, 0},
    {"aa", "aaaaa aa a aaa", "aa", 0, 0},  /* places overlap */
    {"a+b", "aaaab ab b aab", "ab", 3, 0}, /* a match before its place */
    {"\\bat::optional\\b", "at::optional at::optionalx at::optional", "at::", 0,
     2}, /* a callback that stops */
    {"x(?:yz)?", "xyz x xyzx", "x", 0, 0},
    {"aab", "aaab aab", "aa", 0, 0}, /* a place fails, the next matches */
};

static void
run(const struct scase *c, const size_t *at, size_t n, const char *what)
{
	struct tg_scan_re *re = NULL;
	struct seen all = {TG_BUF_INIT, 0, 0}, near = {TG_BUF_INIT, 0, 0};
	size_t len = strlen(c->text);
	char *s = calloc(1, len + 1 + TG_SCAN_PAD), label[160];

	if (!s || tg_scan_compile_padded(&re, c->pattern, NULL)) {
		CHECK(0, "%s: cannot compile or allocate", c->pattern);
		free(s);
		return;
	}
	memcpy(s, c->text, len);
	all.stop_after = near.stop_after = c->stop_after;
	CHECK(tg_scan_re_each(re, s, len, note, &all, NULL) == 0, "%s: each",
	      c->pattern);
	CHECK(tg_scan_re_each_near(re, s, len, at, n, c->pre, note, &near,
				   NULL) == 0,
	      "%s: near", c->pattern);
	tg_buf_adds(&all.b, "");
	tg_buf_adds(&near.b, "");
	snprintf(label, sizeof(label), "%s on '%s' (%s)", c->pattern, c->text,
		 what);
	CHECK_STR(near.b.data, all.b.data, label);
	CHECK(all.n > 0, "%s: the case matches somewhere", c->pattern);
	tg_buf_release(&all.b);
	tg_buf_release(&near.b);
	tg_scan_re_free(re);
	free(s);
}

static void
test_same_matches(void)
{
	size_t k, at[64], n, j;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct scase *c = &cases[k];
		const char *p;

		n = 0;
		for (p = c->text; (p = strstr(p, c->literal)) && n < 32; p++)
			at[n++] = (size_t)(p - c->text);
		run(c, at, n, "each place once");
		/* each place twice: a repeat changes nothing */
		for (j = n; j-- > 0;) {
			at[2 * j] = at[j];
			at[2 * j + 1] = at[j];
		}
		run(c, at, 2 * n, "each place twice");
	}
}

static void
test_no_places(void)
{
	struct tg_scan_re *re = NULL;
	struct seen w = {TG_BUF_INIT, 0, 0};
	char s[8 + TG_SCAN_PAD] = "ab ab";

	if (tg_scan_compile_padded(&re, "ab", NULL)) {
		CHECK(0, "compile");
		return;
	}
	/* no place: nothing is looked for, so nothing is found */
	CHECK(tg_scan_re_each_near(re, s, 5, NULL, 0, 0, note, &w, NULL) == 0 &&
		  w.n == 0,
	      "no places: %d matches", w.n);
	tg_buf_release(&w.b);
	tg_scan_re_free(re);
}

int
main(void)
{
	test_same_matches();
	test_no_places();
	return check_result("test_scan");
}
