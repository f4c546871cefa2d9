/* describe.c - one torch copy described from its files
 * SPDX-License-Identifier: MIT
 *
 * probe.c finds the copies on the path; this module reads, per copy, a
 * fixed set of files, each bounded: metadata headers 1 MiB, version.py
 * 64 KiB, headers and CMake files 1 MiB, dpkg's files as dpkg.c says. A
 * file that cannot be read or parsed becomes a problem of that copy
 * with the reader's one-line message; the probe goes on. Only out of
 * memory stops it (TG_ENOMEM returned).
 *
 * The version reported is the one `torch.__version__` would give
 * (version.py); without it, the metadata's (what importlib.metadata
 * gives), then the headers', then CMake's.
 */
#include "lib/torch/probe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/pyenv/direct_url.h"
#include "lib/pyenv/dpkg.h"
#include "lib/pyenv/meta.h"
#include "lib/torch/cdefine.h"
#include "lib/torch/cmake.h"
#include "lib/torch/elf.h"
#include "lib/torch/probectx.h"
#include "lib/util/buf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"

#define SMALL_MAX ((size_t)64 * 1024)
#define TEXT_MAX ((size_t)1024 * 1024)

static const char *const lib_names[] = {
    "torch",	 "torch_cpu", "c10",	   "torch_cuda", "c10_cuda",
    "torch_hip", "c10_hip",   "torch_xpu", "c10_xpu",	 "torch_python",
};

/* A problem with a file: an error (code != 0) means the answer is not
 * whole; a warning (code 0) is worth saying. */
