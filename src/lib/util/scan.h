/* scan.h - pattern search: the one module that uses PCRE2
 * SPDX-License-Identifier: MIT
 *
 * Patterns are PCRE2 in multiline mode, compiled with JIT where the
 * platform has it. Every match is bounded (match and depth limits); a
 * caller reads at most TG_SCAN_FILE_MAX bytes of a file to search.
 */
#ifndef TG_LIB_UTIL_SCAN_H
#define TG_LIB_UTIL_SCAN_H

#include <stddef.h>

#include "lib/util/err.h"

#define TG_SCAN_FILE_MAX ((size_t)64 * 1024 * 1024)

/* 0 when pattern compiles; else TG_EINVAL with the offset and PCRE2's
 * message, or TG_ENOMEM. */
int tg_scan_pattern_check(const char *pattern, size_t *offset, char *msg,
			  size_t msgsz);

/* *matched: whether pattern matches anywhere in s[0..len). */
int tg_scan_text(const char *pattern, const char *s, size_t len, int *matched,
		 struct tg_err *err);

/* A compiled pattern, for searching many texts. */
struct tg_scan_re;

/* Compile pattern (multiline, no JIT: see scan.c) into *out. */
int tg_scan_compile(struct tg_scan_re **out, const char *pattern,
		    struct tg_err *err);
/* As tg_scan_compile, JIT-compiled where the platform has it: several
 * times faster, but a match may read up to TG_SCAN_PAD bytes past the
 * subject's end, so every text searched with it must be followed by
 * TG_SCAN_PAD initialised bytes of the same allocation. */
#define TG_SCAN_PAD 64
int tg_scan_compile_padded(struct tg_scan_re **out, const char *pattern,
			   struct tg_err *err);
/* NULL-safe. */
void tg_scan_re_free(struct tg_scan_re *re);

/* A group that took no part in the match. */
#define TG_SCAN_UNSET ((size_t)-1)
/* The most groups a callback sees (group 0, the whole match, included). */
#define TG_SCAN_GROUPS_MAX 32

/* Called for each match in s, left to right: ov[2k] and ov[2k + 1] are
 * the start and end offsets of group k (TG_SCAN_UNSET when it did not
 * take part), ngroups counts group 0. Return 0 to go on, 1 to stop, or
 * a negative TG_E* code to stop and return it. */
typedef int (*tg_scan_cb)(void *ctx, const char *s, const size_t *ov,
			  size_t ngroups);

/* Call cb for each non-overlapping match of re in s[0..len); an empty
 * match moves on by one byte. Each match is bounded as tg_scan_text's;
 * TG_ELIMIT when one runs past the limits. */
int tg_scan_re_each(const struct tg_scan_re *re, const char *s, size_t len,
		    tg_scan_cb cb, void *ctx, struct tg_err *err);

/* As tg_scan_re_each, for the matches that start at from to to (the
 * text around is still seen by lookarounds and \b, and a match may end
 * past to): the same as those of tg_scan_re_each when none starts
 * elsewhere. to: SIZE_MAX, or a pattern of tg_scan_compile_padded. */
int tg_scan_re_each_from(const struct tg_scan_re *re, const char *s, size_t len,
			 size_t from, size_t to, tg_scan_cb cb, void *ctx,
			 struct tg_err *err);

/* As tg_scan_re_each, when the caller knows that every match starts at
 * most pre bytes before, or at, one of the offsets at[0..n) (ascending;
 * repeats allowed): only there is a match looked for, one search from
 * each offset less pre (or where the last match ended) limited to the
 * offset, so the matches are tg_scan_re_each's. For a pattern of
 * tg_scan_compile_padded. */
int tg_scan_re_each_near(const struct tg_scan_re *re, const char *s, size_t len,
			 const size_t *at, size_t n, size_t pre, tg_scan_cb cb,
			 void *ctx, struct tg_err *err);

/* As tg_scan_re_each with pattern compiled for this one call. */
int tg_scan_each(const char *pattern, const char *s, size_t len, tg_scan_cb cb,
		 void *ctx, struct tg_err *err);

#endif
