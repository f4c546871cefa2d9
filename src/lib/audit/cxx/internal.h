/* internal.h - the C/C++/CUDA analyzer's shared state, for audit/cxx/ only
 * SPDX-License-Identifier: MIT
 *
 * What the files of audit/cxx/ share and nothing else includes: the
 * index made once from the table (struct tg_audit_cxx_index: the
 * patterns and the prefilter's literals, read-only while files are
 * read but for each pattern's compiled code, set once when a file
 * first needs it), the state of one file being read (struct cx: the
 * source, its two masked copies, the open conditionals and the guarding
 * regions, the newlines), the byte tests and prefilter keys that run per byte
 * (inline), and the functions one file of the folder calls in another,
 * named tg_audit_cxx_* after the folder (src/lib/README.md). The public
 * entry points are in audit/audit.h.
 *
 * Limits: FINDINGS_MAX findings a file, DEPTH_MAX nested conditionals
 * followed, REGIONS_MAX guarded branches, PLACES_MAX places of literals,
 * LOOKBACK bytes read back for a receiver's declaration.
 */
#ifndef TG_LIB_AUDIT_CXX_INTERNAL_H
#define TG_LIB_AUDIT_CXX_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/audit/audit.h"
#include "lib/lex/clex.h"
#include "lib/util/diag.h"
#include "lib/util/scan.h"

#define FINDINGS_MAX 10000
#define REGIONS_MAX 65536
#define DEPTH_MAX 64
#define TEXT_MAX 200
#define LITERAL_MAX 64
#define LOOKBACK 65536
#define GRID_MINOR TG_AUDIT_GRID_MINOR
#define GRID TG_AUDIT_GRID

/* A closed branch that guards lines first..last. */
struct region {
	size_t first, last;
	size_t line;	 /* of the directive that makes it a guard */
	size_t off, len; /* that directive's first line, in src */
};

/* An open conditional chain. */
struct frame {
	size_t line;	 /* of the current branch's directive */
	size_t off, len; /* the current branch's directive text */
	int guard;	 /* some condition of the chain is a guard */
	size_t gline, goff, glen;
	int exact; /* every condition so far read exactly */
	unsigned char rest[GRID], cur[GRID];
	int is_else;
	size_t if_line;
};

struct cx {
	const struct tg_table *t;
	const char *src, *path;
	size_t len;
	char *code, *ment;
	unsigned char *strbits; /* a bit per byte: inside a literal */
	struct tg_audit_result *r;
	struct frame *fr;
	size_t depth; /* open chains, fr[0..min(depth, DEPTH_MAX)) */
	struct region *reg;
	size_t nreg, capreg;
	size_t added; /* findings this file */
	int full;     /* FINDINGS_MAX reached, noted */
	int dedupe;   /* look for the same finding from another pattern */
	/* where each line but the last ends: the offsets of the newlines */
	size_t *nl, nnl;
	int oom;
};

static inline int
is_ident(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c >= 0x80;
}

static inline int
in_literal(const struct cx *x, size_t off)
{
	return (x->strbits[off / 8] >> (off % 8)) & 1;
}

/* A set of literals one of which every match of a pattern contains;
 * n == 0: none known (any text may match). pre: at most how many bytes
 * of a match come before that literal (WIDTH_ANY: no bound known). */
#define LITS_MAX 16
#define WIDTH_ANY ((size_t)-1)
struct litset {
	char s[LITS_MAX][LITERAL_MAX + 1];
	size_t n;
	size_t pre;
};

/* A usage pattern of a C++ entry, with the literals one of which each
 * of its matches holds. */
struct pat {
	const struct tg_api *a;
	/* the pattern, compiled when a file first needs it
	 * (tg_audit_cxx_pattern_re): re, NULL until then (stored once, by
	 * compare and swap), or bad, it does not compile */
	const char *usage;
	_Atomic(struct tg_scan_re *) re;
	atomic_int bad;
	struct litset lits;
	int always; /* no literal to look for: it runs on every file */
	int wanted; /* its entry is looked for (tg_audit_cxx_index_only) */
	const char *kind;     /* base_kind of its entry */
	int method, function; /* its entry's kind is "method", "function" */
};

/* A literal the prefilter looks for: one of pattern pat's, or (pat ==
 * npats) a trigger that makes a file worth reading without any pattern:
 * "TORCH_VERSION_M" (a version branch), or (pat == npats + 1)
 * "torchgate:", a suppression, which makes every entry looked for in
 * that file, or (pat == npats + 2 + j) the id of the method entry whose
 * first pattern is j (its mentions). */
struct lit {
	const char *s;
	size_t len;
	size_t pat;
	/* its first eight bytes (fewer: masked), compared as one word, and
	 * the next eight (head2, mask2) */
	uint64_t head, tg_audit_cxx_mask, head2, mask2;
};