int
tg_describe_problem(struct tg_diag_list *ps, int code, const char *fmt, ...)
{
	char msg[TG_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tg_diag_add(ps, code ? TG_SEV_ERROR : TG_SEV_WARNING, code, NULL,
			   0, 0, "probe", NULL, "%s", msg);
}

/* A reader's error as a problem of the copy; out of memory is no problem
 * of a file: it is returned, and the probe stops. */
static int
problem_err(struct tg_diag_list *ps, const struct tg_err *e)
{
	if (e->code == TG_ENOMEM)
		return TG_ENOMEM;
	return tg_describe_problem(ps, e->code ? e->code : TG_EINVAL, "%s",
				   e->msg);
}

/* As problem_err, as a warning. */
static int
warning_err(struct tg_diag_list *ps, const struct tg_err *e)
{
	if (e->code == TG_ENOMEM)
		return TG_ENOMEM;
	return tg_describe_problem(ps, 0, "%s", e->msg);
}

/* s when not NULL, else TG_ENOMEM is recorded in *rc (when still 0). */
static char *
keep(char *s, int *rc)
{
	if (!s && !*rc)
		*rc = TG_ENOMEM;
	return s;
}

/* realpath(3) of p: NULL when p cannot be resolved, which is no error;
 * out of memory is, in *rc. */
static char *
real_or_null(const char *p, int *rc)
{
	char *r;

	if (!p)
		return keep(NULL, rc);
	r = tg_path_realpath(p);
	if (!r && errno == ENOMEM)
		return keep(NULL, rc);
	return r;
}

/* Set a version source: raw is taken over. */
static int
set_source(struct tg_torch *t, enum tg_source_kind k, const char *file,
	   char *raw, int upstream)
{
	struct tg_vsource *s = &t->src[k];
	const char *p = raw;
	size_t n, b = 0, e;

	if (!raw)
		return TG_ENOMEM;
	/* the text as the file says it, without surrounding blanks (which
	 * PEP 440 ignores and which would break line-based output) */
	e = strlen(raw);
	while (raw[b] && strchr(" \t\r\n\f\v", raw[b]))
		b++;
	while (e > b && strchr(" \t\r\n\f\v", raw[e - 1]))
		e--;
	memmove(raw, raw + b, e - b);
	raw[e - b] = '\0';
	n = e - b;
	s->present = 1;
	s->file = strdup(file);
	s->raw = raw;
	if (!s->file)
		return TG_ENOMEM;
	if (upstream) {
		/* Debian: [epoch:]upstream[-revision] */
		const char *colon = strchr(p, ':'), *dash = strrchr(p, '-');

		if (colon)
			p = colon + 1;
		n = dash && dash > p ? (size_t)(dash - p) : strlen(p);
		n = tg_version_scan_prefix(p, 0, n, 0);
		if (n == (size_t)-1)
			return 0;
	}
	{
		struct tg_err perr = TG_ERR_INIT;

		s->parsed = tg_version_parse(&s->v, p, n, &perr) == 0;
		if (!s->parsed && perr.code == TG_ENOMEM)
			return TG_ENOMEM;
	}
	if (!s->parsed && !upstream)
		return tg_describe_problem(
		    &t->problems, TG_EINVAL,
		    "'%s': '%s' is not a PEP 440 version", file, TG_QUOTE(raw));
	return 0;
}

static int
read_metadata(struct tg_torch *t)
{
	struct tg_meta m = TG_META_INIT, w = TG_META_INIT;
	struct tg_err e = TG_ERR_INIT;
	char *file = NULL, *text = NULL, *p;
	const char *v;
	size_t len, i;
	int rc = 0, absent = 0, is_dist;

	is_dist = strstr(tg_path_basename(t->meta_dir), ".dist-info") != NULL;
	if (tg_path_is_dir(t->meta_dir))
		file = tg_path_join(t->meta_dir,
				    is_dist ? "METADATA" : "PKG-INFO");
	else
		file = strdup(t->meta_dir); /* an egg-info file */
	if (!file)
		return TG_ENOMEM;
	if (tg_meta_load(&m, file, &absent, &e)) {
		rc = problem_err(&t->problems, &e);
	} else if (absent) {
		rc = tg_describe_problem(
		    &t->problems, TG_EINVAL,
		    "'%s' has no %s: the torch metadata is broken", t->meta_dir,
		    is_dist ? "METADATA" : "PKG-INFO");
	} else if (!(v = tg_meta_get(&m, "Version"))) {
		rc = tg_describe_problem(&t->problems, TG_EINVAL,
					 "cannot parse '%s': no Version field",
					 file);
	} else if (!(p = strdup(v))) {
		rc = TG_ENOMEM;
	} else {
		rc = set_source(t, TG_SRC_METADATA, file, p, 0);
	}
	tg_meta_release(&m);
	free(file);
	if (rc || !is_dist)
		return rc;

	/* INSTALLER: one line */
	file = tg_path_join(t->meta_dir, "INSTALLER");
	if (!file)
		return TG_ENOMEM;
	if (tg_file_read(file, SMALL_MAX, &text, &len, &absent, &e))
		rc = warning_err(&t->problems, &e);
	else if (text) {
		len = strcspn(text, "\r\n");
		while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
			len--;
		text[len] = '\0';
		t->installer = text;
		text = NULL;
	}
	free(file);
	/* WHEEL: Tag fields */
	file = tg_path_join(t->meta_dir, "WHEEL");
	if (!file)
		return TG_ENOMEM;
	if (!rc && tg_meta_load(&w, file, &absent, &e) == 0) {
		size_t n = 0;

		for (i = 0; tg_meta_next(&w, "Tag", &i); i++)
			n++;
		t->tags = calloc(n + 1, sizeof(*t->tags));
		if (!t->tags)
			rc = TG_ENOMEM;
		for (i = 0; !rc && (v = tg_meta_next(&w, "Tag", &i)); i++)
			if (!(t->tags[t->ntags++] = strdup(v)))
				rc = TG_ENOMEM;
	} else if (!rc && !absent) {
		rc = warning_err(&t->problems, &e);
	}
	tg_meta_release(&w);
	free(file);
	/* RECORD */
	file = tg_path_join(t->meta_dir, "RECORD");
	if (!file)
		return TG_ENOMEM;
	t->has_record = tg_path_is_file(file);
	free(file);
	/* direct_url.json (PEP 610) */
	file = tg_path_join(t->meta_dir, "direct_url.json");
	if (!file)
		return TG_ENOMEM;
	if (!rc && tg_file_read(file, SMALL_MAX, &text, &len, &absent, &e))
		rc = warning_err(&t->problems, &e);
	else if (!rc && text &&
		 tg_direct_url_parse(text, len, file, &t->direct_url,
				     &t->direct_url_kind, &e))
		rc = warning_err(&t->problems, &e);
	if (t->direct_url_kind && strcmp(t->direct_url_kind, "editable") == 0) {
		t->editable = 1;
		free(t->editable_via); /* direct_url.json says it best */
		t->editable_via = file;
		file = NULL;
	}
	free(text);
	free(file);
	return rc;
}

static int
read_version_py(struct tg_torch *t)
{
	struct tg_err e = TG_ERR_INIT;
	char *file = tg_path_join(t->dir, "version.py"), *v;
	int absent = 0, rc = 0;

	if (!file)
		return TG_ENOMEM;
	if (tg_versionpy_load(&t->vp, file, &absent, &e))
		rc = problem_err(&t->problems, &e);
	else if (!absent && t->vp.f[TG_VPY_VERSION].set) {
		if (!t->vp.f[TG_VPY_VERSION].s)
			rc = tg_describe_problem(
			    &t->problems, TG_EINVAL,
			    "cannot parse '%s': __version__ is None", file);
		else if (!(v = strdup(t->vp.f[TG_VPY_VERSION].s)))
			rc = TG_ENOMEM;
		else
			rc = set_source(t, TG_SRC_VERSION_PY, file, v, 0);
	} else if (!absent) {
		rc = tg_describe_problem(&t->problems, TG_EINVAL,
					 "cannot parse '%s': no __version__",
					 file);
	}
	free(file);
	return rc;
}

/* A version.h: TORCH_VERSION_MAJOR/MINOR/PATCH. A file that only
 * forwards to another header (2.11's csrc/api version.h) is no source. */
static int
read_version_h(struct tg_torch *t, enum tg_source_kind k, const char *rel)
{
	struct tg_err e = TG_ERR_INIT;
	char *file = tg_path_join(t->include_dir, rel), *text = NULL, *str;
	size_t len;
	long maj, min, pat, tag;
	int absent = 0, rc = 0, n;
	char ver[96];

	if (!file)
		return TG_ENOMEM;
	if (tg_file_read(file, TEXT_MAX, &text, &len, &absent, &e)) {
		rc = problem_err(&t->problems, &e);
		goto out;
	}
	if (absent)
		goto out;
	if (tg_cdefine_check(text, len, file, &e)) {
		rc = problem_err(&t->problems, &e);
		goto out;
	}
	{
		int a = tg_cdefine_int(text, len, "TORCH_VERSION_MAJOR", &maj),
		    b = tg_cdefine_int(text, len, "TORCH_VERSION_MINOR", &min),
		    c = tg_cdefine_int(text, len, "TORCH_VERSION_PATCH", &pat);

		if (a == TG_ENOMEM || b == TG_ENOMEM || c == TG_ENOMEM) {
			rc = TG_ENOMEM;
			goto out;
		}
		n = (a == 0) + (b == 0) + (c == 0);
	}
	if (n == 0) {
		int found;
		char *m =
		    tg_cdefine_get(text, len, "TORCH_VERSION_MAJOR", &found);

		if (!m && found) {
			rc = TG_ENOMEM;
			goto out;
		}
		free(m);
		if (found)
			rc = tg_describe_problem(
			    &t->problems, TG_EINVAL,
			    "cannot parse '%s': TORCH_VERSION_MAJOR "
			    "is not a number",
			    file);
		goto out;
	}
	if (n != 3) {
		rc = tg_describe_problem(
		    &t->problems, TG_EINVAL,
		    "cannot parse '%s': TORCH_VERSION_MAJOR, _MINOR "
		    "and _PATCH are not all plain numbers",
		    file);
		goto out;
	}
	snprintf(ver, sizeof(ver), "%ld.%ld.%ld", maj, min, pat);
	errno = 0;
	str = tg_cdefine_string(text, len, "TORCH_VERSION");
	if (!str && errno == ENOMEM) {
		rc = TG_ENOMEM;
		goto out;
	}
	if (str && strcmp(str, ver) != 0)
		rc = tg_describe_problem(
		    &t->problems, 0,
		    "'%s': TORCH_VERSION \"%s\" disagrees with "
		    "MAJOR.MINOR.PATCH %s",
		    file, TG_QUOTE(str), ver);
	free(str);
	/* TORCH_ABI_VERSION (2.9 on): MAJOR<<56 | MINOR<<48 | PATCH<<40 |
	 * ABI_TAG, as the header computes it */
	if (!rc && !t->abi_version) {
		int r = tg_cdefine_int(text, len, "TORCH_VERSION_ABI_TAG",
				       &tag),
		    found = 0;
		char *abi = NULL, hex[32];

		if (r == 0) {
			abi = tg_cdefine_get(text, len, "TORCH_ABI_VERSION",
					     &found);
			if (!abi && found)
				r = TG_ENOMEM;
			free(abi);
		}
		if (r == TG_ENOMEM) {
			rc = TG_ENOMEM;
		} else if (r == 0 && found && maj < 256 && min < 256 &&
			   pat < 256 && tag < (1L << 40)) {
			snprintf(hex, sizeof(hex), "0x%016llx",
				 ((unsigned long long)maj << 56) |
				     ((unsigned long long)min << 48) |
				     ((unsigned long long)pat << 40) |
				     (unsigned long long)tag);
			t->abi_version = keep(strdup(hex), &rc);
		}
	}
	if (!rc)
		rc = set_source(t, k, file, strdup(ver), 0);
out:
	free(text);
	free(file);
	return rc;
}

/* N of "__cplusplus < N" in the torch headers that demand a standard,
 * in t->cxx_standard; a header that cannot be read is left out. */
static int
header_cxx_standard(struct tg_torch *t)
{
	static const char *const files[] = {
	    "c10/macros/Macros.h",
	    "c10/util/C++17.h",
	    "torch/headeronly/macros/Macros.h",
	};
	size_t k;
	int best = 0, rc = 0;

	for (k = 0; k < sizeof(files) / sizeof(files[0]) && !rc; k++) {
		struct tg_err e = TG_ERR_INIT;
		char *file = keep(tg_path_join(t->include_dir, files[k]), &rc);
		char *text = NULL, *p;
		size_t len;

		if (file &&
		    tg_file_read(file, TEXT_MAX, &text, &len, NULL, &e) != 0 &&
		    e.code == TG_ENOMEM)
			rc = TG_ENOMEM;
		if (file && text) {
			for (p = text; (p = strstr(p, "__cplusplus < ")); p++) {
				long v = strtol(p + 14, NULL, 10);
				int std = v == 201103	? 11
					  : v == 201402 ? 14
					  : v == 201703 ? 17
					  : v == 202002 ? 20
					  : v == 202302 ? 23
							: 0;

				if (std > best) {
					best = std;
					free(t->cxx_standard_evidence);
					t->cxx_standard_evidence =
					    keep(strdup(file), &rc);
				}
			}
		}
		free(text);
		free(file);
	}
	t->cxx_standard = best;
	return rc;
}

static int
read_cmake(struct tg_torch *t)
{
	struct tg_err e = TG_ERR_INIT;
	char *file, *text = NULL, *v;
	size_t len;
	int absent = 0, rc = 0;

	file = tg_path_join(t->cmake_dir, "TorchConfigVersion.cmake");
	if (!file)
		return TG_ENOMEM;
	if (tg_file_read(file, TEXT_MAX, &text, &len, &absent, &e) ||
	    (text && tg_cmake_check(text, len, file, &e)))
		rc = problem_err(&t->problems, &e);
	else if (text && (v = tg_cmake_set_value(text, len, "PACKAGE_VERSION")))
		rc = set_source(t, TG_SRC_CMAKE, file, v, 0);
	else if (text && errno == ENOMEM)
		rc = TG_ENOMEM;
	else if (text)
		rc = tg_describe_problem(
		    &t->problems, TG_EINVAL,
		    "cannot parse '%s': no set(PACKAGE_VERSION ...)", file);
	free(text);
	text = NULL;
	free(file);
	if (rc)
		return rc;
	file = tg_path_join(t->cmake_dir, "TorchConfig.cmake");
	if (!file)
		return TG_ENOMEM;
	if (tg_file_read(file, TEXT_MAX, &text, &len, &absent, &e)) {
		rc = problem_err(&t->problems, &e);
	} else if (text) {
		int std = tg_cmake_cxx_standard(text, len);

		v = tg_cmake_set_value(text, len, "TORCH_CXX_FLAGS");
		if (!v && errno == ENOMEM)
			rc = TG_ENOMEM;
		if (v && tg_cmake_cxx11_abi(v) >= 0) {
			char ev[4300];

			t->cxx11_abi = tg_cmake_cxx11_abi(v);
			snprintf(ev, sizeof(ev), "%s: TORCH_CXX_FLAGS \"%s\"",
				 file, v);
			t->cxx11_abi_evidence = keep(strdup(ev), &rc);
		}
		free(v);
		if (std) {
			t->cxx_standard = std;
			t->cxx_standard_evidence = keep(strdup(file), &rc);
		}
	}
	free(text);
	free(file);
	return rc;
}

static int
find_libs(struct tg_torch *t)
{
	size_t k, n = sizeof(lib_names) / sizeof(lib_names[0]);
	char name[64], *p;

	t->libs = calloc(n, sizeof(*t->libs));
	if (!t->libs)
		return TG_ENOMEM;
	for (k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "lib%s.so", lib_names[k]);
		p = tg_path_join(t->library_dir, name);
		if (!p)
			return TG_ENOMEM;
		if (tg_path_exists(p)) {
			t->libs[t->nlibs++] = (char *)lib_names[k];
			if (!t->library_real) {
				int rc = 0;
				char *r = real_or_null(p, &rc);

				t->library_real =
				    r ? keep(tg_path_dirname(r), &rc) : NULL;
				free(r);
				if (rc) {
					free(p);
					return rc;
				}
			}
		}
		free(p);
	}
	return 0;
}

