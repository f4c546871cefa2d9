/* audit_py.c - the Python analyzer: placeholder until the Python analyzer
 * lands
 * SPDX-License-Identifier: MIT
 *
 * Placeholder until the Python analyzer lands (issue 11, written in
 * another branch): it appends nothing, so the command builds and its
 * Python path (decoding, notes, the same renderers) is exercised.
 */
#include "lib/audit/audit.h"

int
tg_audit_py(const struct tg_table *t, const char *src, size_t len,
	    const char *path, struct tg_audit_result *r, struct tg_err *err)
{
	(void)t;
	(void)src;
	(void)len;
	(void)path;
	(void)r;
	(void)err;
	return 0;
}
