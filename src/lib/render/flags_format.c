/* flags_format.c - an extension's flags written out
 * SPDX-License-Identifier: MIT
 *
 * Writes straight through to a bounded struct tg_buf and checks it once
 * at the end, so output that did not fit is an error, never truncated.
 * Quoting: a word holding anything outside a safe set is put in single
 * quotes for the shell ('\'' for a quote); make words are shell-quoted
 * with '$' doubled and '#' escaped, so no path can run or cut a recipe;
 * args are one argument a line and refuse a line break.
 */
#include "lib/render/flags_format.h"

#include <string.h>

#include "lib/util/jsonw.h"

int
tg_flags_format_parse(const char *name, enum tg_flags_format *out)
{
	static const char *const names[] = {"words", "args", "shell", "make",
					    "json"};
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strcmp(name, names[k]) == 0) {
			*out = (enum tg_flags_format)k;
			return 0;
		}
	return TG_EINVAL;
}

static int
safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("/._+,:=@%-", *s) && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9'))
			return 0;
	return 1;
}

static void
sh_word(struct tg_buf *b, const char *s)
{
	if (safe(s)) {
		tg_buf_adds(b, s);
		return;
	}
	tg_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *s);
	}
	tg_buf_addc(b, '\'');
}

/* The words of use, shell-quoted, space-separated, into b. */
static void
words(const struct tg_flags *f, unsigned use, struct tg_buf *b)
{
	size_t k, n = 0;

	for (k = 0; k < f->n; k++) {
		if (!(f->v[k].use & use))
			continue;
		if (n++)
			tg_buf_addc(b, ' ');
		sh_word(b, f->v[k].arg);
	}
}

/* NAME='words', the words quoted once more; 0 or w's failure */
static int
sh_var(struct tg_buf *b, const char *name, const struct tg_flags *f,
       unsigned use)
{
	struct tg_buf w = TG_BUF_INIT;
	const char *s;
	int r;

	words(f, use, &w);
	if ((r = tg_buf_error(&w))) {
		tg_buf_release(&w);
		return r;
	}
	tg_buf_addf(b, "%s='", name);
	for (s = w.data ? w.data : ""; *s; s++) {
		if (*s == '\'')
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *s);
	}
	tg_buf_adds(b, "'\n");
	tg_buf_release(&w);
	return 0;
}

static void
mk_var(struct tg_buf *b, const char *name, const struct tg_flags *f,
       unsigned use)
{
	size_t k;
	const char *s;

	tg_buf_addf(b, "%s =", name);
	for (k = 0; k < f->n; k++) {
		if (!(f->v[k].use & use))
			continue;
		tg_buf_addc(b, ' ');
		if (safe(f->v[k].arg)) {
			tg_buf_adds(b, f->v[k].arg);
			continue;
		}
		tg_buf_addc(b, '\'');
		for (s = f->v[k].arg; *s; s++) {
			if (*s == '$')
				tg_buf_adds(b, "$$");
			else if (*s == '\'')
				tg_buf_adds(b, "'\\''");
			else if (*s == '#')
				tg_buf_adds(b, "\\#");
			else
				tg_buf_addc(b, *s);
		}
		tg_buf_addc(b, '\'');
	}
	tg_buf_addc(b, '\n');
}

static const char *
use_name(unsigned use)
{
	if (use == (TG_USE_CFLAGS | TG_USE_NVCC))
		return "cflags nvcc";
	if (use & TG_USE_CFLAGS)
		return "cflags";
	if (use & TG_USE_LIBS)
		return "libs";
	return "nvcc";
}

static void
json_values(struct tg_jsonw *w, const char *key, const struct tg_flags *f,
	    enum tg_flag_kind kind, unsigned use)
{
	size_t k;

	tg_jsonw_key(w, key);
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < f->n; k++)
		if (f->v[k].kind == kind && (f->v[k].use & use))
			tg_jsonw_str(w, kind == TG_FLAG_COMPILE ||
						kind == TG_FLAG_NVCC
					    ? f->v[k].arg
					    : f->v[k].value);
	tg_jsonw_end(w);
}

