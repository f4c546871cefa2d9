/* test_require_html.c - unit tests for render/require_html
 * SPDX-License-Identifier: MIT
 *
 * What a table loaded from a file cannot hold (the loader takes only
 * dotted ids): an entry whose id holds < & " ' and a byte that is not
 * UTF-8, built by hand, used at paths that try a scheme and a host. The
 * page must escape each, keep one cell per release in its row, and fail
 * rather than come out cut when its buffer is too small.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/render/require_html.h"
#include "lib/table/releases.h"

static size_t
count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

int
main(void)
{
	struct tg_api api;
	struct tg_table t = TG_TABLE_INIT;
	struct tg_require rq;
	struct tg_require_api ua;
	struct tg_require_use uses[] = {
	    {(char *)"dir/<a&b>\"q'\xff.py", 3},
	    {(char *)"//evil.example/x.py", 4},
	    {(char *)"javascript:alert(1).py", 5},
	};
	struct tg_require_report rep = {"0.0", 1, NULL, "files"};
	struct tg_buf out = TG_BUF_INIT, small;
	const char *paths[] = {"<op>&"};
	size_t k, nrel = 0;
	int rc;

	memset(&api, 0, sizeof(api));
	api.id = (char *)"x.<b>&\"'\xff";
	api.deprecated.version = (char *)"1.5";
	CHECK(tg_version_parse(&api.deprecated.ver, "1.5", 3, NULL) == 0,
	      "parse 1.5");
	api.deprecated.status = TG_FACT_INFERRED;
	api.repl_text = (char *)"<script>alert(1)</script>";
	t.apis = &api;
	t.n = 1;
	tg_require_init(&rq, &t, 0);
	memset(&ua, 0, sizeof(ua));
	ua.api = &api;
	ua.uses = uses;
	ua.nuses = ua.capuses = sizeof(uses) / sizeof(uses[0]);
	rq.apis = &ua;
	rq.napis = 1;
	rq.requirement = (char *)"torch";

	rc = tg_require_html(&out, &rq, &rep, paths, 1);
	CHECK(rc == 0, "tg_require_html: %d", rc);
	CHECK(out.data != NULL && out.len == strlen(out.data), "one string");
	if (out.data) {
		/* nothing raw */
		CHECK(!strstr(out.data, "<b>"), "raw <b>");
		CHECK(!strstr(out.data, "<script"), "raw <script");
		CHECK(!strstr(out.data, "<op>"), "raw <op>");
		CHECK(!strchr(out.data, '\xff'), "raw byte 0xff");
		CHECK(!strstr(out.data, "href=\"//"), "a host");
		CHECK(!strstr(out.data, "href=\"javascript:"), "a scheme");
		/* each escaped */
		CHECK(strstr(out.data,
			     "x.&lt;b&gt;&amp;&quot;&#39;\xef\xbf\xbd") != NULL,
		      "the id escaped");
		CHECK(strstr(out.data, "&lt;op&gt;&amp;") != NULL,
		      "the operand escaped");
		CHECK(strstr(out.data,
			     "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL,
		      "the replacement text escaped");
		CHECK(strstr(out.data,
			     "href=\"dir/%3Ca%26b%3E%22q%27%FF.py\"") != NULL,
		      "the path percent-encoded");
		CHECK(strstr(out.data, "href=\"/evil.example/x.py\"") != NULL,
		      "'//' made one '/'");
		CHECK(strstr(out.data,
			     "href=\"javascript%3Aalert%281%29.py\"") != NULL,
		      "':' encoded");
		/* one row, a cell per release, deprecated and inferred from
		 * 1.5 on */
		while (tg_releases_at(nrel))
			nrel++;
		CHECK(count(out.data, "<g class=\"row\"") == 1, "one row");
		CHECK(count(out.data, "<g class=\"cell\"") == nrel,
		      "%zu cells for %zu releases",
		      count(out.data, "<g class=\"cell\""), nrel);
		CHECK(count(out.data, "data-state=\"deprecated\" "
				      "data-status=\"inferred\"") == nrel - 7,
		      "deprecated from 1.5.0, the 8th release");
		CHECK(count(out.data, "<script") == 0, "no script");
	}

	/* a buffer too small fails: never a page cut short and 0 */
	for (k = 100; k < out.len; k += out.len / 7) {
		tg_buf_init(&small, k);
		rc = tg_require_html(&small, &rq, &rep, paths, 1);
		CHECK(rc != 0, "a %zu-byte buffer: %d", k, rc);
		tg_buf_release(&small);
	}
	tg_buf_release(&out);
	tg_version_release(&api.deprecated.ver);
	return check_result("test_require_html");
}
