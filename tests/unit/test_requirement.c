/* test_requirement.c - unit tests for lib/requirement: PEP 508
 * SPDX-License-Identifier: MIT
 *
 * Requirements seen in real METADATA (the pip fixture's Requires-Dist
 * spellings) and PEP 508's grammar; the JSON mirrors packaging 26.3's
 * Requirement (name, sorted extras, str(specifier), str(marker), url), and
 * errors carry packaging's message and caret position.
 */
#include <string.h>

#include "check.h"
#include "lib/pep/requirement.h"

static const struct {
	const char *in, *json;
} good[] = {
    {"torch", "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"\", "
	      "\"marker\": null, \"url\": null}"},
    {"torch>=2.4,<2.12", "{\"name\": \"torch\", \"extras\": [], \"specifier\": "
			 "\"<2.12,>=2.4\", \"marker\": null, \"url\": null}"},
    {"torch (==2.11.0)", "{\"name\": \"torch\", \"extras\": [], \"specifier\": "
			 "\"==2.11.0\", \"marker\": null, \"url\": null}"},
    {"torch<4.0,>=2.1.0",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"<4.0,>=2.1.0\", "
     "\"marker\": null, \"url\": null}"},
    {"torch >=1.5.0", "{\"name\": \"torch\", \"extras\": [], \"specifier\": "
		      "\">=1.5.0\", \"marker\": null, \"url\": null}"},
    {"torch ; extra == \"dev\"",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "\"extra == \\\"dev\\\"\", \"url\": null}"},
    {"torch>=2.5; extra == \"dev\"",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \">=2.5\", "
     "\"marker\": \"extra == \\\"dev\\\"\", \"url\": null}"},
    {"Torch[Cuda, dev]>=2.4",
     "{\"name\": \"Torch\", \"extras\": [\"Cuda\", \"dev\"], \"specifier\": "
     "\">=2.4\", \"marker\": null, \"url\": null}"},
    {"torch[]", "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"\", "
		"\"marker\": null, \"url\": null}"},
    {"pkg @ https://example.org/pkg-1.0.tar.gz",
     "{\"name\": \"pkg\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "null, \"url\": \"https://example.org/pkg-1.0.tar.gz\"}"},
    {"pkg @ file:///tmp/x.whl ; python_version >= \"3.8\"",
     "{\"name\": \"pkg\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "\"python_version >= \\\"3.8\\\"\", \"url\": \"file:///tmp/x.whl\"}"},
    {"name[a,b,a]", "{\"name\": \"name\", \"extras\": [\"a\", \"b\"], "
		    "\"specifier\": \"\", \"marker\": null, \"url\": null}"},
    {"torch==2.*", "{\"name\": \"torch\", \"extras\": [], \"specifier\": "
		   "\"==2.*\", \"marker\": null, \"url\": null}"},
    {"a-b.c_d", "{\"name\": \"a-b.c_d\", \"extras\": [], \"specifier\": \"\", "
		"\"marker\": null, \"url\": null}"},
    {"torch; (os_name == \"posix\" or os_name == \"nt\") and python_version >= "
     "\"3.9\"",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "\"(os_name == \\\"posix\\\" or os_name == \\\"nt\\\") and python_version "
     ">= \\\"3.9\\\"\", \"url\": null}"},
    {"torch===2.11.0,>=2",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"===2.11.0,>=2\", "
     "\"marker\": null, \"url\": null}"},
    /* a ';' inside a URL: not where the marker starts */
    {"pkg @ http://x;y=1 ; extra == \"a\"",
     "{\"name\": \"pkg\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "\"extra == \\\"a\\\"\", \"url\": \"http://x;y=1\"}"},
    {"torch; python_version<\"3.13\"",
     "{\"name\": \"torch\", \"extras\": [], \"specifier\": \"\", \"marker\": "
     "\"python_version < \\\"3.13\\\"\", \"url\": null}"},
};

