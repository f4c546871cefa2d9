/* probe_json.c - a probe written out as JSON
 * SPDX-License-Identifier: MIT
 *
 * The schema of torchgate-probe(1), schema_version 1: the interpreter,
 * sys.path, the torch chosen and every copy of it, what Python would
 * import, the shadowed copies, the problems and the error.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <string.h>

#include "lib/util/jsonw.h"

static void
json_copy(struct tg_jsonw *w, const struct tg_torch *t)
{
	size_t k;
	const char *dbg = tg_probe_format_vpy(t, TG_VPY_DEBUG);

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
	tg_jsonw_kstr(w, "cuda", tg_probe_format_vpy(t, TG_VPY_CUDA));
	tg_jsonw_kstr(w, "hip", tg_probe_format_vpy(t, TG_VPY_HIP));
	tg_jsonw_kstr(w, "rocm", tg_probe_format_vpy(t, TG_VPY_ROCM));
	tg_jsonw_kstr(w, "xpu", tg_probe_format_vpy(t, TG_VPY_XPU));
	tg_jsonw_kstr(w, "git_version",
		      tg_probe_format_vpy(t, TG_VPY_GIT_VERSION));
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

int
tg_probe_json_write(const struct tg_probe_view *pv, struct tg_buf *b)
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
	if (tg_probe_format_chosen(pv))
		json_copy(&w, tg_probe_format_chosen(pv));
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
	return tg_buf_error(b);
}
