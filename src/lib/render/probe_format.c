/* probe_format.c - a probe written out: text, JSON, shell, make, pc
 * SPDX-License-Identifier: MIT
 *
 * Every writer appends straight through to a bounded struct tg_buf,
 * which keeps its first failure; the entry points check it once, so a
 * report that did not fit is an error, never a truncated answer. Quoting: shell values in single
 * quotes ('\'' for a quote); make values with '$' doubled and
 * shell-quoted when they hold a blank or a quote; pc values with '$'
 * doubled and blanks escaped with a backslash.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/jsonw.h"
#include "lib/util/path.h"

const char *const tg_probe_field_names[] = {
    "version",
    "version_source",
    "location",
    "agreement",
    "cuda",
    "hip",
    "rocm",
    "xpu",
    "git_version",
    "debug",
    "abi_version",
    "cxx11_abi",
    "cxx_standard",
    "include_dirs",
    "library_dir",
    "libraries",
    "cmake_dir",
    "metadata_dir",
    "installer",
    "editable",
    "shadowed",
    "python",
    "python_version",
    "prefix",
    "sys_path",
    "cmake_prefix_path",
    NULL,
};

int
tg_probe_format_parse(const char *name, enum tg_probe_format *out)
{
	static const char *const names[] = {"text", "json", "shell", "make",
					    "pc"};
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (strcmp(name, names[k]) == 0) {
			*out = (enum tg_probe_format)k;
			return 0;
		}
	return TG_EINVAL;
}

static const struct tg_torch *
chosen(const struct tg_probe_view *pv)
{
	return tg_probe_chosen(pv->probe);
}

static const char *
vpy(const struct tg_torch *t, enum tg_versionpy_field f)
{
	return t->vp.f[f].set ? t->vp.f[f].s : NULL;
}

/* ---- JSON ---- */

static void
json_copy(struct tg_jsonw *w, const struct tg_torch *t)
{
	size_t k;
	const char *dbg = vpy(t, TG_VPY_DEBUG);

	tg_jsonw_object(w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(w, "location", t->dir);
	tg_jsonw_kstr(w, "path_entry", t->entry);
	tg_jsonw_kstr(w, "version", t->version);
	tg_jsonw_kstr(w, "version_source",
		      t->version ? tg_probe_source_name(t->version_from)
				 : NULL);
	tg_jsonw_kstr(w, "agreement", tg_probe_agreement_name(t->agreement));
	tg_jsonw_key(w, "sources");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < TG_SRC_N; k++) {
		const struct tg_vsource *s = &t->src[k];

		if (!s->present)
			continue;
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "source",
			      tg_probe_source_name((enum tg_source_kind)k));
		tg_jsonw_kstr(w, "file", s->file);
		tg_jsonw_kstr(w, "value", s->raw);
		tg_jsonw_kstr(w, "pep440", s->parsed ? s->v.str : NULL);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_kstr(w, "cuda", vpy(t, TG_VPY_CUDA));
	tg_jsonw_kstr(w, "hip", vpy(t, TG_VPY_HIP));
	tg_jsonw_kstr(w, "rocm", vpy(t, TG_VPY_ROCM));
	tg_jsonw_kstr(w, "xpu", vpy(t, TG_VPY_XPU));
	tg_jsonw_kstr(w, "git_version", vpy(t, TG_VPY_GIT_VERSION));
	tg_jsonw_key(w, "debug");
	tg_jsonw_tristate(w, dbg ? strcmp(dbg, "True") == 0 : -1);
	tg_jsonw_kstr(w, "abi_version", t->abi_version);
	tg_jsonw_key(w, "cxx11_abi");
	tg_jsonw_tristate(w, t->cxx11_abi);
	tg_jsonw_kstr(w, "cxx11_abi_evidence", t->cxx11_abi_evidence);
	tg_jsonw_key(w, "cxx_standard");
	if (t->cxx_standard)
		tg_jsonw_int(w, t->cxx_standard);
	else
		tg_jsonw_null(w);
	tg_jsonw_kstr(w, "cxx_standard_evidence", t->cxx_standard_evidence);
	tg_jsonw_key(w, "include_dirs");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	if (t->include_dir) {
		tg_jsonw_str(w, t->include_dir);
		if (t->api_include_dir)
			tg_jsonw_str(w, t->api_include_dir);
	}
	tg_jsonw_end(w);
	tg_jsonw_kstr(w, "include_real", t->include_real);
	tg_jsonw_kstr(w, "library_dir", t->library_dir);
	tg_jsonw_kstr(w, "library_real", t->library_real);
	tg_jsonw_key(w, "libraries");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < t->nlibs; k++)
		tg_jsonw_str(w, t->libs[k]);
	tg_jsonw_end(w);
	tg_jsonw_kstr(w, "cmake_dir", t->cmake_dir);
	tg_jsonw_kstr(w, "metadata_dir", t->meta_dir);
	tg_jsonw_kstr(w, "installer", t->installer);
	tg_jsonw_key(w, "wheel_tags");
	tg_jsonw_array(w, TG_JSONW_FLOW);
	for (k = 0; k < t->ntags; k++)
		tg_jsonw_str(w, t->tags[k]);
	tg_jsonw_end(w);
	tg_jsonw_key(w, "record");
	tg_jsonw_tristate(w, t->meta_dir ? t->has_record : -1);
	tg_jsonw_key(w, "direct_url");
	if (t->direct_url) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "url", t->direct_url);
		tg_jsonw_kstr(w, "kind", t->direct_url_kind);
		tg_jsonw_end(w);
	} else {
		tg_jsonw_null(w);
	}
	tg_jsonw_key(w, "editable");
	tg_jsonw_tristate(w, t->editable);
	tg_jsonw_kstr(w, "editable_via", t->editable_via);
	tg_jsonw_key(w, "problems");
	tg_jsonw_array(w, TG_JSONW_BLOCK);
	for (k = 0; k < t->problems.n; k++) {
		tg_jsonw_object(w, TG_JSONW_FLOW);
		tg_jsonw_kstr(w, "severity",
			      tg_diag_severity_name(t->problems.v[k].severity));
		tg_jsonw_kstr(w, "message", t->problems.v[k].message);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
	tg_jsonw_end(w);
}

