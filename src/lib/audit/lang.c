/* lang.c - the registry of audit languages
 * SPDX-License-Identifier: MIT
 *
 * One row per language, each defined in its own file (lang_<name>.c).
 * The order is the order a file name is tried; no two languages share a
 * suffix, and each enum tg_lang_id (table/table.h) is named by one row.
 */
#include "lib/audit/lang.h"

#include <assert.h>
#include <string.h>

static const struct tg_lang *const langs[] = {
    &tg_lang_py,
    &tg_lang_cxx,
};

#define NLANGS (sizeof(langs) / sizeof(langs[0]))

size_t
tg_lang_count(void)
{
	return NLANGS;
}

const struct tg_lang *
tg_lang_at(size_t k)
{
	return k < NLANGS ? langs[k] : NULL;
}

size_t
tg_lang_index(const struct tg_lang *L)
{
	size_t k;

	for (k = 0; k < NLANGS; k++)
		if (langs[k] == L)
			return k;
	assert(!"not a registered language");
	return 0;
}

const struct tg_lang *
tg_lang_of_name(const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t k, j;

	if (!dot || dot == name)
		return NULL;
	for (k = 0; k < NLANGS; k++)
		for (j = 0; langs[k]->suffixes[j]; j++)
			if (strcmp(dot, langs[k]->suffixes[j]) == 0)
				return langs[k];
	return NULL;
}

const struct tg_lang *
tg_lang_find(const char *name)
{
	size_t k;

	for (k = 0; k < NLANGS; k++)
		if (strcmp(langs[k]->name, name) == 0)
			return langs[k];
	return NULL;
}

const struct tg_lang *
tg_lang_of_id(enum tg_lang_id id)
{
	size_t k;

	for (k = 0; k < NLANGS; k++)
		if (langs[k]->id == id)
			return langs[k];
	assert(!"a language without a row");
	return langs[0];
}
