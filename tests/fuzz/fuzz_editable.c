/* fuzz_editable.c - libFuzzer harness for the editable-finder reader
 * SPDX-License-Identifier: MIT
 *
 * The input is the finder module that setuptools writes beside an
 * __editable__ .pth file (written to a file: the reader opens it by the
 * name the .pth line gives, fuzz_tmp.h). Its MAPPING is looked up for a
 * package that is mapped in the real finders, one that is not, and the
 * empty name. The answer is a directory, none, or an error that says
 * what; never both a directory and an error.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_tmp.h"
#include "lib/pyenv/editable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pkgs[] = {"torch", "mypkg", ""};
	static const char line[] = "import __editable___mypkg_0_1_finder; "
				   "__editable___mypkg_0_1_finder.install()";
	static char pth[FUZZ_PATH_MAX];
	size_t k;

	if (!pth[0]) {
		fuzz_tmp_mkdir("site");
		fuzz_tmp_write("site/__editable__.mypkg-0.1.pth",
			       (const uint8_t *)line, sizeof(line) - 1, pth);
	}
	fuzz_tmp_write("site/__editable___mypkg_0_1_finder.py", data, size,
		       NULL);
	for (k = 0; k < sizeof(pkgs) / sizeof(pkgs[0]); k++) {
		struct tg_err err = TG_ERR_INIT;
		char *dir = NULL, *finder = NULL;
		int rc =
		    tg_editable_lookup(pth, line, pkgs[k], &dir, &finder, &err);

		if (rc && (!err.msg[0] || dir || finder))
			__builtin_trap();
		if (!rc && !dir != !finder)
			__builtin_trap();
		free(dir);
		free(finder);
	}
	return 0;
}
