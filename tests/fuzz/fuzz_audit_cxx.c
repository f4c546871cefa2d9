/* fuzz_audit_cxx.c - libFuzzer harness for the C/C++/CUDA analyzer
 * SPDX-License-Identifier: MIT
 *
 * The input is a C++ source file, audited with the built-in table (loaded
 * once). The analyzer must never fail on bad source (only out of
 * memory), never crash, leak or read out of bounds, and every finding,
 * branch and suppression must lie inside the input's lines.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/audit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct tg_table table = TG_TABLE_INIT;
static int loaded;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
	struct tg_err err = TG_ERR_INIT;
	size_t k, lines = 1;
	char *s;

	if (!loaded) {
		if (tg_table_default(&table, NULL))
			__builtin_trap();
		loaded = 1;
	}
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (k = 0; k < size; k++)
		lines += s[k] == '\n';
	if (tg_audit_cxx(&table, s, size, "f.cpp", &r, &err) &&
	    err.code != TG_ENOMEM)
		__builtin_trap(); /* bad source is never an error */
	for (k = 0; k < r.nfindings; k++)
		if (r.findings[k].line < 1 || r.findings[k].line > lines ||
		    r.findings[k].column < 1 || !r.findings[k].kind)
			__builtin_trap();
	for (k = 0; k < r.nbranches; k++)
		if (r.branches[k].first_line > r.branches[k].last_line ||
		    r.branches[k].last_line > lines)
			__builtin_trap();
	for (k = 0; k < r.nsuppressions; k++)
		if (r.suppressions[k].line < 1 ||
		    r.suppressions[k].line > lines)
			__builtin_trap();
	tg_audit_result_release(&r);
	free(s);
	return 0;
}