static const char *const import_kinds[] = {"none", "package", "module",
					   "namespace"};

/* "imports": what `import torch` would give: kind, and the file or the
 * namespace portions */
static void
json_imports(struct tg_jsonw *w, const struct tg_probe *pr)
{
	enum tg_import_kind ik = tg_probe_imports(pr);
	size_t k;

	tg_jsonw_key(w, "imports");
	tg_jsonw_object(w, TG_JSONW_FLOW);
	tg_jsonw_kstr(w, "kind", import_kinds[ik]);
	tg_jsonw_kstr(w, "path",
		      ik == TG_IMPORT_MODULE	  ? pr->module
		      : ik == TG_IMPORT_PACKAGE	  ? pr->copies[0].dir
		      : ik == TG_IMPORT_NAMESPACE ? pr->portions[0]
						  : NULL);
	if (ik == TG_IMPORT_NAMESPACE) {
		tg_jsonw_key(w, "portions");
		tg_jsonw_array(w, TG_JSONW_FLOW);
		for (k = 0; k < pr->nportions && k < TG_PROBE_MAX_PORTIONS; k++)
			tg_jsonw_str(w, pr->portions[k]);
		tg_jsonw_end(w);
	}
	tg_jsonw_end(w);
}

static void
write_json(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_interp *in = pv->interp;
	const struct tg_syspath *sp = pv->path;
	const struct tg_probe *pr = pv->probe;
	struct tg_jsonw w;
	char ver[32] = "";
	size_t k;

	if (in && in->major)
		snprintf(ver, sizeof(ver), "%d.%d", in->major, in->minor);
	tg_jsonw_init(&w, b);
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kint(&w, "schema_version", TG_PROBE_SCHEMA_VERSION);
	tg_jsonw_key(&w, "python");
	tg_jsonw_object(&w, TG_JSONW_BLOCK);
	tg_jsonw_kstr(&w, "executable", in ? in->executable : NULL);
	tg_jsonw_kstr(&w, "resolved_via", in ? in->via : NULL);
	tg_jsonw_kstr(&w, "version", ver[0] ? ver : NULL);
	tg_jsonw_kstr(&w, "prefix", in ? in->prefix : NULL);
	tg_jsonw_kstr(&w, "base_prefix", in ? in->base_prefix : NULL);
	tg_jsonw_key(&w, "venv");
	tg_jsonw_tristate(&w, in ? in->venv : -1);
	tg_jsonw_key(&w, "system_site_packages");
	tg_jsonw_tristate(&w, in && in->venv ? in->system_site : -1);
	tg_jsonw_kstr(&w, "pyvenv_cfg", in ? in->pyvenv_cfg : NULL);
	tg_jsonw_kstr(&w, "warning", in ? in->warning : NULL);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "search_path");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < sp->n; k++) {
		tg_jsonw_object(&w, TG_JSONW_FLOW);
		tg_jsonw_kstr(&w, "dir", sp->e[k].dir);
		tg_jsonw_kstr(&w, "origin",
			      tg_syspath_origin_name(sp->e[k].origin));
		tg_jsonw_kstr(&w, "pth", sp->e[k].pth);
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "skipped_pth_lines");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < sp->skipped.n; k++) {
		tg_jsonw_object(&w, TG_JSONW_FLOW);
		tg_jsonw_kstr(&w, "file", sp->skipped.v[k].path);
		tg_jsonw_kint(&w, "line", (long long)sp->skipped.v[k].line);
		tg_jsonw_kstr(&w, "text", sp->skipped.v[k].snippet);
		tg_jsonw_end(&w);
	}
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "torch");
	if (chosen(pv))
		json_copy(&w, chosen(pv));
	else
		tg_jsonw_null(&w);
	json_imports(&w, pr);
	tg_jsonw_key(&w, "shadowed");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = tg_probe_first_shadowed(pr); k < pr->ncopies; k++)
		json_copy(&w, &pr->copies[k]);
	tg_jsonw_end(&w);
	tg_jsonw_key(&w, "problems");
	tg_jsonw_array(&w, TG_JSONW_BLOCK);
	for (k = 0; k < pr->problems.n; k++)
		tg_jsonw_str(&w, pr->problems.v[k].message);
	tg_jsonw_end(&w);
	tg_jsonw_kstr(&w, "error", pv->error);
	tg_jsonw_end(&w);
	tg_jsonw_finish(&w);
}

