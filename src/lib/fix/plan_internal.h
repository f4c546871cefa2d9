/* plan_internal.h - what fix/plan.c and fix/plan_check.c share
 * SPDX-License-Identifier: MIT
 *
 * Not a public header: only plan.c, which plans a buffer and applies
 * the edits, and plan_check.c, which checks the fixed buffer, include
 * it. It includes neither plan.h nor any other header of fix/ (the
 * types are declared here), so that no include cycle forms: plan.c
 * calls plan_check.c, never the other way.
 */
#ifndef TG_LIB_FIX_PLAN_INTERNAL_H
#define TG_LIB_FIX_PLAN_INTERNAL_H

#include <stddef.h>

struct tg_lang;
struct tg_plan;

/* The check after fixing p, the plan of src[0..len) as language L,
 * whose edits are normalized and applied (p->fixed) and whose fixed
 * buffer is analyzed (p->after): *why NULL, or why the fixes are
 * dropped (static, or into *owned, the caller's to free). 0, or
 * TG_ENOMEM. */
int tg_plan_check_fixed(struct tg_plan *p, const struct tg_lang *L,
			const char *src, size_t len, const char **why,
			char **owned);

#endif
