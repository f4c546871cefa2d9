/* envctx.h - what the parts of torch/envcheck share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: only envcheck.c, envext.c and envobjects.c
 * include it, after lib/torch/envcheck.h (it includes no envcheck
 * header itself, so that no include cycle forms; hence the int section
 * and status below). envcheck.c owns the run, its items and the
 * requirements; envext.c the extensions, what they were built for and
 * their symbols; envobjects.c collects each distribution's shared
 * objects. One struct ctx per tg_envcheck_run carries them all, and its
 * rc keeps the first failure (TG_ENOMEM): every part checks it and
 * stops.
 */
#ifndef TG_LIB_TORCH_ENVCTX_H
#define TG_LIB_TORCH_ENVCTX_H

#include <stddef.h>

#include "lib/pep/marker.h"
#include "lib/pep/requirement.h"
#include "lib/pep/version.h"
#include "lib/pyenv/dists.h"
#include "lib/pyenv/syspath.h"
#include "lib/torch/elfsym.h"
#include "lib/torch/probe.h"
#include "lib/util/err.h"
#include "lib/util/strmap.h"

struct tg_envcheck;
struct tg_envcheck_item;
struct minfo;

struct req {
	size_t from;		 /* index in ds->v */
	const char *text;	 /* borrowed from the dist */
	struct tg_requirement r; /* parsed */
	const char *target;	 /* canonical name, borrowed from names */
	const struct tg_dist *to;
	int applies;
	const char *via;	/* the extra that made it apply, or NULL */
	const char *missing;	/* a variable the marker needs, not known */
	size_t seen;		/* 1 + the extras count it was evaluated for */
	const struct minfo *mi; /* what its marker gives, once known */
};

/* A set of strings in the order added (v; sorted once complete), with
 * an open-addressing index of the same pointers (slot, nslot a power of
 * two, at most half full) so that a lookup is not a scan: a distribution
 * may be asked for 100,000 extras. */
struct strset {
	char **v;
	size_t n, cap;
	char **slot;
	size_t nslot;
};

struct symset {
	const char **slot;
	size_t cap, n;
};

struct ctx {
	struct tg_envcheck *ec;
	const struct tg_dists *ds;
	const struct tg_syspath *sp;
	const struct tg_torch *t;
	const struct tg_dist *torch_dist;
	struct tg_marker_env env;
	size_t extra_at; /* env.vars index of "extra" */
	char *extra_own; /* its own value, restored before release */
	struct req *reqs;
	size_t nreqs;
	struct tg_requirement_cache cache; /* the reqs' markers, specs */
	struct tg_strmap plain; /* a marker's address -> struct minfo */
	const struct tg_marker *last_marker; /* the last looked up there */
	const struct minfo *last_mi;	     /* and its answer */
	struct tg_strmap names; /* a name as written -> struct target */
	struct strset *active;	/* per dist: extras asked for */
	int *depends;		/* per dist: a requirement on torch applies */
	struct tg_version tv;
	int have_tv;
	const char *tver;	    /* torch's version text */
	int cuda_major, cuda_minor; /* torch's CUDA; 0 0 for none */
	struct tg_elfsym *libs;
	size_t nlibs;
	struct symset syms;
	int elf;
	int syms_loaded; /* torch's symbols are read when first needed */
	int objects_cut; /* EXT_MAX_OBJECTS reached: said once */
	int rc;		 /* the first failure: TG_ENOMEM */
};

/* ---- envcheck.c: the items ------------------------------------------ */

/* p, after marking c out of memory when it is NULL. */
void *tg_envcheck_keep(struct ctx *c, void *p);
/* A new string, printf-style; NULL (and c marked) when out of memory. */
char *tg_envcheck_fmt(struct ctx *c, const char *f, ...) TG_PRINTF(2, 3);
char *tg_envcheck_sdup(struct ctx *c, const char *s);
/* Append an item; takes message (and nothing else). NULL when out of
 * memory (c marked). */
struct tg_envcheck_item *tg_envcheck_item(struct ctx *c, int s, int st,
					  const struct tg_dist *d,
					  const char *file, const char *req,
					  char *message);
/* A file that could not be read: a warning of the run. */
void tg_envcheck_warn(struct ctx *c, const char *path, const char *msg);
/* The local label of version text s ("cu130"), into buf; NULL when
 * none. */
const char *tg_envcheck_local_label(const char *s, char *buf, size_t n);
/* "X.Y..." into major and minor; 0 when s is not that. */
int tg_envcheck_major_minor(const char *s, int *major, int *minor);

/* ---- envext.c: the extensions --------------------------------------- */

/* The extensions section: DeepSpeed's build record, wheel tags, emit's
 * module and, when c->elf, every extension module's torch symbols. */
void tg_envext_check(struct ctx *c);
/* "on", "off" or "unknown" for a C++11 ABI flag of 1, 0 or -1. */
const char *tg_envext_abi_name(int abi);

#endif
