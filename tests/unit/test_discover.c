/* test_discover.c - unit tests for lib/discover: harvesting deprecations
 * SPDX-License-Identifier: MIT
 *
 * Each declaration form in Python and C++ text (the torch 2.x spellings
 * and the Debian 1.13 ones), what must not count (comments, docstrings,
 * strings, the macros' own definitions), the replacement a message
 * names, and the walk over a temporary tree: symlinks in and out (a
 * link out of the torch tree is not followed), a symlink loop, the
 * depth and size limits, order, errors.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "lib/discover/discover.h"

/* The declaration of symbol (of kind, at line: when given). */
static const struct tg_decl *
find_at(const struct tg_decls *d, const char *symbol, const char *kind,
	size_t line)
{
	size_t k;

	for (k = 0; k < d->n; k++)
		if (strcmp(d->v[k].symbol, symbol) == 0 &&
		    (!kind || strcmp(d->v[k].kind, kind) == 0) &&
		    (!line || d->v[k].line == line))
			return &d->v[k];
	return NULL;
}

static const struct tg_decl *
find(const struct tg_decls *d, const char *symbol, const char *kind)
{
	return find_at(d, symbol, kind, 0);
}

static const char *
str(const char *s)
{
	return s ? s : "(null)";
}

/* One expected declaration: symbol, kind, line, message, replacement
 * (NULL: none). */
struct want {
	const char *symbol, *kind;
	size_t line;
	const char *message, *replacement;
};

static void
expect(const struct tg_decls *d, const struct want *w, size_t n,
       const char *what)
{
	size_t k;

	CHECK(d->n == n, "%s: %zu declarations, want %zu", what, d->n, n);
	for (k = 0; k < d->n; k++)
		fprintf(d->n == n ? stdout : stderr,
			"  %s %s:%zu %s | %s | %s\n", d->v[k].kind,
			d->v[k].file, d->v[k].line, d->v[k].symbol,
			str(d->v[k].message), str(d->v[k].replacement));
	for (k = 0; k < n; k++) {
		const struct tg_decl *x =
		    find_at(d, w[k].symbol, w[k].kind, w[k].line);

		CHECK(x != NULL, "%s: no %s [%s] at line %zu", what,
		      w[k].symbol, w[k].kind, w[k].line);
		if (!x)
			continue;
		CHECK_STR(str(x->message), str(w[k].message), w[k].symbol);
		CHECK_STR(str(x->replacement), str(w[k].replacement),
			  w[k].symbol);
	}
}

