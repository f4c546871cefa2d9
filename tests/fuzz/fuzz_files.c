/* fuzz_files.c - libFuzzer harness for the readers of installed files
 * and the API table
 * SPDX-License-Identifier: MIT
 *
 * The first byte picks the reader: metadata headers, version.py, C
 * #define lines, CMake facts, or the API table loader (JSON, schema
 * checks, error positions); the rest is the file's text. Each reader must
 * return an answer or an error, never crash, leak or read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/torch/cdefine.h"
#include "lib/torch/cmake.h"
#include "lib/pyenv/meta.h"
#include "lib/table/table.h"
#include "lib/torch/versionpy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	size_t n;

	if (size < 1)
		return 0;
	n = size - 1;
	s = malloc(n + 1); /* the readers take NUL-terminated text */
	if (!s)
		return 0;
	memcpy(s, data + 1, n);
	s[n] = '\0';
	switch (data[0] % 5) {
	case 0: {
		struct tg_meta m = TG_META_INIT;

		if (tg_meta_parse(&m, s, n, data[0] & 0x80, "f", NULL) == 0) {
			(void)tg_meta_get(&m, "Version");
			tg_meta_release(&m);
		}
		break;
	}
	case 1: {
		struct tg_versionpy vp;

		if (tg_versionpy_parse(&vp, s, n, "f", NULL) == 0)
			tg_versionpy_release(&vp);
		break;
	}
	case 2: {
		long v;
		int found;

		free(tg_cdefine_get(s, n, "TORCH_VERSION", &found));
		free(tg_cdefine_string(s, n, "TORCH_VERSION"));
		(void)tg_cdefine_int(s, n, "TORCH_VERSION_MAJOR", &v);
		break;
	}
	case 3: {
		char *v = tg_cmake_set_value(s, n, "TORCH_CXX_FLAGS");

		if (v)
			(void)tg_cmake_cxx11_abi(v);
		free(v);
		(void)tg_cmake_cxx_standard(s, n);
		break;
	}
	default: {
		struct tg_table t = TG_TABLE_INIT;
		struct tg_err err = TG_ERR_INIT;

		if (tg_table_parse(&t, s, n, "f", &err) == 0)
			tg_table_release(&t);
		else if (!err.msg[0])
			__builtin_trap(); /* an error must say what */
		break;
	}
	}
	free(s);
	return 0;
}
