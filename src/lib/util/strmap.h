/* strmap.h - a hash table from byte strings to pointers
 * SPDX-License-Identifier: MIT
 *
 * For caches of things parsed from text (the markers and specifiers of
 * many requirements): keys are copied (into blocks of a few KiB, so
 * that a key costs no allocation of its own), values are the caller's
 * and are handed to free_value on release. Open addressing, at most half full;
 * nothing is ever removed.
 */
#ifndef TG_LIB_UTIL_STRMAP_H
#define TG_LIB_UTIL_STRMAP_H

#include <stddef.h>

struct tg_strmap {
	struct tg_strmap_entry *slot;
	size_t nslot, n;
	struct tg_strmap_keys *keys; /* the copies of the keys */
};

#define TG_STRMAP_INIT                                                         \
	{                                                                      \
		NULL, 0, 0, NULL                                               \
	}

/* The value of the key s[0..len), or NULL. */
void *tg_strmap_get(const struct tg_strmap *m, const char *s, size_t len);
/* Add the key s[0..len) (not in m) with value (not NULL); TG_ENOMEM,
 * m unchanged. */
int tg_strmap_put(struct tg_strmap *m, const char *s, size_t len, void *value);
/* Free the keys, and each value with free_value when not NULL. */
void tg_strmap_release(struct tg_strmap *m, void (*free_value)(void *));

#endif