/* ---- text ---- */

static const char *
orNone(const char *s)
{
	return s ? s : "none";
}

static void
text_copy(struct tg_buf *b, const struct tg_torch *t)
{
	const char *dbg = vpy(t, TG_VPY_DEBUG);
	size_t k;

	tg_buf_addf(b, "  %-14s %s\n", "location", t->dir);
	tg_buf_addf(b, "  %-14s %s\n", "sources",
		    t->agreement == TG_AGREE	? "agree"
		    : t->agreement == TG_DIFFER ? "differ (same major.minor)"
						: "CONFLICT (different "
						  "major.minor: a broken "
						  "install or upgrade)");
	for (k = 0; k < TG_SRC_N; k++)
		if (t->src[k].present)
			tg_buf_addf(
			    b, "    %-22s %-22s %s\n",
			    tg_probe_source_name((enum tg_source_kind)k),
			    t->src[k].raw, t->src[k].file);
	tg_buf_addf(b, "  %-14s %s\n", "cuda", orNone(vpy(t, TG_VPY_CUDA)));
	tg_buf_addf(b, "  %-14s %s\n", "hip", orNone(vpy(t, TG_VPY_HIP)));
	tg_buf_addf(b, "  %-14s %s\n", "rocm", orNone(vpy(t, TG_VPY_ROCM)));
	tg_buf_addf(b, "  %-14s %s\n", "xpu", orNone(vpy(t, TG_VPY_XPU)));
	tg_buf_addf(b, "  %-14s %s\n", "git version",
		    vpy(t, TG_VPY_GIT_VERSION) ? vpy(t, TG_VPY_GIT_VERSION)
					       : "unknown");
	tg_buf_addf(b, "  %-14s %s\n", "debug",
		    dbg ? (strcmp(dbg, "True") == 0 ? "yes" : "no")
			: "unknown");
	if (t->abi_version)
		tg_buf_addf(b, "  %-14s %s (TORCH_ABI_VERSION)\n",
			    "abi version", t->abi_version);
	if (t->cxx11_abi >= 0)
		tg_buf_addf(b, "  %-14s %d (%s)\n", "cxx11 abi", t->cxx11_abi,
			    t->cxx11_abi_evidence);
	else
		tg_buf_addf(b,
			    "  %-14s unknown (no TORCH_CXX_FLAGS in "
			    "TorchConfig.cmake, no library to read)\n",
			    "cxx11 abi");
	if (t->cxx_standard)
		tg_buf_addf(b, "  %-14s C++%d (%s)\n", "c++ standard",
			    t->cxx_standard, t->cxx_standard_evidence);
	else
		tg_buf_addf(b, "  %-14s unknown\n", "c++ standard");
	if (t->include_dir) {
		tg_buf_addf(b, "  %-14s %s\n", "include dirs", t->include_dir);
		if (t->api_include_dir)
			tg_buf_addf(b, "  %-14s %s\n", "", t->api_include_dir);
		if (t->include_real && strncmp(t->include_real, t->include_dir,
					       strlen(t->include_real)) != 0)
			tg_buf_addf(b, "  %-14s (headers really in %s)\n", "",
				    t->include_real);
	} else {
		tg_buf_addf(b, "  %-14s none (no torch/include)\n",
			    "include dirs");
	}
	tg_buf_addf(b, "  %-14s %s", "library dir",
		    t->library_dir ? t->library_dir : "none");
	for (k = 0; k < t->nlibs; k++)
		tg_buf_addf(b, "%s%s", k ? " " : " (", t->libs[k]);
	tg_buf_adds(b, t->nlibs ? ")\n" : "\n");
	tg_buf_addf(b, "  %-14s %s\n", "cmake dir", orNone(t->cmake_dir));
	tg_buf_addf(b, "  %-14s %s\n", "metadata", orNone(t->meta_dir));
	tg_buf_addf(b, "  %-14s %s\n", "installer",
		    t->installer ? t->installer : "unknown");
	for (k = 0; k < t->ntags; k++)
		tg_buf_addf(b, "  %-14s %s\n", k ? "" : "wheel tags",
			    t->tags[k]);
	if (t->direct_url)
		tg_buf_addf(b, "  %-14s %s (%s)\n", "direct url", t->direct_url,
			    t->direct_url_kind);
	if (t->editable)
		tg_buf_addf(b, "  %-14s yes (%s)\n", "editable",
			    t->editable_via);
	else
		tg_buf_addf(b, "  %-14s no\n", "editable");
	for (k = 0; k < t->problems.n; k++)
		tg_buf_addf(b, "  %-14s %s\n",
			    tg_diag_severity_name(t->problems.v[k].severity),
			    t->problems.v[k].message);
}

