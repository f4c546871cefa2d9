/* probe.c - the torch installed in an environment, from its files
 * SPDX-License-Identifier: MIT
 *
 * One pass over the path: each entry is listed once (readdir) to spot a
 * "torch" directory and torch's metadata directory. Then, per copy, a
 * fixed set of files is read, each bounded: metadata headers 1 MiB,
 * version.py 64 KiB, headers and CMake files 1 MiB, dpkg's files as
 * dpkg.c says. A file that cannot be read or parsed becomes a problem of
 * that copy with the reader's one-line message; the probe goes on.
 *
 * The version reported is the one `torch.__version__` would give
 * (version.py); without it, the metadata's (what importlib.metadata
 * gives), then the headers', then CMake's.
 */
#include "lib/torch/probe.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util/buf.h"
#include "lib/torch/cdefine.h"
#include "lib/torch/cmake.h"
#include "lib/pyenv/dpkg.h"
#include "lib/pyenv/editable.h"
#include "lib/torch/elf.h"
#include "lib/util/file.h"
#include "lib/util/path.h"
#include "lib/util/str.h"
#include "lib/pyenv/direct_url.h"
#include "lib/pyenv/meta.h"

#define SMALL_MAX ((size_t)64 * 1024)
#define TEXT_MAX ((size_t)1024 * 1024)

static const char *const source_names[TG_SRC_N] = {
    "metadata", "version.py", "version.h", "headeronly/version.h",
    "cmake",	"dpkg",
};

const char *
tg_probe_source_name(enum tg_source_kind k)
{
	return source_names[k];
}

const char *
tg_probe_agreement_name(enum tg_agreement a)
{
	return a == TG_AGREE ? "agree" : a == TG_DIFFER ? "differ" : "conflict";
}

static const char *const lib_names[] = {
    "torch",	 "torch_cpu", "c10",	   "torch_cuda", "c10_cuda",
    "torch_hip", "c10_hip",   "torch_xpu", "c10_xpu",	 "torch_python",
};

/* A problem with a file: an error (code != 0) means the answer is not
 * whole; a warning (code 0) is worth saying. */
static int problem(struct tg_diag_list *ps, int code, const char *fmt, ...)
    TG_PRINTF(3, 4);

static int
problem(struct tg_diag_list *ps, int code, const char *fmt, ...)
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
	return problem(ps, e->code ? e->code : TG_EINVAL, "%s", e->msg);
}

/* As problem_err, as a warning. */
static int
warning_err(struct tg_diag_list *ps, const struct tg_err *e)
{
	if (e->code == TG_ENOMEM)
		return TG_ENOMEM;
	return problem(ps, 0, "%s", e->msg);
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
	r = realpath(p, NULL);
	if (!r && errno == ENOMEM)
		return keep(NULL, rc);
	return r;
}

const struct tg_diag *
tg_probe_first_error(const struct tg_torch *t)
{
	return tg_diag_first_error(&t->problems);
}

static void
torch_release(struct tg_torch *t)
{
	size_t k;

	free(t->dir);
	free(t->entry);
	free(t->meta_dir);
	free(t->installer);
	for (k = 0; k < t->ntags; k++)
		free(t->tags[k]);
	free(t->tags);
	free(t->direct_url);
	free(t->direct_url_kind);
	free(t->editable_via);
	for (k = 0; k < TG_SRC_N; k++) {
		free(t->src[k].file);
		free(t->src[k].raw);
		tg_version_release(&t->src[k].v);
	}
	tg_versionpy_release(&t->vp);
	free(t->abi_version);
	free(t->cxx11_abi_evidence);
	free(t->cxx_standard_evidence);
	free(t->include_dir);
	free(t->api_include_dir);
	free(t->include_real);
	free(t->library_dir);
	free(t->library_real);
	free(t->cmake_dir);
	free(t->libs);
	tg_diag_list_release(&t->problems);
}