static const char py_text[] =
    "\"\"\"Module docstring: @deprecated(\"not this\") and\n"
    "warnings.warn(\"nor this is deprecated\", FutureWarning).\"\"\"\n"
    "import warnings\n"
    "from typing_extensions import deprecated\n"
    "\n"
    "# warnings.warn(\"a comment is deprecated\", FutureWarning)\n"
    "\n"
    "@deprecated(\n"
    "    \"`torch.cuda.amp.custom_fwd(args...)` is deprecated. \"\n"
    "    \"Please use `torch.amp.custom_fwd(args..., device_type='cuda')` "
    "instead.\",\n"
    "    category=FutureWarning,\n"
    ")\n"
    "def custom_fwd(fwd=None, *, cast_inputs=None):\n"
    "    return fwd\n"
    "\n"
    "\n"
    "class autocast(torch.amp.autocast_mode.autocast):\n"
    "    r\"\"\"Docstring with warnings.warn('x is deprecated').\"\"\"\n"
    "\n"
    "    @deprecated(\n"
    "        \"`torch.cuda.amp.autocast(args...)` is deprecated. \"\n"
    "        \"Please use `torch.amp.autocast(\\\"cuda\\\", args...)` "
    "instead.\",\n"
    "        category=FutureWarning,\n"
    "    )\n"
    "    def __init__(self, enabled=True):\n"
    "        super().__init__(\"cuda\", enabled=enabled)\n"
    "\n"
    "    @staticmethod\n"
    "    @typing_extensions.deprecated(f\"{__name__}.helper is "
    "deprecated\")\n"
    "    @functools.wraps(g)\n"
    "    def helper():\n"
    "        def inner():\n"
    "            warnings.warn(\n"
    "                'inner', DeprecationWarning)\n"
    "        return inner\n"
    "\n"
    "\n"
    "def old(x):\n"
    "    warnings.warn(f\"{x!r} is deprecated, use {new} instead\")\n"
    "    warnings.warn(\"a user warning\", UserWarning)\n"
    "    warnings.warn(\"no category\")\n"
    "    warnings.warn(message=\"kw message\", category=FutureWarning)\n"
    "    warnings.warn(\"\"\"triple\n"
    "        quoted, deprecated\"\"\")\n"
    "    warnings.warn(r\"raw \\d \" + name + ' and more',\n"
    "                  FutureWarning)\n"
    "    warnings.warn(MSG.format(x), category=torch.jit.FutureWarning)\n"
    "    return a @ deprecated(x)\n"
    "\n"
    "\n"
    "MSG = (\"old() is deprecated; \"\n"
    "       \"it was replaced by `new()`\")\n"
    "warnings.warn(\"this module is deprecated in favor of torch.nn\", "
    "stacklevel=2)\n"
    "\n"
    "@_deprecation.deprecated(\n"
    "    \"1.13\",\n"
    "    \"1.14\",\n"
    "    \"remove its usage\",\n"
    ")\n"
    "def _set_opset(v):\n"
    "    pass\n"
    "\n"
    "@_deprecation.deprecated(\n"
    "    since=\"1.12.0\", removed_in=\"1.14\", instructions=\"use "
    "`torch.onnx.export` instead\"\n"
    ")\n"
    "def _export(*args, **kwargs):\n"
    "    pass\n";

static void
python_forms(void)
{
	static const struct want w[] = {
	    {"m.custom_fwd", TG_DECL_DECORATOR, 8,
	     "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
	     "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
	     "torch.amp.custom_fwd(args..., device_type='cuda')"},
	    /* __init__ stands for its class */
	    {"m.autocast", TG_DECL_DECORATOR, 20,
	     "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
	     "`torch.amp.autocast(\"cuda\", args...)` instead.",
	     "torch.amp.autocast(\"cuda\", args...)"},
	    {"m.autocast.helper", TG_DECL_DECORATOR, 29,
	     "{__name__}.helper is deprecated", NULL},
	    {"m.autocast.helper", TG_DECL_WARN, 33, "inner", NULL},
	    {"m.old", TG_DECL_WARN, 39,
	     "{x!r} is deprecated, use {new} instead", NULL},
	    {"m.old", TG_DECL_WARN, 42, "kw message", NULL},
	};
	static const struct want w2[] = {
	    {"m.old", TG_DECL_WARN, 43, "triple quoted, deprecated", NULL},
	    {"m.old", TG_DECL_WARN, 45, "raw \\d {name} and more", NULL},
	    /* a constant defined after the function that uses it */
	    {"m.old", TG_DECL_WARN, 47,
	     "old() is deprecated; it was replaced by `new()`", "new()"},
	    {"m", TG_DECL_WARN, 53,
	     "this module is deprecated in favor of torch.nn", "torch.nn"},
	    {"m._set_opset", TG_DECL_DECORATOR, 55, "remove its usage", NULL},
	    {"m._export", TG_DECL_DECORATOR, 63,
	     "use `torch.onnx.export` instead", "torch.onnx.export"},
	};
	struct tg_decls d = TG_DECLS_INIT, d1 = TG_DECLS_INIT,
			d2 = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	CHECK(tg_discover_text(&d, py_text, sizeof(py_text) - 1, TG_LANG_PYTHON,
			       "m", "f.py", &err) == 0,
	      "python: %s", err.msg);
	/* Split the expectations by line so that expect() counts all. */
	for (k = 0; k < d.n; k++) {
		struct tg_decls *dst = d.v[k].line < 43 ? &d1 : &d2;

		if (dst->n == dst->cap) {
			dst->cap = dst->cap ? 2 * dst->cap : 16;
			dst->v = realloc(dst->v, dst->cap * sizeof(*dst->v));
		}
		dst->v[dst->n++] = d.v[k];
	}
	expect(&d1, w, sizeof(w) / sizeof(w[0]), "python");
	expect(&d2, w2, sizeof(w2) / sizeof(w2[0]), "python, part 2");
	free(d1.v);
	free(d2.v);
	for (k = 1; k < d.n; k++)
		CHECK(d.v[k - 1].line <= d.v[k].line, "text order");
	tg_discover_release(&d);
}

