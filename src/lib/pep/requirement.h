/* requirement.h - PEP 508 dependency specifiers ("torch>=2.4; ...")
 * SPDX-License-Identifier: MIT
 *
 * Parsed as pypa/packaging 26.x's Requirement: name, extras, a specifier
 * (also the legacy parenthesised form "torch (==2.11.0)"), or "@ URL",
 * and a marker after ';'. Errors carry the byte offset of the problem.
 */
#ifndef TG_LIB_PEP_REQUIREMENT_H
#define TG_LIB_PEP_REQUIREMENT_H

#include <stddef.h>

#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/util/err.h"
#include "lib/pep/marker.h"
#include "lib/pep/spec.h"

struct tg_requirement {
	char *name;
	char **extras; /* sorted, without duplicates */
	size_t nextras, capextras;
	struct tg_specset spec;
	char *url;		  /* NULL when none */
	struct tg_marker *marker; /* NULL when none */
	int marker_cached;	  /* marker belongs to a tg_marker_cache */
};

#define TG_REQUIREMENT_INIT                                                    \
	{                                                                      \
		0                                                              \
	}

int tg_requirement_parse(struct tg_requirement *req, const char *s, size_t len,
			 struct tg_err *err);
/* The same, with the marker taken from mc when its text is there (and
 * put there when it parses): the requirement then borrows it, and must
 * be released before mc. */
int tg_requirement_parse_cached(struct tg_requirement *req, const char *s,
				size_t len, struct tg_marker_cache *mc,
				struct tg_err *err);
void tg_requirement_release(struct tg_requirement *req);

/* Write {"name":..., "extras":[...], "specifier":..., "marker":...,
 * "url":...} as one value (a flow object) to w. */
int tg_requirement_write_json(const struct tg_requirement *req,
			      struct tg_jsonw *w, struct tg_err *err);

#endif
