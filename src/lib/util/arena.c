/* arena.c - memory handed out in pieces from a few blocks, freed at once
 * SPDX-License-Identifier: MIT
 *
 * Blocks of the arena's first size, each new one twice the last up to
 * its max; an arena left at zero (TG_ARENA_INIT) has blocks of 16 KiB.
 * Pieces are taken from the front block in order; a piece larger than
 * a quarter of the next block gets a block of its own, kept behind the
 * front one so that the room left there is not lost. Worst case: a
 * quarter of each block wasted, and most of the newest one unused.
 * Under ASan the room not handed out, and the padding after each piece,
 * stay poisoned, so a read or write past a piece is reported as past a
 * malloc'd one is.
 */
#include "lib/util/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif

#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define ARENA_BLOCK ((size_t)16384) /* when next is 0 */
#define ALIGN (alignof(max_align_t))

struct tg_arena_block {
	struct tg_arena_block *next;
	size_t used, cap; /* bytes of data */
	alignas(max_align_t) unsigned char data[];
};

/* n bytes (need with the padding) at the start of a new block: one of
 * the next size in front, or, for a large piece, one of its own behind
 * the front one. Out of line, so that tg_arena_alloc's common path
 * saves no registers. */
static __attribute__((noinline)) void *
new_block(struct tg_arena *a, size_t n, size_t need)
{
	struct tg_arena_block *b, **at = &a->blocks;
	size_t cap = a->next ? a->next : ARENA_BLOCK;
	int big = need > cap / 4;

	if (big)
		cap = need;
	if (cap > SIZE_MAX - sizeof(*b) || !(b = malloc(sizeof(*b) + cap)))
		return NULL;
	if (!big)
		a->next = cap <= a->max / 2 ? 2 * cap : a->max;
	else if (*at)
		at = &(*at)->next;
	b->used = need;
	b->cap = cap;
	b->next = *at;
	*at = b;
	POISON(b->data, cap);
	UNPOISON(b->data, n);
	return b->data;
}

void *
tg_arena_alloc(struct tg_arena *a, size_t n)
{
	struct tg_arena_block *b = a->blocks;
	size_t need;

	if (n > SIZE_MAX - ALIGN)
		return NULL;
	need = (n + ALIGN - 1) / ALIGN * ALIGN;
	if (!b || b->cap - b->used < need)
		return new_block(a, n, need);
	b->used += need;
	UNPOISON(b->data + b->used - need, n);
	return b->data + b->used - need;
}

char *
tg_arena_strndup(struct tg_arena *a, const char *s, size_t n)
{
	char *p = n < SIZE_MAX ? tg_arena_alloc(a, n + 1) : NULL;

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

void
tg_arena_release(struct tg_arena *a)
{
	struct tg_arena_block *b, *next;

	for (b = a->blocks; b; b = next) {
		next = b->next;
		UNPOISON(b->data, b->cap);
		free(b);
	}
	a->blocks = NULL;
	a->next = a->first;
}