static void
write_json(const struct tg_flags *f, const struct tg_torch *t, const char *name,
	   int cuda, struct tg_buf *b)
{
	static const char *const kinds[] = {
	    "include", "define", "compile", "libdir", "rpath", "lib", "nvcc"};
	struct tg_jsonw w;
	size_t k;

	tg_jsonw_init(&w, b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_FLAGS_SCHEMA_VERSION);
	tg_jsonw_kstr(&w, "torch", t->dir);
	tg_jsonw_kstr(&w, "version", t->version);
	tg_jsonw_kstr(&w, "name", name);
	tg_jsonw_kbool(&w, "cuda", cuda);
	tg_jsonw_kint(&w, "cxx_standard", f->cxx_standard);
	tg_jsonw_kstr(&w, "python_include", f->python_include);
	tg_jsonw_kstr(&w, "cuda_home", f->cuda_home);
	tg_jsonw_key(&w, "flags");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < f->n; k++) {
		tg_jsonw_object(&w, TG_JSONW_FLOW);
		tg_jsonw_kstr(&w, "arg", f->v[k].arg);
		tg_jsonw_kstr(&w, "kind", kinds[f->v[k].kind]);
		tg_jsonw_kstr(&w, "for", use_name(f->v[k].use));
		tg_jsonw_kstr(&w, "from", f->v[k].from);
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	/* setuptools.Extension(name, sources, **this) */
	tg_jsonw_key(&w, "extension");
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	json_values(&w, "include_dirs", f, TG_FLAG_INCLUDE, TG_USE_CFLAGS);
	tg_jsonw_key(&w, "define_macros");
	tg_jsonw_array(&w, TG_JSONW_FLOW);
	for (k = 0; k < f->n; k++) {
		const char *v = f->v[k].value, *eq = strchr(v, '=');

		if (f->v[k].kind != TG_FLAG_DEFINE ||
		    !(f->v[k].use & TG_USE_CFLAGS))
			continue;
		tg_jsonw_array(&w, TG_JSONW_FLOW);
		if (eq) {
			tg_jsonw_strn(&w, v, (size_t)(eq - v));
			tg_jsonw_str(&w, eq + 1);
		} else {
			tg_jsonw_str(&w, v);
			tg_jsonw_null(&w);
		}
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	json_values(&w, "extra_compile_args", f, TG_FLAG_COMPILE,
		    TG_USE_CFLAGS);
	json_values(&w, "library_dirs", f, TG_FLAG_LIBDIR, TG_USE_LIBS);
	json_values(&w, "runtime_library_dirs", f, TG_FLAG_RPATH, TG_USE_LIBS);
	json_values(&w, "libraries", f, TG_FLAG_LIB, TG_USE_LIBS);
	tg_jsonw_key(&w, "language");
	tg_jsonw_str(&w, "c++");
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "nvcc");
	tg_jsonw_array(&w, TG_JSONW_FLOW);
	for (k = 0; cuda && k < f->n; k++)
		if (f->v[k].use & TG_USE_NVCC)
			tg_jsonw_str(&w, f->v[k].arg);
	tg_jsonw_end(&w);
	tg_jsonw_end(&w);
	tg_jsonw_finish(&w);
}

int
tg_flags_format_write(const struct tg_flags *f, const struct tg_torch *t,
		      const char *name, int cuda, unsigned use,
		      enum tg_flags_format fmt, struct tg_buf *b,
		      struct tg_err *err)
{
	size_t k;
	int r = 0;

	if (!cuda)
		use &= ~(unsigned)TG_USE_NVCC;
	for (k = 0; k < f->n; k++)
		if ((fmt == TG_FFMT_ARGS || fmt == TG_FFMT_MAKE) &&
		    strpbrk(f->v[k].arg, "\n\r"))
			return tg_err_set(err, TG_EINVAL,
					  "cannot write '%s' as %s: it holds a "
					  "line break",
					  f->v[k].value,
					  fmt == TG_FFMT_MAKE ? "make"
							      : "one argument "
								"a line");
	switch (fmt) {
	case TG_FFMT_WORDS:
		words(f, use, b);
		tg_buf_addc(b, '\n');
		break;
	case TG_FFMT_ARGS:
		for (k = 0; k < f->n; k++)
			if (f->v[k].use & use) {
				tg_buf_adds(b, f->v[k].arg);
				tg_buf_addc(b, '\n');
			}
		break;
	case TG_FFMT_SHELL:
		r = sh_var(b, "TORCH_CFLAGS", f, TG_USE_CFLAGS);
		if (!r)
			r = sh_var(b, "TORCH_LIBS", f, TG_USE_LIBS);
		if (!r && cuda)
			r = sh_var(b, "TORCH_NVCC_FLAGS", f, TG_USE_NVCC);
		break;
	case TG_FFMT_MAKE:
		mk_var(b, "TORCH_CFLAGS", f, TG_USE_CFLAGS);
		mk_var(b, "TORCH_LIBS", f, TG_USE_LIBS);
		if (cuda)
			mk_var(b, "TORCH_NVCC_FLAGS", f, TG_USE_NVCC);
		break;
	case TG_FFMT_JSON:
		write_json(f, t, name, cuda, b);
		break;
	}
	if (!r)
		r = tg_buf_error(b);
	if (r)
		return tg_err_set(err, r, "%s",
				  r == TG_ENOMEM
				      ? "out of memory writing the flags"
				      : "the flags do not fit in memory");
	return 0;
}
