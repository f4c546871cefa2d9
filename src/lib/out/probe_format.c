/* probe_format.c - a probe written out: text, JSON, shell, make, pc
 * SPDX-License-Identifier: MIT
 *
 * Every writer appends to a bounded struct tg_buf and fails only when
 * that buffer is full or memory runs out. Quoting: shell values in single
 * quotes ('\'' for a quote); make values with '$' doubled and
 * shell-quoted when they hold a blank or a quote; pc values with '$'
 * doubled and blanks escaped with a backslash.
 */
#include "lib/out/probe_format.h"

#include <stdio.h>
#include <string.h>

const char *const tg_probe_field_names[] = {
    "version",	      "version_source",
    "location",	      "agreement",
    "cuda",	      "hip",
    "rocm",	      "xpu",
    "git_version",    "debug",
    "abi_version",    "cxx11_abi",
    "cxx_standard",   "include_dirs",
    "library_dir",    "libraries",
    "cmake_dir",      "metadata_dir",
    "installer",      "editable",
    "shadowed",	      "python",
    "python_version", "prefix",
    "sys_path",	      NULL,
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
	return pv->probe->ncopies ? &pv->probe->copies[0] : NULL;
}

static const char *
vpy(const struct tg_torch *t, enum tg_versionpy_field f)
{
	return t->vp.f[f].set ? t->vp.f[f].s : NULL;
}

/* ---- JSON ---- */

static int
jstr(struct tg_buf *b, const char *s)
{
	return s ? tg_buf_add_json_str(b, s, strlen(s))
		 : tg_buf_adds(b, "null");
}

static int
jkey(struct tg_buf *b, const char *indent, const char *key)
{
	return tg_buf_addf(b, ",\n%s\"%s\": ", indent, key);
}

static int
jkv(struct tg_buf *b, const char *indent, const char *key, const char *s)
{
	return jkey(b, indent, key) || jstr(b, s);
}

static int
jbool(struct tg_buf *b, const char *indent, const char *key, int v)
{
	return jkey(b, indent, key) || tg_buf_adds(b, v < 0 ? "null"
						      : v   ? "true"
							    : "false");
}

