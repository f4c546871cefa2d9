/* probe_format.c - a probe written out: the format chosen, one field
 * SPDX-License-Identifier: MIT
 *
 * Every writer (probe_text.c, probe_json.c, probe_shell.c, probe_make.c,
 * probe_pc.c) appends straight through to a bounded struct tg_buf,
 * which keeps its first failure; the entry points here check it once,
 * so a report that did not fit is an error, never a truncated answer.
 */
#include "lib/render/probe_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const struct tg_torch *
tg_probe_format_chosen(const struct tg_probe_view *pv)
{
	return tg_probe_chosen(pv->probe);
}

const char *
tg_probe_format_vpy(const struct tg_torch *t, enum tg_versionpy_field f)
{
	return t->vp.f[f].set ? t->vp.f[f].s : NULL;
}

int
tg_probe_format_write(const struct tg_probe_view *pv, enum tg_probe_format fmt,
		      struct tg_buf *b, struct tg_err *err)
{
	if (fmt != TG_FMT_TEXT && fmt != TG_FMT_JSON &&
	    !tg_probe_format_chosen(pv))
		return tg_err_set(err, TG_ENOENT, "no torch found");
	if ((fmt == TG_FMT_MAKE || fmt == TG_FMT_PC) &&
	    strpbrk(tg_probe_format_chosen(pv)->dir, "\n\r"))
		return tg_err_set(err, TG_EINVAL,
				  "cannot write '%s' in a %s file: the path "
				  "holds a line break",
				  tg_probe_format_chosen(pv)->dir,
				  fmt == TG_FMT_MAKE ? "make" : "pc");
	switch (fmt) {
	case TG_FMT_JSON:
		tg_probe_json_write(pv, b);
		break;
	case TG_FMT_SHELL:
		tg_probe_shell_write(pv, b);
		break;
	case TG_FMT_MAKE:
		tg_probe_make_write(pv, b);
		break;
	case TG_FMT_PC:
		tg_probe_pc_write(pv, b);
		break;
	default:
		tg_probe_text_write(pv, b);
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
	const struct tg_torch *t = tg_probe_format_chosen(pv);
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
		line(b, tg_probe_format_vpy(t, TG_VPY_CUDA));
	} else if (strcmp(name, "hip") == 0) {
		line(b, tg_probe_format_vpy(t, TG_VPY_HIP));
	} else if (strcmp(name, "rocm") == 0) {
		line(b, tg_probe_format_vpy(t, TG_VPY_ROCM));
	} else if (strcmp(name, "xpu") == 0) {
		line(b, tg_probe_format_vpy(t, TG_VPY_XPU));
	} else if (strcmp(name, "git_version") == 0) {
		line(b, tg_probe_format_vpy(t, TG_VPY_GIT_VERSION));
	} else if (strcmp(name, "debug") == 0) {
		const char *d = tg_probe_format_vpy(t, TG_VPY_DEBUG);

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
