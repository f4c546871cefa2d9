/* test_index.c - unit tests for lib/table/index (the releases an index
 * lists) and lib/table/cache (the cache directory)
 * SPDX-License-Identifier: MIT
 *
 * Each good case is a document, with or without pre-releases, and the
 * versions it must give in order (space-separated); each bad case a
 * document and the message it must be refused with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/table/cache.h"
#include "lib/table/index.h"
#include "lib/util/buf.h"

#define F "[{\"filename\": \"f\"}]"
#define Y "[{\"filename\": \"f\", \"yanked\": true}]"

static void
good(void)
{
	static const struct {
		const char *doc;
		int pre;
		const char *want;
	} cases[] = {
	    {"{\"releases\": {}}", 0, ""},
	    {"{\"releases\": {\"2.10.0\": " F ", \"2.9.1\": " F
	     ", \"1.13.1\": " F "}}",
	     0, "1.13.1 2.9.1 2.10.0"},
	    /* no file, only yanked files: not released */
	    {"{\"releases\": {\"2.0.0\": [], \"2.0.1\": " Y ", \"2.1.0\": " F
	     "}}",
	     0, "2.1.0"},
	    /* one file not yanked is enough; a yanked reason is yanked */
	    {"{\"releases\": {\"2.0.0\": [{\"yanked\": \"bad\"}, "
	     "{\"yanked\": false}]}}",
	     0, "2.0.0"},
	    {"{\"releases\": {\"2.2.0rc1\": " F ", \"2.2.0\": " F
	     ", \"2.3.0.dev1\": " F "}}",
	     0, "2.2.0"},
	    {"{\"releases\": {\"2.2.0rc1\": " F ", \"2.2.0\": " F
	     ", \"2.3.0.dev1\": " F "}}",
	     1, "2.2.0rc1 2.2.0 2.3.0.dev1"},
	    /* not PEP 440: left out; equal versions once */
	    {"{\"releases\": {\"x y\": " F ", \"2.0\": " F ", \"2.0.0\": " F
	     "}}",
	     0, "2.0"},
	    /* PEP 691: wheel and sdist names, other projects ignored */
	    {"{\"files\": [{\"filename\": \"torch-2.1.0-cp311-none-any.whl\"},"
	     " {\"filename\": \"torch-2.0.0.tar.gz\"},"
	     " {\"filename\": \"torch-1.0.zip\"},"
	     " {\"filename\": \"torch-3.0.0-x.whl\", \"yanked\": \"why\"},"
	     " {\"filename\": \"torchvision-9.0-x.whl\"},"
	     " {\"filename\": \"torch-2.1.0-cp310-none-any.whl\"}]}",
	     0, "1.0 2.0.0 2.1.0"},
	};
	size_t k, j;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_index ix = TG_INDEX_INIT;
		struct tg_err err = TG_ERR_INIT;
		struct tg_buf got = TG_BUF_INIT;
		int rc = tg_index_parse(&ix, cases[k].doc, strlen(cases[k].doc),
					"D", cases[k].pre, &err);

		CHECK(rc == 0, "case %zu: %s", k, err.msg);
		for (j = 0; j < ix.n; j++)
			tg_buf_addf(&got, "%s%s", j ? " " : "", ix.v[j].str);
		tg_buf_addc(&got, '\0');
		CHECK_STR(got.data, cases[k].want, "good case");
		tg_buf_release(&got);
		tg_index_release(&ix);
	}
}

static void
bad(void)
{
	static const struct {
		const char *doc;
		const char *msg;
	} cases[] = {
	    {"{\"releases\": {", "cannot parse 'D': line 1, column 14: not "
				 "valid JSON"},
	    {"[]", "cannot read 'D': neither a PyPI JSON document "
		   "(\"releases\") nor a PEP 691 page (\"files\")"},
	    {"{\"releases\": []}", "cannot read 'D': neither a PyPI JSON "
				   "document (\"releases\") nor a PEP 691 page "
				   "(\"files\")"},
	    {"{\"releases\": {\"1.0\": 3}}",
	     "cannot read 'D': release "
	     "\"1.0\" is not an array of files"},
	    {"{\"files\": [{\"url\": \"u\"}]}", "cannot read 'D': a file "
						"without a \"filename\""},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_index ix = TG_INDEX_INIT;
		struct tg_err err = TG_ERR_INIT;
		int rc = tg_index_parse(&ix, cases[k].doc, strlen(cases[k].doc),
					"D", 0, &err);

		CHECK(rc == TG_EINVAL, "case %zu: rc %d", k, rc);
		CHECK_STR(err.msg, cases[k].msg, "bad case");
		CHECK(ix.n == 0 && ix.v == NULL, "case %zu: released", k);
	}
}

static void
cache_dir(void)
{
	struct tg_err err = TG_ERR_INIT;
	char *d = NULL;

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/home/u", 1);
	CHECK(tg_cache_dir(&d, &err) == 0, "%s", err.msg);
	CHECK_STR(d ? d : "", "/x/cache/torchgate", "XDG_CACHE_HOME");
	free(d);
	/* relative: ignored, as the XDG spec says */
	setenv("XDG_CACHE_HOME", "cache", 1);
	CHECK(tg_cache_dir(&d, &err) == 0, "%s", err.msg);
	CHECK_STR(d ? d : "", "/home/u/.cache/torchgate", "HOME");
	free(d);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "", 1);
	CHECK(tg_cache_dir(&d, &err) == TG_ENOENT && d == NULL, "no home");
	CHECK_STR(err.msg,
		  "no cache directory: neither XDG_CACHE_HOME nor HOME is "
		  "an absolute path",
		  "no home");
}

int
main(void)
{
	good();
	bad();
	cache_dir();
	return check_result("test_index");
}
