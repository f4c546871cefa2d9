/* require.h - the torch range a package's code needs, and its declarations
 * judged
 * SPDX-License-Identifier: MIT
 *
 * Fed with the analyzers' results (audit.h), one file at a time, it keeps
 * the unguarded, unsuppressed uses in code of each table entry (a soft
 * guard, a bare except, does not count as a guard here; entries of kind
 * "behavior" bound nothing: they say how a call acts, not whether it
 * exists). From them:
 *
 * - the floor: the highest of each used entry's introduced version
 *   (exact or at-or-before; an entry introduced before a version, such
 *   as before 1.0, needs none) and, when the entry is the replacement of
 *   another, the replacement's since;
 * - the ceiling: the lowest removed version; with strict_private, an
 *   unremoved private entry caps at the minor after the newest torch the
 *   table knows (tg_table_newest: its facts were checked up to there);
 * - conflicts: each pair of a floor reason and a ceiling reason that
 *   cross (no torch satisfies both).
 *
 * Declarations (declared.h) are then judged against that range, with the
 * embedded list of releases (table/releases) for stale ceilings.
 */
#ifndef TG_LIB_AUDIT_REQUIRE_H
#define TG_LIB_AUDIT_REQUIRE_H

#include <stddef.h>

#include "lib/audit/audit.h"
#include "lib/audit/declared.h"
#include "lib/table/table.h"
#include "lib/util/err.h"

struct tg_require_use {
	char *path;
	size_t line;
};

/* One bound an entry puts on torch, and every use that needs it. */
struct tg_require_reason {
	const struct tg_api *api;
	/* "introduced", "replacement" (the entry replaces repl_of, and
	 * exists since version), "removed", "private" (not removed, known
	 * up to the table's newest version) */
	const char *fact;
	const struct tg_api *repl_of; /* "replacement": the entry replaced */
	char *version;		      /* the bound: >= version or < version */
	struct tg_version ver;
	enum tg_fact status; /* of the fact */
	enum tg_bound bound;
	int caps; /* a ceiling that counts: removed, or private with
		     strict_private (without, a private reason is kept to
		     be reported, and caps nothing) */
	struct tg_require_use *uses;
	size_t nuses, capuses;
};

/* An entry the code uses (unguarded, in code, not suppressed, as for the
 * bounds), whatever bound it puts: a deprecated entry that bounds
 * nothing is one too. What the picture of --format=html draws a row
 * for. */
struct tg_require_api {
	const struct tg_api *api;
	struct tg_require_use *uses;
	size_t nuses, capuses;
};

struct tg_require_conflict {
	const struct tg_require_reason *floor, *ceiling;
};

enum tg_require_problem_kind {
	TG_REQUIRE_NO_DECLARATION, /* no torch requirement at all */
	TG_REQUIRE_FLOOR_MISSING,
	TG_REQUIRE_FLOOR_LOW,
	TG_REQUIRE_CEILING_MISSING,
	TG_REQUIRE_CEILING_STALE,
	TG_REQUIRE_FLOOR_TIGHT, /* information, not a failure */
	TG_REQUIRE_DISAGREE,
	/* admits no release the code runs on (the others are then not
	 * judged for that declaration) */
	TG_REQUIRE_DISJOINT,
	/* torch is declared, but nowhere pip enforces at install (only
	 * requirements*.txt, [build-system] requires, setup_requires:
	 * tg_declared_enforced) */
	TG_REQUIRE_NOT_ENFORCED,
	/* the floor admits releases an advisory affects
	 * (audit/advisory_check): on an API the code uses, a problem;
	 * severe, the code using none of its APIs, information */
	TG_REQUIRE_ADVISORY,
	TG_REQUIRE_ADVISORY_SEVERE,
	/* setup.py's own code raises at build time below a torch newer
	 * than the declared floor, or with no floor declared: pip may
	 * install a torch the build refuses (tg_require_check_setup) */
	TG_REQUIRE_BUILD_GATE,
	/* ... below a torch older than the declared floor: the gate never
	 * fires (information, not a failure) */
	TG_REQUIRE_BUILD_GATE_STALE,
	/* setup.py imports torch: its build needs torch installed first
	 * (information, not a failure) */
	TG_REQUIRE_BUILD_IMPORT,
};

struct tg_require_problem {
	enum tg_require_problem_kind kind;
	/* NULL for NO_DECLARATION, BUILD_GATE(_STALE) and BUILD_IMPORT */
	const struct tg_declaration *decl;
	const struct tg_declaration *other; /* DISAGREE: the other one */
	char *message;			    /* one line */
	/* where, when no declaration says it (BUILD_GATE, BUILD_IMPORT:
	 * the setup.py and its line); NULL else */
	char *path;
	size_t line;
};

