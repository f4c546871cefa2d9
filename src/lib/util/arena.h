/* arena.h - memory handed out in pieces from a few blocks, freed at once
 * SPDX-License-Identifier: MIT
 *
 * For many small objects that live and die together (the markers,
 * specifier sets and versions a requirement cache keeps, the nodes and
 * strings of a JSON document): a piece costs no allocation of its own,
 * and nothing is freed before the whole arena.
 */
#ifndef TG_LIB_UTIL_ARENA_H
#define TG_LIB_UTIL_ARENA_H

#include <stddef.h>

struct tg_arena {
	struct tg_arena_block *blocks; /* the first is the one in use */
	size_t first, max; /* block sizes: first, then doubling up to max */
	size_t next;	   /* the next block's size; 0: 16 KiB */
};

/* Blocks of first bytes, each one twice the last up to max (first <= max,
 * both > 0); no allocation. */
#define TG_ARENA_INIT_GROWING(first, max)                                      \
	{                                                                      \
		NULL, (first), (max), (first)                                  \
	}
/* Blocks of 16 KiB, as an arena all zero has. */
#define TG_ARENA_INIT TG_ARENA_INIT_GROWING(0, 0)

/* n bytes (n > 0), aligned for any object, valid until a is released;
 * NULL when out of memory. */
void *tg_arena_alloc(struct tg_arena *a, size_t n);
/* s[0..n) and a NUL, in a; NULL when out of memory. */
char *tg_arena_strndup(struct tg_arena *a, const char *s, size_t n);
/* Free every block; a is then empty and may be used again, from a block
 * of its first size. */
void tg_arena_release(struct tg_arena *a);

#endif