/* Whether find_libs found file (libNAME.so) in t's library dir. */
static int
has_lib(const struct tg_torch *t, const char *file)
{
	size_t k, l = strlen(file);

	for (k = 0; k < t->nlibs; k++)
		if (l == strlen(t->libs[k]) + 6 &&
		    strncmp(file, "lib", 3) == 0 &&
		    strncmp(file + 3, t->libs[k], l - 6) == 0 &&
		    strcmp(file + l - 3, ".so") == 0)
			return 1;
	return 0;
}

static int
find_abi_in_libs(struct tg_torch *t)
{
	static const char *const probes[] = {"libc10.so", "libtorch_cpu.so"};
	size_t k;

	for (k = 0; k < 2; k++) {
		char *p = tg_path_join(t->library_dir, probes[k]);
		struct tg_err e = TG_ERR_INIT;
		int r;

		if (!p)
			return TG_ENOMEM;
		/* find_libs stat'ed it a moment ago */
		if (!has_lib(t, probes[k])) {
			free(p);
			continue;
		}
		r = tg_elf_uses_cxx11_abi(p, &e);
		if (r == 1) {
			char ev[4300];

			snprintf(ev, sizeof(ev),
				 "%s: exports std::__cxx11 symbols", p);
			t->cxx11_abi = 1;
			t->cxx11_abi_evidence = strdup(ev);
			r = t->cxx11_abi_evidence ? 0 : TG_ENOMEM;
		} else if (r < 0) {
			r = warning_err(&t->problems, &e);
		}
		free(p);
		return r;
	}
	return 0;
}

