/* arena.h - memory handed out in pieces from a few blocks, freed at once
 * SPDX-License-Identifier: MIT
 *
 * For many small objects that live and die together (the markers,
 * specifier sets and versions a requirement cache keeps): a piece costs
 * no allocation of its own, and nothing is freed before the whole arena.
 */
#ifndef TG_LIB_UTIL_ARENA_H
#define TG_LIB_UTIL_ARENA_H

#include <stddef.h>

struct tg_arena {
	struct tg_arena_block *blocks; /* the first is the one in use */
};

#define TG_ARENA_INIT                                                          \
	{                                                                      \
		NULL                                                           \
	}

/* n bytes (n > 0), aligned for any object, valid until a is released;
 * NULL when out of memory. */
void *tg_arena_alloc(struct tg_arena *a, size_t n);
/* s[0..n) and a NUL, in a; NULL when out of memory. */
char *tg_arena_strndup(struct tg_arena *a, const char *s, size_t n);
/* Free every block; a is then empty and may be used again. */
void tg_arena_release(struct tg_arena *a);

#endif
