/* test_audit_cxx.c - unit tests for lib/audit: the C/C++/CUDA analyzer
 * and the driver-side helpers
 * SPDX-License-Identifier: MIT
 *
 * Each case is a source text and the findings tg_audit_cxx must give
 * with the built-in table, as "line:col id in kind guard-line" joined by
 * "; " (sorted by tg_audit_result_sort), and its version branches as
 * "first-last requires". Then where each shape of finding ends: the
 * text src[start..end) that names the entry, from its line and column
 * to its end_line and end_column.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/audit/audit.h"
#include "lib/util/buf.h"

static struct tg_table table = TG_TABLE_INIT;

static const char *const in_names[] = {"code", "comment", "string"};

static void
summarize(const struct tg_audit_result *r, struct tg_buf *f, struct tg_buf *b)
{
	size_t k;

	for (k = 0; k < r->nfindings; k++) {
		const struct tg_audit_finding *x = &r->findings[k];

		tg_buf_addf(f, "%s%zu:%zu %s %s %s", k ? "; " : "", x->line,
			    x->column, x->api->id, in_names[x->in], x->kind);
		if (x->guard == TG_AUDIT_GUARDED)
			tg_buf_addf(f, " g%zu", x->guard_line);
	}
	for (k = 0; k < r->nbranches; k++)
		tg_buf_addf(b, "%s%zu-%zu %s", k ? "; " : "",
			    r->branches[k].first_line, r->branches[k].last_line,
			    r->branches[k].requires);
	if (!f->data)
		tg_buf_adds(f, "");
	if (!b->data)
		tg_buf_adds(b, "");
}

struct ccase {
	const char *name, *src, *findings, *branches;
};

static const struct ccase cases[] = {
    {"macro in code, not in comment or string",
     "AT_CHECK(x, \"y\");\n// AT_CHECK here\nconst char *s = \"AT_CHECK\";\n",
     "1:1 AT_CHECK code macro; 2:4 AT_CHECK comment macro; "
     "3:18 AT_CHECK string macro",
     ""},
    {"include, and an include in a comment",
     "#include <THC/THC.h>\n/* #include <THC/THC.h> */\n",
     "1:1 THC code include; 2:4 THC comment include", ""},
    {"qualified type: one finding, the entry the pseudo-entry extends; "
     "c10::nullopt, a constant, has its own",
     "c10::optional<int> f();\nauto n = c10::nullopt;\n",
     "1:1 c10::optional code type; 2:10 c10::nullopt code reference", ""},
    {"function call", "auto s = at::cuda::getCurrentCUDAStream();\n",
     "1:10 c10::cuda::getCurrentCUDAStream code call", ""},
    {".type() on a tensor, a device, a scalar, options",
     "void f(const at::Tensor& x, at::Scalar v, c10::TensorOptions o) {\n"
     " x.type();\n x.device().type();\n scalar.type();\n options.type();\n"
     " v.type();\n o.type();\n p->type();\n}\n",
     "2:4 at::Tensor::type code method; 8:5 at::Tensor::type code method", ""},
    {".type() on an auto from .device(), on a *_device name",
     "auto ref = t.device();\nauto u = t;\nif (ref.type() == k) {}\n"
     "u.type();\nin_device.type();\n",
     "4:3 at::Tensor::type code method", ""},
    {".data<T>() on a tensor and a declared Scalar",
     "float *p = t.data<float>();\nScalar s; s.data<int>();\n",
     "1:14 at::Tensor::data code method", ""},
    {"a method named in a comment is a mention of its id",
     "// at::Tensor::type is gone; x.type() too\n",
     "1:4 at::Tensor::type comment method", ""},
    {"version guard, both branches, and exact branches",
     "#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && "
     "TORCH_VERSION_MINOR >= 4)\nTORCH_CHECK(a);\n#else\nAT_CHECK(a);\n"
     "#endif\nAT_CHECK(b);\n",
     "2:1 TORCH_CHECK code macro g1; 4:1 AT_CHECK code macro g1; "
     "6:1 AT_CHECK code macro",
     "1-2 >=2.4; 3-4 <2.4"},
    {"#elif branch, generated prefix",
     "#if PKG_TORCH_VERSION_MAJOR < 2\nA\n#elif PKG_TORCH_VERSION_MAJOR == 2 "
     "&& PKG_TORCH_VERSION_MINOR < 4\n"
     "AT_ERROR(x);\n#endif\n",
     "4:1 AT_ERROR code macro g1", "1-2 <2.0; 3-4 >=2.0,<2.4"},
    {"generated HAS macro guard, not exact",
     "#if MYPKG_HAS_AT_CHECK\nAT_CHECK(a);\n#endif\n",
     "2:1 AT_CHECK code macro g1", ""},
    {"#ifndef of a table macro guards its definition; the test is no use",
     "#ifndef AT_CHECK\n#define AT_CHECK TORCH_CHECK\n#endif\n",
     "2:9 AT_CHECK code macro g1; 2:18 TORCH_CHECK code macro g1", ""},
    {"an unrelated #ifdef guards nothing",
     "#ifdef __CUDACC__\nAT_CHECK(a);\n#endif\n", "2:1 AT_CHECK code macro",
     ""},
    {"a comment in a directive is not code",
     "#include <vector> // THC/THC.h was here\n", "", ""},
    {"unterminated comment and string never fail",
     "AT_CHECK(\"abc\n/* AT_ERROR",
     "1:1 AT_CHECK code macro; "
     "2:4 AT_ERROR comment macro",
     ""},
    {"unbalanced #endif and #else", "#endif\n#else\nAT_CHECK(1);\n",
     "3:1 AT_CHECK code macro", ""},
    {"a match that starts before its first literal: an optional prefix "
     "of four bytes, a prefix of no bound (spaces, a newline)",
     "// x\nbool e = at::autocast::is_enabled();\n"
     "bool f = autocast::is_enabled();\nctx.   lazyInitCUDA();\n"
     "hooks->\n  lazyInitCUDA();\n",
     "2:10 at::autocast::is_enabled code reference; "
     "3:10 at::autocast::is_enabled code reference; "
     "4:8 at::Context::lazyInitCUDA code method; "
     "5:8 at::Context::lazyInitCUDA code method",
     ""},
    {"each of a pattern's literals, up to the last",
     "x.type();\nint a;\np->type();\nq.type();\n",
     "1:3 at::Tensor::type code method; 3:4 at::Tensor::type code method; "
     "4:3 at::Tensor::type code method",
     ""},
};

