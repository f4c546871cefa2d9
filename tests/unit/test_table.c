/* test_table.c - unit tests for lib/table: loading, errors, status
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/table/cache.h"
#include "lib/table/excluded.h"
#include "lib/table/table.h"

/* One entry, with %s spliced in at the end of its members. */
static const char entry_fmt[] =
    "{\"schema_version\": 1, \"entries\": [\n"
    "{\"id\": \"%s\", \"language\": \"%s\", \"kind\": \"function\",\n"
    " \"private\": false,\n"
    " \"introduced\": {\"version\": \"%s\", \"bound\": \"exact\", "
    "\"status\": \"verified\", \"note\": \"\"},\n"
    " \"deprecated\": {\"version\": \"2.4\", \"bound\": \"exact\", "
    "\"status\": \"inferred\", \"note\": \"\", \"withdrawn\": null},\n"
    " \"removed\": {\"version\": null, \"bound\": \"exact\", \"status\": "
    "\"verified\", \"note\": \"\"},\n"
    " \"replacement\": {\"id\": null, \"text\": null, \"since\": null, "
    "\"status\": \"verified\"},\n"
    " \"fix\": %s,\n"
    " \"warning\": {\"category\": \"FutureWarning\", \"message\": \"m\", "
    "\"since\": \"2.4\", \"status\": \"verified\"},\n"
    " \"evidence\": {\"files\": [\"torch/x.py\"], \"presence\": \"%s\", "
    "\"deprecation\": null, \"removal\": null},\n"
    " \"usage\": [\"x\"], \"references\": [], \"notes\": \"\"%s}%s\n"
    "]}\n";

/* The entry's "fix" member and language in the next doc(). */
static const char *fix_json = "null";
static const char *lang_json = "python";

static char *
doc(const char *id, const char *intro, const char *presence, const char *extra,
    const char *more)
{
	size_t n = sizeof(entry_fmt) + strlen(id) + strlen(lang_json) +
		   strlen(intro) + strlen(fix_json) + strlen(presence) +
		   strlen(extra) + strlen(more);
	char *s = malloc(n);

	snprintf(s, n, entry_fmt, id, lang_json, intro, fix_json, presence,
		 extra, more);
	return s;
}

