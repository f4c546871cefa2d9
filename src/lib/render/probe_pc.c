/* probe_pc.c - a probe written out as a pkg-config torch.pc
 * SPDX-License-Identifier: MIT
 *
 * Values with '$' doubled and blanks escaped with a backslash.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/path.h"

/* A pc value: every byte outside a small safe set backslash-escaped,
 * which pkg-config reads back as that byte. */
static void
pc_value(struct tg_buf *b, const char *s)
{
	for (; *s; s++) {
		if (!strchr("/._+,:=@%-", *s) && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9'))
			tg_buf_addc(b, '\\');
		tg_buf_addc(b, *s);
	}
}

/* The release segment of the reported version ("2.11.0" of
 * "2.11.0+cu130", "1.13.0" of "1.13.0a0"), for pkg-config's Version:
 * pkg-config compares rpm-style, where 1.13.0a0 sorts after 1.13.0, the
 * opposite of PEP 440; the release alone compares the same in both. */
static void
pc_release(struct tg_buf *b, const struct tg_torch *t)
{
	const struct tg_version *v =
	    t->version ? &t->src[t->version_from].v : NULL;
	size_t k;

	if (!v || !v->nrelease) {
		tg_buf_adds(b, "0");
		return;
	}
	for (k = 0; k < v->nrelease; k++) {
		if (k)
			tg_buf_addc(b, '.');
		tg_buf_add(b, v->release[k].p, v->release[k].n);
	}
}

/* A variable no Cflags or Libs uses, read back by pkg-config
 * --variable: as it is, in single quotes when it holds a blank, a quote
 * or a backslash (pkg-config strips them; a backslash escape would come
 * back as written), a '#' escaped. */
static void
pc_var(struct tg_buf *b, const char *name, const char *value)
{
	int quote = value && strpbrk(value, " \t'\"\\") != NULL;

	tg_buf_addf(b, "%s=", name);
	if (quote)
		tg_buf_addc(b, '\'');
	for (; value && *value; value++) {
		if (*value == '#')
			tg_buf_addc(b, '\\');
		if (*value == '\'' && quote)
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *value);
	}
	if (quote)
		tg_buf_addc(b, '\'');
	tg_buf_addc(b, '\n');
}

int
tg_probe_pc_write(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = tg_probe_format_chosen(pv);
	char num[32];
	char *cpp = t->cmake_dir ? tg_path_dirname(t->cmake_dir) : NULL;
	const char *cuda = tg_probe_format_vpy(t, TG_VPY_CUDA);
	size_t k;

	tg_buf_adds(b, "prefix=");
	pc_value(b, t->dir);
	tg_buf_adds(b, "\nincludedir=");
	if (t->include_dir)
		tg_buf_adds(b, "${prefix}/include");
	tg_buf_adds(b, "\nlibdir=");
	if (t->library_dir)
		tg_buf_adds(b, "${prefix}/lib");
	tg_buf_addc(b, '\n');
	pc_var(b, "torch_version", t->version);
	snprintf(num, sizeof(num), "%d", t->cxx_standard);
	pc_var(b, "cxx_standard", t->cxx_standard ? num : NULL);
	tg_buf_adds(b, "cxx_std_flag=");
	if (t->cxx_standard)
		tg_buf_addf(b, "-std=c++%d", t->cxx_standard);
	tg_buf_addc(b, '\n');
	pc_var(b, "cxx11_abi",
	       t->cxx11_abi < 0 ? NULL
	       : t->cxx11_abi	? "1"
				: "0");
	pc_var(b, "abi_version", t->abi_version);
	pc_var(b, "cuda_version",
	       cuda && strcmp(cuda, "None") != 0 ? cuda : NULL);
	pc_var(b, "cmake_dir", t->cmake_dir);
	pc_var(b, "cmake_prefix_path", cpp);
	if (t->cmake_dir && !cpp && !b->err)
		b->err = TG_ENOMEM; /* the buffer keeps the failure */
	free(cpp);
	tg_buf_adds(b, "\nName: torch\n"
		       "Description: PyTorch C++ API, as found by "
		       "torchgate\nVersion: ");
	pc_release(b, t);
	tg_buf_adds(b, "\nCflags:");
	if (t->include_dir) {
		tg_buf_adds(b, " -I${includedir}");
		if (t->api_include_dir)
			tg_buf_adds(b, " -I${includedir}/torch/csrc/api/"
				       "include");
	}
	if (t->cxx11_abi >= 0)
		tg_buf_addf(b, " -D_GLIBCXX_USE_CXX11_ABI=%d", t->cxx11_abi);
	tg_buf_adds(b, "\nLibs:");
	if (t->library_dir)
		tg_buf_adds(b, " -L${libdir} -Wl,-rpath,${libdir}");
	for (k = 0; k < t->nlibs; k++)
		if (strcmp(t->libs[k], "torch_python") != 0)
			tg_buf_addf(b, " -l%s", t->libs[k]);
	tg_buf_adds(b, "\n");
	return tg_buf_error(b);
}
