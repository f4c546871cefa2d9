/* lang_py.c - the audit language Python: .py and .pyi files, the Python
 * analyzer (audit_py) and its rewrites (audit/py/fix.c, fix_import.c)
 * SPDX-License-Identifier: MIT
 */
#include "lib/audit/lang.h"

static int
index_new(void **out, const struct tg_table *t, struct tg_err *err)
{
	struct tg_audit_py_index *ix = NULL;
	int rc = tg_audit_py_index_new(&ix, t, err);

	*out = ix;
	return rc;
}

static void
index_free(void *ix)
{
	tg_audit_py_index_free(ix);
}

static int
analyze(const void *ix, const char *src, size_t len, const char *path,
	struct tg_audit_result *r, struct tg_err *err)
{
	return tg_audit_py_indexed(ix, src, len, path, r, err);
}

static const struct tg_lang_fix fix = {
    .use = tg_audit_py_fix_use,
    .lex_errors = tg_audit_py_lex_errors,
    .file = tg_audit_py_fix_file,
    .check = tg_audit_py_fix_check,
    .guard = tg_audit_py_fix_guard,
    .guard_use = tg_audit_py_fix_guard_use,
};

static const char *const kinds[] = {"Python", NULL};
static const char *const suffixes[] = {".py", ".pyi", NULL};

const struct tg_lang tg_lang_py = {
    .id = TG_LANG_PYTHON,
    .name = "python",
    .title = "Python",
    .kinds = kinds,
    .suffixes = suffixes,
    .bytes = TG_LANG_UTF8,
    .index_new = index_new,
    .index_free = index_free,
    .index_only = NULL,
    .analyze = analyze,
    .fix = &fix,
};