static const char cxx_text[] =
    "#pragma once\n"
    "#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]\n"
    "#define C10_DEFINE_X(T) \\\n"
    "  using T [[deprecated]] = int;\n"
    "C10_CLANG_DIAGNOSTIC_PUSH()\n"
    "namespace at {\n"
    "namespace autocast {\n"
    "// deprecated CUDA-specific autocast APIs\n"
    "C10_DEPRECATED_MESSAGE(\n"
    "    \"at::autocast::is_enabled() is deprecated. Please use \"\n"
    "    \"at::autocast::is_autocast_enabled(at::kCUDA) instead.\")\n"
    "inline bool is_enabled() {\n"
    "  TORCH_WARN_DEPRECATION(\n"
    "      \"at::autocast::\",\n"
    "      __func__,\n"
    "      \"() is deprecated.\")\n"
    "  return is_autocast_enabled(at::kCUDA);\n"
    "}\n"
    "} // namespace autocast\n"
    "class TORCH_API Tensor : public TensorBase {\n"
    " public:\n"
    "  C10_DEPRECATED_MESSAGE(\"Tensor.type() is deprecated. Instead use "
    "Tensor.options().\")\n"
    "  DeprecatedTypeProperties & type() const {\n"
    "    return x;\n"
    "  }\n"
    "  /* C10_DEPRECATED_MESSAGE(\"commented out\") */\n"
    "  // [[deprecated(\"commented\")]]\n"
    "  const char *s = \"[[deprecated(\\\"in a string\\\")]]\";\n"
    "  C10_DEPRECATED_MESSAGE(R\"x(raw \"quoted\" text)x\")\n"
    "  bool operator==(const Tensor &o) const;\n"
    "};\n"
    "} // namespace at\n"
    "namespace c10 {\n"
    "template <class T>\n"
    "using optional [[deprecated(\"Use std::optional instead.\")]] =\n"
    "    std::optional<T>;\n"
    "struct [[deprecated(\"use Bar instead\")]] Foo {};\n"
    "enum class E { A [[deprecated]] = 1, B };\n"
    "[[deprecated]] constexpr int kOld = 3'000;\n"
    "} // namespace c10\n";

static void
cxx_forms(void)
{
	static const struct want w[] = {
	    {"at::autocast::is_enabled", TG_DECL_C10, 9,
	     "at::autocast::is_enabled() is deprecated. Please use "
	     "at::autocast::is_autocast_enabled(at::kCUDA) instead.",
	     "at::autocast::is_autocast_enabled(at::kCUDA)"},
	    {"at::autocast::is_enabled", TG_DECL_TORCH_WARN, 13,
	     "at::autocast::{__func__}() is deprecated.", NULL},
	    {"at::Tensor::type", TG_DECL_C10, 22,
	     "Tensor.type() is deprecated. Instead use Tensor.options().",
	     "Tensor.options()"},
	    {"at::Tensor::operator==", TG_DECL_C10, 29, "raw \"quoted\" text",
	     NULL},
	    {"c10::optional", TG_DECL_ATTRIBUTE, 35,
	     "Use std::optional instead.", "std::optional"},
	    {"c10::Foo", TG_DECL_ATTRIBUTE, 37, "use Bar instead", "Bar"},
	    {"c10::E::A", TG_DECL_ATTRIBUTE, 38, NULL, NULL},
	    {"c10::kOld", TG_DECL_ATTRIBUTE, 39, NULL, NULL},
	};
	struct tg_decls d = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;

	CHECK(tg_discover_text(&d, cxx_text, sizeof(cxx_text) - 1, TG_LANG_CXX,
			       NULL, "f.h", &err) == 0,
	      "c++: %s", err.msg);
	expect(&d, w, sizeof(w) / sizeof(w[0]), "c++");
	tg_discover_release(&d);
}

