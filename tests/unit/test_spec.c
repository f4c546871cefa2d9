/* test_specifier.c - unit tests for lib/specifier: PEP 440 specifier sets
 * SPDX-License-Identifier: MIT
 *
 * Expected values follow PEP 440 and the rules of pypa/packaging 26.x,
 * checked against packaging 26.3 (SpecifierSet.contains with
 * prereleases None/True/False, str(SpecifierSet)).
 */
#include <string.h>

#include "check.h"
#include "lib/pep/spec.h"

static const struct {
	const char *spec, *version;
	int when_auto, when_allow, when_deny;
} contains[] = {
    {">=2.4,<2.12", "2.11.0+cu130", 1, 1, 1},
    {">=2.4,<2.12", "2.12.0rc1", 0, 0, 0},
    {">=2.4,<2.12", "2.12.0.dev20260101+cu130", 0, 0, 0},
    {">=2.4,<2.12", "2.4.0a0+git1234567", 0, 0, 0},
    {">=2.4", "2.4.0a0+git1234567", 0, 0, 0},
    {">=2.4.0a0", "2.4.0a0+git1234567", 1, 1, 0},
    {"<2.0", "2.0a1", 0, 0, 0},
    {"<2.0", "1.9.9", 1, 1, 1},
    {"<2.0rc1", "2.0b1", 1, 1, 0},
    {"<2.0.post1", "2.0.post1.dev0", 0, 0, 0},
    {"<2.0.post1", "2.0", 1, 1, 1},
    {">1.0", "1.0.post1", 0, 0, 0},
    {">1.0", "1.0+local", 0, 0, 0},
    {">1.0", "1.0.1", 1, 1, 1},
    {">1.0.post1", "1.0.post2", 1, 1, 1},
    {">1.0.post1", "1.0.post1+x", 0, 0, 0},
    {">1.0.dev1", "1.0.dev2", 1, 1, 0},
    {">1.0.dev1", "1.0.dev1+x", 0, 0, 0},
    {">1.0a1", "1.0a1.post1", 0, 0, 0},
    {">1.0a1", "1.0a2", 1, 1, 0},
    {"==1.0", "1.0+abc", 1, 1, 1},
    {"==1.0+abc", "1.0+ABC", 1, 1, 1},
    {"==1.0+abc", "1.0", 0, 0, 0},
    {"==1.0+abc", "1.0+abd", 0, 0, 0},
    {"==1.0.0", "1", 1, 1, 1},
    {"!=1.0", "1.0+abc", 0, 0, 0},
    {"!=1.0", "1.0.post1", 1, 1, 1},
    {"==1.2.*", "1.2.3", 1, 1, 1},
    {"==1.2.*", "1.2", 1, 1, 1},
    {"==1.2.*", "1.3.dev0", 0, 0, 0},
    {"==1.2.*", "1.2a1", 1, 1, 0},
    {"==1.0.*", "1", 1, 1, 1},
    {"!=1.2.*", "1.2.0rc1", 0, 0, 0},
    {"!=1.2.*", "1.1.9", 1, 1, 1},
    {"~=2.2", "2.9", 1, 1, 1},
    {"~=2.2", "3.0", 0, 0, 0},
    {"~=2.2", "3.0.dev0", 0, 0, 0},
    {"~=1.4.5", "1.4.9", 1, 1, 1},
    {"~=1.4.5", "1.5", 0, 0, 0},
    {"~=2.2.post3", "2.2.post3", 1, 1, 1},
    {"~=1!2.2", "1!2.5", 1, 1, 1},
    {"~=1!2.2", "2.5", 0, 0, 0},
    {"<=1.0", "1.0+abc", 1, 1, 1},
    {"<=1.0", "1.0.post0", 0, 0, 0},
    {"===1.0", "1.0", 1, 1, 1},
    {"===1.0", "1.0.0", 0, 0, 0},
    {"===foobar", "FooBar", 1, 1, 1},
    {"===foobar", "foobar1", 0, 0, 0},
    {"===1.0,>=0.5", "1.0", 1, 1, 1},
    {">=1.0", "not-a-version", 0, 0, 0},
    {"", "not-a-version", 1, 1, 1},
    {"", "1.0a1", 1, 1, 0},
    {">=1.0", "2.0a1", 1, 1, 0},
    {">=18446744073709551615", "18446744073709551616", 1, 1, 1},
    {"<=18446744073709551615", "18446744073709551616", 0, 0, 0},
    {"~=0.9, >=0.9.1, !=0.9.5", "0.9.5", 0, 0, 0},
    {"~=0.9, >=0.9.1, !=0.9.5", "0.9.6", 1, 1, 1},
    /* bounds whose numbers carry: 9 -> 10, 99 -> 100 */
    {"~=9.9", "9.10", 1, 1, 1},
    {"~=9.9", "10.0", 0, 0, 0},
    {"~=99.1", "99.5", 1, 1, 1},
    {"~=99.1", "100.0", 0, 0, 0},
    {"==99.*", "100.0.dev0", 0, 0, 0},
    {">1.0.post9", "1.0.post10", 1, 1, 1},
    {">1.0.post9", "1.0.post9+x", 0, 0, 0},
    {">1.0.dev9", "1.0.dev10", 1, 1, 0},
    /* a bound longer than make_bound's room on the stack */
    {"<1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.2",
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1",
     1, 1, 1},
    {"<1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.2",
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.2rc1",
     0, 0, 0},
    {"~=1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.9."
     "9",
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.9.10",
     1, 1, 1},
    {"~=1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.9."
     "9",
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1."
     "1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.10.0",
     0, 0, 0},
};

