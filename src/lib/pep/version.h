/* version.h - PEP 440 versions: parse, normalise, order
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_version is one parsed PEP 440 version, exactly as
 * pypa/packaging 26.x's Version reads it: surrounding whitespace (Python's
 * str.isspace set, UTF-8 encoded), an optional "v", epoch, release,
 * pre/post/dev segments in all their spellings, and a local label.
 * Numbers are kept as digit strings without leading zeros and compared by
 * length then digits, so numbers of any size order correctly and nothing
 * overflows. The arrays and strings are one block the version owns, or
 * one piece of an arena (tg_version_parse_arena) that owns it.
 */
#ifndef TG_LIB_PEP_VERSION_H
#define TG_LIB_PEP_VERSION_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util/arena.h"
#include "lib/util/err.h"

/* A non-negative decimal number: digits, no leading zeros ("0" for zero). */
struct tg_num {
	const char *p;
	size_t n;
};

enum tg_pre_kind { TG_PRE_NONE = 0, TG_PRE_A, TG_PRE_B, TG_PRE_RC };

struct tg_local_seg {
	const char *p; /* lower-cased text, or a tg_num when numeric */
	size_t n;
	int numeric;
};

struct tg_version {
	char *str; /* canonical form, which the numbers point into */
	char *raw; /* the text as given, for "===" */
	struct tg_num epoch;
	struct tg_num *release; /* one block with local, str and raw */
	size_t nrelease;
	enum tg_pre_kind pre;
	struct tg_num pre_n;
	int has_post;
	struct tg_num post_n;
	int has_dev;
	struct tg_num dev_n;
	struct tg_local_seg *local;
	size_t nlocal; /* 0: no local label */
	int in_arena;  /* the block is an arena's: release leaves it */
};

#define TG_VERSION_INIT                                                        \
	{                                                                      \
		0                                                              \
	}

/* Parse len bytes of s. On failure returns TG_EINVAL (or TG_ENOMEM) and
 * leaves v released. */
int tg_version_parse(struct tg_version *v, const char *s, size_t len,
		     struct tg_err *err);
/* tg_version_parse, with the block taken from a: v then lives as long
 * as a does, and tg_version_release only clears it. */
int tg_version_parse_arena(struct tg_version *v, const char *s, size_t len,
			   struct tg_arena *a, struct tg_err *err);
void tg_version_release(struct tg_version *v);
/* Deep copy. */
int tg_version_dup(struct tg_version *dst, const struct tg_version *src);

/* End of the longest version prefix of s[i..e) (packaging's version regex
 * used with match() rather than fullmatch()), or SIZE_MAX if none. */
size_t tg_version_scan_prefix(const char *s, size_t i, size_t e,
			      int allow_local);

/* Total PEP 440 order: <0, 0, >0. */
int tg_version_cmp(const struct tg_version *a, const struct tg_version *b);

/* The same order on the text of two versions that tg_version_parse
 * accepts (a text it refuses compares as "0"), without allocating: for
 * sorting many versions kept as text. */
int tg_version_cmp_text(const char *a, size_t alen, const char *b, size_t blen);

int tg_version_is_prerelease(const struct tg_version *v);

/* Epoch and release equal once trailing zeros are ignored. */
int tg_version_same_release(const struct tg_version *a,
			    const struct tg_version *b);

/* Compare two digit strings numerically. */
int tg_version_num_cmp(struct tg_num a, struct tg_num b);

#endif