static void
errors(void)
{
	static const struct {
		const char *id, *intro, *presence, *extra, *more, *want, *fix;
	} cases[] = {
	    {"torch.x", "1.6", "^def x\\\\b", "", "", NULL, NULL},
	    {"torch.x", "1.6", "(unclosed", "", "",
	     "cannot parse 'T': line 10, column 52: entry 'torch.x': bad "
	     "pattern for \"presence\" at offset 9: missing closing "
	     "parenthesis",
	     NULL},
	    {"torch.x", "1.6a0", "x", "", "",
	     "cannot parse 'T': line 4, column 28: entry 'torch.x': "
	     "\"1.6a0\" is not a release version X.Y[.Z]",
	     NULL},
	    {"torch x", "1.6", "x", "", "",
	     "cannot parse 'T': line 2, column 8: entry 'torch x': "
	     "\"torch x\" is not a valid id",
	     NULL},
	    {"torch.x", "1.6", "x", ", \"extra\": 1", "",
	     "cannot parse 'T': line 11, column 58: entry 'torch.x': unknown "
	     "field \"extra\"",
	     NULL},
	    {"torch.x", "1.6", "x", ", \"notes\": \"again\"", "",
	     "cannot parse 'T': line 11, column 45: entry 'torch.x': field "
	     "\"notes\" appears twice",
	     NULL},
	    {"torch.x", "2.5", "x", "", "",
	     "cannot parse 'T': line 5, column 28: entry 'torch.x': "
	     "deprecated 2.4 before introduced 2.5",
	     NULL},
	    {"torch.x", "1.6", "x", "", ",\n{\"id\": \"torch.y\"}",
	     "cannot parse 'T': line 12, column 1: entry 'torch.y': lacks the "
	     "field \"language\"",
	     NULL},
	    {"torch.x", "1.6", "x", "", "", NULL,
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": null, "
	     "\"insert\": {\"at\": "
	     "0, \"text\": \"1\", \"max_positional\": null}, \"bare\": "
	     "\"call\", \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': a fix needs "
	     "\"to\", \"replace\" or \"insert\"",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": null, "
	     "\"insert\": null, "
	     "\"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': an unsafe "
	     "fix "
	     "needs a \"note\"",
	     "{\"applicability\": \"unsafe\", \"to\": \"torch.x\", "
	     "\"replace\": null, \"insert\": "
	     "null, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': bare "
	     "\"call\" "
	     "needs \"insert\"",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": "
	     "null, \"bare\": \"call\", \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 86: entry 'torch.x': \"at\" "
	     "must be "
	     "null for a keyword argument",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": "
	     "{\"at\": 0, \"text\": \"k=1\", \"max_positional\": null}, "
	     "\"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 86: entry 'torch.x': expected "
	     "an integer from 0 to 255 or null for \"at\"",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": "
	     "{\"at\": 1.5, \"text\": \"1\", \"max_positional\": null}, "
	     "\"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 41: entry 'torch.x': fix "
	     "\"torch.y\" is not in the table",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": "
	     "null, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 97: entry 'torch.x': \"text\" "
	     "must be a Python literal (a string without backslashes, a "
	     "number, True, False, None) or NAME=literal, ...",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": {\"at\": 0, \"text\": "
	     "\"__import__('os').system('x')\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 100: entry 'torch.x': \"text\" "
	     "must be a Python literal (a string without backslashes, a "
	     "number, True, False, None) or NAME=literal, ...",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": {\"at\": null, \"text\": \"k='a') or "
	     "os.system('x'\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 100: entry 'torch.x': \"text\" "
	     "must be a Python literal (a string without backslashes, a "
	     "number, True, False, None) or NAME=literal, ...",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": {\"at\": null, \"text\": \"k=1, "
	     "os.system('x')\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 100: entry 'torch.x': \"text\" "
	     "must be a Python literal (a string without backslashes, a "
	     "number, True, False, None) or NAME=literal, ...",
	     "{\"applicability\": \"safe\", \"to\": \"torch.y\", \"replace\": "
	     "null, \"insert\": {\"at\": null, \"text\": \"k=1,j=2\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}"},
	    {"torch.x", "1.6", "x", "", "",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': \"to\" is "
	     "the entry itself",
	     "{\"applicability\": \"safe\", \"to\": \"torch.x\", \"replace\": "
	     "null, \"insert\": "
	     "null, \"bare\": null, \"note\": null}"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_table t = TG_TABLE_INIT;
		struct tg_err err = TG_ERR_INIT;
		char *d;

		fix_json = cases[k].fix ? cases[k].fix : "null";
		d = doc(cases[k].id, cases[k].intro, cases[k].presence,
			cases[k].extra, cases[k].more);
		fix_json = "null";
		int rc = tg_table_parse(&t, d, strlen(d), "T", &err);

		if (!cases[k].want) {
			CHECK(rc == 0, "case %zu: %s", k, err.msg);
			CHECK(t.n == 1 && strcmp(t.apis[0].id, "torch.x") == 0,
			      "case %zu: one entry", k);
			CHECK(!t.n || t.apis[0].fix.has == !!cases[k].fix,
			      "case %zu: fix", k);
			CHECK(!cases[k].fix ||
				  (t.n && !t.apis[0].fix.unsafe &&
				   !t.apis[0].fix.to && t.apis[0].fix.at == 0 &&
				   !t.apis[0].fix.insert_kw &&
				   t.apis[0].fix.max_positional == -1 &&
				   t.apis[0].fix.bare_call &&
				   strcmp(t.apis[0].fix.insert, "1") == 0),
			      "case %zu: the fix's members", k);
		} else {
			CHECK(rc == TG_EINVAL, "case %zu: rc %d", k, rc);
			CHECK_STR(err.msg, cases[k].want, "message");
			CHECK(t.n == 0 && t.apis == NULL, "released");
		}
		tg_table_release(&t);
		free(d);
	}
}

/* A fix's rules across languages: "replace" for C++ only, no keyword
 * or bare "call" in C++, a C++ "to" written as a name must be one. */
static void
fix_langs(void)
{
	static const struct {
		const char *lang, *fix, *want;
	} cases[] = {
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "{\"from\": \"type().scalarType()\", \"to\": "
	     "\"scalar_type()\"}, \"insert\": null, \"bare\": null, "
	     "\"note\": null}",
	     NULL},
	    {"python",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "{\"from\": \"a\", \"to\": \"b\"}, \"insert\": null, "
	     "\"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': "
	     "\"replace\" is for C++ entries only"},
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "{\"from\": \"\", \"to\": \"b\"}, \"insert\": null, "
	     "\"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 67: entry 'torch.x': \"from\" "
	     "must be one non-empty line"},
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "null, \"insert\": {\"at\": null, \"text\": \"k=1\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 95: entry 'torch.x': \"text\" "
	     "must be a C++ literal (true, false, nullptr, a number, a string "
	     "without backslashes)"},
	    /* a table renames, never writes code of its own */
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "{\"from\": \"data\", \"to\": \"data_ptr(); system(\\\"x\\\")\"}, "
	     "\"insert\": null, \"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 58: entry 'torch.x': \"from\" "
	     "and \"to\" must be C++ names joined by '::' or '.', each maybe "
	     "followed by '()', \"to\" with no more '()' than \"from\""},
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "{\"from\": \"data\", \"to\": \"abort()\"}, \"insert\": null, "
	     "\"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 58: entry 'torch.x': \"from\" "
	     "and \"to\" must be C++ names joined by '::' or '.', each maybe "
	     "followed by '()', \"to\" with no more '()' than \"from\""},
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "null, \"insert\": {\"at\": 0, \"text\": \"f(1)\", "
	     "\"max_positional\": null}, \"bare\": null, \"note\": null}",
	     "cannot parse 'T': line 8, column 92: entry 'torch.x': \"text\" "
	     "must be a C++ literal (true, false, nullptr, a number, a string "
	     "without backslashes)"},
	    {"c++",
	     "{\"applicability\": \"safe\", \"to\": null, \"replace\": "
	     "null, \"insert\": {\"at\": 0, \"text\": \"1\", "
	     "\"max_positional\": null}, \"bare\": \"call\", \"note\": "
	     "null}",
	     "cannot parse 'T': line 8, column 9: entry 'torch.x': bare "
	     "\"call\" is for Python entries only"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_table t = TG_TABLE_INIT;
		struct tg_err err = TG_ERR_INIT;
		char *d;
		int rc;

		fix_json = cases[k].fix;
		lang_json = cases[k].lang;
		d = doc("torch.x", "1.6", "x", "", "");
		fix_json = "null";
		lang_json = "python";
		rc = tg_table_parse(&t, d, strlen(d), "T", &err);
		if (!cases[k].want) {
			CHECK(rc == 0, "fix_langs %zu: %s", k, err.msg);
			CHECK(t.n == 1 && t.apis[0].fix.has &&
				  strcmp(t.apis[0].fix.replace_from,
					 "type().scalarType()") == 0 &&
				  strcmp(t.apis[0].fix.replace_to,
					 "scalar_type()") == 0,
			      "fix_langs %zu: replace read", k);
		} else {
			CHECK(rc == TG_EINVAL, "fix_langs %zu: rc %d", k, rc);
			CHECK_STR(err.msg, cases[k].want, "message");
		}
		tg_table_release(&t);
		free(d);
	}
}

