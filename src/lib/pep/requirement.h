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

#include "lib/util/arena.h"
#include "lib/util/buf.h"
#include "lib/util/jsonw.h"
#include "lib/util/err.h"
#include "lib/util/strmap.h"
#include "lib/pep/marker.h"
#include "lib/pep/spec.h"

struct tg_requirement {
	char *name;
	char **extras; /* sorted, without duplicates */
	size_t nextras, capextras;
	struct tg_specset spec;
	char *url;		  /* NULL when none */
	struct tg_marker *marker; /* NULL when none */
	/* marker, spec belong to a tg_requirement_cache; with
	 * head_cached, name and extras too */
	int marker_cached, spec_cached, head_cached;
};

#define TG_REQUIREMENT_INIT                                                    \
	{                                                                      \
		0                                                              \
	}

int tg_requirement_parse(struct tg_requirement *req, const char *s, size_t len,
			 struct tg_err *err);
/* Markers, specifier sets and heads (what comes before the first ';':
 * name, extras, specifier) parsed once per distinct text, for a caller
 * that parses many requirements (torchgate env: of some 2,800 in a
 * 200-distribution environment, 2,500 have a marker and 480 distinct
 * marker texts; 1,500 distinct heads, 690 distinct specifiers). The
 * cache owns what it holds, all of it in one arena; a requirement
 * parsed with it borrows, and is released first. */
struct tg_requirement_cache {
	struct tg_strmap markers; /* text after ';' -> struct tg_marker */
	struct tg_strmap specs;	  /* specifier text -> struct tg_specset */
	struct tg_strmap heads;	  /* text before ';' -> tg_requirement */
	struct tg_arena arena;	  /* what the three maps point to */
	/* the last marker found, and its text (when it fits) */
	struct tg_marker *last_marker;
	size_t last_len;
	char last[256];
};

#define TG_REQUIREMENT_CACHE_INIT                                              \
	{                                                                      \
		TG_STRMAP_INIT, TG_STRMAP_INIT, TG_STRMAP_INIT, TG_ARENA_INIT, \
		    NULL, 0, ""                                                \
	}

/* tg_requirement_parse, with the marker and the specifier set taken from
 * rc when their text is there, and put there when they parse. */
int tg_requirement_parse_cached(struct tg_requirement *req, const char *s,
				size_t len, struct tg_requirement_cache *rc,
				struct tg_err *err);
void tg_requirement_cache_release(struct tg_requirement_cache *rc);
void tg_requirement_release(struct tg_requirement *req);

/* Write {"name":..., "extras":[...], "specifier":..., "marker":...,
 * "url":...} as one value (a flow object) to w. */
int tg_requirement_write_json(const struct tg_requirement *req,
			      struct tg_jsonw *w, struct tg_err *err);

#endif