static void
test_cases(void)
{
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct ccase *c = &cases[k];
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		struct tg_buf f = TG_BUF_INIT, b = TG_BUF_INIT;
		int rc = tg_audit_cxx(&table, c->src, strlen(c->src), "t.cpp",
				      &r, NULL);

		CHECK(rc == 0, "%s: rc %d", c->name, rc);
		tg_audit_result_sort(&r);
		summarize(&r, &f, &b);
		CHECK_STR(f.data, c->findings, c->name);
		CHECK_STR(b.data, c->branches, c->name);
		tg_buf_release(&f);
		tg_buf_release(&b);
		tg_audit_result_release(&r);
	}
}

/* The first finding of entry id in src (in code, comment or string as
 * in) names it with the text want, from its line and column to its
 * end_line and end_column. */
struct scase {
	const char *name, *src, *id;
	enum tg_audit_in in;
	const char *want;
	size_t end_line;
};

static const struct scase spans[] = {
    {"macro", "AT_CHECK(x, \"y\");\n", "AT_CHECK", TG_AUDIT_IN_CODE, "AT_CHECK",
     1},
    {"macro defined",
     "#ifndef AT_CHECK\n#define AT_CHECK TORCH_CHECK\n#endif\n", "TORCH_CHECK",
     TG_AUDIT_IN_CODE, "TORCH_CHECK", 2},
    {"include", "#include <THC/THC.h>  \n", "THC", TG_AUDIT_IN_CODE,
     "#include <THC/THC.h>", 1},
    {"include in quotes", "  #  include \"THC/THC.h\"\n", "THC",
     TG_AUDIT_IN_CODE, "#  include \"THC/THC.h\"", 1},
    {"qualified call", "auto s = at::cuda::getCurrentCUDAStream();\n",
     "c10::cuda::getCurrentCUDAStream", TG_AUDIT_IN_CODE,
     "at::cuda::getCurrentCUDAStream", 1},
    {"template type", "c10::optional<int> f();\n", "c10::optional",
     TG_AUDIT_IN_CODE, "c10::optional", 1},
    {"method", "void f(at::Tensor x) {\n  x.type().is_cuda();\n}\n",
     "at::Tensor::type", TG_AUDIT_IN_CODE, "type", 2},
    {"template method", "float *p = t.data<float>();\n", "at::Tensor::data",
     TG_AUDIT_IN_CODE, "data", 1},
    /* the finding starts where "->" ends, and so does its text */
    {"method after '->' and a newline", "hooks->\n  lazyInitCUDA();\n",
     "at::Context::lazyInitCUDA", TG_AUDIT_IN_CODE, "\n  lazyInitCUDA", 2},
    {"mention in a comment", "x = 1; // AT_CHECK( here\n", "AT_CHECK",
     TG_AUDIT_IN_COMMENT, "AT_CHECK", 1},
    {"mention in a string", "const char *s = \"use AT_ERROR(x)\";\n",
     "AT_ERROR", TG_AUDIT_IN_STRING, "AT_ERROR", 1},
    {"method id mentioned", "/*\n * at::Tensor::type is gone\n */\n",
     "at::Tensor::type", TG_AUDIT_IN_COMMENT, "at::Tensor::type", 2},
};