static void
write_text(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_interp *in = pv->interp;
	const struct tg_probe *pr = pv->probe;
	const struct tg_torch *t = chosen(pv);
	size_t k;

	if (t && t->version)
		tg_buf_addf(b, "torch %s (from %s)\n", t->version,
			    tg_probe_source_name(t->version_from));
	else if (t)
		tg_buf_adds(b, "torch (version unknown)\n");
	else if (tg_probe_imports(pr) == TG_IMPORT_MODULE)
		tg_buf_addf(b,
			    "no torch: 'import torch' imports the module %s\n",
			    pr->module);
	else if (tg_probe_imports(pr) == TG_IMPORT_NAMESPACE)
		tg_buf_addf(b,
			    "no torch: 'import torch' imports a namespace "
			    "package (%s, no __init__.py)\n",
			    pr->portions[0]);
	else
		tg_buf_adds(b, "no torch found\n");
	/* another version further down the path is worth seeing first */
	for (k = t ? 1 : 0; t && k < pr->ncopies; k++)
		if (pr->copies[k].version && t->version &&
		    strcmp(pr->copies[k].version, t->version) != 0)
			tg_buf_addf(b,
				    "  %-14s torch %s at %s (not imported: "
				    "details below)\n",
				    "shadowed", pr->copies[k].version,
				    pr->copies[k].dir);
	if (in && in->executable) {
		tg_buf_addf(b, "  %-14s %s (Python %d.%d, prefix %s%s)\n",
			    "python", in->executable, in->major, in->minor,
			    in->prefix, in->venv ? ", venv" : "");
		if (in->via)
			tg_buf_addf(b, "  %-14s %s\n", "", in->via);
	} else if (in) {
		tg_buf_addf(b, "  %-14s none (environment at %s)\n", "python",
			    in->prefix);
	}
	if (t) {
		text_copy(b, t);
	} else {
		tg_buf_adds(b, "  searched:\n");
		for (k = 0; k < pv->path->n; k++)
			tg_buf_addf(b, "    %s\n", pv->path->e[k].dir);
	}
	for (k = tg_probe_first_shadowed(pr); k < pr->ncopies; k++) {
		tg_buf_addf(b, "shadowed: torch %s\n",
			    pr->copies[k].version ? pr->copies[k].version
						  : "(version unknown)");
		text_copy(b, &pr->copies[k]);
	}
	for (k = 0; k < pr->problems.n; k++)
		tg_buf_addf(b, "warning: %s\n", pr->problems.v[k].message);
}

