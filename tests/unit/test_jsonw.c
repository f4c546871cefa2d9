/* test_jsonw.c - unit tests for util/jsonw.c and the buffer's sticky failure
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/util/str.h"

static void
layouts(void)
{
	struct tg_buf b = TG_BUF_INIT;
	struct tg_jsonw w;

	/* block outside, flow inside, empty containers, every value kind */
	tg_jsonw_init(&w, &b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "n", -3);
	tg_jsonw_key(&w, "rows");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_kstr(&w, "s", "a\"b\\c\n\t\x01\x7f\xc3\xa9");
	tg_jsonw_kstr(&w, "null", NULL);
	tg_jsonw_key(&w, "list");
	tg_jsonw_array(&w, TG_JSONW_BLOCK); /* flow inside flow */
	tg_jsonw_bool(&w, 1);
	tg_jsonw_tristate(&w, -1);
	tg_jsonw_tristate(&w, 0);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "empty");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "obj");
	tg_jsonw_object(&w, TG_JSONW_FLOW);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	CHECK(tg_jsonw_finish(&w) == 0, "a whole document");
	CHECK_STR(b.data,
		  "{\n"
		  "  \"n\": -3,\n"
		  "  \"rows\": [\n"
		  "    {\"s\": \"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\", "
		  "\"null\": null, \"list\": [true, null, false]}\n"
		  "  ],\n"
		  "  \"empty\": [],\n"
		  "  \"obj\": {}\n"
		  "}\n",
		  "layout");
	tg_buf_release(&b);

	/* a root that is a flow array */
	tg_jsonw_init(&w, &b);
	tg_jsonw_array(&w, TG_JSONW_FLOW);
	tg_jsonw_strn(&w, "ab\0c", 4);
	tg_jsonw_int(&w, 7);
	tg_jsonw_end(&w);
	CHECK(tg_jsonw_finish(&w) == 0, "flow root");
	CHECK_STR(b.data, "[\"ab\\u0000c\", 7]\n", "flow root, NUL escaped");
	tg_buf_release(&b);
}