/* The byte offset of line, column (1-based) in src. */
static size_t
offset_of(const char *src, size_t line, size_t column)
{
	size_t k = 0;

	for (; line > 1 && src[k]; k++)
		if (src[k] == '\n')
			line--;
	return k + column - 1;
}

static void
test_spans(void)
{
	size_t k, j;

	for (k = 0; k < sizeof(spans) / sizeof(spans[0]); k++) {
		const struct scase *c = &spans[k];
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		const struct tg_audit_finding *f = NULL;
		size_t n = strlen(c->want);

		CHECK(tg_audit_cxx(&table, c->src, strlen(c->src), "t.cpp", &r,
				   NULL) == 0,
		      "%s: rc", c->name);
		for (j = 0; j < r.nfindings && !f; j++)
			if (strcmp(r.findings[j].api->id, c->id) == 0 &&
			    r.findings[j].in == c->in)
				f = &r.findings[j];
		CHECK(f != NULL, "%s: no finding of %s", c->name, c->id);
		if (f) {
			CHECK(f->end - f->start == n &&
				  memcmp(c->src + f->start, c->want, n) == 0,
			      "%s: src[%zu..%zu) is '%.*s', want '%s'", c->name,
			      f->start, f->end, (int)(f->end - f->start),
			      c->src + f->start, c->want);
			CHECK(offset_of(c->src, f->line, f->column) == f->start,
			      "%s: %zu:%zu is not offset %zu", c->name, f->line,
			      f->column, f->start);
			CHECK(f->end_line == c->end_line &&
				  offset_of(c->src, f->end_line,
					    f->end_column) == f->end,
			      "%s: end %zu:%zu, want line %zu, offset %zu",
			      c->name, f->end_line, f->end_column, c->end_line,
			      f->end);
		}
		tg_audit_result_release(&r);
	}
}

static void
test_suppressions(void)
{
	static const char src[] =
	    "AT_CHECK(a); // torchgate: ignore[AT_CHECK, THC]\n"
	    "AT_ERROR(b); /* torchgate: ignore */\n"
	    "AT_ERROR(c); // torchgate: ignored is not a suppression\n";
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
	size_t k, hits = 0;

	CHECK(tg_audit_cxx(&table, src, strlen(src), "s.cpp", &r, NULL) == 0,
	      "suppressions: rc");
	CHECK(r.nsuppressions == 2, "suppressions: got %zu", r.nsuppressions);
	if (r.nsuppressions == 2) {
		CHECK(r.suppressions[0].line == 1 &&
			  r.suppressions[0].nids == 2 &&
			  strcmp(r.suppressions[0].ids[1], "THC") == 0,
		      "suppressions: first");
		CHECK(r.suppressions[1].line == 2 &&
			  r.suppressions[1].nids == 0,
		      "suppressions: second");
	}
	/* the suppression's own text is no mention */
	for (k = 0; k < r.nfindings; k++)
		hits += tg_audit_suppressed(&r, &r.findings[k]);
	CHECK(r.nfindings == 3 && hits == 2, "suppressed: %zu of %zu", hits,
	      r.nfindings);
	tg_audit_result_release(&r);
}

