/* fuzz_audit_py.c - libFuzzer harness for the Python analyzer
 * SPDX-License-Identifier: MIT
 *
 * The input is a Python file; the built-in table's index is built once.
 * The analyzer must return 0 (bad source is never an error), never
 * crash, leak or read out of bounds, and every finding it appends must
 * lie inside the input and name a Python entry.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/audit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tg_table t = TG_TABLE_INIT;
	static struct tg_audit_py_index *ix;
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
	struct tg_err err;
	size_t k, lines = 1;

	if (!ix && (tg_table_default(&t, &err) ||
		    tg_audit_py_index_new(&ix, &t, &err)))
		abort();
	for (k = 0; k < size; k++)
		lines += data[k] == '\n';
	if (tg_audit_py_indexed(ix, (const char *)data, size, "fuzz.py", &r,
				&err))
		abort();
	for (k = 0; k < r.nfindings; k++)
		if (r.findings[k].line < 1 || r.findings[k].line > lines ||
		    r.findings[k].column < 1 ||
		    r.findings[k].api->lang != TG_LANG_PYTHON)
			abort();
	for (k = 0; k < r.nbranches; k++)
		if (r.branches[k].first_line > r.branches[k].last_line)
			abort();
	tg_audit_result_release(&r);
	return 0;
}
