/* test_name_end.c - unit tests for lex/name_end: where a name ends
 * SPDX-License-Identifier: MIT
 *
 * Every byte value at every place of the first two words after a run
 * of name bytes, and at the end of buffers of every length up to 24
 * (the word loop's tail), against the byte-at-a-time rule: the
 * word-at-a-time mask must agree on each of the 256 bytes, and must not
 * read past len (run under valgrind by make check, on buffers allocated
 * to their length).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/lex/name_end.h"

/* The rule, a byte at a time. */
static size_t
slow_end(const char *s, size_t len, size_t k)
{
	while (k < len) {
		unsigned char c = (unsigned char)s[k];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c >= 0x80))
			break;
		k++;
	}
	return k;
}

static void
test_every_byte(void)
{
	static const char fill[] = "aZ_09\x80\xff"
				   "q";
	char buf[32];
	int c;
	size_t at, from;

	for (c = 0; c < 256; c++)
		for (at = 0; at < 20; at++)
			for (from = 0; from <= at; from++) {
				size_t k;

				for (k = 0; k < sizeof(buf); k++)
					buf[k] = fill[k % (sizeof(fill) - 1)];
				buf[at] = (char)c;
				buf[sizeof(buf) - 1] = ' ';
				CHECK(tg_lex_name_end(buf, sizeof(buf), from) ==
					  slow_end(buf, sizeof(buf), from),
				      "byte 0x%02x at %zu from %zu: %zu, not "
				      "%zu",
				      c, at, from,
				      tg_lex_name_end(buf, sizeof(buf), from),
				      slow_end(buf, sizeof(buf), from));
			}
}

static void
test_lengths(void)
{
	size_t n, k;

	/* all name bytes: the end is len, whatever len is */
	for (n = 1; n <= 24; n++) {
		char *s = malloc(n);

		if (!s) {
			CHECK(0, "out of memory");
			return;
		}
		memset(s, 'x', n);
		for (k = 0; k <= n; k++)
			CHECK(tg_lex_name_end(s, n, k) == n,
			      "len %zu from %zu: %zu", n, k,
			      tg_lex_name_end(s, n, k));
		s[n - 1] = '.';
		CHECK(tg_lex_name_end(s, n, 0) == n - 1,
		      "len %zu, '.' last: %zu", n, tg_lex_name_end(s, n, 0));
		free(s);
	}
}

int
main(void)
{
	test_every_byte();
	test_lengths();
	return check_result("test_name_end");
}
