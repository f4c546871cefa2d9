/* test_grow.c - unit tests for util/grow: the one array growth
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/util/err.h"
#include "lib/util/grow.h"

struct item {
	int a;
	char b[12];
};

/* Appending one at a time: the capacities double from 8, the items are
 * kept, and no realloc happens while there is room. */
static void
appending(void)
{
	struct item *v = NULL, *before;
	size_t n = 0, cap = 0, k, grew = 0;

	for (k = 0; k < 100; k++) {
		size_t old = cap;

		CHECK(TG_GROW(v, n + 1, cap) == 0, "grow to %zu", n + 1);
		if (cap != old) {
			grew++;
			CHECK(cap == (old ? old * 2 : 8),
			      "capacity %zu after %zu", cap, old);
		}
		CHECK(cap >= n + 1, "room for %zu", n + 1);
		v[n].a = (int)k;
		n++;
	}
	CHECK(grew == 5 && cap == 128, "8 16 32 64 128: %zu times, %zu", grew,
	      cap);
	for (k = 0; k < n; k++)
		CHECK(v[k].a == (int)k, "item %zu kept", k);
	before = v;
	CHECK(TG_GROW(v, 128, cap) == 0 && v == before && cap == 128,
	      "no growth within the capacity");
	CHECK(TG_GROW(v, 0, cap) == 0 && v == before, "n 0");
	free(v);
}

/* A jump past several doublings; a small capacity rounds up to 8. */
static void
jumps(void)
{
	char *s = NULL;
	size_t cap = 0;
	int *w = NULL;
	size_t wcap = 3; /* a capacity below the minimum, as a caller's */

	CHECK(TG_GROW(s, 1000, cap) == 0 && cap == 1024, "1000 -> %zu", cap);
	memset(s, 'x', 1000);
	CHECK(TG_GROW(s, 1025, cap) == 0 && cap == 2048 && s[999] == 'x',
	      "1025 -> %zu, kept", cap);
	free(s);
	w = malloc(3 * sizeof(*w));
	CHECK(w != NULL, "malloc");
	if (!w)
		return;
	w[2] = 7;
	CHECK(TG_GROW(w, 4, wcap) == 0 && wcap == 8 && w[2] == 7, "3 -> %zu",
	      wcap);
	free(w);
}

/* Overflow is TG_ENOMEM, and the array is left as it was. */
static void
overflow(void)
{
	struct item *v = NULL;
	size_t cap = 0;
	double *d = NULL;
	size_t dcap = 0;

	CHECK(TG_GROW(v, 1, cap) == 0, "first");
	v[0].a = 42;
	CHECK(TG_GROW(v, SIZE_MAX / 2, cap) == TG_ENOMEM && cap == 8 &&
		  v[0].a == 42,
	      "bytes past SIZE_MAX: TG_ENOMEM, unchanged");
	CHECK(TG_GROW(v, SIZE_MAX, cap) == TG_ENOMEM && cap == 8,
	      "the capacity itself past SIZE_MAX");
	free(v);
	CHECK(TG_GROW(d, SIZE_MAX / sizeof(*d) + 1, dcap) == TG_ENOMEM &&
		  d == NULL && dcap == 0,
	      "from nothing: still nothing");
}

int
main(void)
{
	appending();
	jumps();
	overflow();
	return check_result("test_grow");
}
