/* prefilter.c - which patterns' literals a file holds, and where
 * SPDX-License-Identifier: MIT
 *
 * Per file, one pass over the source (three bytes at every other byte,
 * then four) finds which wanted patterns' literals occur in it, and
 * where (the places, at most PLACES_MAX): a file in which none does (nor
 * "torchgate:", nor a version test, nor a method's id) is not even
 * tokenized, and only the patterns found run, each only near the places
 * of its literals.
 *
 * Worst case: linear in the file; lookups are made CANDIDATES places at
 * a time.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/audit/cxx/internal.h"
#include "lib/util/grow.h"
#include "lib/util/wide.h"

static void
place_add(struct places *pl, size_t pat, size_t at)
{
	if (pl->over)
		return;
	if (pl->n >= PLACES_MAX || TG_GROW(pl->v, pl->n + 1, pl->cap)) {
		pl->over = 1;
		return;
	}
	pl->v[pl->n].pat = pat;
	pl->v[pl->n].at = at;
	pl->n++;
}

/* The literal after literal k - 1 in the prefilter's walk at a place
 * of key key: the rest of its chain, then from a long literal's chain
 * on to the short ones of key (+ 1, 0 at the end). */
static unsigned
next_lit(const struct tg_audit_cxx_index *ix, unsigned k, unsigned key)
{
	unsigned n = ix->next[k - 1];

	if (!n && ix->lits[k - 1].len >= 8)
		n = ix->head[key];
	return n;
}

/* Whether literal l (no longer than len - at) starts at src + at, whose
 * first eight bytes are word (when there are eight): a word or two
 * compared, then memcmp for a literal of more than 16 bytes. */
static inline int
lit_here(const struct lit *l, const char *src, size_t len, size_t at,
	 uint64_t word)
{
	uint64_t w2;

	if (len - at < 16)
		return memcmp(src + at, l->s, l->len) == 0;
	if ((word & l->tg_audit_cxx_mask) != l->head)
		return 0;
	if (l->len <= 8)
		return 1;
	memcpy(&w2, src + at + 8, 8);
	return (w2 & l->mask2) == l->head2 &&
	       (l->len <= 16 ||
		memcmp(src + at + 16, l->s + 16, l->len - 16) == 0);
}

/* Which literals start at src + at (its four bytes' key is set): those
 * of eight bytes or more by the key of the eight bytes, compared as one
 * word, then the shorter ones of the four-byte key; a method id or a
 * trigger found already is passed over. Marks what it finds in found
 * and *any, and where a pattern's literals are found first and last in
 * first and last. */
static inline void
lits_at(const struct tg_audit_cxx_index *ix, const char *src, size_t len,
	size_t at, unsigned char *found, size_t *first, size_t *last,
	struct places *pl, int *any)
{
	unsigned key = key4(src + at), k;
	uint64_t word = 0;

	if (!(ix->keybits[key >> 3] & (1u << (key & 7))))
		return;
	k = ix->head[key];
	if (len - at >= 8) {
		memcpy(&word, src + at, 8);
		k = ix->head8[key8(word)];
		if (!k)
			k = ix->head[key];
	}
	for (; k; k = next_lit(ix, k, key)) {
		const struct lit *l = &ix->lits[k - 1];

		/* found already: a method id's literal, or a trigger whose
		 * bits are set (a pattern's literal is looked for on: its
		 * last place bounds where the pattern runs) */
		if (l->pat < ix->npats	      ? 0
		    : l->pat >= ix->npats + 2 ? found[l->pat - 2]
		    : l->pat == ix->npats + 1 ? (*any & FOUND_SUPPRESSION) != 0
					      : (*any & FOUND_ANY) != 0)
			continue;
		if (l->len > len - at)
			continue;
		if (lit_here(l, src, len, at, word)) {
			if (l->pat < ix->npats) {
				if (!found[l->pat])
					first[l->pat] = at;
				found[l->pat] = 1;
				last[l->pat] = at;
				place_add(pl, l->pat, at);
			} else if (l->pat >= ix->npats + 2)
				found[l->pat - 2] = 1;
			*any |= l->pat == ix->npats + 1
				    ? FOUND_ANY | FOUND_SUPPRESSION
				    : FOUND_ANY;
		}
	}
}

/* The place p looked up: kept (at[n], bits[n]) when some literal has
 * its three bytes, else overwritten by the next. */
#define LOOK(p)                                                                \
	do {                                                                   \
		unsigned m_ = ix->triples[key3(src + (p))];                    \
                                                                               \
		at[n] = (p);                                                   \
		bits[n] = (unsigned char)m_;                                   \
		n += m_ != 0;                                                  \
	} while (0)

