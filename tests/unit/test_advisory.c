/* test_advisory.c - unit tests for lib/table/advisory (the advisories'
 * loader and matcher)
 * SPDX-License-Identifier: MIT
 *
 * One small document with an advisory of each range shape; each version
 * asked about and the ids that must affect it; floors and what they
 * admit; the floor that excludes each; bad documents and their messages;
 * and the built-in advisories.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/table/advisory.h"
#include "lib/util/buf.h"

#define ADV(id, aliases, sev, disputed, ranges, fixed, withdrawn)              \
	"{\"id\": \"" id "\", \"aliases\": " aliases                           \
	", \"summary\": \"s\", \"apis\": [\"torch.load\"], \"severity\": " sev \
	", \"cvss\": null, \"ranges\": " ranges ", \"fixed\": " fixed          \
	", \"published\": null, \"modified\": \"2025-04-18T00:00:00Z\", "      \
	"\"withdrawn\": " withdrawn ", \"disputed\": " disputed                \
	", \"notes\": \"\", \"references\": [\"https://example.org/\"]}"

#define DOC(advs)                                                              \
	"{\"schema_version\": 1, \"advisories_version\": \"2026.12.03\", "     \
	"\"package\": \"torch\", \"advisories\": [" advs "]}"

static const char doc[] = DOC(ADV(
    "PYSEC-2025-41", "[\"CVE-2025-32434\", \"GHSA-53q9-r3pm-6pq6\"]",
    "\"critical\"", "false", "[{\"introduced\": \"0\", \"fixed\": \"2.6.0\"}]",
    "\"2.6.0\"",
    "null") "," ADV("PYSEC-2026-139", "[]", "null", "false",
		    "[{\"introduced\": \"0\", \"last_affected\": \"2.10.0\"}]",
		    "null",
		    "null") "," ADV("GHSA-4vmg-rw8f-92f9",
				    "[\"CVE-2024-7804\"]", "null", "true",
				    "[{\"introduced\": \"0\", "
				    "\"last_affected\": \"2.3.1\"}]",
				    "null",
				    "\"2025-04-02\"") "," ADV("CVE-2099-0001",
							      "[]", "\"high\"",
							      "false",
							      "[{"
							      "\"introduced\": "
							      "\"1.0\", "
							      "\"fixed\": "
							      "\"1.5.1\"}, "
							      "{\"introduced\":"
							      " \"2.7.1rc1\"}]",
							      "\"1.5.1\"",
							      "null"));

static void
ids_for(const struct tg_advisories *a, const char *version, char *out,
	size_t cap)
{
	struct tg_version v = TG_VERSION_INIT;
	size_t k, at = 0;

	out[0] = '\0';
	if (tg_version_parse(&v, version, strlen(version), NULL))
		return;
	for (k = 0; k < a->n; k++)
		if (tg_advisory_affects(&a->v[k], &v))
			at += (size_t)snprintf(out + at, cap - at, "%s%s",
					       at ? " " : "", a->v[k].id);
	tg_version_release(&v);
}

static void
matching(void)
{
	static const struct {
		const char *version, *want;
	} cases[] = {
	    /* the local label is dropped: 2.5.1+cu124 is 2.5.1 */
	    {"2.5.1+cu124", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"2.6.0+cpu", "PYSEC-2026-139"},
	    {"2.6.0", "PYSEC-2026-139"},
	    /* a pre-release or dev build comes before its release */
	    {"2.6.0rc1", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"2.6.0a0+ecf3bae40a", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"2.6.0.dev20241112", "PYSEC-2025-41 PYSEC-2026-139"},
	    /* last_affected is inside, with or without a label (and the
	     * open range from 2.7.1rc1 holds everything after) */
	    {"2.10.0", "PYSEC-2026-139 CVE-2099-0001"},
	    {"2.10.0+cu130", "PYSEC-2026-139 CVE-2099-0001"},
	    {"2.10.0.post1", "CVE-2099-0001"},
	    {"2.11.0", "CVE-2099-0001"},
	    /* two ranges; the withdrawn one never */
	    {"0.4.1", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"1.0", "PYSEC-2025-41 PYSEC-2026-139 CVE-2099-0001"},
	    {"1.5.1", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"1.13.0a0", "PYSEC-2025-41 PYSEC-2026-139"},
	    {"2.7.0", "PYSEC-2026-139"},
	    {"2.7.1rc1", "PYSEC-2026-139 CVE-2099-0001"},
	    {"3.0", "CVE-2099-0001"},
	};
	struct tg_advisories a = TG_ADVISORIES_INIT;
	struct tg_err err = TG_ERR_INIT;
	char got[256];
	size_t k;

	if (tg_advisory_parse(&a, doc, strlen(doc), "t", &err)) {
		CHECK(0, "the test document: %s", err.msg);
		return;
	}
	CHECK(a.n == 4, "%zu advisories", a.n);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ids_for(&a, cases[k].version, got, sizeof(got));
		CHECK_STR(got, cases[k].want, cases[k].version);
	}
	CHECK(tg_advisory_has_id(&a.v[0], "ghsa-53q9-r3pm-6pq6"), "alias");
	CHECK(tg_advisory_has_id(&a.v[0], "pysec-2025-41"), "id");
	CHECK(!tg_advisory_has_id(&a.v[0], "CVE-2025-3243"), "prefix");
	CHECK(tg_advisory_known(&a, "CVE-2024-7804"), "known");
	CHECK(tg_advisory_is_severe(&a.v[0]), "critical");
	CHECK(!tg_advisory_is_severe(&a.v[3]), "high");
	CHECK(tg_advisory_has_api(&a.v[0], "torch.load"), "api");
	tg_advisory_release(&a);
}

