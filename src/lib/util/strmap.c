/* strmap.c - a hash table from byte strings to pointers
 * SPDX-License-Identifier: MIT
 *
 * A word-at-a-time multiplicative hash over the key, linear probing,
 * the table doubled when it would be more than half full; each entry
 * keeps its hash so that growing and probing compare lengths and hashes
 * before bytes. Keys are copied into blocks freed together.
 */
#include "lib/util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/err.h"

struct tg_strmap_entry {
	char *key; /* NULL: a free slot */
	size_t len;
	size_t hash;
	void *value;
};

/* A block of key copies; the newest first. */
struct tg_strmap_keys {
	struct tg_strmap_keys *next;
	size_t used, cap;
	char data[];
};

#define KEYS_BLOCK 4096

/* Eight bytes at a time, multiplied in and folded, the tail as one word,
 * and the whole mixed so that the low bits (the slot) depend on every
 * byte: the keys are requirement texts of some 10 to 100 bytes, which a
 * byte-at-a-time hash spent most of a lookup on. */
static size_t
hash(const char *s, size_t len)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ULL;
	uint64_t h = len * mul, w;
	size_t k = 0;

	for (; len - k >= 8; k += 8) {
		memcpy(&w, s + k, 8);
		h = (h ^ w) * mul;
		h ^= h >> 32;
	}
	if (k < len) { /* the last 1 to 7 bytes as one word */
		uint32_t t4 = 0;
		uint16_t t2 = 0;

		w = 0;
		if ((len - k) & 4) {
			memcpy(&t4, s + k, 4);
			w = t4;
			k += 4;
		}
		if ((len - k) & 2) {
			memcpy(&t2, s + k, 2);
			w = (w << 16) | t2;
			k += 2;
		}
		if (k < len)
			w = (w << 8) | (unsigned char)s[k];
		h = (h ^ w) * mul;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return (size_t)h;
}

/* A copy of s[0..len), NUL-terminated, in m's key blocks. */
static char *
key_copy(struct tg_strmap *m, const char *s, size_t len)
{
	struct tg_strmap_keys *b = m->keys;
	char *p;

	if (len >= SIZE_MAX - sizeof(*b) - KEYS_BLOCK)
		return NULL;
	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > KEYS_BLOCK ? len + 1 : KEYS_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		/* a block for one long key goes behind the current one, so
		 * the current one's room stays in use */
		if (cap > KEYS_BLOCK && m->keys) {
			b->next = m->keys->next;
			m->keys->next = b;
		} else {
			b->next = m->keys;
			m->keys = b;
		}
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
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
		/* a slot is free by its key alone: only keys are cleared */
		slot = malloc(nslot * sizeof(*slot));
		if (!slot)
			return TG_ENOMEM;
		for (k = 0; k < nslot; k++)
			slot[k].key = NULL;
		for (k = 0; k < m->nslot; k++)
			if (m->slot[k].key)
				place(slot, nslot, &m->slot[k]);
		free(m->slot);
		m->slot = slot;
		m->nslot = nslot;
	}
	e.key = key_copy(m, s, len);
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

	struct tg_strmap_keys *b, *next;

	for (k = 0; free_value && k < m->nslot; k++)
		if (m->slot[k].key)
			free_value(m->slot[k].value);
	for (b = m->keys; b; b = next) {
		next = b->next;
		free(b);
	}
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
