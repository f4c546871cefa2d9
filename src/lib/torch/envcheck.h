/* envcheck.h - a whole environment checked against its torch, from files
 * SPDX-License-Identifier: MIT
 *
 * What `torchgate env` reports: the torch copies on the path; every
 * installed distribution's requirement on torch, markers evaluated for
 * this environment (extras as installed), and whether the installed
 * torch satisfies it; torch's own requirements (triton, the nvidia-* and
 * cuda-* wheels, followed through their own requirements), installed or
 * missing, and their CUDA major against torch's; the torch family's
 * CUDA variants; and what extensions built for another torch leave
 * behind: DeepSpeed's git_version_info_installed.py, wheel local tags
 * such as +cu12torch2.4cxx11abiFALSE, torchgate emit's module, and the
 * undefined dynamic symbols and C++11 ABI of every extension module
 * against the symbols torch's libraries define. Nothing is imported or
 * run.
 */
#ifndef TG_LIB_TORCH_ENVCHECK_H
#define TG_LIB_TORCH_ENVCHECK_H

#include <stddef.h>

#include "lib/util/diag.h"
#include "lib/util/err.h"
#include "lib/pep/marker.h"
#include "lib/pyenv/dists.h"
#include "lib/pyenv/syspath.h"
#include "lib/torch/probe.h"

enum tg_envcheck_section {
	TG_ENVCHECK_COPIES,	/* torch on the path */
	TG_ENVCHECK_DEPENDENTS, /* who requires torch */
	TG_ENVCHECK_TORCH_REQS, /* what torch requires */
	TG_ENVCHECK_FAMILY,	/* torchvision & co: CUDA variants */
	TG_ENVCHECK_EXTENSIONS, /* built for which torch */
	TG_ENVCHECK_NSECTIONS
};

enum tg_envcheck_status {
	TG_ENVCHECK_OK,
	TG_ENVCHECK_BROKEN,   /* a broken requirement or a mismatch */
	TG_ENVCHECK_INACTIVE, /* a requirement whose marker is false here */
	TG_ENVCHECK_UNKNOWN,  /* nothing to compare */
};

struct tg_envcheck_item {
	enum tg_envcheck_section section;
	enum tg_envcheck_status status;
	char *dist;	   /* "name version" it is about, or NULL */
	char *file;	   /* the evidence's file */
	char *requirement; /* the requirement as written, or NULL */
	char *message;	   /* what was found, one sentence */
	char **details;	   /* e.g. the missing symbols, demangled */
	size_t ndetails, capdetails;
	size_t more; /* details left out past TG_ENVCHECK_DETAILS */
};

/* Most details kept per item (missing symbols named). */
#define TG_ENVCHECK_DETAILS 8

struct tg_envcheck {
	struct tg_envcheck_item *v;
	size_t n, cap;
	size_t nbroken;
	size_t count[TG_ENVCHECK_NSECTIONS];
	struct tg_diag_list problems; /* files that could not be read */
	size_t elf_objects;	      /* extension modules looked at */
	size_t torch_libraries;	      /* in torch/lib, mapped */
};

#define TG_ENVCHECK_INIT                                                       \
	{                                                                      \
		0                                                              \
	}

struct tg_envcheck_opts {
	/* the marker environment (tg_marker_env_default), without "extra" */
	const struct tg_marker_env *markers;
	int elf; /* read the extension modules' symbols */
};

/* Check the environment sp (its distributions ds, its probe pr, which
 * must have found a torch). Only allocation failure is an error. */
int tg_envcheck_run(struct tg_envcheck *ec, const struct tg_probe *pr,
		    const struct tg_syspath *sp, const struct tg_dists *ds,
		    const struct tg_envcheck_opts *o, struct tg_err *err);
void tg_envcheck_release(struct tg_envcheck *ec);

const char *tg_envcheck_section_name(enum tg_envcheck_section s);
const char *tg_envcheck_status_name(enum tg_envcheck_status s);

#endif
