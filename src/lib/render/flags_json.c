/* flags_json.c - an extension's flags written out as JSON
 * SPDX-License-Identifier: MIT
 *
 * schema_version 1: every flag with what it is and what it is for, and
 * the keyword arguments of setuptools.Extension (include_dirs,
 * define_macros, extra_compile_args, library_dirs, ...).
 */
#include "lib/render/flags_format.h"

#include <string.h>

#include "lib/util/jsonw.h"

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

int
tg_flags_json_write(const struct tg_flags *f, const struct tg_torch *t,
		    const char *name, int cuda, struct tg_buf *b)
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
	return tg_buf_error(b);
}