/* ---- shell, make, pc ---- */

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

static void
write_shell(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
	char rel[3][24], num[32];
	const char *dbg = vpy(t, TG_VPY_DEBUG);
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
	sh_var(b, "TORCH_CUDA", vpy(t, TG_VPY_CUDA));
	sh_var(b, "TORCH_HIP", vpy(t, TG_VPY_HIP));
	sh_var(b, "TORCH_ROCM", vpy(t, TG_VPY_ROCM));
	sh_var(b, "TORCH_XPU", vpy(t, TG_VPY_XPU));
	sh_var(b, "TORCH_GIT_VERSION", vpy(t, TG_VPY_GIT_VERSION));
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
}

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

static void
write_make(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
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
}

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

static void
write_pc(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
	char num[32];
	char *cpp = t->cmake_dir ? tg_path_dirname(t->cmake_dir) : NULL;
	const char *cuda = vpy(t, TG_VPY_CUDA);
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
}

int
tg_probe_format_write(const struct tg_probe_view *pv, enum tg_probe_format fmt,
		      struct tg_buf *b, struct tg_err *err)
{
	if (fmt != TG_FMT_TEXT && fmt != TG_FMT_JSON && !chosen(pv))
		return tg_err_set(err, TG_ENOENT, "no torch found");
	if ((fmt == TG_FMT_MAKE || fmt == TG_FMT_PC) &&
	    strpbrk(chosen(pv)->dir, "\n\r"))
		return tg_err_set(err, TG_EINVAL,
				  "cannot write '%s' in a %s file: the path "
				  "holds a line break",
				  chosen(pv)->dir,
				  fmt == TG_FMT_MAKE ? "make" : "pc");
	switch (fmt) {
	case TG_FMT_JSON:
		write_json(pv, b);
		break;
	case TG_FMT_SHELL:
		write_shell(pv, b);
		break;
	case TG_FMT_MAKE:
		write_make(pv, b);
		break;
	case TG_FMT_PC:
		write_pc(pv, b);
		break;
	default:
		write_text(pv, b);
		break;
	}
	if (tg_buf_error(b))
		return tg_err_set(err, tg_buf_error(b), "%s",
				  tg_buf_error(b) == TG_ENOMEM
				      ? "out of memory writing the report"
				      : "the report does not fit in memory");
	return 0;
}

/* One value a line; NULL is an empty line. */
static void
line(struct tg_buf *b, const char *s)
{
	tg_buf_adds(b, s ? s : "");
	tg_buf_addc(b, '\n');
}

int
tg_probe_format_field(const struct tg_probe_view *pv, const char *name,
		      struct tg_buf *b, struct tg_err *err)
{
	const struct tg_torch *t = chosen(pv);
	const struct tg_interp *in = pv->interp;
	size_t k;
	int needs_torch = 1;
	char tmp[32];

