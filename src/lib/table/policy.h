/* policy.h - the gate policies: how a candidate torch version is compared
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_TABLE_POLICY_H
#define TG_LIB_TABLE_POLICY_H

#include "lib/pep/version.h"

/* Gate policies (SPEC.md): how a candidate version is compared. */
enum tg_policy {
	TG_POLICY_STRICT = 0, /* PEP 440 as is */
	TG_POLICY_BASE,	      /* compare epoch + release only */
	TG_POLICY_RELEASE,    /* pre/dev of a released torch count as it */
};

/* Parse "strict", "base" or "release". Returns 0 or TG_EINVAL. */
int tg_policy_parse(const char *name, enum tg_policy *out);
const char *tg_policy_name(enum tg_policy p);

/* The version a gate compares under policy p (see SPEC.md): a shallow view
 * of v in *out (its pointers borrow v's storage). */
void tg_policy_apply(const struct tg_version *v, enum tg_policy p,
		     struct tg_version *out);

#endif