static void
test_helpers(void)
{
	struct tg_version v = TG_VERSION_INIT, fl = TG_VERSION_INIT;
	struct tg_audit_branch b = {1, 2, (char *)"c", (char *)">=2.0,<2.4", 0};
	const struct tg_api *a = tg_table_find(&table, "AT_CHECK");
	size_t line = 0, col = 0;
	const char *why = NULL;

	CHECK(tg_version_parse(&v, "1.3", 3, NULL) == 0, "parse");
	CHECK(a && tg_audit_rank(a, &v, 0) == TG_AUDIT_RANK_DEPRECATED,
	      "AT_CHECK deprecated in 1.3");
	tg_version_release(&v);
	tg_version_parse(&v, "1.1", 3, NULL);
	CHECK(a && tg_audit_rank(a, &v, 0) == TG_AUDIT_RANK_NONE,
	      "AT_CHECK fine in 1.1");
	CHECK(a && tg_audit_rank(a, &v, 1) == TG_AUDIT_RANK_BOUND,
	      "AT_CHECK version-bound in 1.1 with --all");
	tg_version_release(&v);
	CHECK(tg_table_newest_version(&table, &v, NULL) == 0 && v.nrelease >= 2,
	      "newest");
	tg_version_release(&v);
	tg_version_parse(&fl, "2.4", 3, NULL);
	CHECK(tg_audit_branch_dead(&b, &fl), "<2.4 dead at floor 2.4");
	tg_version_release(&fl);
	tg_version_parse(&fl, "2.3", 3, NULL);
	CHECK(!tg_audit_branch_dead(&b, &fl), "<2.4 alive at floor 2.3");
	b.requires = (char *)">=2.4";
	CHECK(!tg_audit_branch_dead(&b, &fl), ">=2.4 never dead");
	tg_version_release(&fl);
	{
		/* every form a branch's specifier set takes, at floor 2.0 */
		static const struct {
			const char *req;
			int dead;
		} forms[] = {
		    {"<=1.12.1", 1},   {"<=2.0", 0},   {"<2.0", 1},
		    {"<2.0.1", 0},     {"==1.*", 1},   {"==2.*", 0},
		    {"==1.13", 1},     {"==2.0", 0},   {">=1.8,<2.0", 1},
		    {">=1.8,<2.1", 0}, {">1.12.1", 0}, {"!=1.*", 0},
		    {"==1.9.*", 1},    {"<=1.x", 0},
		};
		size_t k;

		tg_version_parse(&fl, "2.0", 3, NULL);
		for (k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
			b.requires = (char *)forms[k].req;
			CHECK(tg_audit_branch_dead(&b, &fl) == forms[k].dead,
			      "%s %s at floor 2.0", forms[k].req,
			      forms[k].dead ? "dead" : "alive");
		}
		tg_version_release(&fl);
	}
	CHECK(!tg_audit_not_text("a\xc3\xa9\n", 4, &line, &col, &why),
	      "utf-8 is text");
	CHECK(tg_audit_not_text("a\nb\xff", 4, &line, &col, &why) &&
		  line == 2 && col == 2 && strcmp(why, "invalid UTF-8") == 0,
	      "invalid UTF-8 at 2:2, got %zu:%zu", line, col);
	CHECK(tg_audit_not_text("ab\0", 3, &line, &col, &why) && line == 1 &&
		  col == 3 && strcmp(why, "a NUL byte") == 0,
	      "NUL at 1:3");
	CHECK(tg_audit_not_text("\xed\xa0\x80", 3, &line, &col, &why),
	      "a surrogate is not UTF-8");
	{
		/* a bad byte, or a good sequence, at every place of the
		 * 64-, 32- and eight-byte steps */
		static const char *const bad[] = {"\0", "\xff", "\x80"};
		char text[176];
		size_t at, k, miss = 0;

		for (at = 0; at < 168; at++) {
			for (k = 0; k < 3; k++) {
				memset(text, 'a', sizeof(text));
				text[at] = bad[k][0];
				miss +=
				    !(tg_audit_not_text(text, sizeof(text),
							&line, &col, &why) &&
				      line == 1 && col == at + 1);
			}
			memset(text, 'a', sizeof(text));
			memcpy(text + at, "\xe2\x82\xac", 3);
			miss += tg_audit_not_text(text, sizeof(text), &line,
						  &col, &why);
		}
		CHECK(miss == 0, "%zu bad or good bytes misjudged", miss);
	}
}