static void
syntax(void)
{
	struct tg_table t = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	const char *bad = "{\"schema_version\": 1,\n  \"entries\": [}\n";

	CHECK(tg_table_parse(&t, bad, strlen(bad), "T", &err) == TG_EINVAL,
	      "invalid JSON");
	CHECK_STR(err.msg,
		  "cannot parse 'T': line 2, column 15: not valid JSON",
		  "syntax error position");
	bad = "{\"schema_version\": 2, \"entries\": []}";
	CHECK(tg_table_parse(&t, bad, strlen(bad), "T", &err) == TG_EINVAL,
	      "schema_version 2");
	CHECK_STR(err.msg,
		  "cannot parse 'T': line 1, column 20: schema_version must "
		  "be 1",
		  "schema version");
}

static void
status(void)
{
	static const char *const versions[] = {"1.5",	       "1.6", "2.3.1",
					       "2.4.0a0+git1", "2.4", "2.11"};
	static const enum tg_api_status want[] = {
	    TG_API_NOT_YET,    TG_API_AVAILABLE,  TG_API_AVAILABLE,
	    TG_API_DEPRECATED, TG_API_DEPRECATED, TG_API_DEPRECATED};
	struct tg_table t = TG_TABLE_INIT;
	struct tg_err err = TG_ERR_INIT;
	char *d = doc("torch.cuda.amp.custom_fwd", "1.6", "x", "", "");
	size_t k;
	char *m;

	CHECK(tg_table_parse(&t, d, strlen(d), "T", &err) == 0, "%s", err.msg);
	for (k = 0; t.n && k < sizeof(versions) / sizeof(versions[0]); k++) {
		struct tg_version v = TG_VERSION_INIT;

		tg_version_parse(&v, versions[k], strlen(versions[k]), NULL);
		CHECK(tg_api_status(&t.apis[0], &v) == want[k],
		      "status in %s: %s", versions[k],
		      tg_api_status_name(tg_api_status(&t.apis[0], &v)));
		tg_version_release(&v);
	}
	CHECK(tg_table_find(&t, "torch.cuda.amp.custom_fwd") == &t.apis[0],
	      "find");
	CHECK(tg_table_find(&t, "torch.nope") == NULL, "find none");
	tg_table_release(&t);
	free(d);
	m = tg_api_macro_name("torch.cuda.amp.grad_scaler._refresh");
	CHECK_STR(m, "TORCH_CUDA_AMP_GRAD_SCALER_P_REFRESH", "macro name");
	free(m);
	m = tg_api_macro_name("torch.distributed._tensor");
	CHECK_STR(m, "TORCH_DISTRIBUTED_P_TENSOR", "private component");
	free(m);
	m = tg_api_macro_name("torch.nn.functional.scaled_dot__x_");
	CHECK_STR(m, "TORCH_NN_FUNCTIONAL_SCALED_DOT_X",
		  "no double underscore");
	free(m);
	m = tg_api_macro_name("at::Tensor::type");
	CHECK_STR(m, "AT_TENSOR_TYPE", "C++ macro name");
	free(m);
}

