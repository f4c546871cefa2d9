/* lang_cxx.c - the audit language C/C++/CUDA: .c .cc .cpp .cxx .h .hpp
 * .cu .cuh files, the C/C++/CUDA analyzer (audit_cxx) and its rewrites
 * (audit/cxx/fix.c)
 * SPDX-License-Identifier: MIT
 */
#include "lib/audit/lang.h"

static int
index_new(void **out, const struct tg_table *t, struct tg_err *err)
{
	struct tg_audit_cxx_index *ix = NULL;
	int rc = tg_audit_cxx_index_new(&ix, t, err);

	*out = ix;
	return rc;
}

static void
index_free(void *ix)
{
	tg_audit_cxx_index_free(ix);
}

static void
index_only(void *ix, int (*want)(const struct tg_api *a, void *ctx), void *ctx)
{
	tg_audit_cxx_index_only(ix, want, ctx);
}

static int
analyze(const void *ix, const char *src, size_t len, const char *path,
	struct tg_audit_result *r, struct tg_err *err)
{
	return tg_audit_cxx_indexed(ix, src, len, path, r, err);
}

static const struct tg_lang_fix fix = {
    .use = tg_audit_cxx_fix_use,
    .lex_errors = tg_audit_cxx_lex_errors,
};

static const char *const kinds[] = {"C", "C++", "CUDA", NULL};
static const char *const suffixes[] = {".c",   ".cc", ".cpp", ".cxx", ".h",
				       ".hpp", ".cu", ".cuh", NULL};

const struct tg_lang tg_lang_cxx = {
    .id = TG_LANG_CXX,
    .name = "c++",
    .title = "C++",
    .kinds = kinds,
    .suffixes = suffixes,
    .bytes = TG_LANG_NO_NUL,
    .index_new = index_new,
    .index_free = index_free,
    .index_only = index_only,
    .analyze = analyze,
    .fix = &fix,
};
