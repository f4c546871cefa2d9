/* envobjects.h - the shared objects of each distribution, collected
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: envext.c and envobjects.c include it, after
 * lib/torch/envctx.h. envobjects.c collects, on threads, what each
 * distribution installed that env's extensions section reads (struct
 * envjob, in order); envext.c replays the lists on the calling thread
 * and writes the report.
 */
#ifndef TG_LIB_TORCH_ENVOBJECTS_H
#define TG_LIB_TORCH_ENVOBJECTS_H

#include <stddef.h>

#include "lib/pyenv/editable.h"
#include "lib/torch/elfsym.h"
#include "lib/torch/envctx.h"

/* What a distribution's collection meets, in its order: a shared
 * object to check, a file that may be torchgate emit's module, a
 * warning. Collected and asked about on threads (collect_run), then
 * replayed in order on the calling thread, which alone reads further
 * and writes the report: items and warnings come in the order they
 * always came. */
enum envjob_kind { JOB_OBJECT, JOB_GENERATED, JOB_WARN };

struct envjob {
	enum envjob_kind kind;
	const struct tg_dist *d;
	int depends;
	/* 1: found a regular file a moment ago (an lstat), for both reads;
	 * 2: so found by a walk, for tg_elfsym_needs only (the full read
	 * stats it as it always did); 0: not known */
	int walked;
	char *path;
	char *msg;		    /* JOB_WARN's */
	enum tg_elfsym_needs needs; /* JOB_OBJECT's, filled in by a thread */
};

struct envjobs {
	struct envjob *v;
	size_t n, cap;
};

/* Every distribution's list, per[i] for c->ds->v[i] (per: c->ds->n
 * zeroed lists), collected on as many threads as CPUs the process may
 * use; a failure (out of memory) is kept in c->rc. */
void tg_envobjects_collect(struct ctx *c, const struct tg_editable_roots *er,
			   struct envjobs *per);

void tg_envobjects_release(struct envjobs *j);

#endif
