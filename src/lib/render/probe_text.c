/* probe_text.c - a probe written out as text, for people
 * SPDX-License-Identifier: MIT
 */
#include "lib/render/probe_format.h"

#include "lib/util/str.h"

#include <stdio.h>
#include <string.h>

static const char *
orNone(const char *s)
{
	return s ? s : "none";
}

static void
text_copy(struct tg_buf *b, const struct tg_torch *t)
{
	const char *dbg = tg_probe_format_vpy(t, TG_VPY_DEBUG);
	size_t k;

	tg_str_addf(b, "  %-14s %s\n", "location", t->dir);
	tg_str_addf(b, "  %-14s %s\n", "sources",
		    t->agreement == TG_AGREE	? "agree"
		    : t->agreement == TG_DIFFER ? "differ (same major.minor)"
						: "CONFLICT (different "
						  "major.minor: a broken "
						  "install or upgrade)");
	for (k = 0; k < TG_SRC_N; k++)
		if (t->src[k].present)
			tg_str_addf(
			    b, "    %-22s %-22s %s\n",
			    tg_probe_source_name((enum tg_source_kind)k),
			    t->src[k].raw, t->src[k].file);
	tg_str_addf(b, "  %-14s %s\n", "cuda",
		    orNone(tg_probe_format_vpy(t, TG_VPY_CUDA)));
	tg_str_addf(b, "  %-14s %s\n", "hip",
		    orNone(tg_probe_format_vpy(t, TG_VPY_HIP)));
	tg_str_addf(b, "  %-14s %s\n", "rocm",
		    orNone(tg_probe_format_vpy(t, TG_VPY_ROCM)));
	tg_str_addf(b, "  %-14s %s\n", "xpu",
		    orNone(tg_probe_format_vpy(t, TG_VPY_XPU)));
	tg_str_addf(b, "  %-14s %s\n", "git version",
		    tg_probe_format_vpy(t, TG_VPY_GIT_VERSION)
			? tg_probe_format_vpy(t, TG_VPY_GIT_VERSION)
			: "unknown");
	tg_str_addf(b, "  %-14s %s\n", "debug",
		    dbg ? (strcmp(dbg, "True") == 0 ? "yes" : "no")
			: "unknown");
	if (t->abi_version)
		tg_str_addf(b, "  %-14s %s (TORCH_ABI_VERSION)\n",
			    "abi version", t->abi_version);
	if (t->cxx11_abi >= 0)
		tg_str_addf(b, "  %-14s %d (%s)\n", "cxx11 abi", t->cxx11_abi,
			    t->cxx11_abi_evidence);
	else
		tg_str_addf(b,
			    "  %-14s unknown (no TORCH_CXX_FLAGS in "
			    "TorchConfig.cmake, no library to read)\n",
			    "cxx11 abi");
	if (t->cxx_standard)
		tg_str_addf(b, "  %-14s C++%d (%s)\n", "c++ standard",
			    t->cxx_standard, t->cxx_standard_evidence);
	else
		tg_str_addf(b, "  %-14s unknown\n", "c++ standard");
	if (t->include_dir) {
		tg_str_addf(b, "  %-14s %s\n", "include dirs", t->include_dir);
		if (t->api_include_dir)
			tg_str_addf(b, "  %-14s %s\n", "", t->api_include_dir);
		if (t->include_real && strncmp(t->include_real, t->include_dir,
					       strlen(t->include_real)) != 0)
			tg_str_addf(b, "  %-14s (headers really in %s)\n", "",
				    t->include_real);
	} else {
		tg_str_addf(b, "  %-14s none (no torch/include)\n",
			    "include dirs");
	}
	tg_str_addf(b, "  %-14s %s", "library dir",
		    t->library_dir ? t->library_dir : "none");
	for (k = 0; k < t->nlibs; k++)
		tg_str_addf(b, "%s%s", k ? " " : " (", t->libs[k]);
	tg_buf_adds(b, t->nlibs ? ")\n" : "\n");
	tg_str_addf(b, "  %-14s %s\n", "cmake dir", orNone(t->cmake_dir));
	tg_str_addf(b, "  %-14s %s\n", "metadata", orNone(t->meta_dir));
	tg_str_addf(b, "  %-14s %s\n", "installer",
		    t->installer ? t->installer : "unknown");
	for (k = 0; k < t->ntags; k++)
		tg_str_addf(b, "  %-14s %s\n", k ? "" : "wheel tags",
			    t->tags[k]);
	if (t->direct_url)
		tg_str_addf(b, "  %-14s %s (%s)\n", "direct url", t->direct_url,
			    t->direct_url_kind);
	if (t->editable)
		tg_str_addf(b, "  %-14s yes (%s)\n", "editable",
			    t->editable_via);
	else
		tg_str_addf(b, "  %-14s no\n", "editable");
	for (k = 0; k < t->problems.n; k++)
		tg_str_addf(b, "  %-14s %s\n",
			    tg_diag_severity_name(t->problems.v[k].severity),
			    t->problems.v[k].message);
}

int
tg_probe_text_write(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_interp *in = pv->interp;
	const struct tg_probe *pr = pv->probe;
	const struct tg_torch *t = tg_probe_format_chosen(pv);
	size_t k;

	if (t && t->version)
		tg_str_addf(b, "torch %s (from %s)\n", t->version,
			    tg_probe_source_name(t->version_from));
	else if (t)
		tg_buf_adds(b, "torch (version unknown)\n");
	else if (tg_probe_imports(pr) == TG_IMPORT_MODULE)
		tg_str_addf(b,
			    "no torch: 'import torch' imports the module %s\n",
			    pr->module);
	else if (tg_probe_imports(pr) == TG_IMPORT_NAMESPACE)
		tg_str_addf(b,
			    "no torch: 'import torch' imports a namespace "
			    "package (%s, no __init__.py)\n",
			    pr->portions[0]);
	else
		tg_buf_adds(b, "no torch found\n");
	/* another version further down the path is worth seeing first */
	for (k = t ? 1 : 0; t && k < pr->ncopies; k++)
		if (pr->copies[k].version && t->version &&
		    strcmp(pr->copies[k].version, t->version) != 0)
			tg_str_addf(b,
				    "  %-14s torch %s at %s (not imported: "
				    "details below)\n",
				    "shadowed", pr->copies[k].version,
				    pr->copies[k].dir);
	if (in && in->executable) {
		tg_str_addf(b, "  %-14s %s (Python %d.%d, prefix %s%s)\n",
			    "python", in->executable, in->major, in->minor,
			    in->prefix, in->venv ? ", venv" : "");
		if (in->via)
			tg_str_addf(b, "  %-14s %s\n", "", in->via);
	} else if (in) {
		tg_str_addf(b, "  %-14s none (environment at %s)\n", "python",
			    in->prefix);
	}
	if (t) {
		text_copy(b, t);
	} else {
		tg_buf_adds(b, "  searched:\n");
		for (k = 0; k < pv->path->n; k++)
			tg_str_addf(b, "    %s\n", pv->path->e[k].dir);
	}
	for (k = tg_probe_first_shadowed(pr); k < pr->ncopies; k++) {
		tg_str_addf(b, "shadowed: torch %s\n",
			    pr->copies[k].version ? pr->copies[k].version
						  : "(version unknown)");
		text_copy(b, &pr->copies[k]);
	}
	for (k = 0; k < pr->problems.n; k++)
		tg_str_addf(b, "warning: %s\n", pr->problems.v[k].message);
	return tg_buf_error(b);
}