static int
json_copy(struct tg_buf *b, const struct tg_torch *t, const char *in)
{
	char in2[32], in3[32];
	size_t k;
	int rc, first;
	const char *dbg = vpy(t, TG_VPY_DEBUG);

	snprintf(in2, sizeof(in2), "%s  ", in);
	snprintf(in3, sizeof(in3), "%s    ", in);
	rc = tg_buf_addf(b, "{\n%s\"location\": ", in2) || jstr(b, t->dir) ||
	     jkv(b, in2, "path_entry", t->entry) ||
	     jkv(b, in2, "version", t->version) ||
	     jkv(b, in2, "version_source",
		 t->version ? tg_probe_source_name(t->version_from) : NULL) ||
	     jkv(b, in2, "agreement", tg_probe_agreement_name(t->agreement)) ||
	     jkey(b, in2, "sources") || tg_buf_adds(b, "[");
	first = 1;
	for (k = 0; !rc && k < TG_SRC_N; k++) {
		const struct tg_vsource *s = &t->src[k];

		if (!s->present)
			continue;
		rc = tg_buf_addf(b, "%s\n%s{\"source\": ", first ? "" : ",",
				 in3) ||
		     jstr(b, tg_probe_source_name((enum tg_source_kind)k)) ||
		     tg_buf_adds(b, ", \"file\": ") || jstr(b, s->file) ||
		     tg_buf_adds(b, ", \"value\": ") || jstr(b, s->raw) ||
		     tg_buf_adds(b, ", \"pep440\": ") ||
		     jstr(b, s->parsed ? s->v.str : NULL) ||
		     tg_buf_adds(b, "}");
		first = 0;
	}
	rc = rc || (!first && tg_buf_addf(b, "\n%s", in2)) ||
	     tg_buf_adds(b, "]") || jkv(b, in2, "cuda", vpy(t, TG_VPY_CUDA)) ||
	     jkv(b, in2, "hip", vpy(t, TG_VPY_HIP)) ||
	     jkv(b, in2, "rocm", vpy(t, TG_VPY_ROCM)) ||
	     jkv(b, in2, "xpu", vpy(t, TG_VPY_XPU)) ||
	     jkv(b, in2, "git_version", vpy(t, TG_VPY_GIT_VERSION)) ||
	     jbool(b, in2, "debug", dbg ? strcmp(dbg, "True") == 0 : -1) ||
	     jkv(b, in2, "abi_version", t->abi_version) ||
	     jbool(b, in2, "cxx11_abi", t->cxx11_abi) ||
	     jkv(b, in2, "cxx11_abi_evidence", t->cxx11_abi_evidence) ||
	     jkey(b, in2, "cxx_standard") ||
	     (t->cxx_standard ? tg_buf_addf(b, "%d", t->cxx_standard)
			      : tg_buf_adds(b, "null")) ||
	     jkv(b, in2, "cxx_standard_evidence", t->cxx_standard_evidence) ||
	     jkey(b, in2, "include_dirs") || tg_buf_adds(b, "[");
	if (!rc && t->include_dir)
		rc = jstr(b, t->include_dir) ||
		     (t->api_include_dir &&
		      (tg_buf_adds(b, ", ") || jstr(b, t->api_include_dir)));
	rc = rc || tg_buf_adds(b, "]") ||
	     jkv(b, in2, "include_real", t->include_real) ||
	     jkv(b, in2, "library_dir", t->library_dir) ||
	     jkv(b, in2, "library_real", t->library_real) ||
	     jkey(b, in2, "libraries") || tg_buf_adds(b, "[");
	for (k = 0; !rc && k < t->nlibs; k++)
		rc = (k && tg_buf_adds(b, ", ")) || jstr(b, t->libs[k]);
	rc = rc || tg_buf_adds(b, "]") ||
	     jkv(b, in2, "cmake_dir", t->cmake_dir) ||
	     jkv(b, in2, "metadata_dir", t->meta_dir) ||
	     jkv(b, in2, "installer", t->installer) ||
	     jkey(b, in2, "wheel_tags") || tg_buf_adds(b, "[");
	for (k = 0; !rc && k < t->ntags; k++)
		rc = (k && tg_buf_adds(b, ", ")) || jstr(b, t->tags[k]);
	rc = rc || tg_buf_adds(b, "]") ||
	     jbool(b, in2, "record", t->meta_dir ? t->has_record : -1) ||
	     jkey(b, in2, "direct_url");
	if (!rc && t->direct_url)
		rc = tg_buf_adds(b, "{\"url\": ") || jstr(b, t->direct_url) ||
		     tg_buf_adds(b, ", \"kind\": ") ||
		     jstr(b, t->direct_url_kind) || tg_buf_adds(b, "}");
	else if (!rc)
		rc = tg_buf_adds(b, "null");
	rc = rc || jbool(b, in2, "editable", t->editable) ||
	     jkv(b, in2, "editable_via", t->editable_via) ||
	     jkey(b, in2, "problems") || tg_buf_adds(b, "[");
	for (k = 0; !rc && k < t->problems.n; k++)
		rc = tg_buf_addf(b,
				 "%s\n%s{\"severity\": \"%s\", "
				 "\"message\": ",
				 k ? "," : "", in3,
				 t->problems.v[k].code ? "error" : "warning") ||
		     jstr(b, t->problems.v[k].msg) || tg_buf_adds(b, "}");
	rc = rc || (t->problems.n && tg_buf_addf(b, "\n%s", in2)) ||
	     tg_buf_addf(b, "]\n%s}", in);
	return rc;
}