static const char *const invalid[] = {
    "=1.0",	 ">=1.0+abc", "~=1",	    "~=1.0.*", ">=1.0.*",
    "==1.0a1.*", "==",	      ">= 1.0 foo", "=== a b", "==1.0,>=x",
    "1.0",	 "==1.*.*",   "<>1.0",
};

static const struct {
	const char *in, *want;
} format[] = {
    {">=1.0.0,!=1.0.1", "!=1.0.1,>=1.0.0"},
    {" >=2.4 , <2.12 ", "<2.12,>=2.4"},
    {"==1.0,==1.0.0", "==1.0"},
    {"~=2.2,~=2.2.0", "~=2.2,~=2.2.0"},
    {"===Foo", "===Foo"},
    {"==v1.0", "==v1.0"},
    {">= 1.0", ">=1.0"},
    {"", ""},
    {"<3,>=2,<3.0", "<3,>=2"},
};

static int
check_one(const char *spec, const char *item, enum tg_prereleases pre)
{
	struct tg_specset set;
	struct tg_version v;
	int ok, r;

	if (tg_spec_set_parse(&set, spec, strlen(spec), NULL) != 0)
		return -1;
	ok = tg_version_parse(&v, item, strlen(item), NULL) == 0;
	r = tg_spec_set_contains(&set, item, strlen(item), ok ? &v : NULL, pre);
	if (ok)
		tg_version_release(&v);
	tg_spec_set_release(&set);
	return r;
}

static void
test_contains(void)
{
	size_t k;

	for (k = 0; k < sizeof(contains) / sizeof(contains[0]); k++) {
		const char *s = contains[k].spec, *v = contains[k].version;

		CHECK(check_one(s, v, TG_PRE_AUTO) == contains[k].when_auto,
		      "'%s' contains '%s' (auto)", s, v);
		CHECK(check_one(s, v, TG_PRE_ALLOW) == contains[k].when_allow,
		      "'%s' contains '%s' (allow)", s, v);
		CHECK(check_one(s, v, TG_PRE_DENY) == contains[k].when_deny,
		      "'%s' contains '%s' (deny)", s, v);
	}
}

static void
test_invalid(void)
{
	size_t k;

	for (k = 0; k < sizeof(invalid) / sizeof(invalid[0]); k++) {
		struct tg_specset set;
		struct tg_err err = TG_ERR_INIT;

		CHECK(tg_spec_set_parse(&set, invalid[k], strlen(invalid[k]),
					&err) == TG_EINVAL,
		      "'%s' should be invalid", invalid[k]);
		CHECK(strncmp(err.msg, "invalid specifier '", 19) == 0,
		      "message: %s", err.msg);
	}
}

static void
test_messages(void)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
	    {">=1.0+abc", "invalid specifier '>=1.0+abc': a local label "
			  "is allowed only with '==' and '!='"},
	    {"~=1", "invalid specifier '~=1': '~=' needs at least two "
		    "release numbers"},
	    {">=1.0.*", "invalid specifier '>=1.0.*': '.*' is allowed "
			"only with '==' and '!='"},
	    {"torch", "invalid specifier 'torch': expected an operator "
		      "(~= == != <= >= < > ===)"},
	    {">=2.4, <=x", "invalid specifier '<=x': not a valid "
			   "version"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_specset set;
		struct tg_err err = TG_ERR_INIT;

		tg_spec_set_parse(&set, cases[k].in, strlen(cases[k].in), &err);
		CHECK_STR(err.msg, cases[k].msg, cases[k].in);
	}
}

static void
test_format(void)
{
	size_t k;

	for (k = 0; k < sizeof(format) / sizeof(format[0]); k++) {
		struct tg_specset set;
		struct tg_buf out = TG_BUF_INIT;

		CHECK(tg_spec_set_parse(&set, format[k].in,
					strlen(format[k].in), NULL) == 0,
		      "'%s' parses", format[k].in);
		CHECK(tg_spec_set_format(&set, &out) == 0, "format");
		CHECK_STR(out.data ? out.data : "", format[k].want,
			  format[k].in);
		tg_buf_release(&out);
		tg_spec_set_release(&set);
	}
}

int
main(void)
{
	test_contains();
	test_invalid();
	test_messages();
	test_format();
	return check_result("test_specifier");
}
