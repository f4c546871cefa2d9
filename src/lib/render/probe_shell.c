/* probe_shell.c - a probe written out as eval-safe TORCH_*= lines
 * SPDX-License-Identifier: MIT
 *
 * Values in single quotes ('\'' for a quote), so that eval runs
 * nothing a path or a version holds.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <string.h>

static void
sh_quote(struct tg_buf *b, const char *s)
{
	tg_buf_addc(b, '\'');
	for (; s && *s; s++) {
		if (*s == '\'')
			tg_buf_adds(b, "'\\''");
		else
			tg_buf_addc(b, *s);
	}
	tg_buf_addc(b, '\'');
}

static void
sh_var(struct tg_buf *b, const char *name, const char *v)
{
	tg_buf_addf(b, "%s=", name);
	sh_quote(b, v);
	tg_buf_addc(b, '\n');
}

/* major, minor, patch of the reported version (0 when absent) */
static void
release3(const struct tg_torch *t, char out[3][24])
{
	const struct tg_version *v =
	    t->version ? &t->src[t->version_from].v : NULL;
	size_t k;

	for (k = 0; k < 3; k++) {
		if (v && k < v->nrelease && v->release[k].n < 24)
			snprintf(out[k], 24, "%.*s", (int)v->release[k].n,
				 v->release[k].p);
		else
			snprintf(out[k], 24, "0");
	}
}

int
tg_probe_shell_write(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = tg_probe_format_chosen(pv);
	char rel[3][24], num[32];
	const char *dbg = tg_probe_format_vpy(t, TG_VPY_DEBUG);
	size_t k;

	release3(t, rel);
	sh_var(b, "TORCH_VERSION", t->version);
	sh_var(b, "TORCH_VERSION_MAJOR", rel[0]);
	sh_var(b, "TORCH_VERSION_MINOR", rel[1]);
	sh_var(b, "TORCH_VERSION_PATCH", rel[2]);
	sh_var(b, "TORCH_VERSION_SOURCE",
	       t->version ? tg_probe_source_name(t->version_from) : "");
	sh_var(b, "TORCH_AGREEMENT", tg_probe_agreement_name(t->agreement));
	sh_var(b, "TORCH_LOCATION", t->dir);
	sh_var(b, "TORCH_CUDA", tg_probe_format_vpy(t, TG_VPY_CUDA));
	sh_var(b, "TORCH_HIP", tg_probe_format_vpy(t, TG_VPY_HIP));
	sh_var(b, "TORCH_ROCM", tg_probe_format_vpy(t, TG_VPY_ROCM));
	sh_var(b, "TORCH_XPU", tg_probe_format_vpy(t, TG_VPY_XPU));
	sh_var(b, "TORCH_GIT_VERSION",
	       tg_probe_format_vpy(t, TG_VPY_GIT_VERSION));
	sh_var(b, "TORCH_DEBUG",
	       dbg ? (strcmp(dbg, "True") == 0 ? "1" : "0") : "");
	sh_var(b, "TORCH_ABI_VERSION", t->abi_version);
	sh_var(b, "TORCH_CXX11_ABI",
	       t->cxx11_abi < 0 ? ""
	       : t->cxx11_abi	? "1"
				: "0");
	snprintf(num, sizeof(num), "%d", t->cxx_standard);
	sh_var(b, "TORCH_CXX_STANDARD", t->cxx_standard ? num : "");
	sh_var(b, "TORCH_INCLUDE_DIR", t->include_dir);
	sh_var(b, "TORCH_API_INCLUDE_DIR", t->api_include_dir);
	sh_var(b, "TORCH_LIBRARY_DIR", t->library_dir);
	sh_var(b, "TORCH_CMAKE_DIR", t->cmake_dir);
	sh_var(b, "TORCH_INSTALLER", t->installer);
	sh_var(b, "TORCH_EDITABLE", t->editable ? "1" : "0");
	snprintf(num, sizeof(num), "%zu",
		 pv->probe->ncopies - tg_probe_first_shadowed(pv->probe));
	sh_var(b, "TORCH_SHADOWED", num);
	tg_buf_adds(b, "TORCH_LIBRARIES='");
	for (k = 0; k < t->nlibs; k++)
		tg_buf_addf(b, "%s%s", k ? " " : "", t->libs[k]);
	tg_buf_adds(b, "'\n");
	return tg_buf_error(b);
}
