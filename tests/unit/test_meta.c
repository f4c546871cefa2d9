/* test_meta.c - unit tests for lib/meta: core-metadata headers
 * SPDX-License-Identifier: MIT
 *
 * Expected values are what Python 3.11's email.message_from_string
 * (compat32, as importlib.metadata uses it) gives for the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/pyenv/meta.h"

static void
parse_ok(void)
{
	static const char text[] = "From x\nName: torch\nVersion:   2.0 \n"
				   "X: a\n  b\n\tc\nTag: 1\nTag: 2\nbad line\n"
				   "Version: 3\n";
	struct tg_meta m = TG_META_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t i = 0;
	const char *v;

	CHECK(tg_meta_parse(&m, text, sizeof(text) - 1, 0, "f", &err) == 0,
	      "parse: %s", err.msg);
	CHECK(m.n == 5, "5 fields, got %zu", m.n);
	CHECK_STR(tg_meta_get(&m, "version"), "2.0 ", "first Version wins");
	CHECK_STR(tg_meta_get(&m, "X"), "a\n  b\n\tc", "continuation");
	v = tg_meta_next(&m, "Tag", &i);
	CHECK(v && strcmp(v, "1") == 0, "first Tag");
	i++;
	v = tg_meta_next(&m, "Tag", &i);
	CHECK(v && strcmp(v, "2") == 0, "second Tag");
	i++;
	CHECK(tg_meta_next(&m, "Tag", &i) == NULL, "two Tags only");
	CHECK(tg_meta_get(&m, "bad") == NULL, "a non-header line ends it");
	tg_meta_release(&m);
}

static void
parse_forms(void)
{
	static const struct {
		const char *text, *field, *want;
	} cases[] = {
	    {"Name: t\r\nVersion: 1.0\r\n\r\nVersion: 2\n", "Version", "1.0"},
	    {"Name: t\rVersion: 1.1\r", "Version", "1.1"},
	    {" cont\nName: t\nVersion: 4\n", "Version", "4"},
	    {"Version:\t\t5\n", "Version", "5"},
	    {"Version:6", "Version", "6"},
	    {"version: 7\n", "VERSION", "7"},
	    {"Name: t\n\nVersion: 8\n", "Version", NULL},
	    {"Name t\nVersion: 9\n", "Version", NULL},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_meta m = TG_META_INIT;
		struct tg_err err = TG_ERR_INIT;
		const char *v;

		CHECK(tg_meta_parse(&m, cases[k].text, strlen(cases[k].text), 0,
				    "f", &err) == 0,
		      "case %zu: %s", k, err.msg);
		v = tg_meta_get(&m, cases[k].field);
		if (cases[k].want)
			CHECK(v && strcmp(v, cases[k].want) == 0,
			      "case %zu: got '%s'", k, v ? v : "(null)");
		else
			CHECK(v == NULL, "case %zu: got '%s'", k, v);
		tg_meta_release(&m);
	}
}

/* '\r' line ends are looked for ahead, a page at a time: one just
 * before, at and after the first page's end, and one pages further on,
 * still end their lines there and no sooner. */
static void
cr_pages(void)
{
	int d;

	for (d = -1; d <= 1; d++) {
		size_t xn = 4096 - 11 + (size_t)(d + 1) - 1, n = 0;
		char *t = malloc(xn + 8200 + 64);
		struct tg_meta m = TG_META_INIT;
		struct tg_err err = TG_ERR_INIT;
		const char *v;

		if (!t)
			abort();
		memcpy(t, "Name: t\nX: ", 11);
		n = 11;
		memset(t + n, 'a', xn);
		n += xn;
		memcpy(t + n, "\rVersion: 1.2\r\nY: ", 18);
		n += 18;
		memset(t + n, 'b', 8200);
		n += 8200;
		memcpy(t + n, "\nZ: z\r", 6);
		n += 6;
		CHECK(tg_meta_parse(&m, t, n, 0, "f", &err) == 0, "cr %d: %s",
		      d, err.msg);
		v = tg_meta_get(&m, "X");
		CHECK(v && strlen(v) == xn, "cr %d: X of %zu bytes, want %zu",
		      d, v ? strlen(v) : 0, xn);
		CHECK_STR(tg_meta_get(&m, "Version"), "1.2", "cr: Version");
		v = tg_meta_get(&m, "Y");
		CHECK(v && strlen(v) == 8200, "cr %d: Y of 8200 bytes", d);
		CHECK_STR(tg_meta_get(&m, "Z"), "z", "cr: Z");
		tg_meta_release(&m);
		free(t);
	}
}

