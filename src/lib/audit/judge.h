/* judge.h - what an audit reports of one file's findings for the torch
 * judged: ranks, suppressions, dead branches
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_AUDIT_JUDGE_H
#define TG_LIB_AUDIT_JUDGE_H

#include "lib/audit/audit.h"
#include "lib/pep/version.h"
#include "lib/table/table.h"
#include "lib/util/diag.h"
#include "lib/util/err.h"

struct tg_judge {
	const struct tg_table *table;
	signed char *ranks; /* tg_audit_rank of each entry, by its index */
	enum tg_audit_rank min;
	const struct tg_version *floor; /* NULL: no branch is dead */
};

#define TG_JUDGE_INIT                                                          \
	{                                                                      \
		NULL, NULL, TG_AUDIT_RANK_BOUND, NULL                          \
	}

/* Rank every entry of table for torch once (all: version-bound entries
 * too, tg_audit_rank); fails from min up; dead branches against floor
 * (NULL: none). table, torch and floor must outlive j. 0 or TG_ENOMEM. */
int tg_judge_init(struct tg_judge *j, const struct tg_table *table,
		  const struct tg_version *torch, int all,
		  enum tg_audit_rank min, const struct tg_version *floor,
		  struct tg_err *err);
void tg_judge_release(struct tg_judge *j);

/* Entry a's rank (a is an entry of the table). */
enum tg_audit_rank tg_judge_rank(const struct tg_judge *j,
				 const struct tg_api *a);
/* Whether a's findings can be reported at all (rank not NONE); ctx is
 * the judge (the want of struct tg_lang's index_only). */
int tg_judge_matters(const struct tg_api *a, void *ctx);
/* Whether finding f fails the audit: in code, not guarded, ranked at
 * least min and above version-bound. */
int tg_judge_fails(const struct tg_judge *j, const struct tg_audit_finding *f);

/* Judge the result r of the file path in place: its findings sorted, the
 * suppressed ones and those of entries that do not matter dropped, its
 * branches kept only when dead; appends to notes (each with path) a
 * warning "unused-suppression" for each suppression that matched no
 * finding, then the analyzer's notes. 0 or TG_ENOMEM (r then still
 * whole, to be released). Any thread: j is read only. */
int tg_judge_result(const struct tg_judge *j, const char *path,
		    struct tg_audit_result *r, struct tg_diag_list *notes);

#endif
