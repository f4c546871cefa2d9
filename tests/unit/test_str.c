/* test_str.c - unit tests for util/str: quoting text in messages, UTF-8
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lib/util/str.h"

static const struct {
	const char *in;
	const char *want;
} quotes[] = {
    {"2.11.0", "2.11.0"},
    {"", ""},
    {"\x1b]2;owned\a\x1b[2J", "\\e]2;owned\\a\\e[2J"},
    {"a\nb\tc\rd\x7f", "a\\nb\\tc\\rd\\x7f"},
    {"\x01\x1f", "\\x01\\x1f"},
    {"back\\slash", "back\\slash"},
    {"caf\xc3\xa9", "caf\xc3\xa9"},
    {"bad \xc3 utf8 \xff", "bad \\xc3 utf8 \\xff"},
    {"\xed\xa0\x80", "\\xed\\xa0\\x80"}, /* a surrogate */
    /* C1 controls: CSI and OSC, valid UTF-8 that terminals obey */
    {"\xc2\x9b"
     "31m \xc2\x9d"
     "0;t",
     "\\xc2\\x9b31m \\xc2\\x9d0;t"},
    {"\xc2\xa0nbsp", "\xc2\xa0nbsp"}, /* U+00A0 is text */
};

static void
test_quote(void)
{
	char out[TG_STR_QUOTE_SIZE], *big;
	size_t k;

	for (k = 0; k < sizeof(quotes) / sizeof(quotes[0]); k++)
		CHECK_STR(tg_str_quote(out, quotes[k].in, strlen(quotes[k].in)),
			  quotes[k].want, quotes[k].in);
	CHECK_STR(TG_QUOTE(NULL), "(null)", "NULL");
	CHECK_STR(TG_QUOTE("x\ny"), "x\\ny", "macro");

	/* 900000 digits: 200 kept, then "..." */
	big = malloc(900001);
	memset(big, '1', 900000);
	big[900000] = '\0';
	tg_str_quote(out, big, 900000);
	CHECK(strlen(out) == 203, "length %zu", strlen(out));
	CHECK(strcmp(out + 200, "...") == 0, "ends '%s'", out + 200);
	/* exactly 200 bytes: not cut */
	tg_str_quote(out, big, 200);
	CHECK(strlen(out) == 200, "length %zu", strlen(out));
	/* a two-byte character across byte 200 is not split */
	big[199] = '\xc3', big[200] = '\xa9';
	tg_str_quote(out, big, 300);
	CHECK(strlen(out) == 202 && strcmp(out + 199, "...") == 0, "cut '%s'",
	      out + 190);
	/* 200 control bytes: all escaped, all fit */
	memset(big, '\x01', 300);
	tg_str_quote(out, big, 300);
	CHECK(strlen(out) == 803, "escaped length %zu", strlen(out));
	free(big);
}

static void
test_escape(void)
{
	char out[16];
	size_t at = 0;

	CHECK(tg_str_escape(out, sizeof(out), &at, "a\x1b", 2) == 0,
	      "all of it fits");
	CHECK_STR(out, "a\\e", "escape");
	CHECK(tg_str_escape(out, sizeof(out), &at, "\n0123456789abcdef", 17) ==
		  1,
	      "cut said");
	CHECK(at < sizeof(out) && strlen(out) == at, "bounded %zu", at);
	CHECK(strncmp(out, "a\\e\\n0123", 9) == 0, "kept '%s'", out);
}

/* Validity and where it fails, with the bad byte at every offset
 * around the eight-byte ASCII steps. */
static void
test_utf8(void)
{
	static const struct {
		const char *seq; /* a sequence after the ASCII run */
		int valid;
	} seqs[] = {
	    {"\xc3\xa9", 1},	 {"\xe2\x82\xac", 1}, {"\xf0\x9f\x98\x80", 1},
	    {"\xc3", 0},	 {"\xff", 0},	      {"\xc0\x80", 0},
	    {"\xe0\x80\x80", 0}, {"\xed\xa0\x80", 0}, {"\xf4\x90\x80\x80", 0},
	    {"\x80", 0},
	};
	char buf[64];
	size_t k, pre, bad;

	for (k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++)
		for (pre = 0; pre < 20; pre++) {
			size_t n = strlen(seqs[k].seq);
			int ok;

			memset(buf, 'a', pre);
			memcpy(buf + pre, seqs[k].seq, n);
			memcpy(buf + pre + n, "tail-of-ascii", 13);
			bad = 999;
			ok = tg_str_utf8_valid(buf, pre + n + 13, &bad);
			CHECK(ok == seqs[k].valid &&
				  (ok ? bad == 999 : bad == pre),
			      "utf8 sequence %zu after %zu bytes: %d at %zu", k,
			      pre, ok, bad);
		}
	CHECK(tg_str_utf8_valid("", 0, NULL), "empty is valid");
	CHECK(tg_str_utf8_valid("0123456789abcdef", 16, NULL), "ascii");
}

/* The one edit distance: main's and the options' "did you mean" and
 * the table's suggestions. */
