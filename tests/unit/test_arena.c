/* test_arena.c - unit tests for util/arena
 * SPDX-License-Identifier: MIT
 *
 * Pieces aligned for any object and apart from each other, enough of
 * them to take several blocks, a piece larger than a block, a string,
 * and an arena used again after its release. Then the block sizes, seen
 * through the public API: pieces of one block follow each other, so the
 * length of each run of adjacent pieces is a block's size. Run under
 * valgrind by make check, which also tells a write past a piece or a
 * block never freed.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lib/util/arena.h"

static const size_t sizes[] = {1, 3, 8, 15, 16, 17, 100, 4095, 4097, 70000};

#define P (alignof(max_align_t)) /* a piece taking no padding */

/* The sizes in bytes of the next nrun blocks that pieces of P bytes
 * fill, in run[]; after each block's first piece, a piece of big bytes
 * when big is not 0. Returns 0, or -1 when out of memory. */
static int
runs(struct tg_arena *a, size_t *run, size_t nrun, size_t big)
{
	unsigned char *p, *last = NULL;
	size_t k = 0, len = 0;

	while (k < nrun) {
		if (!(p = tg_arena_alloc(a, P)))
			return -1;
		if (last && p != last + P) { /* a new block */
			run[k++] = len * P;
			len = 0;
		}
		if (len++ == 0 && big && !tg_arena_alloc(a, big))
			return -1;
		last = p;
	}
	return 0;
}

struct growth {
	size_t first, max, big;
	size_t want[5]; /* the first five blocks' sizes */
};

/* With big, a piece larger than the max: a block of its own each time,
 * behind the front one, whose run goes on. */
static const struct growth growths[] = {
    {0, 0, 0, {16384, 16384, 16384, 16384, 16384}},
    {1024, 8192, 0, {1024, 2048, 4096, 8192, 8192}},
    {4096, 4096, 0, {4096, 4096, 4096, 4096, 4096}},
    {1024, 4096, 9000, {1024, 2048, 4096, 4096, 4096}},
};

static void
check_growth(void)
{
	struct tg_arena q = TG_ARENA_INIT_GROWING(4096, 4096);
	unsigned char *p[4];
	size_t i, k, run[5];

	for (i = 0; i < sizeof(growths) / sizeof(*growths); i++) {
		const struct growth *g = &growths[i];
		struct tg_arena a = TG_ARENA_INIT_GROWING(g->first, g->max);
		int round;

		/* the second round: released, it starts again at first */
		for (round = 0; round < 2; round++) {
			CHECK(runs(&a, run, 5, g->big) == 0, "growth %zu", i);
			for (k = 0; k < 5; k++)
				CHECK(run[k] == g->want[k],
				      "growth %zu, round %d, block %zu: %zu "
				      "bytes, want %zu",
				      i, round, k, run[k], g->want[k]);
			tg_arena_release(&a);
			CHECK(a.blocks == NULL, "growth %zu: released", i);
		}
	}
	/* more than a quarter of a block, where the front one has no room
	 * for it: a block of its own, and the front one goes on */
	for (k = 0; k < 4; k++)
		p[k] = tg_arena_alloc(&q, k < 3 ? 1024 : 2000);
	CHECK(p[1] == p[0] + 1024 && p[2] == p[1] + 1024, "1024 in a row");
	CHECK(p[3] && p[3] != p[2] + 1024, "2000 in a block of its own");
	p[3] = tg_arena_alloc(&q, P);
	CHECK(p[3] == p[2] + 1024, "the front block goes on");
	tg_arena_release(&q);
}

int
main(void)
{
	struct tg_arena a = TG_ARENA_INIT;
	unsigned char *p[2000];
	size_t k, n = sizeof(p) / sizeof(p[0]), bad = 0;
	char *s;
	int round;

	for (round = 0; round < 2; round++) {
		for (k = 0; k < n; k++) {
			size_t sz = sizes[k % (sizeof(sizes) / sizeof(*sizes))];

			p[k] = tg_arena_alloc(&a, sz);
			if (!p[k] || (uintptr_t)p[k] % alignof(max_align_t)) {
				bad++;
				continue;
			}
			memset(p[k], (int)(k & 0xff), sz);
		}
		/* each piece kept what was written to it */
		for (k = 0; k < n; k++) {
			size_t sz = sizes[k % (sizeof(sizes) / sizeof(*sizes))];

			if (p[k] && (p[k][0] != (k & 0xff) ||
				     p[k][sz - 1] != (k & 0xff)))
				bad++;
		}
		CHECK(bad == 0,
		      "round %d: %zu pieces missing, misaligned or "
		      "overwritten",
		      round, bad);
		s = tg_arena_strndup(&a, "torch>=2.4", 5);
		CHECK(s && strcmp(s, "torch") == 0, "strndup");
		s = tg_arena_strndup(&a, "", 0);
		CHECK(s && *s == '\0', "strndup of nothing");
		CHECK(tg_arena_alloc(&a, SIZE_MAX) == NULL,
		      "a piece that cannot be held");
		tg_arena_release(&a);
		CHECK(a.blocks == NULL, "released");
	}
	check_growth();
	return check_result("test_arena");
}