static int
write_json(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_interp *in = pv->interp;
	const struct tg_syspath *sp = pv->path;
	const struct tg_probe *pr = pv->probe;
	char ver[32] = "";
	size_t k;
	int rc;

	if (in && in->major)
		snprintf(ver, sizeof(ver), "%d.%d", in->major, in->minor);
	rc = tg_buf_addf(b, "{\n  \"schema_version\": %d",
			 TG_PROBE_SCHEMA_VERSION) ||
	     tg_buf_adds(b, ",\n  \"python\": {\n    \"executable\": ") ||
	     jstr(b, in ? in->executable : NULL) ||
	     jkv(b, "    ", "resolved_via", in ? in->via : NULL) ||
	     jkv(b, "    ", "version", ver[0] ? ver : NULL) ||
	     jkv(b, "    ", "prefix", in ? in->prefix : NULL) ||
	     jkv(b, "    ", "base_prefix", in ? in->base_prefix : NULL) ||
	     jbool(b, "    ", "venv", in ? in->venv : -1) ||
	     jbool(b, "    ", "system_site_packages",
		   in && in->venv ? in->system_site : -1) ||
	     jkv(b, "    ", "pyvenv_cfg", in ? in->pyvenv_cfg : NULL) ||
	     tg_buf_adds(b, "\n  },\n  \"search_path\": [");
	for (k = 0; !rc && k < sp->n; k++)
		rc = tg_buf_addf(b, "%s\n    {\"dir\": ", k ? "," : "") ||
		     jstr(b, sp->e[k].dir) ||
		     tg_buf_adds(b, ", \"origin\": ") ||
		     jstr(b, tg_syspath_origin_name(sp->e[k].origin)) ||
		     tg_buf_adds(b, ", \"pth\": ") || jstr(b, sp->e[k].pth) ||
		     tg_buf_adds(b, "}");
	rc = rc || tg_buf_addf(b, "%s],\n  \"skipped_pth_lines\": [",
			       sp->n ? "\n  " : "");
	for (k = 0; !rc && k < sp->nskipped; k++)
		rc = tg_buf_addf(b, "%s\n    {\"file\": ", k ? "," : "") ||
		     jstr(b, sp->skipped[k].file) ||
		     tg_buf_addf(b, ", \"line\": %zu, \"text\": ",
				 sp->skipped[k].line) ||
		     jstr(b, sp->skipped[k].text) || tg_buf_adds(b, "}");
	rc = rc ||
	     tg_buf_addf(b, "%s],\n  \"torch\": ", sp->nskipped ? "\n  " : "");
	if (!rc && pr->ncopies)
		rc = json_copy(b, &pr->copies[0], "  ");
	else if (!rc)
		rc = tg_buf_adds(b, "null");
	rc = rc || tg_buf_adds(b, ",\n  \"shadowed\": [");
	for (k = 1; !rc && k < pr->ncopies; k++)
		rc = tg_buf_addf(b, "%s\n    ", k > 1 ? "," : "") ||
		     json_copy(b, &pr->copies[k], "    ");
	rc = rc || tg_buf_addf(b, "%s],\n  \"problems\": [",
			       pr->ncopies > 1 ? "\n  " : "");
	for (k = 0; !rc && k < pr->problems.n; k++)
		rc = tg_buf_addf(b, "%s\n    ", k ? "," : "") ||
		     jstr(b, pr->problems.v[k].msg);
	rc = rc || tg_buf_addf(b, "%s]\n}\n", pr->problems.n ? "\n  " : "");
	return rc;
}

/* ---- text ---- */

static const char *
orNone(const char *s)
{
	return s ? s : "none";
}

