/* fuzz_pth.c - libFuzzer harness for the .pth reader (sys.path)
 * SPDX-License-Identifier: MIT
 *
 * The input is a .pth file in a site directory (written to a file: the
 * reader takes the directory, fuzz_tmp.h) that also holds the
 * directories "a" and "b", so that lines naming them are added. It is
 * read as Python 3.12 and 3.13 read it (3.13 drops a UTF-8 BOM). The
 * file is named __editable__.fuzz.pth, so each import line it records is
 * also handed to the editable-finder lookup. Every entry must be an
 * absolute path, every recorded import line short (200 bytes of input, escaped).
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_tmp.h"
#include "lib/pyenv/editable.h"
#include "lib/pyenv/syspath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char site[FUZZ_PATH_MAX], pth[FUZZ_PATH_MAX];
	int minor;

	if (!site[0]) {
		fuzz_tmp_mkdir("site");
		fuzz_tmp_mkdir("site/a");
		fuzz_tmp_mkdir("site/b");
		fuzz_tmp_path(site, "site");
	}
	fuzz_tmp_write("site/__editable__.fuzz.pth", data, size, pth);
	for (minor = 12; minor <= 13; minor++) {
		struct tg_syspath sp = TG_SYSPATH_INIT;
		struct tg_err err = TG_ERR_INIT;
		size_t k;

		if (tg_syspath_add_sitedir(&sp, site, TG_ORIGIN_SITE, site,
					   minor, &err) != 0 &&
		    !err.msg[0])
			__builtin_trap();
		for (k = 0; k < sp.n; k++)
			if (sp.e[k].dir[0] != '/')
				__builtin_trap();
		for (k = 0; k < sp.skipped.n; k++) {
			const char *line = sp.skipped.v[k].snippet;
			char *dir = NULL, *finder = NULL;

			if (!line || strlen(line) > 1024)
				__builtin_trap();
			(void)tg_editable_lookup(pth, line, "torch", &dir,
						 &finder, NULL);
			free(dir);
			free(finder);
		}
		tg_syspath_release(&sp);
	}
	return 0;
}
