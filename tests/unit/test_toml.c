/* test_toml.c - unit tests for lib/util/toml: the exact TOML reader
 * SPDX-License-Identifier: MIT
 *
 * Each good case is a document and the tree it must give, written out
 * as {key=value,...} with strings quoted (escapes decoded), other
 * scalars bare, arrays [...]; each bad case a document and the message,
 * with line and column, it must be refused with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/util/buf.h"
#include "lib/util/toml.h"

static void
dump(struct tg_buf *b, const struct tg_toml_value *v)
{
	size_t k;

	switch (v->type) {
	case TG_TOML_STRING:
		tg_buf_addc(b, '"');
		tg_buf_add(b, v->str, v->len);
		tg_buf_addc(b, '"');
		break;
	case TG_TOML_OTHER:
		tg_buf_adds(b, v->str);
		break;
	case TG_TOML_ARRAY:
		tg_buf_addc(b, '[');
		for (k = 0; k < v->n; k++) {
			if (k)
				tg_buf_addc(b, ',');
			dump(b, v->items[k]);
		}
		tg_buf_addc(b, ']');
		break;
	case TG_TOML_TABLE:
		tg_buf_addc(b, '{');
		for (k = 0; k < v->n; k++) {
			if (k)
				tg_buf_addc(b, ',');
			tg_buf_addf(b, "%s=", v->keys[k]);
			dump(b, v->items[k]);
		}
		tg_buf_addc(b, '}');
		break;
	}
}

static const struct {
	const char *doc, *tree;
} good[] = {
    {"", "{}"},
    {"# only a comment\n\n", "{}"},
    {"a = \"x\"\nb = 'y\\n'\n", "{a=\"x\",b=\"y\\n\"}"},
    {"a = \"\\t\\\"\\\\\\u00e9\\U0001F600\"",
     "{a=\"\t\"\\\xc3\xa9\xf0\x9f\x98\x80\"}"},
    {"a = \"\"\"\nline1\nline2\"\"\"\n", "{a=\"line1\nline2\"}"},
    {"a = \"\"\"x \\\n    y\"\"\"\n", "{a=\"x y\"}"},
    {"a = '''\nraw \\n'''\n", "{a=\"raw \\n\"}"},
    {"a = \"\"\"q\"\"\"\"\"\n", "{a=\"q\"\"\"}"},
    {"a = [\n  \"x\", # c\n  'y',\n]\n", "{a=[\"x\",\"y\"]}"},
    {"a = [1, [2, 3], true, 1979-05-27 07:32:00Z, -inf]",
     "{a=[1,[2,3],true,1979-05-27 07:32:00Z,-inf]}"},
    {"[project]\nname = \"p\"\n[project.optional-dependencies]\n"
     "cuda = [\"torch\"]\n",
     "{project={name=\"p\",optional-dependencies={cuda=[\"torch\"]}}}"},
    {"project.dependencies = [\"t\"]\n\"quoted key\" = 1\n'lit' . b = 2\n",
     "{project={dependencies=[\"t\"]},quoted key=1,lit={b=2}}"},
    {"[a.b]\nx = 1\n[a]\ny = 2\n", "{a={b={x=1},y=2}}"},
    {"[[t]]\nx = 1\n[[t]]\nx = 2\n[t.s]\ny = 3\n", "{t=[{x=1},{x=2,s={y=3}}]}"},
    {"p = { name = \"n\", v.w = 1 }\n", "{p={name=\"n\",v={w=1}}}"},
    {"a = 1\r\nb = 2\r\n", "{a=1,b=2}"},
    {"\xef\xbb\xbf"
     "a = 1\n",
     "{a=1}"},
    /* scalars are kept as their text, once their shape is TOML's */
    {"a = [1_000, 0xdead_beef, 0o755, 0b1101, +1.5e-3, -0.0, nan]\n",
     "{a=[1_000,0xdead_beef,0o755,0b1101,+1.5e-3,-0.0,nan]}"},
    {"a = [1979-05-27, 07:32:00.999, 2024-02-29T00:32:00-07:00]\n",
     "{a=[1979-05-27,07:32:00.999,2024-02-29T00:32:00-07:00]}"},
    {"s = '''x'''''\n", "{s=\"x''\"}"},
};