/* What a package's setup.py does with torch when it runs (the build),
 * read from its text by the Python analyzer (never run): a gate, a
 * version branch at the module's level that raises (struct
 * tg_audit_branch's gate) whose test holds exactly below a version
 * ("<0.4"), or (gate 0) its first import of torch. */
struct tg_require_setup {
	char *path; /* dir "/setup.py" */
	size_t line;
	int gate;
	char *condition;       /* gate: the test as written */
	char *floor;	       /* gate: the version it raises below */
	struct tg_version ver; /* its parse */
};

struct tg_require {
	const struct tg_table *table;
	int strict_private;
	/* per used entry: its floor reason (fact introduced or
	 * replacement) and its ceiling reason, in the order first used */
	struct tg_require_reason *floors, *ceilings;
	size_t nfloors, capfloors, nceilings, capceilings;
	/* every entry used, in the order first used, with its uses */
	struct tg_require_api *apis;
	size_t napis, capapis;
	const struct tg_require_reason *floor;	 /* the highest, or NULL */
	const struct tg_require_reason *ceiling; /* the lowest, or NULL */
	struct tg_require_conflict *conflicts;
	size_t nconflicts;
	struct tg_require_problem *problems;
	size_t nproblems, capproblems;
	char *requirement; /* "torch>=2.4,<2.12", "torch" */
	/* the setup.py files' gates and imports (tg_require_add_setup) */
	struct tg_require_setup *setups;
	size_t nsetups, capsetups;
};

void tg_require_init(struct tg_require *rq, const struct tg_table *t,
		     int strict_private);
void tg_require_release(struct tg_require *rq);

/* Take the uses of r (the findings of path) that count. The suppressions
 * of r are marked used. TG_ENOMEM. */
int tg_require_add(struct tg_require *rq, const char *path,
		   struct tg_audit_result *r);

/* Compute the floor, the ceiling, the conflicts and the requirement. */
int tg_require_finish(struct tg_require *rq, struct tg_err *err);

/* Judge what is declared (l, borrowed: it must outlive rq) against the
 * range; after tg_require_finish. TG_ENOMEM. */
int tg_require_check(struct tg_require *rq, const struct tg_declared_list *l,
		     struct tg_err *err);

/* Judge declarations read from a package's files (l, borrowed, all of
 * them read): TG_REQUIRE_NOT_ENFORCED where torch is declared but
 * nowhere pip enforces when it installs the package
 * (tg_declared_enforced). TG_ENOMEM. */
int tg_require_check_enforced(struct tg_require *rq,
			      const struct tg_declared_list *l,
			      struct tg_err *err);

/* Keep what the setup.py at path (a directory operand's: dir
 * "/setup.py") does with torch when it runs, from r, the Python
 * analyzer's result for it: its gates at the module's level (a version
 * branch that raises, whose specifier set is "<V": the build fails below
 * V) and its first import of torch. TG_ENOMEM. */
int tg_require_add_setup(struct tg_require *rq, const char *path,
			 const struct tg_audit_result *r);

/* Judge the setup.py files kept against the declarations read from the
 * same directories (l, borrowed): TG_REQUIRE_BUILD_GATE for a gate
 * whose version is newer than the floor declared (the first declaration
 * of that directory with a floor, one pip enforces first; a torch
 * declared without a floor is below any), TG_REQUIRE_BUILD_GATE_STALE
 * for one older than it; TG_REQUIRE_BUILD_IMPORT
 * for an import of torch, saying whether [build-system] requires lists
 * torch. Nothing where the directory declares no torch. TG_ENOMEM. */
int tg_require_check_setup(struct tg_require *rq,
			   const struct tg_declared_list *l,
			   struct tg_err *err);

/* Add a problem of kind k about d with message (copied). TG_ENOMEM. */
int tg_require_add_problem(struct tg_require *rq,
			   enum tg_require_problem_kind k,
			   const struct tg_declaration *d, const char *message);

/* Whether a problem is a failure (all but TG_REQUIRE_FLOOR_TIGHT,
 * TG_REQUIRE_ADVISORY_SEVERE, TG_REQUIRE_BUILD_GATE_STALE and
 * TG_REQUIRE_BUILD_IMPORT). */
int tg_require_problem_fails(const struct tg_require_problem *p);
/* "no-declaration", "floor-missing", "floor-too-low", "ceiling-missing",
 * "ceiling-stale", "floor-over-tight", "disagree", "disjoint", "not-enforced",
 * "advisory", "advisory-severe", "build-gate", "build-gate-stale",
 * "build-imports-torch". */
const char *tg_require_problem_name(enum tg_require_problem_kind k);

#endif