static int
is_dir_at(const char *base, const char *rel, char **out)
{
	char *p = tg_path_join(base, rel);

	*out = NULL;
	if (!p)
		return TG_ENOMEM;
	if (tg_path_is_dir(p))
		*out = p;
	else
		free(p);
	return 0;
}

int
tg_describe_same_series(const struct tg_version *a, const struct tg_version *b)
{
	static const struct tg_num zero = {"0", 1};

	return tg_version_num_cmp(a->release[0], b->release[0]) == 0 &&
	       tg_version_num_cmp(a->nrelease > 1 ? a->release[1] : zero,
				  b->nrelease > 1 ? b->release[1] : zero) == 0;
}

/* Pick the reported version and say whether the sources agree. */
static void
settle_version(struct tg_torch *t)
{
	static const enum tg_source_kind order[] = {
	    TG_SRC_VERSION_PY, TG_SRC_METADATA, TG_SRC_HEADERONLY,
	    TG_SRC_VERSION_H,  TG_SRC_CMAKE,
	};
	const struct tg_version *first = NULL;
	size_t k;

	t->version = NULL;
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		if (t->src[order[k]].present && t->src[order[k]].parsed) {
			t->version_from = order[k];
			t->version = t->src[order[k]].raw;
			break;
		}
	t->agreement = TG_AGREE;
	for (k = 0; k < TG_SRC_N; k++) {
		const struct tg_version *v = &t->src[k].v;

		if (!t->src[k].present || !t->src[k].parsed)
			continue;
		if (!first) {
			first = v;
			continue;
		}
		if (!tg_describe_same_series(v, first))
			t->agreement = TG_CONFLICT;
		else if (t->agreement == TG_AGREE &&
			 strcmp(v->str, first->str) != 0)
			t->agreement = TG_DIFFER;
	}
}

