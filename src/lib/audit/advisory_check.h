/* advisory_check.h - declared torch floors against the advisories
 * SPDX-License-Identifier: MIT
 *
 * For torchgate require --check-declared: fed with the analyzers'
 * results (audit.h) as require is, it keeps the first use in code of
 * each advisory's API (an advisory on torch.load concerns every table
 * entry torch.load.*: its parameters and behaviours); then each
 * declaration whose floor admits a release an advisory affects is a
 * problem (require.h, TG_REQUIRE_ADVISORY), when the code calls the
 * advisory's API or the advisory is severe (critical, and not disputed:
 * tg_advisory_is_severe), with the floor that excludes it. Withdrawn advisories and
 * those an --ignore-vuln id names are never reported.
 */
#ifndef TG_LIB_AUDIT_ADVISORY_CHECK_H
#define TG_LIB_AUDIT_ADVISORY_CHECK_H

#include <stddef.h>

#include "lib/audit/audit.h"
#include "lib/audit/declared.h"
#include "lib/audit/require.h"
#include "lib/table/advisory.h"
#include "lib/util/err.h"

struct tg_advisory_check_use {
	const char *api; /* the table entry used (its id); NULL: none */
	char *path;
	size_t line;
};

struct tg_advisory_check {
	const struct tg_advisories *a;
	struct tg_advisory_check_use *first; /* one an advisory */
	const char *const *ignore;
	size_t nignore;
};

#define TG_ADVISORY_CHECK_INIT                                                 \
	{                                                                      \
		0                                                              \
	}

/* a (and ignore[0..nignore)) borrowed: they outlive ac. TG_ENOMEM. */
int tg_advisory_check_init(struct tg_advisory_check *ac,
			   const struct tg_advisories *a,
			   const char *const *ignore, size_t nignore);
void tg_advisory_check_release(struct tg_advisory_check *ac);

/* Take the uses in code of r (the findings of path), unsuppressed,
 * guarded or not. TG_ENOMEM. */
int tg_advisory_check_add(struct tg_advisory_check *ac, const char *path,
			  struct tg_audit_result *r);

/* Add to rq a problem for each declaration of l and each advisory its
 * floor admits that counts. TG_ENOMEM. */
int tg_advisory_check_judge(struct tg_advisory_check *ac, struct tg_require *rq,
			    const struct tg_declared_list *l,
			    struct tg_err *err);

#endif
