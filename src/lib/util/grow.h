/* grow.h - an array grown to hold n items, doubling, overflow-checked
 * SPDX-License-Identifier: MIT
 */
#ifndef TG_LIB_UTIL_GROW_H
#define TG_LIB_UTIL_GROW_H

#include <stddef.h>

/* Make the array *pp (of *cap items of size bytes) hold at least n
 * items: nothing when it does; else realloc to the first of 8, 16, 32,
 * ... capacities that holds n, *cap updated. 0, or TG_ENOMEM when the
 * size would overflow or realloc fails: *pp and *cap are then as they
 * were (the items kept, still the caller's to free). pp is the address
 * of a pointer to any object type; use TG_GROW. */
int tg_grow(void *pp, size_t *cap, size_t n, size_t size);

/* Grow array x (a pointer lvalue) of capacity cap (a size_t lvalue) to
 * hold n items, git's ALLOC_GROW without the dying:
 *
 *	if (TG_GROW(v->items, v->n + 1, v->cap))
 *		return TG_ENOMEM;
 *	v->items[v->n++] = item;
 */
#define TG_GROW(x, n, cap) tg_grow(&(x), &(cap), (n), sizeof(*(x)))

#endif