static void
floors(void)
{
	static const struct {
		size_t adv;
		const char *floor; /* NULL: no floor */
		int admits;
	} cases[] = {
	    {0, NULL, 1},     {0, "2.0", 1},	{0, "2.5.1", 1},
	    {0, "2.6.0", 0},  {0, "2.6", 0},	{0, "2.6.0rc1", 1},
	    {1, "2.10.0", 1}, {1, "2.10.1", 0}, {2, NULL, 0},
	    {3, "1.5.1", 1}, /* the open range from 2.7.1rc1 */
	};
	struct tg_advisories a = TG_ADVISORIES_INIT;
	const char *v;
	int strict;
	size_t k;

	if (tg_advisory_parse(&a, doc, strlen(doc), "t", NULL))
		return;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_version f = TG_VERSION_INIT;

		if (cases[k].floor &&
		    tg_version_parse(&f, cases[k].floor, strlen(cases[k].floor),
				     NULL))
			continue;
		CHECK(tg_advisory_admits(&a.v[cases[k].adv],
					 cases[k].floor ? &f : NULL,
					 NULL) == cases[k].admits,
		      "advisory %zu, floor %s", cases[k].adv,
		      cases[k].floor ? cases[k].floor : "none");
		tg_version_release(&f);
	}
	CHECK(tg_advisory_floor(&a.v[0], &v, &strict) == 1 && !strict &&
		  strcmp(v, "2.6.0") == 0,
	      "fixed floor");
	CHECK(tg_advisory_floor(&a.v[1], &v, &strict) == 1 && strict &&
		  strcmp(v, "2.10.0") == 0,
	      "last_affected floor");
	CHECK(tg_advisory_floor(&a.v[3], &v, &strict) == 0 && !v,
	      "an open range: no floor");
	tg_advisory_release(&a);
}

