/* arena.c - memory handed out in pieces from a few blocks, freed at once
 * SPDX-License-Identifier: MIT
 *
 * Blocks of ARENA_BLOCK bytes, pieces taken from the front block in
 * order; a piece larger than a quarter block gets a block of its own,
 * kept behind the front one so that the room left there is not lost.
 * Worst case: a quarter of a block wasted per block. Under ASan the room
 * not handed out, and the padding after each piece, stay poisoned, so a
 * read or write past a piece is reported as past a malloc'd one is.
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

#define ARENA_BLOCK ((size_t)16384)
#define ALIGN (alignof(max_align_t))

struct tg_arena_block {
	struct tg_arena_block *next;
	size_t used, cap; /* bytes of data */
	alignas(max_align_t) unsigned char data[];
};

static struct tg_arena_block *
new_block(size_t cap)
{
	struct tg_arena_block *b;

	if (cap > SIZE_MAX - sizeof(*b))
		return NULL;
	b = malloc(sizeof(*b) + cap);
	if (b) {
		b->used = 0;
		b->cap = cap;
		b->next = NULL;
		POISON(b->data, cap);
	}
	return b;
}

void *
tg_arena_alloc(struct tg_arena *a, size_t n)
{
	struct tg_arena_block *b = a->blocks;
	size_t need;

	if (n > SIZE_MAX - ALIGN)
		return NULL;
	need = (n + ALIGN - 1) / ALIGN * ALIGN;
	if (b && b->cap - b->used >= need) {
		b->used += need;
		UNPOISON(b->data + b->used - need, n);
		return b->data + b->used - need;
	}
	if (need > ARENA_BLOCK / 4) {
		struct tg_arena_block *big = new_block(need);

		if (!big)
			return NULL;
		big->used = need;
		UNPOISON(big->data, n);
		if (b) {
			big->next = b->next;
			b->next = big;
		} else {
			a->blocks = big;
		}
		return big->data;
	}
	b = new_block(ARENA_BLOCK);
	if (!b)
		return NULL;
	b->next = a->blocks;
	a->blocks = b;
	b->used = need;
	UNPOISON(b->data, n);
	return b->data;
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
}