/* How C++ text is lexed (lex/clex): a "//" comment goes on over a
 * backslash-newline, as in C++'s translation phase 2 (before clex the
 * next line was read as code); an unterminated raw string runs to the
 * end of the file; a splice in code is whitespace; a directive goes on
 * over its continued lines. */
static void
cxx_lexing(void)
{
	static const struct {
		const char *text;
		size_t n;	    /* declarations */
		const char *symbol; /* of the first, at line */
		size_t line;
	} c[] = {
	    {"// a note \\\n"
	     "C10_DEPRECATED_MESSAGE(\"x\") void f();\n"
	     "C10_DEPRECATED_MESSAGE(\"y\") void g();\n",
	     1, "g", 3},
	    {"// a note \\\r\n"
	     "[[deprecated]] int a;\r\n"
	     "[[deprecated]] int b;\r\n",
	     1, "b", 3},
	    {"// no splice \\ here\n"
	     "[[deprecated]] int a;\n",
	     1, "a", 2},
	    {"[[deprecated]] int a;\n"
	     "const char *s = R\"x(\n"
	     "[[deprecated]] int b;\n"
	     ")y\";\n"
	     "[[deprecated]] int c;\n",
	     1, "a", 1},
	    {"const char *s = R\"x()y\")x\";\n"
	     "[[deprecated]] int a;\n",
	     1, "a", 2},
	    {"[[deprecated]] int \\\nsplit;\n", 1, "split", 1},
	    {"#define X \\\n"
	     "  [[deprecated]] int no;\n"
	     "[[deprecated]] int yes;\n",
	     1, "yes", 3},
	    {"#define X /* a\n"
	     "  [[deprecated]] int no; */ [[deprecated]] int no2;\n"
	     "[[deprecated]] int yes;\n",
	     1, "yes", 3},
	    {"char q = '\\'';\n"
	     "[[deprecated]] constexpr int k = 1'000;\n",
	     1, "k", 2},
	};
	size_t k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct tg_decls d = TG_DECLS_INIT;
		struct tg_err err = TG_ERR_INIT;

		CHECK(tg_discover_text(&d, c[k].text, strlen(c[k].text),
				       TG_LANG_CXX, NULL, "f.h", &err) == 0,
		      "lexing %zu: %s", k, err.msg);
		CHECK(d.n == c[k].n, "lexing %zu: %zu declarations, want %zu",
		      k, d.n, c[k].n);
		CHECK(d.n && strcmp(d.v[0].symbol, c[k].symbol) == 0 &&
			  d.v[0].line == c[k].line,
		      "lexing %zu: %s:%zu, want %s:%zu", k,
		      d.n ? d.v[0].symbol : "(none)", d.n ? d.v[0].line : 0,
		      c[k].symbol, c[k].line);
		tg_discover_release(&d);
	}
}

