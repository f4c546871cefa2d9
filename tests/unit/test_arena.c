/* test_arena.c - unit tests for util/arena
 * SPDX-License-Identifier: MIT
 *
 * Pieces aligned for any object and apart from each other, enough of
 * them to take several blocks, a piece larger than a block, a string,
 * and an arena used again after its release. Run under valgrind by make
 * check, which also tells a write past a piece or a block never freed.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lib/util/arena.h"

static const size_t sizes[] = {1, 3, 8, 15, 16, 17, 100, 4095, 4097, 70000};

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
	return check_result("test_arena");
}
