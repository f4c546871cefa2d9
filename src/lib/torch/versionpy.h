/* versionpy.h - torch/version.py read as text, never executed
 * SPDX-License-Identifier: MIT
 *
 * torch writes version.py at build time as simple assignments, untyped
 * (`cuda = None`, torch 1.x) or annotated (`cuda: Optional[str] = '13.0'`,
 * torch 2.x). This module reads those lines and nothing else: a value must
 * be a string literal, None, True or False, or the file is reported as
 * unparsable. Nothing in the file is evaluated.
 */
#ifndef TG_LIB_TORCH_VERSIONPY_H
#define TG_LIB_TORCH_VERSIONPY_H

#include <stddef.h>

#include "lib/util/err.h"

#define TG_VERSIONPY_MAX ((size_t)64 * 1024)

/* One assigned value: set when the file assigns it; s NULL for None. */
struct tg_pyval {
	int set;
	char *s;
	size_t line;
};

enum tg_versionpy_field {
	TG_VPY_VERSION, /* __version__ */
	TG_VPY_CUDA,
	TG_VPY_HIP,
	TG_VPY_ROCM,
	TG_VPY_XPU,
	TG_VPY_GIT_VERSION,
	TG_VPY_DEBUG, /* s is "True" or "False" */
	TG_VPY_NFIELDS
};

struct tg_versionpy {
	struct tg_pyval f[TG_VPY_NFIELDS];
	/* tg_versionpy_load_lenient: the line of the last assignment whose
	 * value cannot be known (the field is then unset); 0 when none */
	size_t unknown[TG_VPY_NFIELDS];
};

/* The Python name of a field ("__version__", "cuda", ...). */
const char *tg_versionpy_name(enum tg_versionpy_field f);

int tg_versionpy_parse(struct tg_versionpy *vp, const char *text, size_t len,
		       const char *file, struct tg_err *err);
int tg_versionpy_load(struct tg_versionpy *vp, const char *path, int *absent,
		      struct tg_err *err);
/* As tg_versionpy_load, for another package's version.py (torchvision
 * computes its cuda at import): a field whose value cannot be known is
 * left unset, its line in unknown[], instead of failing the file. */
int tg_versionpy_load_lenient(struct tg_versionpy *vp, const char *path,
			      int *absent, struct tg_err *err);
void tg_versionpy_release(struct tg_versionpy *vp);

#endif