/* A literal at every place near the start and the end of an input
 * allocated to its length (valgrind tells a read past it): the
 * prefilter looks at every other byte, sixteen bytes at a time (SSE2)
 * while eighteen are left, then four at a time but for the last three,
 * so each parity, each place in and across the sixteen-byte blocks and
 * each tail is tried. */
static void
test_edges(void)
{
	static const char *const uses[][2] = {
	    {"AT_CHECK", "AT_CHECK"},		  /* a literal of eight bytes */
	    {"CC=gcc-7", "cxx_compiler_minimum"}, /* "gcc-": four bytes */
	};
	struct tg_audit_cxx_index *ix = NULL;
	size_t u, pre, post;

	CHECK(tg_audit_cxx_index_new(&ix, &table, NULL) == 0, "index");
	for (u = 0; ix && u < 2; u++)
		for (pre = 0; pre < 36; pre++)
			for (post = 0; post < 20; post++) {
				size_t ul = strlen(uses[u][0]),
				       n = pre + ul + post;
				char *s = malloc(n);
				struct tg_audit_result r = TG_AUDIT_RESULT_INIT;

				if (!s)
					return;
				memset(s, ' ', n);
				memcpy(s + pre, uses[u][0], ul);
				CHECK(tg_audit_cxx_indexed(ix, s, n, "e.cpp",
							   &r, NULL) == 0 &&
					  r.nfindings == 1 &&
					  strcmp(r.findings[0].api->id,
						 uses[u][1]) == 0 &&
					  r.findings[0].column == pre + 1,
				      "%s after %zu bytes, %zu after: %zu "
				      "findings",
				      uses[u][0], pre, post, r.nfindings);
				tg_audit_result_release(&r);
				free(s);
			}
	tg_audit_cxx_index_free(ix);
}

/* More places of a literal than the prefilter keeps (PLACES_MAX,
 * 65536): the pattern then runs over the bytes between the first and
 * the last, and finds what a search near each place finds. */
static void
test_many_places(void)
{
	static const size_t reps[] = {100, 70000};
	size_t u, k;

	for (u = 0; u < 2; u++) {
		size_t n = reps[u] * 10 + 12;
		char *s = malloc(n);
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;

		if (!s)
			return;
		for (k = 0; k < reps[u]; k++)
			memcpy(s + 10 * k, "AT_CHECKx\n", 10);
		memcpy(s + n - 12, "AT_CHECK(1);", 12);
		CHECK(tg_audit_cxx(&table, s, n, "m.cpp", &r, NULL) == 0 &&
			  r.nfindings == 1 &&
			  r.findings[0].line == reps[u] + 1 &&
			  r.findings[0].column == 1,
		      "%zu places: %zu findings", reps[u] + 1, r.nfindings);
		tg_audit_result_release(&r);
		free(s);
	}
}

static void
test_big(void)
{
	/* a long single line and deep nesting: bounded, no failure */
	size_t n = 2 * 1024 * 1024, k;
	char *s = malloc(n + 1);
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;

	if (!s)
		return;
	for (k = 0; k < n; k++)
		s[k] = k % 2 ? '(' : '[';
	memcpy(s + n - 9, "AT_CHECK;", 9);
	CHECK(tg_audit_cxx(&table, s, n, "big.cpp", &r, NULL) == 0 &&
		  r.nfindings == 1 && r.findings[0].column == n - 8,
	      "a 2 MiB line: %zu findings", r.nfindings);
	tg_audit_result_release(&r);
	for (k = 0; k < n; k++)
		s[k] = "#if X\nAT_CHECK(1);\n"[k % 19];
	CHECK(tg_audit_cxx(&table, s, n, "deep.cpp", &r, NULL) == 0 &&
		  r.nfindings == 10000 && r.notes.n == 1,
	      "deep #if: %zu findings, %zu notes", r.nfindings, r.notes.n);
	tg_audit_result_release(&r);
	free(s);
}

int
main(void)
{
	if (tg_table_default(&table, NULL)) {
		fprintf(stderr, "cannot load the built-in table\n");
		return 1;
	}
	test_cases();
	test_spans();
	test_suppressions();
	test_helpers();
	test_edges();
	test_many_places();
	test_big();
	tg_table_release(&table);
	return check_result("test_audit_cxx");
}
