/* advisory.h - torch's security advisories: loader, matcher, cache
 * SPDX-License-Identifier: MIT
 *
 * data/advisories.json (torchgate-advisories(5)) read strictly, as the
 * API table is: every member checked, versions parsed as PEP 440. An
 * advisory affects a torch version when the version, its local label
 * dropped, lies in one of its ranges (OSV's "introduced" / "fixed" /
 * "last_affected", ordered as PEP 440 orders versions) and the advisory
 * is not withdrawn.
 */
#ifndef TG_LIB_TABLE_ADVISORY_H
#define TG_LIB_TABLE_ADVISORY_H

#include <stddef.h>

#include "lib/pep/version.h"
#include "lib/table/cache.h"
#include "lib/util/err.h"

/* The cached advisories, beside the cached table. */
#define TG_CACHE_ADVISORIES "advisories.json"
/* Largest advisories file read. */
#define TG_ADVISORY_MAX ((size_t)4 * 1024 * 1024)

enum tg_advisory_end {
	TG_ADVISORY_OPEN,  /* no end: every later version */
	TG_ADVISORY_FIXED, /* end: the first version outside */
	TG_ADVISORY_LAST,  /* end: the last version inside */
};

struct tg_advisory_range {
	struct tg_version introduced; /* "0": release 0, before all */
	enum tg_advisory_end kind;
	struct tg_version end; /* unless TG_ADVISORY_OPEN */
};

struct tg_advisory {
	char *id;
	char **aliases;
	size_t naliases;
	char *summary;
	char **apis;
	size_t napis;
	char *severity; /* "critical", "high", "moderate", "low" or NULL */
	double cvss;	/* -1 when none */
	struct tg_advisory_range *ranges;
	size_t nranges;
	char *fixed;				/* or NULL */
	char *published, *modified, *withdrawn; /* or NULL */
	int disputed;
	char **refs;
	size_t nrefs;
};

struct tg_advisories {
	char *version; /* advisories_version */
	struct tg_advisory *v;
	size_t n;
};

#define TG_ADVISORIES_INIT                                                     \
	{                                                                      \
		0                                                              \
	}

/* Parse text[0..len) (name for messages) into a; on failure a is left
 * released and the message names the file and the advisory. */
int tg_advisory_parse(struct tg_advisories *a, const char *text, size_t len,
		      const char *name, struct tg_err *err);
int tg_advisory_load(struct tg_advisories *a, const char *path,
		     struct tg_err *err);
/* The advisories built into the binary (data/advisories.json). */
int tg_advisory_default(struct tg_advisories *a, struct tg_err *err);
/* The built-in advisories_version. */
const char *tg_advisory_builtin_version(void);
void tg_advisory_release(struct tg_advisories *a);

/* As tg_cache_table for the advisories: path when given, else the cached
 * file when it is valid and its advisories_version newer than the
 * built-in one (an unusable cache: a warning in warn), else the built-in
 * advisories. */
int tg_advisory_cached(struct tg_advisories *a, const char *path,
		       enum tg_cache_source *src, char **from,
		       struct tg_err *warn, struct tg_err *err);

/* Whether v (its local label ignored) lies in one of adv's ranges; a
 * withdrawn advisory affects nothing. */
int tg_advisory_affects(const struct tg_advisory *adv,
			const struct tg_version *v);
/* Whether some version at or above floor (and, when ceil is not NULL,
 * below ceil) lies in one of adv's ranges: what a declaration
 * "torch>=floor" admits. Withdrawn: never. */
int tg_advisory_admits(const struct tg_advisory *adv,
		       const struct tg_version *floor,
		       const struct tg_version *ceil);
/* The floor that excludes adv: 1 with *ver the highest range end (a
 * canonical version borrowed from adv) and *strict 0 for "torch>=ver"
 * (a fixed end) or 1 for "torch>ver" (a last_affected end); 0 when a
 * range has no end, so no floor excludes it. */
int tg_advisory_floor(const struct tg_advisory *adv, const char **ver,
		      int *strict);
/* Whether id names adv: its id or an alias, ASCII case ignored. */
int tg_advisory_has_id(const struct tg_advisory *adv, const char *id);
/* Severe: critical in its source (GitHub's scale, CVSS 9.0 and up) and
 * not disputed; what require reports whatever the code calls. */
int tg_advisory_is_severe(const struct tg_advisory *adv);
/* Whether adv concerns the API id. */
int tg_advisory_has_api(const struct tg_advisory *adv, const char *api);
/* Whether adv's id or alias is in the advisories: a lookup for
 * --ignore-vuln (1 found). */
int tg_advisory_known(const struct tg_advisories *a, const char *id);

/* The advisories that affect one torch version, in file order: hits
 * reported, ignored those an --ignore-vuln id named (borrowed from the
 * advisories). */
struct tg_advisory_matches {
	const struct tg_advisory **hits;
	size_t nhits;
	const struct tg_advisory **ignored;
	size_t nignored;
};

#define TG_ADVISORY_MATCHES_INIT                                               \
	{                                                                      \
		0                                                              \
	}

/* Fill m with the advisories of a that affect v; an advisory one of
 * ignore[0..nignore) names (id or alias) goes to m->ignored. */
int tg_advisory_match(struct tg_advisory_matches *m,
		      const struct tg_advisories *a, const struct tg_version *v,
		      const char *const *ignore, size_t nignore,
		      struct tg_err *err);
void tg_advisory_matches_release(struct tg_advisory_matches *m);

#endif