/* table_version: the format, the order, and the built-in table's value
 * read at build time being the one its loader reads. */
static void
table_versions(void)
{
	static const char *const good[] = {"2026.11.29", "1970.01.01",
					   "2026.12.31.0", "2026.12.31.17"};
	static const char *const bad[] = {
	    "2026.1.29",  "2026.13.01",	    "2026.00.10",
	    "2026.01.32", "2026.01.01.",    "2026.01.01.01",
	    "26.01.01",	  "2026.01.01.1.2", "",
	    "2026-01-01"};
	static const struct {
		const char *a, *b;
		int want;
	} order[] = {
	    {"2026.11.29", "2026.11.29", 0},
	    {"2026.11.29", "2026.11.30", -1},
	    {"2026.12.01", "2026.11.30", 1},
	    {"2026.11.29.1", "2026.11.29", 1},
	    {"2026.11.29.0", "2026.11.29", 0},
	    {"2027.01.01", "2026.12.31.9", 1},
	    {"2026.11.29.10", "2026.11.29.9", 1},
	    {NULL, "2026.11.29", -1},
	    {"2026.11.29", NULL, 1},
	    {NULL, NULL, 0},
	};
	struct tg_err err = TG_ERR_INIT;
	struct tg_table t = TG_TABLE_INIT;
	size_t k;

	for (k = 0; k < sizeof(good) / sizeof(good[0]); k++)
		CHECK(tg_table_version_valid(good[k]), "'%s' valid", good[k]);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		CHECK(!tg_table_version_valid(bad[k]), "'%s' invalid", bad[k]);
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		CHECK(tg_table_version_cmp(order[k].a, order[k].b) ==
			  order[k].want,
		      "cmp %zu", k);
	CHECK(tg_table_default(&t, &err) == 0, "%s", err.msg);
	CHECK(t.table_version && tg_cache_builtin_version() &&
		  strcmp(t.table_version, tg_cache_builtin_version()) == 0,
	      "built-in table_version '%s', read at build time '%s'",
	      t.table_version ? t.table_version : "(none)",
	      tg_cache_builtin_version() ? tg_cache_builtin_version()
					 : "(none)");
	tg_table_release(&t);
}