static void
bad(void)
{
	static const struct {
		const char *doc, *msg;
	} cases[] = {
	    {"{", "cannot parse 'b': line 1, column 1: not valid JSON"},
	    {"[]", "cannot parse 'b': the advisories file must be an object"},
	    {DOC(ADV("OSV-1", "[]", "null", "false",
		     "[{\"introduced\": \"0\"}]", "null", "null")),
	     "cannot parse 'b': advisory 1: \"id\" must be a PYSEC, GHSA or "
	     "CVE id"},
	    {DOC(ADV("CVE-2099-0001", "[\"GHSA-aaaa-bbbb-cccc\"]", "null",
		     "false", "[{\"introduced\": \"0\"}]", "null", "null")),
	     "cannot parse 'b': advisory 'CVE-2099-0001': \"aliases\" must "
	     "hold PYSEC, GHSA or CVE ids"},
	    {DOC(ADV("CVE-2099-0001", "[]", "null", "false",
		     "[{\"introduced\": \"0\", \"fixed\": \"2.6.0+cpu\"}]",
		     "\"2.6.0\"", "null")),
	     "cannot parse 'b': advisory 'CVE-2099-0001': \"fixed\" must be a "
	     "public PEP 440 version in canonical form, not '2.6.0+cpu'"},
	    {DOC(ADV("CVE-2099-0001", "[]", "null", "false",
		     "[{\"introduced\": \"2.0\", \"fixed\": \"1.0\"}]",
		     "\"1.0\"", "null")),
	     "cannot parse 'b': advisory 'CVE-2099-0001': a range ends before "
	     "it starts"},
	    {DOC(ADV("CVE-2099-0001", "[]", "null", "false",
		     "[{\"introduced\": \"0\", \"fixed\": \"2.6.0\", "
		     "\"last_affected\": \"2.5.1\"}]",
		     "\"2.6.0\"", "null")),
	     "cannot parse 'b': advisory 'CVE-2099-0001': a range has "
	     "\"fixed\" and \"last_affected\": give one"},
	    {DOC(ADV("CVE-2099-0001", "[]", "null", "false",
		     "[{\"introduced\": \"0\", \"fixed\": \"2.6.0\"}]",
		     "\"2.5.0\"", "null")),
	     "cannot parse 'b': advisory 'CVE-2099-0001': \"fixed\" must be "
	     "the highest fixed version of the ranges (null when none)"},
	    {DOC(ADV("CVE-2099-0001", "[]", "null", "false",
		     "[{\"introduced\": \"0\"}]", "null",
		     "null") "," ADV("CVE-2099-0002", "[\"CVE-2099-0001\"]",
				     "null", "false",
				     "[{\"introduced\": \"0\"}]", "null",
				     "null")),
	     "cannot parse 'b': 'CVE-2099-0001' names two advisories"},
	};
	struct tg_advisories a = TG_ADVISORIES_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int rc = tg_advisory_parse(&a, cases[k].doc,
					   strlen(cases[k].doc), "b", &err);

		CHECK(rc == TG_EINVAL, "case %zu: rc %d", k, rc);
		CHECK_STR(err.msg, cases[k].msg, "bad document");
		CHECK(a.n == 0 && a.v == NULL, "case %zu: released", k);
	}
}

static void
builtin(void)
{
	struct tg_advisories a = TG_ADVISORIES_INIT;
	struct tg_err err = TG_ERR_INIT;
	struct tg_advisory_matches m = TG_ADVISORY_MATCHES_INIT;
	struct tg_version v = TG_VERSION_INIT;
	const char *ignore[] = {"CVE-2025-32434"};
	size_t k;

	CHECK(tg_advisory_default(&a, &err) == 0, "%s", err.msg);
	CHECK(a.n >= 10, "%zu built-in advisories", a.n);
	CHECK(a.version && tg_advisory_builtin_version() &&
		  strcmp(a.version, tg_advisory_builtin_version()) == 0,
	      "advisories_version");
	for (k = 0; k < a.n; k++)
		if (tg_advisory_has_id(&a.v[k], "CVE-2024-7804"))
			CHECK(a.v[k].withdrawn != NULL,
			      "CVE-2024-7804 withdrawn");
	if (!tg_version_parse(&v, "2.5.1+cu124", 11, NULL) &&
	    !tg_advisory_match(&m, &a, &v, ignore, 1, &err)) {
		CHECK(m.nignored == 1 &&
			  strcmp(m.ignored[0]->id, "PYSEC-2025-41") == 0,
		      "CVE-2025-32434 ignored by its alias");
		for (k = 0; k < m.nhits; k++)
			CHECK(strcmp(m.hits[k]->id, "PYSEC-2025-41") != 0,
			      "an ignored advisory is no hit");
		CHECK(m.nhits > 0, "2.5.1 has other advisories");
	}
	tg_advisory_matches_release(&m);
	tg_version_release(&v);
	tg_advisory_release(&a);
}

int
main(void)
{
	matching();
	floors();
	bad();
	builtin();
	return check_result("test_advisory");
}