static const struct {
	const char *in;
	size_t pos;
	const char *msg;
} bad[] = {
    {"", 0, "expected package name at the start of dependency specifier"},
    {"torch >=", 6,
     "expected semicolon (after name with no version specifier) or end"},
    {"torch[", 6,
     "expected matching RIGHT_BRACKET for LEFT_BRACKET, after extras"},
    {"torch[a b]", 8, "expected comma between extra names"},
    {"torch[a,]", 8, "expected extra name after comma"},
    {"torch ==1.0.*.post1", 13,
     "expected comma (within version specifier), semicolon (after version "
     "specifier) or end"},
    {">=1.0", 0, "expected package name at the start of dependency specifier"},
    {"torch >=1.0 foo", 12,
     "expected comma (within version specifier), semicolon (after version "
     "specifier) or end"},
    {"torch (>=1.0", 12,
     "expected matching RIGHT_PARENTHESIS for LEFT_PARENTHESIS, after version "
     "specifier"},
    {"torch >= 1.0+abc", 12,
     "local version label can only be used with `==` or `!=` operators"},
    {"torch >=1.0.*", 12,
     ".* suffix can only be used with `==` or `!=` operators"},
    {"pkg @", 5, "expected URL after @"},
    {"pkg @ http://x foo", 15,
     "expected semicolon (after URL and whitespace) or end"},
    {"torch; os_name", 14,
     "expected marker operator, one of <=, <, !=, ==, >=, >, ~=, ===, in, not "
     "in"},
    {"torch; os_name == ", 18, "expected a marker variable or quoted string"},
    {"torch; (os_name == 'a'", 22,
     "expected matching RIGHT_PARENTHESIS for LEFT_PARENTHESIS, after marker "
     "expression"},
    {"torch; os_name not 'a'", 19, "expected 'in' after 'not'"},
    {"torch; os_name == 'a' and", 25,
     "expected a marker variable or quoted string"},
    {"torch; foo == 'a'", 7, "expected a marker variable or quoted string"},
    {"torch; os_name == 'a\\'", 22, "invalid quoted string"},
    /* heads that do not parse before the ';' */
    {"torch (>=1.0; os_name == 'a')", 12,
     "expected matching RIGHT_PARENTHESIS for LEFT_PARENTHESIS, after version "
     "specifier"},
    {"torch >=1.0 foo; os_name == 'a'", 12,
     "expected comma (within version specifier), semicolon (after version "
     "specifier) or end"},
    {"torch >= 1.0+abc; os_name == 'a'", 12,
     "local version label can only be used with `==` or `!=` operators"},
    /* a cut UTF-8 sequence before the ';' is no space (U+2000-U+200A
     * are e2 80 80-8a): the ';' ends the head, parsed alone or not
     * (found by fuzz_pep440) */
    {"e<0,===\xe2\x80;", 10, "expected a marker variable or quoted string"},
};

/* Each table through tg_requirement_parse, then twice through one marker
 * cache (the second pass finds every marker there): the same answers. */
static void
run_tables(struct tg_requirement_cache *mc)
{
	size_t k;

	for (k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
		struct tg_requirement req;
		struct tg_buf out = TG_BUF_INIT;
		struct tg_err err = TG_ERR_INIT;
		struct tg_jsonw w;

		if (tg_requirement_parse_cached(
			&req, good[k].in, strlen(good[k].in), mc, &err) != 0) {
			CHECK(0, "'%s' should parse: %s", good[k].in, err.msg);
			continue;
		}
		tg_jsonw_init(&w, &out);
		CHECK(tg_requirement_write_json(&req, &w, &err) == 0, "json");
		CHECK_STR(out.data, good[k].json, good[k].in);
		tg_buf_release(&out);
		tg_requirement_release(&req);
	}
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct tg_requirement req;
		struct tg_err err = TG_ERR_INIT;

		CHECK(tg_requirement_parse_cached(&req, bad[k].in,
						  strlen(bad[k].in), mc,
						  &err) == TG_EINVAL,
		      "'%s' should be invalid", bad[k].in);
		CHECK_STR(err.msg, bad[k].msg, bad[k].in);
		CHECK(err.has_pos && err.pos == bad[k].pos,
		      "'%s': position %zu, want %zu", bad[k].in, err.pos,
		      bad[k].pos);
	}
}

int
main(void)
{
	struct tg_requirement_cache mc = TG_REQUIREMENT_CACHE_INIT;
	struct tg_requirement a, b, c, d;
	struct tg_err err = TG_ERR_INIT;
	size_t n, ns;

	run_tables(NULL);
	run_tables(&mc);
	n = mc.markers.n;
	ns = mc.specs.n;
	CHECK(n > 0 && ns > 0, "the cache holds the tables' markers, specs");
	run_tables(&mc);
	CHECK(mc.markers.n == n && mc.specs.n == ns,
	      "the second pass finds them: %zu %zu, want %zu %zu", mc.markers.n,
	      mc.specs.n, n, ns);
	/* one marker text, one marker, borrowed by both */
	CHECK(tg_requirement_parse_cached(&a, "a; extra == 'x'", 15, &mc,
					  &err) == 0 &&
		  tg_requirement_parse_cached(&b, "b>1; extra == 'x'", 17, &mc,
					      &err) == 0 &&
		  a.marker == b.marker && a.marker_cached && b.marker_cached,
	      "a marker shared by its text");
	/* one specifier text, one set */
	CHECK(tg_requirement_parse_cached(&d, "d >1", 4, &mc, &err) == 0 &&
		  d.spec.specs == b.spec.specs && d.spec_cached &&
		  b.spec_cached,
	      "a specifier set shared by its text");
	tg_requirement_release(&d);
	/* one head text (before the ';'), one name, extras and set */
	CHECK(tg_requirement_parse_cached(&d, "b>1; os_name == 'x'", 19, &mc,
					  &err) == 0 &&
		  d.name == b.name && d.spec.specs == b.spec.specs &&
		  d.head_cached && b.head_cached && d.marker != b.marker,
	      "a head shared by its text");
	tg_requirement_release(&d);
	/* a marker that does not run to the end is not kept */
	n = mc.markers.n;
	CHECK(tg_requirement_parse_cached(&c, "c; extra == 'x' d", 17, &mc,
					  &err) == TG_EINVAL &&
		  err.pos == 16 && mc.markers.n == n,
	      "a marker that stops early: %s at %zu", err.msg, err.pos);
	tg_requirement_release(&a);
	tg_requirement_release(&b);
	tg_requirement_cache_release(&mc);
	return check_result("test_requirement");
}