static int
text_copy(struct tg_buf *b, const struct tg_torch *t)
{
	const char *dbg = vpy(t, TG_VPY_DEBUG);
	size_t k;
	int rc;

	rc = tg_buf_addf(b, "  %-14s %s\n", "location", t->dir) ||
	     tg_buf_addf(b, "  %-14s %s\n", "sources",
			 t->agreement == TG_AGREE ? "agree"
			 : t->agreement == TG_DIFFER
			     ? "differ (same major.minor)"
			     : "CONFLICT (different major.minor: a broken "
			       "install or upgrade)");
	for (k = 0; !rc && k < TG_SRC_N; k++)
		if (t->src[k].present)
			rc = tg_buf_addf(
			    b, "    %-22s %-22s %s\n",
			    tg_probe_source_name((enum tg_source_kind)k),
			    t->src[k].raw, t->src[k].file);
	rc =
	    rc ||
	    tg_buf_addf(b, "  %-14s %s\n", "cuda",
			orNone(vpy(t, TG_VPY_CUDA))) ||
	    tg_buf_addf(b, "  %-14s %s\n", "hip", orNone(vpy(t, TG_VPY_HIP))) ||
	    tg_buf_addf(b, "  %-14s %s\n", "rocm",
			orNone(vpy(t, TG_VPY_ROCM))) ||
	    tg_buf_addf(b, "  %-14s %s\n", "xpu", orNone(vpy(t, TG_VPY_XPU))) ||
	    tg_buf_addf(b, "  %-14s %s\n", "git version",
			vpy(t, TG_VPY_GIT_VERSION) ? vpy(t, TG_VPY_GIT_VERSION)
						   : "unknown") ||
	    tg_buf_addf(b, "  %-14s %s\n", "debug",
			dbg ? (strcmp(dbg, "True") == 0 ? "yes" : "no")
			    : "unknown");
	if (!rc && t->abi_version)
		rc = tg_buf_addf(b, "  %-14s %s (TORCH_ABI_VERSION)\n",
				 "abi version", t->abi_version);
	if (!rc && t->cxx11_abi >= 0)
		rc = tg_buf_addf(b, "  %-14s %d (%s)\n", "cxx11 abi",
				 t->cxx11_abi, t->cxx11_abi_evidence);
	else if (!rc)
		rc = tg_buf_addf(b,
				 "  %-14s unknown (no TORCH_CXX_FLAGS in "
				 "TorchConfig.cmake, no library to read)\n",
				 "cxx11 abi");
	if (!rc && t->cxx_standard)
		rc = tg_buf_addf(b, "  %-14s C++%d (%s)\n", "c++ standard",
				 t->cxx_standard, t->cxx_standard_evidence);
	else if (!rc)
		rc = tg_buf_addf(b, "  %-14s unknown\n", "c++ standard");
	if (!rc && t->include_dir)
		rc = tg_buf_addf(b, "  %-14s %s\n", "include dirs",
				 t->include_dir) ||
		     (t->api_include_dir &&
		      tg_buf_addf(b, "  %-14s %s\n", "", t->api_include_dir)) ||
		     (t->include_real &&
		      strncmp(t->include_real, t->include_dir,
			      strlen(t->include_real)) != 0 &&
		      tg_buf_addf(b, "  %-14s (headers really in %s)\n", "",
				  t->include_real));
	else if (!rc)
		rc = tg_buf_addf(b, "  %-14s none (no torch/include)\n",
				 "include dirs");
	if (!rc)
		rc = tg_buf_addf(b, "  %-14s %s", "library dir",
				 t->library_dir ? t->library_dir : "none");
	for (k = 0; !rc && k < t->nlibs; k++)
		rc = tg_buf_addf(b, "%s%s", k ? " " : " (", t->libs[k]);
	rc =
	    rc || tg_buf_adds(b, t->nlibs ? ")\n" : "\n") ||
	    tg_buf_addf(b, "  %-14s %s\n", "cmake dir", orNone(t->cmake_dir)) ||
	    tg_buf_addf(b, "  %-14s %s\n", "metadata", orNone(t->meta_dir)) ||
	    tg_buf_addf(b, "  %-14s %s\n", "installer",
			t->installer ? t->installer : "unknown");
	for (k = 0; !rc && k < t->ntags; k++)
		rc = tg_buf_addf(b, "  %-14s %s\n", k ? "" : "wheel tags",
				 t->tags[k]);
	if (!rc && t->direct_url)
		rc = tg_buf_addf(b, "  %-14s %s (%s)\n", "direct url",
				 t->direct_url, t->direct_url_kind);
	if (!rc)
		rc = t->editable ? tg_buf_addf(b, "  %-14s yes (%s)\n",
					       "editable", t->editable_via)
				 : tg_buf_addf(b, "  %-14s no\n", "editable");
	for (k = 0; !rc && k < t->problems.n; k++)
		rc = tg_buf_addf(b, "  %-14s %s\n",
				 t->problems.v[k].code ? "error" : "warning",
				 t->problems.v[k].msg);
	return rc;
}

