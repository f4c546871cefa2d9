/* offer.h - the fixes a plan offers, as audit's reports show them
 * SPDX-License-Identifier: MIT
 *
 * What audit --format=json and --format=sarif say of each finding's
 * fix (struct tg_audit_fix of audit/audit.h): made from the plan that
 * audit --fix would carry out for the same file (fix/plan), so that the
 * reports and --fix agree. A finding the plan fixes offers a safe fix,
 * or an unsafe one when the plan was made with unsafe; a finding whose
 * unsafe fix the plan hid offers it as unsafe, with the edits
 * --unsafe-fixes would make, where the language's hook can make them
 * and they overlap no fix the plan kept. A finding the language's
 * file-level step fixed (a use through a name an import binds, an
 * import) offers all of the step's edits (the plan's shared), the same
 * on each such finding, unsafe when one of them is: the step's edits
 * hold together (an import dropped only when every use of its name is
 * rewritten), so any one of those fixes, or several, applied gives the
 * whole step. Every other finding (left, and every finding of a file
 * whose fixes were reverted) offers none.
 */
#ifndef TG_LIB_FIX_OFFER_H
#define TG_LIB_FIX_OFFER_H

#include <stddef.h>

#include "lib/audit/audit.h"
#include "lib/audit/lang.h"
#include "lib/fix/plan.h"

/* Fill out[0..n), n = p->before.r.nfindings, each TG_AUDIT_FIX_INIT on
 * entry, from plan p of src[0..len) as language L. 0, or TG_ENOMEM
 * (what was filled is the caller's to release). */
int tg_offer_plan(struct tg_audit_fix *out, const struct tg_plan *p,
		  const struct tg_lang *L, const char *src, size_t len);

#endif
