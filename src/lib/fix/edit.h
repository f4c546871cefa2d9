/* edit.h - replacements of byte ranges in a buffer, and their unified diff
 * SPDX-License-Identifier: MIT
 *
 * An edit replaces the bytes [start, end) of an original buffer with
 * text (an insertion has start == end, a deletion an empty text). A set
 * of edits is applied in one pass over the original, so every offset is
 * one of the original's: nothing shifts while edits are collected.
 *
 * Two edits conflict when they replace a common byte, or when both
 * replace something and start at the same offset; insertions at one
 * offset do not conflict with each other and keep their given order
 * (and come before a replacement starting there). Identical edits (same
 * range, same text) count once: two fixes may need the same import.
 */
#ifndef TG_LIB_FIX_EDIT_H
#define TG_LIB_FIX_EDIT_H

#include <stddef.h>

#include "lib/util/buf.h"
#include "lib/util/err.h"

struct tg_edit {
	size_t start, end; /* [start, end) of the original */
	const char *text;  /* the replacement, borrowed; may hold NULs */
	size_t len;
};

/* 1 when a and b cannot both be applied. */
int tg_edit_conflict(const struct tg_edit *a, const struct tg_edit *b);

/* Sort e[0..n) by start (stable: insertions keep their order), drop
 * identical repeats, and store the count left in *n. TG_EINVAL (with the
 * offsets in err) when two conflict or one lies outside [0, len]. */
int tg_edit_normalize(struct tg_edit *e, size_t *n, size_t len,
		      struct tg_err *err);

/* A buffer with lone CRs is analyzed and fixed as a copy lf with each
 * made LF (tg_str_lone_cr: the same offsets). text[0..tlen), to be
 * written at offset at, is made to end its lines as src does there: each
 * LF of it that no CR precedes becomes a CR when the line end at or
 * after at in src (else the last one before it) is a lone CR. */
void tg_edit_eol(const char *src, const char *lf, size_t len, size_t at,
		 char *text, size_t tlen);

/* Append to out the original src[0..len) with the normalized edits
 * e[0..n) applied. The first failure of out is returned. */
int tg_edit_apply(const char *src, size_t len, const struct tg_edit *e,
		  size_t n, struct tg_buf *out);

/* The edits of two passes as one set over the original: a[0..na)
 * (normalized) turn src[0..len) into mid, and b[0..nb) (normalized,
 * offsets into mid) turn mid into fin[0..flen). Into *out (owned; its
 * texts point into fin) and *nout: edits of src, normalized, that give
 * fin applied in one pass; where an edit of b touches the text an edit
 * of a wrote (or is next to it), the two become one edit. 0 or
 * TG_ENOMEM. */
int tg_edit_compose(const struct tg_edit *a, size_t na, const struct tg_edit *b,
		    size_t nb, const char *fin, size_t flen,
		    struct tg_edit **out, size_t *nout);

/* Append to out the unified diff (three lines of context, as `diff -u`
 * and `git diff` write it: "--- a/PATH", "+++ b/PATH", "@@ -l,s +l,s @@"
 * hunks, "\ No newline at end of file") that turns src into src with the
 * normalized edits applied; nothing when they change nothing. Lines end
 * at LF (a CR before it is part of the line). */
int tg_edit_diff(const char *path, const char *src, size_t len,
		 const struct tg_edit *e, size_t n, struct tg_buf *out);

#endif
