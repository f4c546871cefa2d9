/* name_end.h - where a name ends, eight bytes at a time
 * SPDX-License-Identifier: MIT
 *
 * The bytes of a name in both tokenizers (pylex, clex): ASCII letters,
 * digits, '_' and every byte >= 0x80. tg_lex_name_end is the first byte
 * at or after k that is none of them (len when there is none), found
 * from a mask of the name bytes of each eight-byte word: one branch per
 * word instead of one per byte, whose exit a byte loop mispredicts at
 * nearly every name. Where the word trick is not known to hold (no GNU
 * C count of trailing zeros, or not little-endian) it is the byte loop.
 */
#ifndef TG_LIB_LEX_NAME_END_H
#define TG_LIB_LEX_NAME_END_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline int
tg_lex_name_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static inline size_t
tg_lex_name_end(const char *s, size_t len, size_t k)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* per byte b of a word, with t = b & 0x7f (so that no sum below
	 * carries into the next byte): t + (0x80 - lo) has its high bit set
	 * when t >= lo, t + (0x7f - hi) when t > hi; letters are tested as
	 * t | 0x20 (A-Z as a-z, nothing else into a-z), '_' by the exact
	 * test for a zero byte of t ^ '_' */
	const uint64_t lo7 = UINT64_C(0x7f7f7f7f7f7f7f7f),
		       high = UINT64_C(0x8080808080808080),
		       one = UINT64_C(0x0101010101010101);

	while (len - k >= 8) {
		uint64_t x, t, y, letter, digit, z, under, other;

		memcpy(&x, s + k, 8);
		t = x & lo7;
		y = t | (one * 0x20);
		letter = (y + one * (0x80 - 'a')) & ~(y + one * (0x7f - 'z'));
		digit = (t + one * (0x80 - '0')) & ~(t + one * (0x7f - '9'));
		z = t ^ (one * '_');
		under = ~(((z & lo7) + lo7) | z);
		other = ~(letter | digit | under | x) & high;
		if (other)
			return k + (size_t)(__builtin_ctzll(other) >> 3);
		k += 8;
	}
#endif
	while (k < len && tg_lex_name_byte((unsigned char)s[k]))
		k++;
	return k;
}

#endif