/* The exclusion list: one good document and its matching, then each
 * kind of bad document with its message. */
#define EXCL_HEAD                                                              \
	"{\"schema_version\": 1, \"description\": \"d\",\n \"excluded\": ["
#define EXCL_ONE(sym, kind, msg)                                               \
	"{\"symbol\": \"" sym "\", \"kind\": \"" kind "\", \"message\": " msg  \
	", \"torch\": [\"2.11\"], \"category\": \"internal\", \"see\": null, " \
	"\"reason\": \"r\"}"

static void
excluded(void)
{
	static const struct {
		const char *doc, *msg;
	} bad[] = {
	    {EXCL_HEAD EXCL_ONE("b", "warnings.warn", "null") ",\n" EXCL_ONE(
		 "a", "warnings.warn", "null") "]}",
	     "cannot parse 'X': line 3, column 1: entry 'a': warnings.warn "
	     "after \"b\" warnings.warn: entries must be sorted by symbol, "
	     "then kind, each once"},
	    {EXCL_HEAD EXCL_ONE("a", "warnings.warn", "null") ",\n" EXCL_ONE(
		 "a", "warnings.warn", "null") "]}",
	     "cannot parse 'X': line 3, column 1: entry 'a': warnings.warn "
	     "after \"a\" warnings.warn: entries must be sorted by symbol, "
	     "then kind, each once"},
	    {EXCL_HEAD EXCL_ONE("a", "warn", "null") "]}",
	     "cannot parse 'X': line 2, column 39: entry 'a': \"warn\" is not "
	     "a valid kind"},
	    {EXCL_HEAD EXCL_ONE("a", "warnings.warn", "\"\"") "]}",
	     "cannot parse 'X': line 2, column 67: entry 'a': \"message\" "
	     "must be null or not empty"},
	    {EXCL_HEAD "{\"symbol\": \"a\"}]}",
	     "cannot parse 'X': line 2, column 15: entry 'a': lacks the field "
	     "\"kind\""},
	    {EXCL_HEAD "{\"symbol\": \"a\", \"kind\": \"[[deprecated]]\", "
		       "\"message\": null, \"torch\": [\"2.x\"], \"category\": "
		       "\"internal\", \"see\": null, \"reason\": \"r\"}]}",
	     "cannot parse 'X': line 2, column 83: entry 'a': \"2.x\" is not "
	     "a release version X.Y[.Z]"},
	    {EXCL_HEAD
	     "{\"symbol\": \"a\", \"kind\": \"[[deprecated]]\", "
	     "\"message\": null, \"torch\": [\"2.11\"], \"category\": "
	     "\"boring\", \"see\": \"x(\", \"reason\": \"r\"}]}",
	     "cannot parse 'X': line 2, column 105: entry 'a': \"boring\" is "
	     "not a valid category"},
	    {EXCL_HEAD
	     "{\"symbol\": \"a\", \"kind\": \"[[deprecated]]\", "
	     "\"message\": null, \"torch\": [\"2.11\"], \"category\": "
	     "\"other\", \"see\": \"x(\", \"reason\": \"r\"}]}",
	     "cannot parse 'X': line 2, column 121: entry 'a': \"x(\" is not a "
	     "valid id"},
	    {EXCL_HEAD EXCL_ONE("torch.f", "not-declared", "\"m\"") "]}",
	     "cannot parse 'X': line 2, column 72: entry 'torch.f': "
	     "\"message\" "
	     "must be null for kind \"not-declared\""},
	    {"{\"schema_version\": 1, \"excluded\": []}",
	     "cannot parse 'X': line 1, column 1: the exclusion list lacks the "
	     "field \"description\""},
	    {"{\"schema_version\": 1, \"description\": \"d\", \"excluded\": "
	     "{}}",
	     "cannot parse 'X': line 1, column 55: \"excluded\" must be an "
	     "array"},
	    {"{\"schema_version\": 1, \"description\": \"d\", \"excluded\": [],"
	     " \"x\": 1}",
	     "cannot parse 'X': line 1, column 64: unknown field \"x\" in the "
	     "exclusion list"},
	};
	static const char good[] = EXCL_HEAD EXCL_ONE(
	    "at::f", "C10_DEPRECATED_MESSAGE",
	    "null") ",\n" EXCL_ONE("torch.g", "warnings.warn",
				   "null") ",\n" EXCL_ONE("torch.g",
							  "warnings.warn",
							  "\"second\"") "]}";
	struct tg_excluded x = TG_EXCLUDED_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	CHECK(tg_excluded_parse(&x, good, strlen(good), "X", &err) == 0, "%s",
	      err.msg);
	CHECK(x.n == 3 && strcmp(x.description, "d") == 0, "3 entries");
	CHECK(tg_excluded_match(&x, "at::f", "C10_DEPRECATED_MESSAGE", NULL) ==
		  &x.v[0],
	      "match without a message");
	CHECK(tg_excluded_match(&x, "at::f", "[[deprecated]]", "m") == NULL,
	      "another kind");
	CHECK(tg_excluded_match(&x, "at::g", "C10_DEPRECATED_MESSAGE", "m") ==
		  NULL,
	      "another symbol");
	CHECK(tg_excluded_match(&x, "torch.g", "warnings.warn",
				"the second one") == &x.v[1],
	      "the first entry that matches");
	tg_excluded_release(&x);
	/* a message selects: only the entry with one */
	{
		static const char sel[] = EXCL_HEAD EXCL_ONE(
		    "torch.g", "warnings.warn", "\"second\"") "]}";

		CHECK(tg_excluded_parse(&x, sel, strlen(sel), "X", &err) == 0,
		      "%s", err.msg);
		CHECK(tg_excluded_match(&x, "torch.g", "warnings.warn",
					"the second one") == &x.v[0],
		      "message found");
		CHECK(tg_excluded_match(&x, "torch.g", "warnings.warn",
					"the first one") == NULL,
		      "message not found");
		CHECK(tg_excluded_match(&x, "torch.g", "warnings.warn", NULL) ==
			  NULL,
		      "no message");
		tg_excluded_release(&x);
	}
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		CHECK(tg_excluded_parse(&x, bad[k].doc, strlen(bad[k].doc), "X",
					&err) == TG_EINVAL,
		      "bad %zu rejected", k);
		CHECK_STR(err.msg, bad[k].msg, "bad exclusion list");
		CHECK(x.n == 0 && x.v == NULL, "released");
	}
	CHECK(tg_excluded_default(&x, &err) == 0, "built-in: %s", err.msg);
	CHECK(x.n > 0, "the built-in list has entries");
	tg_excluded_release(&x);
	CHECK_STR(tg_excluded_category_name(TG_EXCL_MODULE_LEVEL),
		  "module-level", "category name");
}

