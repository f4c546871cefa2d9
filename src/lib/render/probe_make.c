/* probe_make.c - a probe written out as a Makefile fragment
 * SPDX-License-Identifier: MIT
 *
 * Values with '$' doubled and shell-quoted when they hold a blank or a
 * quote.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <string.h>

/* A make word: flag + the path in shell single quotes, '$' doubled for
 * make and '#' escaped, so that no path can run or cut a recipe. */
static void
mk_word(struct tg_buf *b, const char *flag, const char *path)
{
	tg_buf_adds(b, flag);
	tg_buf_addc(b, '\'');
	for (; *path; path++) {
		if (*path == '$')
			tg_buf_adds(b, "$$");
		else if (*path == '\'')
			tg_buf_adds(b, "'\\''");
		else if (*path == '#')
			tg_buf_adds(b, "\\#");
		else
			tg_buf_addc(b, *path);
	}
	tg_buf_addc(b, '\'');
}

int
tg_probe_make_write(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = tg_probe_format_chosen(pv);
	size_t k;

	/* a version that parsed as PEP 440 holds no make or shell syntax */
	tg_buf_adds(b, "TORCH_VERSION = ");
	tg_buf_adds(b, t->version ? t->version : "");
	tg_buf_adds(b, "\nTORCH_CPPFLAGS =");
	if (t->include_dir) {
		mk_word(b, " -I", t->include_dir);
		if (t->api_include_dir)
			mk_word(b, " -I", t->api_include_dir);
	}
	if (t->cxx11_abi >= 0)
		tg_buf_addf(b, " -D_GLIBCXX_USE_CXX11_ABI=%d", t->cxx11_abi);
	tg_buf_adds(b, "\nTORCH_CXXFLAGS =");
	if (t->cxx_standard)
		tg_buf_addf(b, " -std=c++%d", t->cxx_standard);
	tg_buf_adds(b, "\nTORCH_LDFLAGS =");
	if (t->library_dir) {
		mk_word(b, " -L", t->library_dir);
		mk_word(b, " -Wl,-rpath,", t->library_dir);
	}
	tg_buf_adds(b, "\nTORCH_LIBS =");
	for (k = 0; k < t->nlibs; k++)
		if (strcmp(t->libs[k], "torch_python") != 0)
			tg_buf_addf(b, " -l%s", t->libs[k]);
	tg_buf_adds(b, "\n");
	return tg_buf_error(b);
}
