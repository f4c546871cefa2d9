/* probe.h - the torch installed in an environment, from its files
 * SPDX-License-Identifier: MIT
 *
 * Walks a struct tg_syspath in order as the path finder does and finds
 * every copy of torch on it (a torch/ directory with __init__ and one of
 * the import suffixes); the first is the one Python would import, the
 * rest are shadowed, unless a torch module (torch.py, torch.pyc, an
 * extension module) comes first, or no package is found and torch/
 * directories without __init__ make a namespace package. For each copy it reads
 * every version source (core metadata, version.py, version.h,
 * headeronly/version.h, TorchConfigVersion.cmake, dpkg), says whether
 * they agree, and collects the build facts: CUDA/HIP/ROCm/XPU, C++11
 * ABI, C++ standard, include and library directories, installer, wheel
 * tags, editable or not. Nothing is imported or run.
 */
#ifndef TG_LIB_TORCH_PROBE_H
#define TG_LIB_TORCH_PROBE_H

#include <stddef.h>

#include "lib/util/diag.h"
#include "lib/util/err.h"
#include "lib/pyenv/interp.h"
#include "lib/pyenv/syspath.h"
#include "lib/pep/version.h"
#include "lib/torch/versionpy.h"

enum tg_source_kind {
	TG_SRC_METADATA,   /* dist-info METADATA / egg-info PKG-INFO */
	TG_SRC_VERSION_PY, /* torch/version.py __version__ */
	TG_SRC_VERSION_H,  /* torch/csrc/api/include/torch/version.h */
	TG_SRC_HEADERONLY, /* torch/headeronly/version.h */
	TG_SRC_CMAKE,	   /* TorchConfigVersion.cmake PACKAGE_VERSION */
	TG_SRC_DPKG,	   /* the Debian package's version */
	TG_SRC_N
};

struct tg_vsource {
	int present;
	char *file;
	char *raw;	     /* as the file says */
	int parsed;	     /* v holds a PEP 440 reading of raw */
	struct tg_version v; /* for dpkg: the upstream part */
};

enum tg_agreement {
	TG_AGREE,    /* every source gives the same version */
	TG_DIFFER,   /* same major.minor, different strings */
	TG_CONFLICT, /* different major.minor: a broken install */
};

struct tg_torch {
	char *dir;   /* .../torch as found on the path */
	char *entry; /* the sys.path entry it is in */
	size_t entry_index;
	char *meta_dir; /* dist-info or egg-info, or NULL */
	char *installer;
	char **tags;
	size_t ntags;
	int has_record;
	char *direct_url;
	char *direct_url_kind;
	int editable;
	char *editable_via;
	struct tg_vsource src[TG_SRC_N];
	enum tg_source_kind version_from;
	const char *version; /* src[version_from].raw, or NULL */
	enum tg_agreement agreement;
	struct tg_versionpy vp;
	char *abi_version; /* TORCH_ABI_VERSION as 0x%016llx, or NULL */
	int cxx11_abi;	   /* 1, 0, or -1 unknown */
	char *cxx11_abi_evidence;
	int cxx_standard; /* 14, 17, ...; 0 unknown */
	char *cxx_standard_evidence;
	char *include_dir;     /* torch/include */
	char *api_include_dir; /* torch/include/torch/csrc/api/include */
	char *include_real;    /* where torch/include/torch really is */
	char *library_dir;     /* torch/lib */
	char *library_real;    /* where libc10.so really is */
	char *cmake_dir;
	char **libs; /* names N of libN.so in library_dir */
	size_t nlibs;
	struct tg_diag_list problems;
};

/* What `import torch` would give, by the import system's rules. */
enum tg_import_kind {
	TG_IMPORT_NONE,	     /* nothing: ModuleNotFoundError */
	TG_IMPORT_PACKAGE,   /* copies[0], a regular package */
	TG_IMPORT_MODULE,    /* a torch.py, torch.pyc or extension module */
	TG_IMPORT_NAMESPACE, /* namespace portions, no regular package */
};

#define TG_PROBE_MAX_PORTIONS 16

struct tg_probe {
	/* every regular torch package on the path, in path order, then
	 * those an editable finder maps; copies[0] is the one Python
	 * imports unless a module or namespace portions come first
	 * (tg_probe_chosen) */
	struct tg_torch *copies;
	size_t ncopies, capcopies;
	char *module; /* the first torch module file before any package */
	size_t module_index; /* its path entry */
	/* torch/ directories without __init__ (namespace portions), kept
	 * only when no package or module is on the path: at most
	 * TG_PROBE_MAX_PORTIONS, nportions counts them all */
	char *portions[TG_PROBE_MAX_PORTIONS];
	size_t nportions;
	struct tg_diag_list problems; /* about the path, not one copy */
};

#define TG_PROBE_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

struct tg_dirlist;

struct tg_probe_opts {
	const char *dpkg_admindir; /* NULL: /var/lib/dpkg */
	/* the interpreter's first extension suffix (tg_interp.ext_suffix);
	 * NULL: unknown, and any torch.cpython-*.so counts as a module */
	const char *ext_suffix;
	/* the current directory, sys.path[0] of `python -c`: a torch there
	 * is a warning (NULL: not looked at) */
	const char *cwd;
	/* the listings the run shares (util/dirlist): those the
	 * interpreter and sys.path took are not made again; NULL: none */
	struct tg_dirlist *dirs;
};

/* Find and describe every torch on sp. Only allocation failure is an
 * error; unreadable or malformed files become problems. */
int tg_probe_run(struct tg_probe *pr, const struct tg_syspath *sp,
		 const struct tg_probe_opts *opts, struct tg_err *err);
void tg_probe_release(struct tg_probe *pr);

/* What `import torch` would give, and the copy it is (NULL unless
 * TG_IMPORT_PACKAGE). */
enum tg_import_kind tg_probe_imports(const struct tg_probe *pr);
const struct tg_torch *tg_probe_chosen(const struct tg_probe *pr);
/* The index of the first shadowed copy: 1 when copies[0] is imported,
 * else 0 (a module or namespace shadows every copy). */
size_t tg_probe_first_shadowed(const struct tg_probe *pr);

const char *tg_probe_source_name(enum tg_source_kind k);
const char *tg_probe_agreement_name(enum tg_agreement a);

/* When t's sources conflict: a source whose major.minor differs from the
 * one the version was taken from (returns 1 and sets *other), else 0. */
int tg_probe_conflict(const struct tg_torch *t, enum tg_source_kind *other);

/* The first error-level problem of t (code != 0), or NULL. */
const struct tg_diag *tg_probe_first_error(const struct tg_torch *t);

#endif
