/* probectx.h - what probe.c and describe.c share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: only probe.c and describe.c include it, after
 * lib/torch/probe.h (it includes no probe header itself, so that no
 * include cycle forms). probe.c finds the copies of torch on the path
 * and calls describe.c for each; describe.c never calls probe.c.
 */
#ifndef TG_LIB_TORCH_PROBECTX_H
#define TG_LIB_TORCH_PROBECTX_H

#include "lib/pep/version.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

struct tg_torch;
struct tg_syspath;
struct tg_probe_opts;

/* Read the files of copy t (its dir, entry and meta_dir set) into t;
 * a file's problem goes into t->problems. 0 or TG_ENOMEM. */
int tg_describe_copy(struct tg_torch *t, const struct tg_syspath *sp,
		     const struct tg_probe_opts *opts);

/* A problem with a file: an error (code != 0) means the answer is not
 * whole; a warning (code 0) is worth saying. 0 or TG_ENOMEM. */
int tg_describe_problem(struct tg_diag_list *ps, int code, const char *fmt, ...)
    TG_PRINTF(3, 4);

/* Whether a and b are of one X.Y series. */
int tg_describe_same_series(const struct tg_version *a,
			    const struct tg_version *b);

#endif