static int
write_text(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_interp *in = pv->interp;
	const struct tg_probe *pr = pv->probe;
	const struct tg_torch *t = chosen(pv);
	size_t k;
	int rc = 0;

	if (t)
		rc = t->version
			 ? tg_buf_addf(b, "torch %s (from %s)\n", t->version,
				       tg_probe_source_name(t->version_from))
			 : tg_buf_adds(b, "torch (version unknown)\n");
	else
		rc = tg_buf_adds(b, "no torch found\n");
	if (!rc && in && in->executable)
		rc = tg_buf_addf(b, "  %-14s %s (Python %d.%d, prefix %s%s)\n",
				 "python", in->executable, in->major, in->minor,
				 in->prefix, in->venv ? ", venv" : "") ||
		     (in->via && tg_buf_addf(b, "  %-14s %s\n", "", in->via));
	else if (!rc && in)
		rc = tg_buf_addf(b, "  %-14s none (environment at %s)\n",
				 "python", in->prefix);
	if (!rc && t)
		rc = text_copy(b, t);
	if (!rc && !t) {
		rc = tg_buf_adds(b, "  searched:\n");
		for (k = 0; !rc && k < pv->path->n; k++)
			rc = tg_buf_addf(b, "    %s\n", pv->path->e[k].dir);
	}
	for (k = 1; !rc && k < pr->ncopies; k++)
		rc = tg_buf_addf(b, "shadowed: torch %s\n",
				 pr->copies[k].version ? pr->copies[k].version
						       : "(version unknown)") ||
		     text_copy(b, &pr->copies[k]);
	for (k = 0; !rc && k < pr->problems.n; k++)
		rc = tg_buf_addf(b, "warning: %s\n", pr->problems.v[k].msg);
	return rc;
}

/* ---- shell, make, pc ---- */

static int
sh_quote(struct tg_buf *b, const char *s)
{
	int rc = tg_buf_addc(b, '\'');

	for (; !rc && s && *s; s++)
		rc = *s == '\'' ? tg_buf_adds(b, "'\\''") : tg_buf_addc(b, *s);
	return rc || tg_buf_addc(b, '\'');
}

