/* test_version.c - unit tests for lib/version: parse, normalise, order
 * SPDX-License-Identifier: MIT
 *
 * Expected values were written from PEP 440 and checked against
 * pypa/packaging 26.3 (str(Version(x)), Version ordering).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/pep/version.h"
#include "lib/table/policy.h"

static const struct {
	const char *in;
	const char *want; /* NULL: invalid */
} normalize[] = {
    {"1.0", "1.0"},
    {"1.0dev", "1.0.dev0"},
    {"1.0-post1", "1.0.post1"},
    {"v1.0", "1.0"},
    {"V1.0", "1.0"},
    {"1!2.0", "1!2.0"},
    {"0!1.0", "1.0"},
    {"00!1.0", "1.0"},
    {"1.0.0", "1.0.0"},
    {"01.02.03", "1.2.3"},
    {"1.0a", "1.0a0"},
    {"1.0alpha1", "1.0a1"},
    {"1.0-beta.2", "1.0b2"},
    {"1.0c1", "1.0rc1"},
    {"1.0pre1", "1.0rc1"},
    {"1.0preview2", "1.0rc2"},
    {"1.0RC1", "1.0rc1"},
    {"1.0.rc.1", "1.0rc1"},
    {"1.0a.", "1.0a0"},
    {"1.0-1", "1.0.post1"},
    {"1.0post", "1.0.post0"},
    {"1.0.rev3", "1.0.post3"},
    {"1.0r", "1.0.post0"},
    {"1.0-r-5", "1.0.post5"},
    {"1.0_post_7", "1.0.post7"},
    {"1.0.dev", "1.0.dev0"},
    {"1.0-dev-3", "1.0.dev3"},
    {"1.0.post1.dev2", "1.0.post1.dev2"},
    {"1.0a1.post2.dev3", "1.0a1.post2.dev3"},
    {"1.0+abc", "1.0+abc"},
    {"1.0+ABC.01", "1.0+abc.1"},
    {"1.0+ubuntu-1", "1.0+ubuntu.1"},
    {"1.0+a_b-c.d", "1.0+a.b.c.d"},
    {" 1.0 ", "1.0"},
    {"\t1.0\n", "1.0"},
    {"\xc2\xa0"
     "1.0\xe2\x80\x83"
     "",
     "1.0"},
    {"1.0\xe2\x80;", NULL}, /* a cut sequence, then ';': no space */
    {"\xe2\x80\x3b"
     "1.0",
     NULL},
    {"2.11.0+cu130", "2.11.0+cu130"},
    {"1.13.0a0+gitunknown", "1.13.0a0+gitunknown"},
    {"2.12.0rc1", "2.12.0rc1"},
    {"2.12.0.dev20260101+cu130", "2.12.0.dev20260101+cu130"},
    {"2.4.0a0+git1234567", "2.4.0a0+git1234567"},
    {"18446744073709551616.0", "18446744073709551616.0"},
    {"1.18446744073709551617", "1.18446744073709551617"},
    {"0.0.0.0.0.0.1", "0.0.0.0.0.0.1"},
    {"", NULL},
    {" ", NULL},
    {"foo", NULL},
    {"1.0+", NULL},
    {"1.0+abc.", NULL},
    {"1..0", NULL},
    {".1", NULL},
    {"1.", NULL},
    {"1.0-", NULL},
    {"1.0.*", NULL},
    {"1.0 rc1", NULL},
    {"1.13.1+dfsg-4", "1.13.1+dfsg.4"},
    {"1!", NULL},
    {"1.0+a+b", NULL},
    {"1.0a1a2", NULL},
    {"1.0.post1.post2", NULL},
    {"1.0-dev", "1.0.dev0"},
    {"1.0foo", NULL},
};

/* strictly ascending */
static const char *const ascending[] = {

    "1.0.dev0",
    "1.0.dev1",
    "1.0a0.dev0",
    "1.0a0",
    "1.0a1.dev1",
    "1.0a1",
    "1.0a1.post1.dev1",
    "1.0a1.post1",
    "1.0a2",
    "1.0b1",
    "1.0rc1",
    "1.0rc2",
    "1.0",
    "1.0+abc",
    "1.0+abc.1",
    "1.0+abd",
    "1.0+0",
    "1.0+1",
    "1.0+1.abc",
    "1.0.post0.dev0",
    "1.0.post0",
    "1.0.post1",
    "1.0.1",
    "1.1.dev1",
    "1.1",
    "2.4.0a0+git1234567",
    "2.4.0",
    "2.11.0",
    "2.11.0+cu130",
    "2.12.0.dev20260101+cu130",
    "2.12.0rc1",
    "2.12.0",
    "18446744073709551616",
    "1!0.1",
};