static void
test_distance(void)
{
	static const struct {
		const char *a, *b;
		size_t limit, want;
	} cases[] = {
	    {"", "", 0, 0},
	    {"abc", "abc", 5, 0},
	    {"abc", "abd", 5, 1},
	    {"--quite", "--quiet", 5, 1}, /* a swap is one edit */
	    {"ab", "ba", 5, 1},
	    {"abc", "ca", 5, 3}, /* optimal string alignment, not Damerau */
	    {"kitten", "sitting", 5, 3},
	    {"verfy", "verify", 5, 1},
	    {"", "abc", 5, 3},
	    {"a", "abcdef", 2, SIZE_MAX}, /* the lengths alone: over 2 */
	    {"a", "abcdef", 5, 5},
	};
	char longer[TG_STR_DISTANCE_MAX + 2];
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		size_t d =
		    tg_str_distance(cases[k].a, cases[k].b, cases[k].limit);

		CHECK(d == cases[k].want, "distance '%s' '%s': %zu, want %zu",
		      cases[k].a, cases[k].b, d, cases[k].want);
		CHECK(tg_str_distance(cases[k].b, cases[k].a, cases[k].limit) ==
			  d,
		      "symmetric: '%s' '%s'", cases[k].a, cases[k].b);
	}
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK(tg_str_distance(longer, longer, SIZE_MAX) == SIZE_MAX,
	      "too long");
	longer[TG_STR_DISTANCE_MAX] = '\0';
	CHECK(tg_str_distance(longer, longer, SIZE_MAX) == 0,
	      "the longest compared");
}

/* Text reports: tg_str_addf escapes its %s arguments and nothing else,
 * and formats the other conversions as printf does. */
static void
test_addf(void)
{
	struct tg_buf b = TG_BUF_INIT;
	char want[256];

	tg_str_addf(&b, "%s:%zu:%zu: %s\n", "esc\x1b]2;PWN\a\x1b[2J.py",
		    (size_t)3, (size_t)14, "x\nforged.py:2:1: y");
	CHECK_STR(b.data,
		  "esc\\e]2;PWN\\a\\e[2J.py:3:14: x\\nforged.py:2:1: y\n",
		  "escaped arguments, the format's newline kept");
	tg_buf_clear(&b);
	tg_str_addf(&b, "m\xff %s|%-5s|%5s|%.2s|%.*s|", "m\xff\xc2\x9b", "ab",
		    "cd", "xyz", 1, "pq");
	CHECK_STR(b.data, "m\xff m\\xff\\xc2\\x9b|ab   |   cd|xy|p|",
		  "invalid UTF-8 and C1 escaped, widths and precisions");
	tg_buf_clear(&b);
	tg_str_addf(&b, "%d %u %ld %lld %zu %x %5.1f %c %% %s %-3d|%*d", -1, 2u,
		    -3L, 4LL, (size_t)5, 255u, 2.25, 'q', "caf\xc3\xa9", 7, 4,
		    8);
	snprintf(want, sizeof(want),
		 "%d %u %ld %lld %zu %x %5.1f %c %% %s %-3d|%*d", -1, 2u, -3L,
		 4LL, (size_t)5, 255u, 2.25, 'q', "caf\xc3\xa9", 7, 4, 8);
	CHECK_STR(b.data, want, "as printf");
	CHECK(tg_buf_error(&b) == 0, "no failure");
	tg_buf_clear(&b);
	tg_str_add_escaped(&b, "a\tb\x7f", 4);
	CHECK_STR(b.data, "a\\tb\\x7f", "tab and DEL");
	tg_buf_release(&b);
}

/* Each byte at each place of a line, past the eight-byte steps of the
 * fast path: kept exactly where it is 0x20..0x7e, else escaped (the
 * output differs from the line). */
static void
test_escape_each(void)
{
	struct tg_buf b = TG_BUF_INIT;
	char line[40];
	size_t at;
	int c, bad = 0;

	for (c = 0; c < 256; c++)
		for (at = 0; at < sizeof(line); at++) {
			int plain = c >= 0x20 && c < 0x7f;

			memset(line, 'a', sizeof(line));
			line[at] = (char)c;
			tg_buf_clear(&b);
			tg_str_add_escaped(&b, line, sizeof(line));
			if (plain != (b.len == sizeof(line) &&
				      memcmp(b.data, line, sizeof(line)) == 0))
				bad++;
		}
	CHECK(bad == 0, "%d bytes at a place kept or escaped wrongly", bad);
	tg_buf_release(&b);
}

/* Lone CRs made LF in a copy, CRLF kept; no copy without one. */
static void
test_lone_cr(void)
{
	static const struct {
		const char *in, *want; /* want NULL: no copy */
	} cases[] = {
	    {"", NULL},
	    {"a\nb\r\n", NULL},
	    {"a\rb", "a\nb"},
	    {"a\r", "a\n"},
	    {"\r\r\n\r", "\n\r\n\n"},
	    {"x\r\ny\rz\r\r", "x\r\ny\nz\n\n"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		size_t len = strlen(cases[k].in);
		char *c = (char *)1;

		CHECK(tg_str_lone_cr(cases[k].in, len, &c) == 0, "rc %zu", k);
		if (!cases[k].want)
			CHECK(c == NULL, "case %zu: a copy", k);
		else {
			size_t z;

			CHECK(c && memcmp(c, cases[k].want, len) == 0,
			      "case %zu: '%.*s'", k, c ? (int)len : 0,
			      c ? c : "");
			/* the NUL and the padding of a file's bytes (a
			 * read past len is an error under ASan and
			 * valgrind) */
			for (z = 0; c && z <= TG_STR_PAD; z++)
				CHECK(c[len + z] == '\0', "case %zu: byte %zu",
				      k, len + z);
		}
		free(c);
	}
}

int
main(void)
{
	test_addf();
	test_quote();
	test_escape();
	test_escape_each();
	test_utf8();
	test_distance();
	test_lone_cr();
	return check_result("test_str");
}