static int
sh_var(struct tg_buf *b, const char *name, const char *v)
{
	return tg_buf_addf(b, "%s=", name) || sh_quote(b, v) ||
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

static int
write_shell(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
	char rel[3][24], num[32];
	const char *dbg = vpy(t, TG_VPY_DEBUG);
	size_t k;
	int rc;

	release3(t, rel);
	rc = sh_var(b, "TORCH_VERSION", t->version) ||
	     sh_var(b, "TORCH_VERSION_MAJOR", rel[0]) ||
	     sh_var(b, "TORCH_VERSION_MINOR", rel[1]) ||
	     sh_var(b, "TORCH_VERSION_PATCH", rel[2]) ||
	     sh_var(b, "TORCH_VERSION_SOURCE",
		    t->version ? tg_probe_source_name(t->version_from) : "") ||
	     sh_var(b, "TORCH_AGREEMENT",
		    tg_probe_agreement_name(t->agreement)) ||
	     sh_var(b, "TORCH_LOCATION", t->dir) ||
	     sh_var(b, "TORCH_CUDA", vpy(t, TG_VPY_CUDA)) ||
	     sh_var(b, "TORCH_HIP", vpy(t, TG_VPY_HIP)) ||
	     sh_var(b, "TORCH_ROCM", vpy(t, TG_VPY_ROCM)) ||
	     sh_var(b, "TORCH_XPU", vpy(t, TG_VPY_XPU)) ||
	     sh_var(b, "TORCH_GIT_VERSION", vpy(t, TG_VPY_GIT_VERSION)) ||
	     sh_var(b, "TORCH_DEBUG",
		    dbg ? (strcmp(dbg, "True") == 0 ? "1" : "0") : "") ||
	     sh_var(b, "TORCH_ABI_VERSION", t->abi_version) ||
	     sh_var(b, "TORCH_CXX11_ABI",
		    t->cxx11_abi < 0 ? ""
		    : t->cxx11_abi   ? "1"
				     : "0");
	snprintf(num, sizeof(num), "%d", t->cxx_standard);
	rc = rc ||
	     sh_var(b, "TORCH_CXX_STANDARD", t->cxx_standard ? num : "") ||
	     sh_var(b, "TORCH_INCLUDE_DIR", t->include_dir) ||
	     sh_var(b, "TORCH_API_INCLUDE_DIR", t->api_include_dir) ||
	     sh_var(b, "TORCH_LIBRARY_DIR", t->library_dir) ||
	     sh_var(b, "TORCH_CMAKE_DIR", t->cmake_dir) ||
	     sh_var(b, "TORCH_INSTALLER", t->installer) ||
	     sh_var(b, "TORCH_EDITABLE", t->editable ? "1" : "0");
	snprintf(num, sizeof(num), "%zu", pv->probe->ncopies - 1);
	rc = rc || sh_var(b, "TORCH_SHADOWED", num) ||
	     tg_buf_adds(b, "TORCH_LIBRARIES='");
	for (k = 0; !rc && k < t->nlibs; k++)
		rc = tg_buf_addf(b, "%s%s", k ? " " : "", t->libs[k]);
	return rc || tg_buf_adds(b, "'\n");
}

/* A make word: flag + the path in shell single quotes, '$' doubled for
 * make and '#' escaped, so that no path can run or cut a recipe. */
static int
mk_word(struct tg_buf *b, const char *flag, const char *path)
{
	int rc = tg_buf_adds(b, flag) || tg_buf_addc(b, '\'');

	for (; !rc && *path; path++) {
		if (*path == '$')
			rc = tg_buf_adds(b, "$$");
		else if (*path == '\'')
			rc = tg_buf_adds(b, "'\\''");
		else if (*path == '#')
			rc = tg_buf_adds(b, "\\#");
		else
			rc = tg_buf_addc(b, *path);
	}
	return rc || tg_buf_addc(b, '\'');
}

static int
write_make(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
	size_t k;
	int rc;

	/* a version that parsed as PEP 440 holds no make or shell syntax */
	rc = tg_buf_adds(b, "TORCH_VERSION = ") ||
	     tg_buf_adds(b, t->version ? t->version : "") ||
	     tg_buf_adds(b, "\nTORCH_CPPFLAGS =");
	if (!rc && t->include_dir)
		rc = mk_word(b, " -I", t->include_dir) ||
		     (t->api_include_dir &&
		      mk_word(b, " -I", t->api_include_dir));
	if (!rc && t->cxx11_abi >= 0)
		rc = tg_buf_addf(b, " -D_GLIBCXX_USE_CXX11_ABI=%d",
				 t->cxx11_abi);
	rc = rc || tg_buf_adds(b, "\nTORCH_CXXFLAGS =") ||
	     (t->cxx_standard &&
	      tg_buf_addf(b, " -std=c++%d", t->cxx_standard)) ||
	     tg_buf_adds(b, "\nTORCH_LDFLAGS =");
	if (!rc && t->library_dir)
		rc = mk_word(b, " -L", t->library_dir) ||
		     mk_word(b, " -Wl,-rpath,", t->library_dir);
	rc = rc || tg_buf_adds(b, "\nTORCH_LIBS =");
	for (k = 0; !rc && k < t->nlibs; k++)
		if (strcmp(t->libs[k], "torch_python") != 0)
			rc = tg_buf_addf(b, " -l%s", t->libs[k]);
	return rc || tg_buf_adds(b, "\n");
}

/* A pc value: every byte outside a small safe set backslash-escaped,
 * which pkg-config reads back as that byte. */
static int
pc_value(struct tg_buf *b, const char *s)
{
	int rc = 0;

	for (; !rc && *s; s++) {
		if (!strchr("/._+,:=@%-", *s) && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9'))
			rc = tg_buf_addc(b, '\\');
		if (!rc)
			rc = tg_buf_addc(b, *s);
	}
	return rc;
}

static int
write_pc(const struct tg_probe_view *pv, struct tg_buf *b)
{
	const struct tg_torch *t = chosen(pv);
	size_t k;
	int rc;

	rc = tg_buf_adds(b, "prefix=") || pc_value(b, t->dir) ||
	     tg_buf_adds(b, "\nincludedir=") ||
	     (t->include_dir ? tg_buf_adds(b, "${prefix}/include") : 0) ||
	     tg_buf_adds(b, "\nlibdir=") ||
	     (t->library_dir ? tg_buf_adds(b, "${prefix}/lib") : 0) ||
	     tg_buf_adds(b, "\n\nName: torch\n"
			    "Description: PyTorch C++ API, as found by "
			    "torchgate\nVersion: ") ||
	     pc_value(b, t->version ? t->version : "0") ||
	     tg_buf_adds(b, "\nCflags:");
	if (!rc && t->include_dir)
		rc = tg_buf_adds(b, " -I${includedir}") ||
		     (t->api_include_dir &&
		      tg_buf_adds(b, " -I${includedir}/torch/csrc/api/"
				     "include"));
	if (!rc && t->cxx11_abi >= 0)
		rc = tg_buf_addf(b, " -D_GLIBCXX_USE_CXX11_ABI=%d",
				 t->cxx11_abi);
	if (!rc && t->cxx_standard)
		rc = tg_buf_addf(b, " -std=c++%d", t->cxx_standard);
	rc = rc || tg_buf_adds(b, "\nLibs:");
	if (!rc && t->library_dir)
		rc = tg_buf_adds(b, " -L${libdir} -Wl,-rpath,${libdir}");
	for (k = 0; !rc && k < t->nlibs; k++)
		if (strcmp(t->libs[k], "torch_python") != 0)
			rc = tg_buf_addf(b, " -l%s", t->libs[k]);
	return rc || tg_buf_adds(b, "\n");
}

int
tg_probe_format_write(const struct tg_probe_view *pv, enum tg_probe_format fmt,
		      struct tg_buf *b, struct tg_err *err)
{
	int rc;

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
		rc = write_json(pv, b);
		break;
	case TG_FMT_SHELL:
		rc = write_shell(pv, b);
		break;
	case TG_FMT_MAKE:
		rc = write_make(pv, b);
		break;
	case TG_FMT_PC:
		rc = write_pc(pv, b);
		break;
	default:
		rc = write_text(pv, b);
		break;
	}
	if (rc)
		return tg_err_set(err, rc, "the report does not fit in memory");
	return 0;
}

int
tg_probe_format_field(const struct tg_probe_view *pv, const char *name,
		      struct tg_buf *b, struct tg_err *err)
{
	const struct tg_torch *t = chosen(pv);
	const struct tg_interp *in = pv->interp;
	size_t k;
	int rc = 0, needs_torch = 1;
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
#define LINE(s) (tg_buf_adds(b, (s) ? (s) : "") || tg_buf_addc(b, '\n'))
	if (strcmp(name, "sys_path") == 0) {
		for (k = 0; !rc && k < pv->path->n; k++)
			rc = LINE(pv->path->e[k].dir);
	} else if (strcmp(name, "shadowed") == 0) {
		for (k = 1; !rc && k < pv->probe->ncopies; k++)
			rc = LINE(pv->probe->copies[k].dir);
	} else if (strcmp(name, "python") == 0) {
		rc = LINE(in ? in->executable : NULL);
	} else if (strcmp(name, "python_version") == 0) {
		const char *ver = NULL;

		if (in && in->major) {
			snprintf(tmp, sizeof(tmp), "%d.%d", in->major,
				 in->minor);
			ver = tmp;
		}
		rc = LINE(ver);
	} else if (strcmp(name, "prefix") == 0) {
		rc = LINE(in ? in->prefix : NULL);
	} else if (strcmp(name, "version") == 0) {
		rc = LINE(t->version);
	} else if (strcmp(name, "version_source") == 0) {
		rc = LINE(t->version ? tg_probe_source_name(t->version_from)
				     : NULL);
	} else if (strcmp(name, "location") == 0) {
		rc = LINE(t->dir);
	} else if (strcmp(name, "agreement") == 0) {
		rc = LINE(tg_probe_agreement_name(t->agreement));
	} else if (strcmp(name, "cuda") == 0) {
		rc = LINE(vpy(t, TG_VPY_CUDA));
	} else if (strcmp(name, "hip") == 0) {
		rc = LINE(vpy(t, TG_VPY_HIP));
	} else if (strcmp(name, "rocm") == 0) {
		rc = LINE(vpy(t, TG_VPY_ROCM));
	} else if (strcmp(name, "xpu") == 0) {
		rc = LINE(vpy(t, TG_VPY_XPU));
	} else if (strcmp(name, "git_version") == 0) {
		rc = LINE(vpy(t, TG_VPY_GIT_VERSION));
	} else if (strcmp(name, "debug") == 0) {
		const char *d = vpy(t, TG_VPY_DEBUG);

		rc = LINE(d ? (strcmp(d, "True") == 0 ? "1" : "0") : NULL);
	} else if (strcmp(name, "abi_version") == 0) {
		rc = LINE(t->abi_version);
	} else if (strcmp(name, "cxx11_abi") == 0) {
		rc = LINE(t->cxx11_abi < 0 ? NULL : t->cxx11_abi ? "1" : "0");
	} else if (strcmp(name, "cxx_standard") == 0) {
		const char *std = NULL;

		if (t->cxx_standard) {
			snprintf(tmp, sizeof(tmp), "%d", t->cxx_standard);
			std = tmp;
		}
		rc = LINE(std);
	} else if (strcmp(name, "include_dirs") == 0) {
		if (t->include_dir)
			rc = LINE(t->include_dir) ||
			     (t->api_include_dir && LINE(t->api_include_dir));
	} else if (strcmp(name, "library_dir") == 0) {
		rc = LINE(t->library_dir);
	} else if (strcmp(name, "libraries") == 0) {
		for (k = 0; !rc && k < t->nlibs; k++)
			rc = LINE(t->libs[k]);
	} else if (strcmp(name, "cmake_dir") == 0) {
		rc = LINE(t->cmake_dir);
	} else if (strcmp(name, "metadata_dir") == 0) {
		rc = LINE(t->meta_dir);
	} else if (strcmp(name, "installer") == 0) {
		rc = LINE(t->installer);
	} else if (strcmp(name, "editable") == 0) {
		rc = LINE(t->editable ? "1" : "0");
	}
#undef LINE
	if (rc)
		return tg_err_set(err, rc, "the field does not fit in memory");
	return 0;
}