/* Lines are checked for NUL and UTF-8 only from the first byte that is
 * neither ASCII nor NUL on, looked for 4,096 bytes at a time: a bad
 * line after many pages of good ones, after a good non-ASCII line and
 * across a page end, is still found, with its number. */
static void
long_block(void)
{
	static const char *const bad[] = {"X: \xff\n", "X: a\0b\n"};
	static const size_t badlen[] = {5, 7};
	static const char *const msg[] = {"invalid UTF-8",
					  "binary data (a NUL byte)"};
	char text[20000], want[128];
	size_t k, n, line;

	for (k = 0; k < 4; k++) {
		struct tg_meta m = TG_META_INIT;
		struct tg_err err = TG_ERR_INIT;

		n = 0;
		line = 1;
		/* k odd: a good non-ASCII line first */
		if (k & 1) {
			memcpy(text, "Summary: caf\xc3\xa9\n", 15);
			n = 15;
			line++;
		}
		/* 23-byte lines: one crosses each 4,096-byte page end */
		while (n < 9000) {
			memcpy(text + n, "Classifier: abcdefghij\n", 23);
			n += 23;
			line++;
		}
		memcpy(text + n, bad[k / 2], badlen[k / 2]);
		n += badlen[k / 2];
		snprintf(want, sizeof(want), "cannot parse 'M': line %zu: %s",
			 line, msg[k / 2]);
		CHECK(tg_meta_parse(&m, text, n, 0, "M", &err) == TG_EINVAL,
		      "long block %zu: invalid", k);
		CHECK_STR(err.msg, want, "long block");
		/* the same without the bad line: every field read */
		CHECK(tg_meta_parse(&m, text, n - badlen[k / 2], 0, "M",
				    &err) == 0 &&
			  m.n == line - 1,
		      "long block %zu: %zu fields", k, m.n);
		tg_meta_release(&m);
	}
}

static void
parse_errors(void)
{
	static const struct {
		const char *text;
		size_t len;
		int truncated, code;
		const char *msg;
	} cases[] = {
	    {"Name: t\nVersion: 1\0\n", 20, 0, TG_EINVAL,
	     "cannot parse 'M': line 2: binary data (a NUL byte)"},
	    {"Name: t\nVersion: 1\xff\n", 19, 0, TG_EINVAL,
	     "cannot parse 'M': line 2: invalid UTF-8"},
	    {"Name: t\nVersion: \xed\xa0\x80\n", 20, 0, TG_EINVAL,
	     "cannot parse 'M': line 2: invalid UTF-8"},
	    {"Name: t\nX: yyyyyyyy", 19, 1, TG_ELIMIT,
	     "cannot parse 'M': header block longer than 19 bytes"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_meta m = TG_META_INIT;
		struct tg_err err = TG_ERR_INIT;
		int rc = tg_meta_parse(&m, cases[k].text, cases[k].len,
				       cases[k].truncated, "M", &err);

		CHECK(rc == cases[k].code, "case %zu: rc %d", k, rc);
		CHECK_STR(err.msg, cases[k].msg, "error message");
		CHECK(m.n == 0 && m.fields == NULL, "case %zu: released", k);
	}
	/* a NUL in a would-be header name makes it the body, as Python's
	 * headerRE does; a NUL in the body is the body's business */
	{
		struct tg_meta m = TG_META_INIT;

		CHECK(tg_meta_parse(&m, "Name: t\nVer\0sion: 1\n", 20, 0, "M",
				    NULL) == 0 &&
			  m.n == 1,
		      "NUL in a name ends the block");
		tg_meta_release(&m);
	}
	{
		struct tg_meta m = TG_META_INIT;

		CHECK(tg_meta_parse(&m, "Version: 1\n\n\0\xff", 14, 0, "M",
				    NULL) == 0,
		      "body not checked");
		tg_meta_release(&m);
	}
	long_block();
}

int
main(void)
{
	parse_ok();
	parse_forms();
	cr_pages();
	parse_errors();
	return check_result("test_meta");
}