struct tg_audit_cxx_index {
	struct pat *pats;
	size_t npats;
	struct lit *lits;
	size_t nlits;
	unsigned char keybits[65536 / 8]; /* keys (key4) some literal has */
	/* by the key of three bytes (key3): bit j set when they are bytes
	 * j to j + 2 of some literal, j < 2 */
	unsigned char triples[65536];
	/* per key: its first literal + 1, of those of 4 to 7 bytes by key4
	 * (head), of those of 8 or more by key8 (head8); the rest of a
	 * chain in next (the next literal + 1) */
	unsigned short head[65536], head8[65536];
	unsigned short *next;
	int read_all; /* a wanted method's id is too short a key */
	/* what the prefilter starts each file from: found[k] of npats * 2
	 * (a wanted pattern without a literal is found in every file), and
	 * its FOUND_ANY when one is */
	unsigned char *start;
	int start_any;
	const struct tg_table *t;
};

#define SUPPRESSION_KEY "torchgate:"
#define BRANCH_KEY "TORCH_VERSION_M"

/* The prefilter's key of the four bytes at s: a 16-bit hash. */
static inline unsigned
key4(const char *s)
{
	uint32_t v;

	memcpy(&v, s, 4);
	return (unsigned)((v * UINT32_C(2654435761)) >> 16);
}

/* The key of eight bytes w: a 16-bit hash. */
static inline unsigned
key8(uint64_t w)
{
	return (unsigned)((w * UINT64_C(0x9E3779B97F4A7C15)) >> 48);
}

/* The key of the three bytes at s: a 16-bit hash of them, in 16-bit
 * arithmetic (the prefilter computes eight at once: prefilter.c). */
#define KEY3_A 0x9e37u
#define KEY3_B 0x7f4bu

static inline unsigned
key3(const char *s)
{
	unsigned x = (unsigned)(unsigned char)s[0] |
		     (unsigned)(unsigned char)s[1] << 8,
		 y = (unsigned char)s[2];

	return ((x * KEY3_A) ^ (y * KEY3_B)) & 0xffffu;
}

/* What the prefilter found. */
#define CANDIDATES 256	    /* places looked up before they are looked at */
#define FOUND_ANY 1	    /* a pattern's literal or a trigger */
#define FOUND_SUPPRESSION 2 /* "torchgate:": every entry is looked for */

/* Where the prefilter found the wanted patterns' literals: each place
 * (the pattern, the literal's offset), in the text's order, at most
 * PLACES_MAX of them; over: more, or no memory for them (the patterns
 * then run over the bytes between their first and last places). */
#define PLACES_MAX 65536
struct place {
	size_t pat, at;
};
struct places {
	struct place *v;
	size_t n, cap;
	int over;
};

/* The functions the files of audit/cxx/ call in each other, by the file
 * that defines them (and says what each does). */

/* mask.c */
void tg_audit_cxx_position(const struct cx *x, size_t off, size_t *line,
			   size_t *col);
int tg_audit_cxx_newlines(struct cx *x, char *m);
void tg_audit_cxx_blank(char *m, size_t a, size_t e);
int tg_audit_cxx_mask(struct cx *x);

/* cond.c */
int tg_audit_cxx_word_is(const char *s, size_t n, const char *w);
int tg_audit_cxx_ends_with(const char *s, size_t n, const char *suffix);
int tg_audit_cxx_add_region(struct cx *x, const struct frame *f, size_t last);
int tg_audit_cxx_directive(struct cx *x, const struct tg_clex_tok *t);

/* findings.c */
const char *tg_audit_cxx_base_kind(const struct tg_api *a);
int tg_audit_cxx_add(struct cx *x, const struct tg_api *a, size_t b, size_t e,
		     size_t se, enum tg_audit_in in, const char *kind);
int tg_audit_cxx_run_pattern(struct cx *x, struct pat *p, const char *text,
			     size_t from, size_t to, const size_t *at,
			     size_t nat, enum tg_audit_in in,
			     struct tg_err *err);
int tg_audit_cxx_mention_id(struct cx *x, const struct tg_api *a);
int tg_audit_cxx_one_per_span(struct tg_audit_result *r, size_t first);

/* index.c */
int tg_audit_cxx_pattern_re(struct pat *p, const struct tg_scan_re **re);

/* literals.c */
void tg_audit_cxx_literal_set(const char *p, size_t a, size_t e,
			      struct litset *best);

/* receiver.c */
int tg_audit_cxx_receiver_not_tensor(const struct cx *x, size_t dot);

/* index.c */
int tg_audit_cxx_extends(const struct tg_api *a, const struct tg_api *p);

/* prefilter.c */
int tg_audit_cxx_prefilter(const struct tg_audit_cxx_index *ix, const char *src,
			   size_t len, unsigned char *found, size_t *first,
			   size_t *last, struct places *pl);

#endif