static void
replacements(void)
{
	static const struct {
		const char *msg, *want;
	} t[] = {
	    {"Please use `torch.amp.custom_fwd(args..., device_type='cuda')` "
	     "instead.",
	     "torch.amp.custom_fwd(args..., device_type='cuda')"},
	    {"torch.foo is deprecated, use torch.bar instead.", "torch.bar"},
	    {"Use torch.linalg.solve() instead", "torch.linalg.solve()"},
	    {"please use 'non_blocking'", "non_blocking"},
	    {"X was replaced by Y.z", "Y.z"},
	    {"X has been replaced with `Y`", "Y"},
	    {"deprecated in favor of torch.nn.utils.clip_grad_norm_.",
	     "torch.nn.utils.clip_grad_norm_"},
	    {"deprecated in favour of \"new_name\"", "new_name"},
	    {"memory_cached has been renamed to torch.cuda.memory_reserved",
	     "torch.cuda.memory_reserved"},
	    {"Please use the `torch.linalg.lstsq` function instead.",
	     "torch.linalg.lstsq"},
	    {"use AT_DISPATCH_ALL_TYPES_AND(at::ScalarType::Half, ...) instead",
	     "AT_DISPATCH_ALL_TYPES_AND(at::ScalarType::Half, ...)"},
	    {"Please use c10::Dict<K, V> instead.", "c10::Dict<K, V>"},
	    {"use packed_accessor32 or packed_accessor64 instead",
	     "packed_accessor32"},
	    {"please use det instead", "det"},
	    /* nothing code-like: no replacement */
	    {"Please use a lambda without a capture instead.", NULL},
	    {"Please use the overload with 'includeBool' parameter instead.",
	     NULL},
	    {"Use custom classes instead: https://x", NULL},
	    {"use it instead", NULL},
	    {"nn.init.{} is now deprecated in favor of nn.init.{}.", NULL},
	    {"is deprecated, use `{new}` instead", NULL},
	    {"is deprecated and has no effect", NULL},
	    {"", NULL},
	};
	struct tg_err err = TG_ERR_INIT;
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		char *got = NULL;

		CHECK(tg_discover_replacement(t[k].msg, &got, &err) == 0, "%s",
		      err.msg);
		CHECK_STR(str(got), str(t[k].want), t[k].msg);
		free(got);
	}
}