static const struct {
	const char *a, *b;
} equal[] = {
    {"1.0", "1.0.0"},	    {"1", "1.0.0.0"},	 {"1.0+01", "1.0+1"},
    {"1.0+ABC", "1.0+abc"}, {"0!1.0", "1.0"},	 {"1.0c1", "1.0rc1"},
    {"1.0-1", "1.0.post1"}, {"v2.11.0", "2.11"}, {"007", "7"},
};

static void
test_normalize(void)
{
	size_t k;

	for (k = 0; k < sizeof(normalize) / sizeof(normalize[0]); k++) {
		struct tg_version v;
		struct tg_err err = TG_ERR_INIT;
		int rc = tg_version_parse(&v, normalize[k].in,
					  strlen(normalize[k].in), &err);

		if (!normalize[k].want) {
			CHECK(rc == TG_EINVAL, "'%s' should be invalid",
			      normalize[k].in);
			CHECK(strncmp(err.msg, "invalid version '", 17) == 0,
			      "message for '%s': %s", normalize[k].in, err.msg);
			continue;
		}
		CHECK(rc == 0, "'%s' should parse: %s", normalize[k].in,
		      err.msg);
		if (rc)
			continue;
		CHECK_STR(v.str, normalize[k].want, normalize[k].in);
		CHECK_STR(v.raw, normalize[k].in, "raw text kept");
		tg_version_release(&v);
	}
}

static void
parse_or_die(struct tg_version *v, const char *s)
{
	if (tg_version_parse(v, s, strlen(s), NULL) != 0) {
		fprintf(stderr, "cannot parse '%s'\n", s);
		exit(1);
	}
}

static void
test_order(void)
{
	size_t n = sizeof(ascending) / sizeof(ascending[0]), i, j;
	struct tg_version *v = calloc(n, sizeof(*v));

	for (i = 0; i < n; i++)
		parse_or_die(&v[i], ascending[i]);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = tg_version_cmp(&v[i], &v[j]);
			int want = (i > j) - (i < j);

			CHECK((c > 0) - (c < 0) == want, "cmp(%s, %s) = %d",
			      ascending[i], ascending[j], c);
			c = tg_version_cmp_text(
			    ascending[i], strlen(ascending[i]), ascending[j],
			    strlen(ascending[j]));
			CHECK((c > 0) - (c < 0) == want,
			      "cmp_text(%s, %s) = %d", ascending[i],
			      ascending[j], c);
		}
	for (i = 0; i < n; i++)
		tg_version_release(&v[i]);
	free(v);
	for (i = 0; i < sizeof(equal) / sizeof(equal[0]); i++) {
		struct tg_version a, b;

		parse_or_die(&a, equal[i].a);
		parse_or_die(&b, equal[i].b);
		CHECK(tg_version_cmp(&a, &b) == 0, "%s == %s", equal[i].a,
		      equal[i].b);
		CHECK(tg_version_cmp_text(equal[i].a, strlen(equal[i].a),
					  equal[i].b, strlen(equal[i].b)) == 0,
		      "cmp_text: %s == %s", equal[i].a, equal[i].b);
		tg_version_release(&a);
		tg_version_release(&b);
	}
}

static void
test_errors(void)
{
	struct tg_version v;
	struct tg_err err = TG_ERR_INIT;

	CHECK(tg_version_parse(&v, "2.11.0+", 7, &err) == TG_EINVAL,
	      "trailing '+'");
	CHECK_STR(err.msg, "invalid version '2.11.0+'", "message");
	CHECK(err.has_pos && err.pos == 6, "position %zu", err.pos);
	CHECK(tg_version_parse(&v, "torch", 5, &err) == TG_EINVAL, "word");
	CHECK(err.has_pos && err.pos == 0, "position %zu", err.pos);
	/* an embedded NUL is not the end of the text */
	CHECK(tg_version_parse(&v, "1.0\0", 4, NULL) == TG_EINVAL, "NUL");
	/* a NULL err is allowed */
	CHECK(tg_version_parse(&v, "x", 1, NULL) == TG_EINVAL, "NULL err");
}