/* bound "between": after, before version; counted as at-or-before. */
static void
between(void)
{
	static const char intro[] =
	    "\"bound\": \"exact\", \"status\": \"verified\", \"note\": \"\"}";
	static const struct {
		const char *with, *want;
	} cases[] = {
	    {"\"bound\": \"between\", \"after\": \"1.13\", \"status\": "
	     "\"verified\", \"note\": \"\"}",
	     NULL},
	    {"\"bound\": \"between\", \"status\": \"verified\", \"note\": "
	     "\"\"}",
	     "cannot parse 'T': line 4, column 16: entry 'torch.x': bound "
	     "\"between\" needs \"after\""},
	    {"\"bound\": \"exact\", \"after\": \"1.13\", \"status\": "
	     "\"verified\", \"note\": \"\"}",
	     "cannot parse 'T': line 4, column 16: entry 'torch.x': only "
	     "bound \"between\" may have \"after\""},
	    {"\"bound\": \"between\", \"after\": \"2.3\", \"status\": "
	     "\"verified\", \"note\": \"\"}",
	     "cannot parse 'T': line 4, column 64: entry 'torch.x': after "
	     "2.3 is not before version 2.3"},
	    {"\"bound\": \"between\", \"after\": \"1.x\", \"status\": "
	     "\"verified\", \"note\": \"\"}",
	     "cannot parse 'T': line 4, column 64: entry 'torch.x': \"1.x\" "
	     "is not a release version X.Y[.Z]"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_table t = TG_TABLE_INIT;
		struct tg_err err = TG_ERR_INIT;
		char *d = doc("torch.x", "2.3", "x", "", ""), *p, *n;
		int rc;

		p = strstr(d, intro);
		n = malloc(strlen(d) + strlen(cases[k].with) + 1);
		CHECK(p && n, "template");
		if (!p || !n) {
			free(d);
			free(n);
			continue;
		}
		memcpy(n, d, (size_t)(p - d));
		strcpy(n + (p - d), cases[k].with);
		strcat(n, p + strlen(intro));
		rc = tg_table_parse(&t, n, strlen(n), "T", &err);
		if (!cases[k].want) {
			static const char *const v[] = {"1.13", "2.0", "2.3"};
			static const enum tg_api_status want[] = {
			    TG_API_NOT_YET, TG_API_NOT_YET, TG_API_AVAILABLE};
			size_t i;

			CHECK(rc == 0, "between loads: %s", err.msg);
			CHECK(rc == 0 &&
				  t.apis[0].introduced.bound ==
				      TG_BOUND_BETWEEN &&
				  strcmp(t.apis[0].introduced.after, "1.13") ==
				      0,
			      "after read");
			for (i = 0; rc == 0 && i < 3; i++) {
				struct tg_version tv = TG_VERSION_INIT;

				tg_version_parse(&tv, v[i], strlen(v[i]), NULL);
				CHECK(tg_api_status(&t.apis[0], &tv) == want[i],
				      "between: status in %s", v[i]);
				tg_version_release(&tv);
			}
		} else {
			CHECK(rc == TG_EINVAL, "case %zu rejected", k);
			CHECK_STR(err.msg, cases[k].want, "between");
		}
		tg_table_release(&t);
		free(d);
		free(n);
	}
}

/* s with the first from replaced by to, a new string. */
static char *
replaced(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *r = malloc(n);

	if (!p || !r) {
		free(r);
		return NULL;
	}
	snprintf(r, n, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
	return r;
}

/* The newest version the table names, one answer for check, require
 * and audit: every event counts, a withdrawal and a warning's since
 * among them (audit's own count of introduced, deprecated, removed and
 * a replacement's since alone said 2.4 for the last two). */
static void
newest(void)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
	    {"\"version\": \"1.6\"", "\"version\": \"1.6\"", "2.4"},
	    {"\"version\": null", "\"version\": \"2.12\"", "2.12"},
	    {"\"withdrawn\": null", "\"withdrawn\": \"2.10\"", "2.10"},
	    {"\"since\": \"2.4\"", "\"since\": \"2.7.1\"", "2.7.1"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_table t = TG_TABLE_INIT;
		struct tg_version v = TG_VERSION_INIT;
		struct tg_err err = TG_ERR_INIT;
		char *d = doc("torch.x", "1.6", "x", "", "");
		char *r = d ? replaced(d, cases[k].from, cases[k].to) : NULL;

		CHECK(r && tg_table_parse(&t, r, strlen(r), "T", &err) == 0,
		      "case %zu: %s", k, err.msg);
		if (!t.n) {
			free(r);
			free(d);
			continue;
		}
		CHECK_STR(tg_table_newest(&t), cases[k].want, "newest");
		CHECK(tg_table_newest_version(&t, &v, &err) == 0 &&
			  strcmp(v.str, cases[k].want) == 0,
		      "newest version, case %zu", k);
		tg_version_release(&v);
		tg_table_release(&t);
		free(r);
		free(d);
	}
	{
		struct tg_table t = TG_TABLE_INIT;
		struct tg_version v = TG_VERSION_INIT;
		struct tg_err err = TG_ERR_INIT;

		CHECK(tg_table_newest(&t) == NULL, "an empty table: none");
		CHECK(tg_table_newest_version(&t, &v, &err) == TG_ENOENT,
		      "an empty table: TG_ENOENT");
		CHECK_STR(err.msg, "the table names no torch version",
			  "its message");
	}
}

int
main(void)
{
	table_versions();
	between();
	excluded();
	errors();
	fix_langs();
	syntax();
	status();
	newest();
	return check_result("test_table");
}
