/* clex_agree.h - tg_clex_next_text against tg_clex_next, for tests
 * SPDX-License-Identifier: MIT
 *
 * tg_clex_next_text must return the literals, comments, directives and
 * END of tg_clex_next, the same in every field. clex_agree reads s[0..n)
 * with both and says whether they agree (1) or not (0); the fuzz harness
 * (fuzz_cxx.c) and the unit test (test_clex.c) share it.
 */
#ifndef TG_TESTS_CLEX_AGREE_H
#define TG_TESTS_CLEX_AGREE_H

#include <stddef.h>

#include "lib/lex/clex.h"

static int
clex_agree(const char *s, size_t n)
{
	struct tg_clex a, b;
	struct tg_clex_tok ta, tb;
	int ra, rb;

	tg_clex_init(&a, s, n);
	tg_clex_init(&b, s, n);
	do {
		do
			ra = tg_clex_next(&a, &ta);
		while (ra &&
		       (ta.kind == TG_CLEX_IDENT || ta.kind == TG_CLEX_NUMBER ||
			ta.kind == TG_CLEX_PUNCT || ta.kind == TG_CLEX_ERROR));
		rb = tg_clex_next_text(&b, &tb);
		if (ra != rb || ta.kind != tb.kind || ta.flags != tb.flags ||
		    ta.off != tb.off || ta.len != tb.len ||
		    ta.line != tb.line || ta.col != tb.col ||
		    ta.depth != tb.depth || ta.pre != tb.pre ||
		    ta.body != tb.body || ta.body_len != tb.body_len)
			return 0;
	} while (ra);
	return 1;
}

#endif