int
tg_describe_copy(struct tg_torch *t, const struct tg_syspath *sp,
		 const struct tg_probe_opts *opts)
{
	char *p = NULL, *real = NULL;
	int rc = 0;

	t->cxx11_abi = -1;
	if (t->meta_dir && (rc = read_metadata(t)))
		return rc;
	if ((rc = read_version_py(t)))
		return rc;
	/* headers */
	if ((rc = is_dir_at(t->dir, "include", &t->include_dir)))
		return rc;
	if (t->include_dir) {
		if ((rc = is_dir_at(t->include_dir, "torch/csrc/api/include",
				    &t->api_include_dir)))
			return rc;
		p = tg_path_join(t->include_dir, "torch");
		real = real_or_null(p, &rc);
		t->include_real =
		    real ? keep(tg_path_dirname(real), &rc) : NULL;
		free(real);
		free(p);
		if (rc)
			return rc;
		if ((rc = read_version_h(t, TG_SRC_VERSION_H,
					 "torch/csrc/api/include/torch/"
					 "version.h")) ||
		    (rc = read_version_h(t, TG_SRC_HEADERONLY,
					 "torch/headeronly/version.h")))
			return rc;
	}
	/* libraries */
	if ((rc = is_dir_at(t->dir, "lib", &t->library_dir)))
		return rc;
	if (t->library_dir && (rc = find_libs(t)))
		return rc;
	/* CMake: in the package, else beside the real libraries (Debian) */
	if ((rc = is_dir_at(t->dir, "share/cmake/Torch", &t->cmake_dir)))
		return rc;
	if (!t->cmake_dir && t->library_real &&
	    (rc = is_dir_at(t->library_real, "cmake/Torch", &t->cmake_dir)))
		return rc;
	if (t->cmake_dir && (rc = read_cmake(t)))
		return rc;
	if (t->cxx11_abi < 0 && t->library_dir && (rc = find_abi_in_libs(t)))
		return rc;
	if (!t->cxx_standard && t->include_dir && (rc = header_cxx_standard(t)))
		return rc;
	/* dpkg, for a torch under /usr */
	p = tg_path_join(t->dir, "version.py");
	real = real_or_null(p, &rc);
	if (real && strncmp(real, "/usr/", 5) == 0) {
		struct tg_err e = TG_ERR_INIT;
		const char *admin = opts && opts->dpkg_admindir
					? opts->dpkg_admindir
					: TG_DPKG_ADMINDIR;
		char *ver = NULL, status[4200];

		if (tg_path_fmt(status, sizeof(status), &e, "%s/status",
				admin) ||
		    tg_dpkg_version_of(admin, "python3-torch", real, &ver, &e))
			rc = warning_err(&t->problems, &e);
		else if (ver)
			rc = set_source(t, TG_SRC_DPKG, status, ver, 1);
	}
	free(real);
	free(p);
	if (rc)
		return rc;
	/* editable: a .pth line put this directory on the path */
	if (!t->editable && t->entry_index < sp->n &&
	    sp->e[t->entry_index].origin == TG_ORIGIN_PTH) {
		char via[4300];

		snprintf(via, sizeof(via), "%s line %zu",
			 sp->e[t->entry_index].pth,
			 sp->e[t->entry_index].pth_line);
		t->editable = 1;
		t->editable_via = strdup(via);
		if (!t->editable_via)
			return TG_ENOMEM;
	}
	settle_version(t);
	if (!t->version && !tg_probe_first_error(t))
		rc =
		    tg_describe_problem(&t->problems, TG_EINVAL,
					"'%s': no version source (no metadata, "
					"version.py, headers or CMake files)",
					t->dir);
	return rc;
}
