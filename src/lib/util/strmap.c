/* strmap.c - a hash table from byte strings to pointers
 * SPDX-License-Identifier: MIT
 *
 * FNV-1a over the key, linear probing, the table doubled when it would
 * be more than half full; each entry keeps its hash so that growing and
 * probing compare lengths and hashes before bytes.
 */
#include "lib/util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/err.h"
#include "lib/util/str.h"

struct tg_strmap_entry {
	char *key; /* NULL: a free slot */
	size_t len;
	size_t hash;
	void *value;
};

static size_t
hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t k;

	for (k = 0; k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 1099511628211ULL;
	return (size_t)h;
}

void *
tg_strmap_get(const struct tg_strmap *m, const char *s, size_t len)
{
	size_t h, i;

	if (!m->nslot)
		return NULL;
	h = hash(s, len);
	for (i = h & (m->nslot - 1); m->slot[i].key;
	     i = (i + 1) & (m->nslot - 1))
		if (m->slot[i].hash == h && m->slot[i].len == len &&
		    memcmp(m->slot[i].key, s, len) == 0)
			return m->slot[i].value;
	return NULL;
}

static void
place(struct tg_strmap_entry *slot, size_t nslot,
      const struct tg_strmap_entry *e)
{
	size_t i;

	for (i = e->hash & (nslot - 1); slot[i].key; i = (i + 1) & (nslot - 1))
		;
	slot[i] = *e;
}

int
tg_strmap_put(struct tg_strmap *m, const char *s, size_t len, void *value)
{
	struct tg_strmap_entry e;
	size_t k;

	if (2 * (m->n + 1) > m->nslot) {
		size_t nslot = m->nslot ? 2 * m->nslot : 64;
		struct tg_strmap_entry *slot;

		if (nslot > SIZE_MAX / sizeof(*slot))
			return TG_ENOMEM;
		slot = calloc(nslot, sizeof(*slot));
		if (!slot)
			return TG_ENOMEM;
		for (k = 0; k < m->nslot; k++)
			if (m->slot[k].key)
				place(slot, nslot, &m->slot[k]);
		free(m->slot);
		m->slot = slot;
		m->nslot = nslot;
	}
	e.key = tg_str_ndup(s, len);
	if (!e.key)
		return TG_ENOMEM;
	e.len = len;
	e.hash = hash(s, len);
	e.value = value;
	place(m->slot, m->nslot, &e);
	m->n++;
	return 0;
}

void
tg_strmap_release(struct tg_strmap *m, void (*free_value)(void *))
{
	size_t k;

	for (k = 0; k < m->nslot; k++) {
		if (!m->slot[k].key)
			continue;
		free(m->slot[k].key);
		if (free_value)
			free_value(m->slot[k].value);
	}
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
