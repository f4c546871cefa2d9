/* specifier.h - PEP 440 specifier sets and their matching rules
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_specset is a comma-separated list of specifiers
 * ("~= == != <= >= < > ===", "==X.*", "!=X.*"), parsed and matched as
 * pypa/packaging 26.x's SpecifierSet does: each specifier is a range of
 * versions (">V" leaves out V's post and local builds, "<V" leaves out
 * V's pre-releases, "==V" without a local label admits V's local builds),
 * a set is the intersection, "===" compares text, and a version that is
 * not PEP 440 matches only through "===".
 */
#ifndef TG_LIB_PEP_SPEC_H
#define TG_LIB_PEP_SPEC_H

#include <stddef.h>

#include "lib/util/buf.h"
#include "lib/util/err.h"
#include "lib/pep/version.h"

enum tg_spec_op {
	TG_OP_COMPATIBLE, /* ~= */
	TG_OP_EQ,	  /* == */
	TG_OP_NE,	  /* != */
	TG_OP_LE,	  /* <= */
	TG_OP_GE,	  /* >= */
	TG_OP_LT,	  /* < */
	TG_OP_GT,	  /* > */
	TG_OP_ARBITRARY,  /* === */
};

/* Pre-release handling for one match, as packaging's prereleases= */
enum tg_prereleases {
	TG_PRE_AUTO = 0, /* None: PEP 440 default */
	TG_PRE_ALLOW,	 /* True */
	TG_PRE_DENY,	 /* False */
};

struct tg_spec {
	enum tg_spec_op op;
	char *text;	      /* "op" + version text, as packaging's str() */
	const char *ver;      /* the version text inside text */
	int wildcard;	      /* "==X.*" / "!=X.*" */
	int has_local;	      /* the version text has a "+local" */
	struct tg_version v;  /* the version (the X of X.*); unset for === */
	struct tg_version lo; /* derived bounds, see specifier.c */
	struct tg_version hi;
};

struct tg_specset {
	struct tg_spec *specs;
	size_t n;
	int has_arbitrary; /* "===" appears in the text */
	int in_arena;	   /* specs is an arena's: release leaves it */
};

#define TG_SPECSET_INIT                                                        \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

/* One specifier, s without surrounding whitespace. */
int tg_spec_parse(struct tg_spec *sp, const char *s, size_t len,
		  struct tg_err *err);
void tg_spec_release(struct tg_spec *sp);
/* Range test of one specifier for item (v: item parsed, or NULL); the
 * pre-release policy is the caller's. */
int tg_spec_match(const struct tg_spec *sp, const char *item, size_t len,
		  const struct tg_version *v);

int tg_spec_set_parse(struct tg_specset *set, const char *s, size_t len,
		      struct tg_err *err);
/* tg_spec_set_parse, with the specifiers and their versions taken from
 * a: set then lives as long as a does, and tg_spec_set_release only
 * clears it. */
int tg_spec_set_parse_arena(struct tg_specset *set, const char *s, size_t len,
			    struct tg_arena *a, struct tg_err *err);
void tg_spec_set_release(struct tg_specset *set);

/* Whether the version text item (len bytes) is in set, as
 * SpecifierSet.contains(item, prereleases). v is item parsed, or NULL when
 * item is not a PEP 440 version. */
int tg_spec_set_contains(const struct tg_specset *set, const char *item,
			 size_t len, const struct tg_version *v,
			 enum tg_prereleases pre);

/* Canonical text, as str(SpecifierSet): sorted, duplicates dropped. */
int tg_spec_set_format(const struct tg_specset *set, struct tg_buf *out);

int tg_spec_prereleases_parse(const char *name, enum tg_prereleases *out);

#endif