static const struct {
	const char *doc, *msg;
} bad[] = {
    {"a = \"x\n", "line 1, column 7: an unterminated string"},
    {"a = [\"x\"\n", "line 2, column 1: an unterminated array"},
    {"a = 1\na = 2\n", "line 2, column 5: a key defined twice"},
    {"[a]\n[a]\n", "line 2, column 4: a table defined twice"},
    {"a.b = 1\n[a]\n", "line 2, column 4: a table defined twice"},
    {"a = {b = 1}\n[a.c]\n", "line 2, column 6: a key defined twice"},
    {"a = \"\\q\"\n", "line 1, column 7: an unknown escape in a string"},
    {"a = \"\\uD800\"\n",
     "line 1, column 7: an escape that is not a Unicode scalar value"},
    {"a = 1 b\n", "line 1, column 7: expected a newline after the value"},
    {"a = \n", "line 1, column 5: expected a value"},
    {"a = what\n", "line 1, column 5: not a TOML value"},
    {"= 1\n", "line 1, column 1: expected a key"},
    {"a\n", "line 1, column 2: expected '=' after the key"},
    {"[a\n", "line 1, column 3: expected ']' after the table name"},
    {"p = {a = 1,}\n",
     "line 1, column 12: a trailing comma in an inline table"},
    {"a = \"\xff\"\n", "line 1, column 6: invalid UTF-8"},
    {"x = 1\na = \"\0\"\n", "line 2, column 6: a NUL byte"},
    {"a = 01\n", "line 1, column 5: not a TOML value"},
    {"a = 1__0\n", "line 1, column 5: not a TOML value"},
    {"a = 0x\n", "line 1, column 5: not a TOML value"},
    {"a = 2023-02-29\n", "line 1, column 5: not a TOML value"},
    {"a = 25:00:00\n", "line 1, column 5: not a TOML value"},
    {"a = \"\\x41\"\n", "line 1, column 7: an unknown escape in a string"},
    {"a = [1,,2]\n", "line 1, column 8: expected a value"},
    {"[a.]\n", "line 1, column 4: expected a key"},
    {"a = [1]\n[[a]]\n",
     "line 2, column 6: an array of tables named like another key"},
};

int
main(void)
{
	struct tg_buf b = TG_BUF_INIT;
	size_t k;

	for (k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
		struct tg_toml_value *v = NULL;
		struct tg_err err = TG_ERR_INIT;
		int rc = tg_toml_parse(&v, good[k].doc, strlen(good[k].doc),
				       "t.toml", &err);

		CHECK(rc == 0, "good %zu: rc %d (%s)", k, rc, err.msg);
		if (!rc) {
			tg_buf_clear(&b);
			dump(&b, v);
			CHECK_STR(b.data, good[k].tree, good[k].doc);
		}
		tg_toml_free(v);
	}
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct tg_toml_value *v = NULL;
		struct tg_err err = TG_ERR_INIT;
		/* the NUL case: its length is counted by hand */
		size_t len = strlen(bad[k].doc);
		char want[300];
		int rc;

		if (strncmp(bad[k].doc, "x = 1\na = \"", 11) == 0)
			len = 14;
		rc = tg_toml_parse(&v, bad[k].doc, len, "t.toml", &err);
		CHECK(rc == TG_EINVAL && v == NULL, "bad %zu: rc %d", k, rc);
		snprintf(want, sizeof(want), "cannot parse 't.toml': %s",
			 bad[k].msg);
		CHECK_STR(err.msg, want, bad[k].doc);
		tg_toml_free(v);
	}
	{
		/* nesting past TG_TOML_DEPTH_MAX is a limit, not a crash */
		struct tg_toml_value *v = NULL;
		struct tg_err err = TG_ERR_INIT;
		char doc[TG_TOML_DEPTH_MAX * 2 + 16];
		size_t n = 0, j;

		n += (size_t)sprintf(doc, "a = ");
		for (j = 0; j < TG_TOML_DEPTH_MAX + 1; j++)
			doc[n++] = '[';
		doc[n] = '\0';
		CHECK(tg_toml_parse(&v, doc, n, "t.toml", &err) == TG_ELIMIT,
		      "depth");
		CHECK(strstr(err.msg, "values nested too deep") != NULL, "%s",
		      err.msg);
		CHECK(tg_toml_get(NULL, "a") == NULL, "get NULL");
	}
	{
		/* a table of many keys (hash-indexed): each is found, and a
		 * repeated key, a table over a key and a dotted key through
		 * a value are still refused where the index decides */
		static const char *again[] = {"k37 = 2\n", "[t.k90]\n",
					      "k2.x = 1\n"};
		struct tg_buf doc = TG_BUF_INIT;
		struct tg_toml_value *v = NULL;
		struct tg_err err = TG_ERR_INIT;
		size_t j, found = 0;

		tg_buf_adds(&doc, "[t]\n");
		for (j = 0; j < 1000; j++)
			tg_buf_addf(&doc, "k%zu = %zu\n", j, j);
		CHECK(tg_toml_parse(&v, doc.data, doc.len, "t.toml", &err) == 0,
		      "many keys: %s", err.msg);
		for (j = 0; v && j < 1000; j++) {
			char key[16];
			const struct tg_toml_value *x;

			snprintf(key, sizeof(key), "k%zu", j);
			x = tg_toml_get(tg_toml_get(v, "t"), key);
			found += x && x->line == j + 2;
		}
		CHECK(found == 1000, "found %zu of 1000 keys", found);
		CHECK(tg_toml_get(tg_toml_get(v, "t"), "k1000") == NULL,
		      "absent key");
		tg_toml_free(v);
		for (j = 0; j < sizeof(again) / sizeof(again[0]); j++) {
			size_t keep = doc.len;

			v = NULL;
			tg_buf_adds(&doc, again[j]);
			CHECK(tg_toml_parse(&v, doc.data, doc.len, "t.toml",
					    &err) == TG_EINVAL,
			      "again %zu accepted", j);
			tg_toml_free(v);
			doc.len = keep;
		}
		tg_buf_release(&doc);
	}
	tg_buf_release(&b);
	return check_result("test_toml");
}