static void
test_big_numbers(void)
{
	struct tg_version a, b;

	/* 2^64 and 2^64 + 1 differ; nothing wraps to 0 */
	parse_or_die(&a, "18446744073709551616");
	parse_or_die(&b, "18446744073709551617");
	CHECK(tg_version_cmp(&a, &b) < 0, "2^64 < 2^64+1");
	tg_version_release(&b);
	parse_or_die(&b, "0");
	CHECK(tg_version_cmp(&a, &b) > 0, "2^64 > 0");
	tg_version_release(&a);
	tg_version_release(&b);
	parse_or_die(&a, "1.0.dev99999999999999999999999");
	parse_or_die(&b, "1.0.dev100000000000000000000000");
	CHECK(tg_version_cmp(&a, &b) < 0, "long dev numbers");
	tg_version_release(&a);
	tg_version_release(&b);
}

static void
test_policy(void)
{
	static const struct {
		const char *in;
		enum tg_policy policy;
		const char *as; /* compares equal to */
	} cases[] = {
	    {"2.4.0a0+git1234567", TG_POLICY_BASE, "2.4.0"},
	    {"2.4.0.post3", TG_POLICY_BASE, "2.4.0"},
	    {"1!2.4.0rc1", TG_POLICY_BASE, "1!2.4"},
	    {"2.4.0a0+git1234567", TG_POLICY_RELEASE, "2.4.0+git1234567"},
	    {"1.13.0a0+gitunknown", TG_POLICY_RELEASE, "1.13.0+gitunknown"},
	    /* releases compared as numbers, trailing zeros aside */
	    {"2.4rc1", TG_POLICY_RELEASE, "2.4"},
	    {"2.4.0.0.dev1", TG_POLICY_RELEASE, "2.4"},
	    {"2.4.1.1rc1", TG_POLICY_RELEASE, "2.4.1.1rc1"},
	    {"2.40.0rc1", TG_POLICY_RELEASE, "2.40.0rc1"},
	    {"1!2.4.0rc1", TG_POLICY_RELEASE, "1!2.4.0rc1"},
	    /* not a known release: stays what it is */
	    {"2.99.0.dev20260101", TG_POLICY_RELEASE, "2.99.0.dev20260101"},
	    {"2.4.0a0", TG_POLICY_STRICT, "2.4.0a0"},
	};
	enum tg_policy p;
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_version v, view, as;

		parse_or_die(&v, cases[k].in);
		parse_or_die(&as, cases[k].as);
		tg_policy_apply(&v, cases[k].policy, &view);
		CHECK(tg_version_cmp(&view, &as) == 0, "%s under %s is %s",
		      cases[k].in, tg_policy_name(cases[k].policy),
		      cases[k].as);
		tg_version_release(&v);
		tg_version_release(&as);
	}
	CHECK(tg_policy_parse("base", &p) == 0 && p == TG_POLICY_BASE,
	      "parse base");
	CHECK(tg_policy_parse("Base", &p) == TG_EINVAL, "names are exact");
}

/* cmp_text orders every spelling of the normalize table as cmp does */
static void
test_order_text(void)
{
	size_t n = sizeof(normalize) / sizeof(normalize[0]), i, j;

	for (i = 0; i < n; i++) {
		struct tg_version a;

		if (!normalize[i].want)
			continue;
		parse_or_die(&a, normalize[i].in);
		for (j = 0; j < n; j++) {
			struct tg_version b;
			int c, t;

			if (!normalize[j].want)
				continue;
			parse_or_die(&b, normalize[j].in);
			c = tg_version_cmp(&a, &b);
			t = tg_version_cmp_text(
			    normalize[i].in, strlen(normalize[i].in),
			    normalize[j].in, strlen(normalize[j].in));
			CHECK((c > 0) - (c < 0) == (t > 0) - (t < 0),
			      "cmp_text('%s', '%s') = %d, cmp %d",
			      normalize[i].in, normalize[j].in, t, c);
			tg_version_release(&b);
		}
		tg_version_release(&a);
	}
}

int
main(void)
{
	test_normalize();
	test_order();
	test_order_text();
	test_errors();
	test_big_numbers();
	test_policy();
	return check_result("test_version");
}