void
tg_probe_release(struct tg_probe *pr)
{
	size_t k;

	for (k = 0; k < pr->ncopies; k++)
		torch_release(&pr->copies[k]);
	free(pr->copies);
	free(pr->module);
	for (k = 0; k < TG_PROBE_MAX_PORTIONS; k++)
		free(pr->portions[k]);
	tg_diag_list_release(&pr->problems);
	memset(pr, 0, sizeof(*pr));
}

static char *
join(const char *a, const char *b)
{
	return tg_path_join(a, b);
}

/* 1 when a dist-info/egg-info directory name is torch's */
static int
is_torch_meta(const char *name)
{
	size_t l = strlen(name), n, k;
	char norm[64];
	size_t w = 0;

	if (l > 10 && strcasecmp(name + l - 10, ".dist-info") == 0)
		n = l - 10;
	else if (l > 9 && strcasecmp(name + l - 9, ".egg-info") == 0)
		n = l - 9;
	else
		return 0;
	for (k = 0; k < n && name[k] != '-'; k++) {
		char c = name[k];

		if (w >= sizeof(norm) - 1)
			return 0;
		if (c == '-' || c == '_' || c == '.') {
			if (w == 0 || norm[w - 1] != '_')
				norm[w++] = '_';
			continue;
		}
		norm[w++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	norm[w] = '\0';
	return strcmp(norm, "torch") == 0;
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
		return problem(&t->problems, TG_EINVAL,
			       "'%s': '%s' is not a PEP 440 version", file,
			       TG_QUOTE(raw));
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
		file = join(t->meta_dir, is_dist ? "METADATA" : "PKG-INFO");
	else
		file = strdup(t->meta_dir); /* an egg-info file */
	if (!file)
		return TG_ENOMEM;
	if (tg_meta_load(&m, file, &absent, &e)) {
		rc = problem_err(&t->problems, &e);
	} else if (absent) {
		rc = problem(&t->problems, TG_EINVAL,
			     "'%s' has no %s: the torch metadata is broken",
			     t->meta_dir, is_dist ? "METADATA" : "PKG-INFO");
	} else if (!(v = tg_meta_get(&m, "Version"))) {
		rc = problem(&t->problems, TG_EINVAL,
			     "cannot parse '%s': no Version field", file);
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
	file = join(t->meta_dir, "INSTALLER");
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
	file = join(t->meta_dir, "WHEEL");
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
	file = join(t->meta_dir, "RECORD");
	if (!file)
		return TG_ENOMEM;
	t->has_record = tg_path_is_file(file);
	free(file);
	/* direct_url.json (PEP 610) */
	file = join(t->meta_dir, "direct_url.json");
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
	char *file = join(t->dir, "version.py"), *v;
	int absent = 0, rc = 0;

	if (!file)
		return TG_ENOMEM;
	if (tg_versionpy_load(&t->vp, file, &absent, &e))
		rc = problem_err(&t->problems, &e);
	else if (!absent && t->vp.f[TG_VPY_VERSION].set) {
		if (!t->vp.f[TG_VPY_VERSION].s)
			rc = problem(&t->problems, TG_EINVAL,
				     "cannot parse '%s': __version__ is None",
				     file);
		else if (!(v = strdup(t->vp.f[TG_VPY_VERSION].s)))
			rc = TG_ENOMEM;
		else
			rc = set_source(t, TG_SRC_VERSION_PY, file, v, 0);
	} else if (!absent) {
		rc = problem(&t->problems, TG_EINVAL,
			     "cannot parse '%s': no __version__", file);
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
	char *file = join(t->include_dir, rel), *text = NULL, *str;
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
			rc = problem(&t->problems, TG_EINVAL,
				     "cannot parse '%s': TORCH_VERSION_MAJOR "
				     "is not a number",
				     file);
		goto out;
	}
	if (n != 3) {
		rc = problem(&t->problems, TG_EINVAL,
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
		rc = problem(&t->problems, 0,
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
		char *file = keep(join(t->include_dir, files[k]), &rc);
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

	file = join(t->cmake_dir, "TorchConfigVersion.cmake");
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
		rc = problem(&t->problems, TG_EINVAL,
			     "cannot parse '%s': no set(PACKAGE_VERSION ...)",
			     file);
	free(text);
	text = NULL;
	free(file);
	if (rc)
		return rc;
	file = join(t->cmake_dir, "TorchConfig.cmake");
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
		p = join(t->library_dir, name);
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

static int
find_abi_in_libs(struct tg_torch *t)
{
	static const char *const probes[] = {"libc10.so", "libtorch_cpu.so"};
	size_t k;

	for (k = 0; k < 2; k++) {
		char *p = join(t->library_dir, probes[k]);
		struct tg_err e = TG_ERR_INIT;
		int r;

		if (!p)
			return TG_ENOMEM;
		if (!tg_path_exists(p)) {
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
	char *p = join(base, rel);

	*out = NULL;
	if (!p)
		return TG_ENOMEM;
	if (tg_path_is_dir(p))
		*out = p;
	else
		free(p);
	return 0;
}

static int
same_series(const struct tg_version *a, const struct tg_version *b)
{
	static const struct tg_num zero = {"0", 1};

	return tg_version_num_cmp(a->release[0], b->release[0]) == 0 &&
	       tg_version_num_cmp(a->nrelease > 1 ? a->release[1] : zero,
				  b->nrelease > 1 ? b->release[1] : zero) == 0;
}

int
tg_probe_conflict(const struct tg_torch *t, enum tg_source_kind *other)
{
	size_t k;

	if (!t->version)
		return 0;
	for (k = 0; k < TG_SRC_N; k++)
		if (t->src[k].present && t->src[k].parsed &&
		    !same_series(&t->src[k].v, &t->src[t->version_from].v)) {
			*other = (enum tg_source_kind)k;
			return 1;
		}
	return 0;
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
		if (!same_series(v, first))
			t->agreement = TG_CONFLICT;
		else if (t->agreement == TG_AGREE &&
			 strcmp(v->str, first->str) != 0)
			t->agreement = TG_DIFFER;
	}
}

static int
describe_copy(struct tg_torch *t, const struct tg_syspath *sp,
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
		p = join(t->include_dir, "torch");
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
	p = join(t->dir, "version.py");
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
		rc = problem(&t->problems, TG_EINVAL,
			     "'%s': no version source (no metadata, "
			     "version.py, headers or CMake files)",
			     t->dir);
	return rc;
}

static int
add_copy(struct tg_probe *pr, const char *entry, const char *dir, size_t index,
	 const char *meta)
{
	struct tg_torch *t;
	void *p = realloc(pr->copies, (pr->ncopies + 1) * sizeof(*pr->copies));

	if (!p)
		return TG_ENOMEM;
	pr->copies = p;
	t = &pr->copies[pr->ncopies++];
	memset(t, 0, sizeof(*t));
	t->entry = strdup(entry);
	t->dir = dir ? strdup(dir) : join(entry, "torch");
	t->entry_index = index;
	t->meta_dir = meta ? join(entry, meta) : NULL;
	if (!t->entry || !t->dir || (meta && !t->meta_dir))
		return TG_ENOMEM;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The import suffixes in the path finder's order: extension modules
 * (the interpreter's own suffix, then .abi3.so and .so), source,
 * bytecode. s[0] is NULL when the interpreter's suffix is unknown. */
struct suffixes {
	const char *s[5];
};

static void
suffixes_init(struct suffixes *sf, const struct tg_probe_opts *opts)
{
	sf->s[0] = opts ? opts->ext_suffix : NULL;
	sf->s[1] = ".abi3.so";
	sf->s[2] = ".so";
	sf->s[3] = ".py";
	sf->s[4] = ".pyc";
}

/* The rank of "torch" + suffix name among sf (0 first), or -1 when name
 * is no torch module. Without the interpreter's suffix, any
 * torch.cpython-*.so is taken for it. */
static int
module_rank(const struct suffixes *sf, const char *name)
{
	const char *suf;
	size_t l;
	int k;

	if (strncmp(name, "torch.", 6) != 0)
		return -1;
	suf = name + 5;
	for (k = 0; k < 5; k++)
		if (sf->s[k] && strcmp(suf, sf->s[k]) == 0)
			return k;
	l = strlen(suf);
	if (!sf->s[0] && strncmp(suf, ".cpython-", 9) == 0 && l > 12 &&
	    strcmp(suf + l - 3, ".so") == 0 &&
	    strchr(suf + 1, '.') == suf + l - 3)
		return 0;
	return -1;
}

/* One readdir of a path entry: is there a "torch", the best torch module
 * file (*module, a new string, or NULL), and torch's metadata directory
 * (*meta, a new string, or NULL)? Several metadata directories
 * are a broken install: importlib.metadata would take whichever the
 * directory lists first, so this takes the first in sorted order and says
 * so in ps (when not NULL). */
static int
scan_entry(struct tg_diag_list *ps, const char *entry,
	   const struct suffixes *sf, int *has_torch, char **module,
	   char **meta)
{
	DIR *d = opendir(entry);
	struct dirent *de;
	char *names[8];
	size_t n = 0, k;
	int rc = 0, more = 0, best = 5, r;

	*has_torch = 0;
	*meta = NULL;
	if (module)
		*module = NULL;
	if (!d) {
		if (errno == ENOMEM)
			return TG_ENOMEM;
		if (ps && errno != ENOENT && errno != ENOTDIR)
			rc = problem(ps, 0, "cannot list '%s': %s", entry,
				     strerror(errno));
		return rc;
	}
	while (!rc && (de = readdir(d))) {
		if (strcmp(de->d_name, "torch") == 0)
			*has_torch = 1;
		else if (module && (r = module_rank(sf, de->d_name)) >= 0 &&
			 r < best) {
			char *f = join(entry, de->d_name);

			/* the path finder takes a file, not a directory */
			if (f && tg_path_is_file(f)) {
				best = r;
				free(*module);
				*module = f;
			} else {
				rc = f ? 0 : TG_ENOMEM;
				free(f);
			}
		} else if (is_torch_meta(de->d_name) && n == 8)
			more = 1;
		else if (is_torch_meta(de->d_name))
			rc = (names[n++] = strdup(de->d_name)) ? 0 : TG_ENOMEM;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	if (!rc && ps && n > 1)
		rc =
		    problem(ps, 0,
			    "'%s' holds %s torch metadata directories "
			    "('%s', '%s'%s): importlib.metadata reads "
			    "whichever the file system lists first; torchgate "
			    "reads '%s'",
			    entry,
			    more     ? "more than 8"
			    : n == 2 ? "two"
				     : "several",
			    names[0], names[1], n > 2 ? ", ..." : "", names[0]);
	if (n)
		*meta = names[0];
	for (k = 1; k < n; k++)
		free(names[k]);
	if (rc) {
		free(*meta);
		*meta = NULL;
		if (module) {
			free(*module);
			*module = NULL;
		}
	}
	return rc;
}

/* Whether tdir is a regular torch package: a directory with __init__ and
 * one of the import suffixes (one that cannot be searched counts, to
 * report it). *dir says whether it is a directory at all (a namespace
 * portion when not a package). */
static int
is_package(struct tg_diag_list *ps, const char *tdir, const struct suffixes *sf,
	   int *yes, int *dir)
{
	struct stat st;
	char init[4200];
	int k;

	*yes = 0;
	if (dir)
		*dir = 0;
	if (stat(tdir, &st) != 0)
		return problem(ps, 0, "cannot read '%s': %s", tdir,
			       strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return 0;
	if (dir)
		*dir = 1;
	for (k = 0; k < 5 && !*yes; k++) {
		if (!sf->s[k] || tg_path_fmt(init, sizeof(init), NULL,
					     "%s/__init__%s", tdir, sf->s[k]))
			continue;
		if (stat(init, &st) == 0 ? S_ISREG(st.st_mode)
					 : errno == EACCES)
			*yes = 1;
	}
	return 0;
}

/* Copies that an editable finder maps (after every path entry). */
static int
add_finder_copies(struct tg_probe *pr, const struct tg_syspath *sp,
		  const struct suffixes *sf)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < sp->skipped.n && !rc; k++) {
		struct tg_err e = TG_ERR_INIT;
		char *dir = NULL, *finder = NULL, *site = NULL, *meta = NULL;
		int yes = 0, has_torch;

		if (tg_editable_lookup(sp->skipped.v[k].path,
				       sp->skipped.v[k].snippet, "torch", &dir,
				       &finder, &e)) {
			rc = e.code == TG_ENOMEM
				 ? TG_ENOMEM
				 : problem(&pr->problems, 0, "%s", e.msg);
			continue;
		}
		if (dir) {
			size_t j;

			rc = is_package(&pr->problems, dir, sf, &yes, NULL);
			for (j = 0; j < pr->ncopies; j++)
				if (strcmp(pr->copies[j].dir, dir) == 0)
					yes = 0; /* already found */
		}
		if (!rc && yes) {
			site = tg_path_dirname(sp->skipped.v[k].path);
			rc = site ? scan_entry(NULL, site, sf, &has_torch, NULL,
					       &meta)
				  : TG_ENOMEM;
		}
		if (!rc && yes)
			rc = add_copy(pr, site, dir, (size_t)-1, meta);
		if (!rc && yes) {
			struct tg_torch *t = &pr->copies[pr->ncopies - 1];

			t->editable = 1;
			t->editable_via = finder;
			finder = NULL;
		}
		free(dir);
		free(finder);
		free(site);
		free(meta);
	}
	return rc;
}

/* A torch in the current directory: `python -c` and the REPL put it
 * first (sys.path[0] is ''), ahead of everything reported here. */
static int
check_cwd(struct tg_probe *pr, const char *cwd, const struct suffixes *sf)
{
	const struct tg_torch *t = tg_probe_chosen(pr);
	char *module = NULL, *meta = NULL, *tdir = NULL;
	const char *what = NULL;
	int has_torch = 0, yes = 0, rc;

	rc = scan_entry(NULL, cwd, sf, &has_torch, &module, &meta);
	if (!rc && has_torch) {
		tdir = join(cwd, "torch");
		rc = tdir ? is_package(&pr->problems, tdir, sf, &yes, NULL)
			  : TG_ENOMEM;
	}
	if (!rc)
		what = yes ? tdir : module;
	if (what && !(t && strcmp(t->dir, what) == 0) &&
	    !(pr->module && strcmp(pr->module, what) == 0))
		rc = problem(&pr->problems, 0,
			     "the current directory holds '%s': 'python -c "
			     "\"import torch\"' run here imports it "
			     "(sys.path[0] is the current directory); this "
			     "report is for sys.path[1:]",
			     what);
	free(module);
	free(meta);
	free(tdir);
	return rc;
}

/* importlib.metadata.version("torch") reads the first torch metadata on
 * the path; say so when that is not the imported copy's and its version
 * differs. */
static int
check_metadata(struct tg_probe *pr, const char *first_meta)
{
	const struct tg_torch *t = tg_probe_chosen(pr);
	struct tg_meta m = TG_META_INIT;
	struct tg_err e = TG_ERR_INIT;
	char *file;
	const char *v;
	int absent = 0, rc = 0, is_dist;

	if (!t || !first_meta || !t->meta_dir || !t->version ||
	    strcmp(t->meta_dir, first_meta) == 0)
		return 0;
	is_dist = strstr(tg_path_basename(first_meta), ".dist-info") != NULL;
	if (tg_path_is_dir(first_meta))
		file = join(first_meta, is_dist ? "METADATA" : "PKG-INFO");
	else
		file = strdup(first_meta);
	if (!file)
		return TG_ENOMEM;
	if (tg_meta_load(&m, file, &absent, &e) == 0 && !absent &&
	    (v = tg_meta_get(&m, "Version")) && strcmp(v, t->version) != 0)
		rc = problem(&pr->problems, 0,
			     "importlib.metadata.version(\"torch\") gives %s "
			     "(from '%s') while 'import torch' gives %s (from "
			     "'%s'): tools that read metadata (pip, "
			     "packaging) see another torch",
			     TG_QUOTE(v), first_meta, t->version, t->dir);
	else if (e.code == TG_ENOMEM)
		rc = TG_ENOMEM;
	tg_meta_release(&m);
	free(file);
	return rc;
}

enum tg_import_kind
tg_probe_imports(const struct tg_probe *pr)
{
	/* the path finder answers before the editable finders, which are
	 * appended to sys.meta_path (entry_index (size_t)-1) */
	if (pr->module &&
	    (!pr->ncopies || pr->copies[0].entry_index > pr->module_index))
		return TG_IMPORT_MODULE;
	if (pr->nportions &&
	    (!pr->ncopies || pr->copies[0].entry_index == (size_t)-1))
		return TG_IMPORT_NAMESPACE;
	return pr->ncopies ? TG_IMPORT_PACKAGE : TG_IMPORT_NONE;
}

const struct tg_torch *
tg_probe_chosen(const struct tg_probe *pr)
{
	return tg_probe_imports(pr) == TG_IMPORT_PACKAGE ? &pr->copies[0]
							 : NULL;
}

size_t
tg_probe_first_shadowed(const struct tg_probe *pr)
{
	return tg_probe_chosen(pr) ? 1 : 0;
}

int
tg_probe_run(struct tg_probe *pr, const struct tg_syspath *sp,
	     const struct tg_probe_opts *opts, struct tg_err *err)
{
	struct suffixes sf;
	size_t k;
	int rc = 0, found = 0;
	char *first_meta = NULL;

	memset(pr, 0, sizeof(*pr));
	suffixes_init(&sf, opts);
	/* FileFinder, per entry: the package torch/__init__<suffix>, then
	 * the module torch<suffix>, then torch/ as a namespace portion */
	for (k = 0; k < sp->n && !rc; k++) {
		const char *entry = sp->e[k].dir;
		char *meta = NULL, *tdir = NULL, *module = NULL;
		int has_torch = 0, yes = 0, isdir = 0;

		rc = scan_entry(&pr->problems, entry, &sf, &has_torch, &module,
				&meta);
		if (!rc && meta && !first_meta)
			rc = (first_meta = join(entry, meta)) ? 0 : TG_ENOMEM;
		if (!rc && has_torch) {
			tdir = join(entry, "torch");
			rc = tdir ? is_package(&pr->problems, tdir, &sf, &yes,
					       &isdir)
				  : TG_ENOMEM;
			if (!rc && yes)
				rc = add_copy(pr, entry, NULL, k, meta);
		}
		if (!rc && !yes && module && !found) {
			pr->module = module;
			pr->module_index = k;
			module = NULL;
		} else if (!rc && !yes && !module && isdir && !found) {
			if (pr->nportions < TG_PROBE_MAX_PORTIONS) {
				pr->portions[pr->nportions] = tdir;
				tdir = NULL;
			}
			pr->nportions++;
		}
		if (yes || module || pr->module)
			found = 1;
		free(tdir);
		free(module);
		free(meta);
	}
	if (found) {
		/* portions count only when nothing else is found */
		for (k = 0; k < TG_PROBE_MAX_PORTIONS; k++) {
			free(pr->portions[k]);
			pr->portions[k] = NULL;
		}
		pr->nportions = 0;
	}
	if (!rc)
		rc = add_finder_copies(pr, sp, &sf);
	for (k = 0; k < pr->ncopies && !rc; k++) {
		struct tg_torch *t = &pr->copies[k];

		rc = describe_copy(t, sp, opts);
		if (!rc && !t->meta_dir && first_meta)
			rc = problem(&t->problems, 0,
				     "no torch metadata beside '%s'; "
				     "importlib.metadata would read '%s'",
				     t->dir, first_meta);
	}
	if (!rc)
		rc = check_metadata(pr, first_meta);
	if (!rc && opts && opts->cwd)
		rc = check_cwd(pr, opts->cwd, &sf);
	free(first_meta);
	if (rc) {
		tg_probe_release(pr);
		return tg_err_set(err, TG_ENOMEM, "out of memory");
	}
	return 0;
}