	for (k = 0; tg_probe_field_names[k]; k++)
		if (strcmp(name, tg_probe_field_names[k]) == 0)
			break;
	if (!tg_probe_field_names[k])
		return tg_err_set(err, TG_EINVAL, "unknown field '%s'", name);
	if (strcmp(name, "sys_path") == 0 || strcmp(name, "python") == 0 ||
	    strcmp(name, "python_version") == 0 ||
	    strcmp(name, "prefix") == 0 || strcmp(name, "shadowed") == 0)
		needs_torch = 0;
	if (needs_torch && !t)
		return tg_err_set(err, TG_ENOENT, "no torch found");
	if (strcmp(name, "sys_path") == 0) {
		for (k = 0; k < pv->path->n; k++)
			line(b, pv->path->e[k].dir);
	} else if (strcmp(name, "shadowed") == 0) {
		for (k = tg_probe_first_shadowed(pv->probe);
		     k < pv->probe->ncopies; k++)
			line(b, pv->probe->copies[k].dir);
	} else if (strcmp(name, "python") == 0) {
		line(b, in ? in->executable : NULL);
	} else if (strcmp(name, "python_version") == 0) {
		const char *ver = NULL;

		if (in && in->major) {
			snprintf(tmp, sizeof(tmp), "%d.%d", in->major,
				 in->minor);
			ver = tmp;
		}
		line(b, ver);
	} else if (strcmp(name, "prefix") == 0) {
		line(b, in ? in->prefix : NULL);
	} else if (strcmp(name, "version") == 0) {
		line(b, t->version);
	} else if (strcmp(name, "version_source") == 0) {
		line(b,
		     t->version ? tg_probe_source_name(t->version_from) : NULL);
	} else if (strcmp(name, "location") == 0) {
		line(b, t->dir);
	} else if (strcmp(name, "agreement") == 0) {
		line(b, tg_probe_agreement_name(t->agreement));
	} else if (strcmp(name, "cuda") == 0) {
		line(b, vpy(t, TG_VPY_CUDA));
	} else if (strcmp(name, "hip") == 0) {
		line(b, vpy(t, TG_VPY_HIP));
	} else if (strcmp(name, "rocm") == 0) {
		line(b, vpy(t, TG_VPY_ROCM));
	} else if (strcmp(name, "xpu") == 0) {
		line(b, vpy(t, TG_VPY_XPU));
	} else if (strcmp(name, "git_version") == 0) {
		line(b, vpy(t, TG_VPY_GIT_VERSION));
	} else if (strcmp(name, "debug") == 0) {
		const char *d = vpy(t, TG_VPY_DEBUG);

		line(b, d ? (strcmp(d, "True") == 0 ? "1" : "0") : NULL);
	} else if (strcmp(name, "abi_version") == 0) {
		line(b, t->abi_version);
	} else if (strcmp(name, "cxx11_abi") == 0) {
		line(b, t->cxx11_abi < 0 ? NULL : t->cxx11_abi ? "1" : "0");
	} else if (strcmp(name, "cxx_standard") == 0) {
		const char *std = NULL;

		if (t->cxx_standard) {
			snprintf(tmp, sizeof(tmp), "%d", t->cxx_standard);
			std = tmp;
		}
		line(b, std);
	} else if (strcmp(name, "include_dirs") == 0) {
		if (t->include_dir)
			line(b, t->include_dir);
		if (t->include_dir && t->api_include_dir)
			line(b, t->api_include_dir);
	} else if (strcmp(name, "library_dir") == 0) {
		line(b, t->library_dir);
	} else if (strcmp(name, "libraries") == 0) {
		for (k = 0; k < t->nlibs; k++)
			line(b, t->libs[k]);
	} else if (strcmp(name, "cmake_dir") == 0) {
		line(b, t->cmake_dir);
	} else if (strcmp(name, "cmake_prefix_path") == 0) {
		/* torch.utils.cmake_prefix_path: the directory find_package
		 * searches for Torch/TorchConfig.cmake */
		char *d = t->cmake_dir ? tg_path_dirname(t->cmake_dir) : NULL;

		if (t->cmake_dir && !d)
			return tg_err_set(err, TG_ENOMEM,
					  "out of memory writing the field");
		line(b, d);
		free(d);
	} else if (strcmp(name, "metadata_dir") == 0) {
		line(b, t->meta_dir);
	} else if (strcmp(name, "installer") == 0) {
		line(b, t->installer);
	} else if (strcmp(name, "editable") == 0) {
		line(b, t->editable ? "1" : "0");
	}
	if (tg_buf_error(b))
		return tg_err_set(err, tg_buf_error(b), "%s",
				  tg_buf_error(b) == TG_ENOMEM
				      ? "out of memory writing the field"
				      : "the field does not fit in memory");
	return 0;
}