/* Which wanted patterns' literals occur in src, into found[k] (a wanted
 * pattern that has none is always found), and whose method ids, into
 * found[npats + j] (j the entry's first pattern), and where the first
 * and the last literal of a pattern found by them start into first[k]
 * and last[k]. Every literal is four bytes or more, so one of its
 * three-byte runs at offsets 0 and 1 starts at an even place: one pass
 * looks up the key of the three bytes at every other byte (key3), and
 * where some literal has them at offset j, lits_at looks at the place j
 * bytes before (each place is so looked at once at most, in the text's
 * order). Where SSE2 is there, the keys of eight places are computed at
 * once and their eight table bytes gathered in one word, which is 0 for
 * most; elsewhere (and for the last bytes) the lookups do not wait for
 * each other, as a skip loop's do: they are made for CANDIDATES places
 * at a time, the places found looked at after. Three bytes keep a twentieth of the places on the bench's
 * headers where two bytes at every third kept a fifth, which cost more
 * than the lookups they saved. With a suppression, every pattern is found (each runs, so that
 * a suppression that matched nothing is told). FOUND_* bits; 0 when
 * the file cannot hold a finding, a suppression or a version branch. */
int
tg_audit_cxx_prefilter(const struct tg_audit_cxx_index *ix, const char *src,
		       size_t len, unsigned char *found, size_t *first,
		       size_t *last, struct places *pl)
{
	size_t i;
	int any = ix->read_all | ix->start_any;

	memcpy(found, ix->start, 2 * ix->npats);
	i = 0;
#ifdef TG_WIDE
	/* sixteen bytes at a time: the keys (key3) of the eight places
	 * i, i + 2, ..., i + 14, their triples' bits in one word, which is
	 * 0 for most, else looked at in order */
	for (; len - i >= 18; i += 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(src + i)),
			x = _mm_loadu_si128((const __m128i *)(src + i + 2)), h;
		uint64_t t;

		h = _mm_xor_si128(
		    _mm_mullo_epi16(w, _mm_set1_epi16((short)KEY3_A)),
		    _mm_mullo_epi16(_mm_and_si128(x, _mm_set1_epi16(0xff)),
				    _mm_set1_epi16((short)KEY3_B)));
		t = (uint64_t)ix->triples[_mm_extract_epi16(h, 0)] |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 1)] << 8 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 2)] << 16 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 3)] << 24 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 4)] << 32 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 5)] << 40 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 6)] << 48 |
		    (uint64_t)ix->triples[_mm_extract_epi16(h, 7)] << 56;
		while (t) {
			unsigned b = (unsigned)__builtin_ctzll(t) & ~7u;
			size_t at = i + (b >> 2);

			if (((t >> b) & 2) && at >= 1)
				lits_at(ix, src, len, at - 1, found, first,
					last, pl, &any);
			if ((t >> b) & 1)
				lits_at(ix, src, len, at, found, first, last,
					pl, &any);
			t &= ~(UINT64_C(0xff) << b);
		}
	}
#endif
	while (i + 2 < len) {
		size_t at[CANDIDATES], n = 0, c;
		unsigned char bits[CANDIDATES];

		/* a batch of the places whose three bytes some literal has,
		 * kept without a branch on each (which would be mispredicted
		 * often), then looked at */
		/* four places at a time, with one test of the bounds */
		for (; i + 9 < len && n + 4 <= CANDIDATES; i += 8) {
			LOOK(i);
			LOOK(i + 2);
			LOOK(i + 4);
			LOOK(i + 6);
		}
		for (; i + 3 < len && n < CANDIDATES; i += 2)
			LOOK(i);
		if (i + 3 == len && n < CANDIDATES) {
			/* the last three bytes */
			unsigned m = ix->triples[key3(src + i)];

			at[n] = i;
			bits[n] = (unsigned char)m;
			n += m != 0;
			i += 2;
		}
		/* the places in order: a pattern's first literal is the
		 * first in the text */
		for (c = 0; c < n; c++) {
			if ((bits[c] & 2) && at[c] >= 1 && at[c] + 3 <= len)
				lits_at(ix, src, len, at[c] - 1, found, first,
					last, pl, &any);
			if ((bits[c] & 1) && at[c] + 4 <= len)
				lits_at(ix, src, len, at[c], found, first, last,
					pl, &any);
		}
	}
	if (any & FOUND_SUPPRESSION)
		memset(found, 1, 2 * ix->npats);
	return any;
}

#undef LOOK
