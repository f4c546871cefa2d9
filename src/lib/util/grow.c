/* grow.c - an array grown to hold n items, doubling, overflow-checked
 * SPDX-License-Identifier: MIT
 *
 * The one growth policy of the library (git's ALLOC_GROW): capacities
 * double from 8, so that appending n items costs O(n) copies in all, and
 * a failure leaves the array as it was, for the caller to report and
 * free (the library never exits). The pointer is read and written
 * through memcpy, so that one function serves arrays of every type
 * without a cast to void ** (which would break strict aliasing).
 */
#include "lib/util/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/err.h"

#define GROW_MIN 8

int
tg_grow(void *pp, size_t *cap, size_t n, size_t size)
{
	void *v, *nv;
	size_t c;

	if (n <= *cap)
		return 0;
	c = *cap < GROW_MIN ? GROW_MIN : *cap;
	while (c < n) {
		if (c > SIZE_MAX / 2)
			return TG_ENOMEM;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return TG_ENOMEM;
	memcpy(&v, pp, sizeof(v));
	nv = realloc(v, c * size);
	if (!nv)
		return TG_ENOMEM;
	memcpy(pp, &nv, sizeof(nv));
	*cap = c;
	return 0;
}