static void
sticky(void)
{
	struct tg_buf b = TG_BUF_INIT;
	struct tg_jsonw w;

	/* the first failure stays; later appends, even small ones, do not
	 * land, and finish reports it */
	tg_buf_init(&b, 8);
	CHECK(tg_buf_adds(&b, "12345") == 0, "fits");
	CHECK(tg_buf_adds(&b, "6789") == TG_ELIMIT, "past max");
	CHECK(tg_buf_addc(&b, 'x') == TG_ELIMIT, "later appends fail too");
	CHECK(tg_buf_addf(&b, "%d", 1) == TG_ELIMIT, "addf too");
	CHECK_STR(b.data, "12345", "nothing after the failure landed");
	CHECK(tg_buf_error(&b) == TG_ELIMIT, "error kept");
	tg_buf_clear(&b);
	CHECK(tg_buf_error(&b) == 0 && tg_buf_adds(&b, "ok") == 0,
	      "clear forgets the failure");
	tg_buf_release(&b);

	tg_buf_init(&b, 16);
	tg_jsonw_init(&w, &b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(&w, "key", "a value longer than sixteen bytes");
	tg_jsonw_end(&w);
	CHECK(tg_jsonw_finish(&w) == TG_ELIMIT,
	      "a document that did not fit is an error, not a short answer");
	tg_buf_release(&b);
}

/* A document with a long escaped string, keys and deep nesting. */
static void
document(struct tg_buf *b)
{
	struct tg_jsonw w;
	char big[5000];
	int k;

	memset(big, 'x', sizeof(big));
	big[0] = '"';
	big[4999] = '\n';
	tg_jsonw_init(&w, b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_key(&w, "k\"ey");
	tg_jsonw_strn(&w, big, sizeof(big));
	tg_jsonw_key(&w, "deep");
	for (k = 0; k < TG_JSONW_DEPTH - 2; k++)
		tg_jsonw_array(&w, TG_JSONW_BLOCK);
	tg_jsonw_str(&w, "in\x01");
	for (k = 0; k < TG_JSONW_DEPTH - 2; k++)
		tg_jsonw_end(&w);
	tg_jsonw_end(&w);
}

/* Composed in place or in parts, the bytes are the same; a buffer
 * whose limit is the document's length holds it, one byte less does
 * not. */
static void
limits(void)
{
	struct tg_buf b = TG_BUF_INIT, c;
	const char *p;
	size_t len;

	document(&b);
	CHECK(tg_buf_error(&b) == 0, "the document is written");
	len = b.len;
	CHECK(len > 5000 &&
		  strncmp(b.data, "{\n  \"k\\\"ey\": \"\\\"xx", 16) == 0,
	      "a key and a long value escaped: %.20s", b.data);
	p = strstr(b.data, "xxx\\n\",\n  \"deep\": [\n");
	CHECK(p != NULL, "the long string's escape at its end");
	p = strstr(b.data, "\"in\\u0001\"");
	CHECK(p != NULL && p - b.data > 62 && p[-1] == ' ' &&
		  p[-62 - 1] == '\n' && p[-62] == ' ',
	      "the innermost value indented 62 spaces");
	tg_buf_init(&c, len);
	document(&c);
	CHECK(tg_buf_error(&c) == 0 && c.len == len &&
		  memcmp(c.data, b.data, len) == 0,
	      "at the limit: the same bytes (%zu of %zu)", c.len, len);
	tg_buf_release(&c);
	tg_buf_init(&c, len - 1);
	document(&c);
	CHECK(tg_buf_error(&c) == TG_ELIMIT, "one byte short: the limit");
	tg_buf_release(&c);
	tg_buf_release(&b);
}

/* The escape of one byte, as the writer writes it: the reference. */
static size_t
ref_escape(unsigned char c, char *out)
{
	if (c == '"' || c == '\\')
		return (size_t)sprintf(out, "\\%c", c);
	if (c == '\n')
		return (size_t)sprintf(out, "\\n");
	if (c == '\t')
		return (size_t)sprintf(out, "\\t");
	if (c < 0x20 || c == 0x7f)
		return (size_t)sprintf(out, "\\u%04x", c);
	out[0] = (char)c;
	return 1;
}

/* The escape of the bytes at in[k..len): their length in *used. Well-
 * formed UTF-8 as it is, a byte of invalid UTF-8 as \udcXX. */
static size_t
ref_escape_at(const unsigned char *in, size_t k, size_t len, size_t *used,
	      char *out)
{
	unsigned c = in[k];
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;

	*used = 1;
	if (c < 0x80)
		return ref_escape((unsigned char)c, out);
	if (k + n <= len && tg_str_utf8_valid((const char *)in + k, n, NULL)) {
		memcpy(out, in + k, n);
		*used = n;
		return n;
	}
	return (size_t)sprintf(out, "\\udc%02x", c);
}

/* Invalid UTF-8 (a path's m\xff.py): \udcXX, short and long strings,
 * valid UTF-8 around it kept byte for byte. */
static void
invalid_utf8(void)
{
	struct tg_buf b = TG_BUF_INIT;
	static char big[5000];

	tg_jsonw_quote(
	    &b, "m\xff.py \xc3\xa9 \xc3 \xed\xa0\x80 \xf0\x9f\x98\x80", 19);
	CHECK_STR(b.data,
		  "\"m\\udcff.py \xc3\xa9 \\udcc3 \\udced\\udca0\\udc80 "
		  "\xf0\x9f\x98\x80\"",
		  "short: invalid bytes as surrogate escapes");
	tg_buf_clear(&b);
	memset(big, 'x', sizeof(big));
	memcpy(big + 4990, "\xc3\xa9\xfe", 3);
	tg_jsonw_quote(&b, big, sizeof(big));
	CHECK(b.len == sizeof(big) + 2 + 5 &&
		  memcmp(b.data + 4991, "\xc3\xa9\\udcfe", 8) == 0,
	      "long: the invalid byte escaped, the valid kept: %.12s",
	      b.data + 4989);
	tg_buf_release(&b);
}

/* Every byte value at every place of the first two eight-byte words,
 * among plain and high bytes (which the word-at-a-time test must not
 * mistake for bytes to escape, nor miss one after them). */
static void
escapes(void)
{
	static const unsigned char fill[] = {'a', 0xff, 0x80, 0x21, 0x7e, 0xbf};
	unsigned char in[24];
	char want[24 * 6 + 3];
	struct tg_buf b = TG_BUF_INIT;
	size_t f, at, k, n, used, bad = 0;
	unsigned c;

	for (f = 0; f < sizeof(fill); f++)
		for (c = 0; c < 256; c++)
			for (at = 0; at < 17; at++) {
				memset(in, fill[f], sizeof(in));
				in[at] = (unsigned char)c;
				n = 0;
				want[n++] = '"';
				for (k = 0; k < sizeof(in); k += used)
					n += ref_escape_at(in, k, sizeof(in),
							   &used, want + n);
				want[n++] = '"';
				want[n] = '\0';
				tg_buf_clear(&b);
				tg_jsonw_quote(&b, (const char *)in,
					       sizeof(in));
				if (b.len != n || memcmp(b.data, want, n) != 0)
					bad++;
			}
	CHECK(bad == 0,
	      "%zu of %zu strings escaped otherwise than byte by "
	      "byte",
	      bad, sizeof(fill) * 256 * 17);
	tg_buf_release(&b);
}

int
main(void)
{
	layouts();
	sticky();
	limits();
	escapes();
	invalid_utf8();
	return check_result("test_jsonw");
}