/* Pathological files stop early with a note, in linear time. */
static void
limits(void)
{
	static const char dec[] = "@deprecated('x')\n";
	static const char open_call[] = "warnings.warn(";
	struct tg_decls d = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t n = 10001 * (sizeof(dec) - 1), k;
	char *t = malloc(n + 1);

	for (k = 0; t && k < 10001; k++)
		memcpy(t + k * (sizeof(dec) - 1), dec, sizeof(dec) - 1);
	CHECK(t && tg_discover_text(&d, t, n, TG_LANG_PYTHON, "m", "many.py",
				    &err) == 0,
	      "many: %s", err.msg);
	CHECK(d.n == 10000, "many: %zu declarations", d.n);
	CHECK(d.notes.n == 1 && strcmp(d.notes.v[0].message,
				       "'many.py': stopped at line 10001: more "
				       "than 10000 declarations") == 0,
	      "many: %s", d.notes.n ? d.notes.v[0].message : "(no note)");
	CHECK(d.notes.n == 1 && d.notes.v[0].severity == TG_SEV_WARNING &&
		  d.notes.v[0].code == 0 &&
		  strcmp(d.notes.v[0].rule, TG_DISCOVER_RULE_LIMIT) == 0 &&
		  d.notes.v[0].path &&
		  strcmp(d.notes.v[0].path, "many.py") == 0 &&
		  d.notes.v[0].line == 10001 && d.notes.v[0].column == 0,
	      "many: the note's fields");
	tg_discover_release(&d);
	free(t);

	n = 20000 * (sizeof(open_call) - 1);
	t = malloc(n + 1);
	for (k = 0; t && k < 20000; k++)
		memcpy(t + k * (sizeof(open_call) - 1), open_call,
		       sizeof(open_call) - 1);
	CHECK(t && tg_discover_text(&d, t, n, TG_LANG_PYTHON, "m", "open.py",
				    &err) == 0,
	      "open: %s", err.msg);
	CHECK(d.n == 0 && d.notes.n == 1 &&
		  strstr(d.notes.v[0].message,
			 "'open.py': stopped at line 1: more to "
			 "read than 32 bytes per byte") != NULL,
	      "open: %zu, %s", d.n,
	      d.notes.n ? d.notes.v[0].message : "(no note)");
	CHECK(d.notes.n == 1 &&
		  strcmp(d.notes.v[0].rule, TG_DISCOVER_RULE_LIMIT) == 0 &&
		  d.notes.v[0].line == 1,
	      "open: the note's rule and line");
	tg_discover_release(&d);
	free(t);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Whether a note holds needle, under rule, about a path ending in
 * tail. */
static int
has_note(const struct tg_decls *d, const char *needle, const char *rule,
	 const char *tail)
{
	size_t k, n = strlen(tail);

	for (k = 0; k < d->notes.n; k++) {
		const struct tg_diag *g = &d->notes.v[k];

		if (strstr(g->message, needle) &&
		    g->severity == TG_SEV_WARNING &&
		    strcmp(g->rule, rule) == 0 && g->path &&
		    strlen(g->path) >= n &&
		    strcmp(g->path + strlen(g->path) - n, tail) == 0)
			return 1;
	}
	return 0;
}

static void
walk(void)
{
	char dir[] = "/tmp/tg-test-discover-XXXXXX", torch[256], inc[512],
	     path[4096];
	struct tg_decls d = TG_DECLS_INIT, d2 = TG_DECLS_INIT;
	struct tg_err err = TG_ERR_INIT;
	const struct tg_decl *x;
	size_t k, n;
	int fd, same;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(torch, sizeof(torch), "%s/sp/torch", dir);
	snprintf(inc, sizeof(inc), "%s/include", torch);
	check_put(dir, "sp/torch/__init__.py",
		  "import warnings\n"
		  "warnings.warn('torch.x is deprecated', FutureWarning)\n");
	check_put(dir, "sp/torch/cuda/amp/autocast_mode.py",
		  "@deprecated('use `torch.amp.custom_fwd` instead')\n"
		  "def custom_fwd(f):\n"
		  "    return f\n");
	check_put(dir, "sp/torch/__pycache__/skipped.py",
		  "@deprecated('x')\ndef f(): pass\n");
	check_put(dir, "sp/torch/b.py",
		  "class C:\n"
		  "    def m(self):\n"
		  "        warnings.warn('m is deprecated')\n");
	check_put(dir, "sp/torch/notes.txt", "@deprecated('not python')\n");
	/* Debian's layout: torch/include/ATen is a symlink out of the
	 * package; the Python walk leaves torch/include to the header walk. */
	check_put(dir, "usr/include/ATen/core/T.h",
		  "namespace at {\n"
		  "C10_DEPRECATED_MESSAGE(\"use g instead\") void f();\n"
		  "}\n");
	check_put(dir, "usr/include/ATen/ops.py",
		  "@deprecated('a .py among the headers')\ndef f(): pass\n");
	mkdir(inc, 0755);
	snprintf(path, sizeof(path), "%s/ATen", inc);
	CHECK(symlink("../../../usr/include/ATen", path) == 0, "symlink");
	/* A loop: a directory that links back to an ancestor. */
	snprintf(path, sizeof(path), "%s/cuda/amp/loop", torch);
	CHECK(symlink("../..", path) == 0, "symlink loop");
	/* The same directory twice is walked once. */
	snprintf(path, sizeof(path), "%s/ATen2", inc);
	CHECK(symlink("ATen", path) == 0, "second link");
	/* A dangling link says nothing. */
	snprintf(path, sizeof(path), "%s/gone.py", torch);
	CHECK(symlink("nowhere.py", path) == 0, "dangling link");
	/* Larger than 16 MiB: skipped with a note, never read. */
	snprintf(path, sizeof(path), "%s/huge.py", torch);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0 && ftruncate(fd, 17 << 20) == 0, "sparse file");
	if (fd >= 0)
		close(fd);
	/* Deeper than 64 directories. */
	snprintf(path, sizeof(path), "%s/deep", torch);
	for (k = 0; k < 66; k++) {
		mkdir(path, 0755);
		strcat(path, "/d");
	}

	CHECK(tg_discover(&d, torch, inc, &err) == 0, "walk: %s", err.msg);
	CHECK(d.n == 4, "walk: %zu declarations, want 4", d.n);
	for (k = 0; k < d.n; k++)
		printf("  %s:%zu %s [%s]\n", d.v[k].file + strlen(dir),
		       d.v[k].line, d.v[k].symbol, d.v[k].kind);
	for (k = 0; k < d.notes.n; k++)
		printf("  note: [%s] %s\n", d.notes.v[k].rule,
		       d.notes.v[k].message);
	x = find(&d, "torch", TG_DECL_WARN);
	CHECK(x && x->line == 2, "module-level warning");
	x = find(&d, "torch.cuda.amp.autocast_mode.custom_fwd",
		 TG_DECL_DECORATOR);
	CHECK(x && x->replacement &&
		  strcmp(x->replacement, "torch.amp.custom_fwd") == 0,
	      "decorator in a subpackage");
	x = find(&d, "torch.b.C.m", TG_DECL_WARN);
	CHECK(x != NULL, "method");
	x = find(&d, "at::f", TG_DECL_C10);
	snprintf(path, sizeof(path), "%s/ATen/core/T.h", inc);
	CHECK(x && strcmp(x->file, path) == 0, "header through a symlink: %s",
	      x ? x->file : "(none)");
	n = 0;
	for (k = 0; k < d.n; k++)
		n += strcmp(d.v[k].symbol, "at::f") == 0;
	CHECK(n == 1, "ATen and ATen2 are one directory: %zu", n);
	CHECK(has_note(&d, "a symlink loop", TG_DISCOVER_RULE_WALK,
		       "/cuda/amp/loop"),
	      "loop note");
	CHECK(has_note(&d, "larger than 16 MiB", TG_DISCOVER_RULE_FILE,
		       "/huge.py"),
	      "size note");
	CHECK(has_note(&d, "deeper than 64 directories", TG_DISCOVER_RULE_WALK,
		       "/d"),
	      "depth note");
	CHECK(d.notes.n == 3, "%zu notes, want 3", d.notes.n);
	for (k = 1; k < d.n; k++)
		CHECK(strcmp(d.v[k - 1].file, d.v[k].file) < 0 ||
			  (strcmp(d.v[k - 1].file, d.v[k].file) == 0 &&
			   d.v[k - 1].line <= d.v[k].line),
		      "sorted by file, then line");

	/* The same tree gives the same answer. */
	CHECK(tg_discover(&d2, torch, inc, &err) == 0, "again: %s", err.msg);
	same = d2.n == d.n;
	for (k = 0; same && k < d.n; k++)
		same = strcmp(d.v[k].file, d2.v[k].file) == 0 &&
		       d.v[k].line == d2.v[k].line &&
		       strcmp(d.v[k].symbol, d2.v[k].symbol) == 0;
	CHECK(same, "deterministic");
	tg_discover_release(&d2);

	/* Without an include directory the headers are not looked at, and
	 * torch/include is walked for Python like any directory: its ATen
	 * is a link out of the torch tree, so it is not followed (a note). */
	CHECK(tg_discover(&d2, torch, NULL, &err) == 0, "no include: %s",
	      err.msg);
	CHECK(!find(&d2, "at::f", NULL), "no headers without include_dir");
	CHECK(!find(&d2, "torch.include.ATen.ops.f", NULL),
	      "a link out of the tree is not walked for .py");
	CHECK(has_note(&d2, "/include/ATen': a symlink to '",
		       TG_DISCOVER_RULE_WALK, "/include/ATen") &&
		  has_note(&d2, "/usr/include/ATen', outside '",
			   TG_DISCOVER_RULE_WALK, "/include/ATen"),
	      "note for the link out of the tree");
	tg_discover_release(&d2);

	/* Errors: the starting directories must be readable. */
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(tg_discover(&d2, path, NULL, &err) == TG_EIO, "missing torch");
	CHECK(strstr(err.msg, "cannot read '") &&
		  strstr(err.msg, "No such file or directory"),
	      "%s", err.msg);
	tg_discover_release(&d2);
	CHECK(tg_discover(&d2, torch, path, &err) == TG_EIO, "missing include");
	tg_discover_release(&d2);
	snprintf(path, sizeof(path), "%s/b.py", torch);
	CHECK(tg_discover(&d2, path, NULL, &err) == TG_EIO, "a file");
	CHECK(strstr(err.msg, "Not a directory") != NULL, "%s", err.msg);
	tg_discover_release(&d2);

	tg_discover_release(&d);
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
main(void)
{
	python_forms();
	cxx_forms();
	cxx_lexing();
	replacements();
	limits();
	walk();
	return check_result("test_discover");
}
