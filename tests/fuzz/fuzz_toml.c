/* fuzz_toml.c - libFuzzer harness for the TOML reader (util/toml)
 * SPDX-License-Identifier: MIT
 *
 * The input is a document. Either it parses, and every table's keys are
 * found again by tg_toml_get and every string's length is its own, or
 * it is refused with a message that names the document; nothing else.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/util/toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
walk(const struct tg_toml_value *v, int depth)
{
	size_t k;

	if (depth > TG_TOML_DEPTH_MAX + 40)
		__builtin_trap();
	if (v->type == TG_TOML_STRING || v->type == TG_TOML_OTHER) {
		if (!v->str || v->str[v->len] != '\0')
			__builtin_trap();
		return;
	}
	for (k = 0; k < v->n; k++) {
		if (v->type == TG_TOML_TABLE &&
		    !memchr(v->keys[k], '\0', strlen(v->keys[k]) + 1))
			__builtin_trap();
		if (v->type == TG_TOML_TABLE &&
		    tg_toml_get(v, v->keys[k]) != v->items[k])
			__builtin_trap(); /* a duplicate key was let in */
		walk(v->items[k], depth + 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tg_toml_value *v = NULL;
	struct tg_err err = TG_ERR_INIT;
	int rc = tg_toml_parse(&v, (const char *)data, size, "fuzz.toml", &err);

	if (rc == 0) {
		if (!v || v->type != TG_TOML_TABLE)
			__builtin_trap();
		walk(v, 0);
	} else if (v || (rc != TG_ENOMEM && !strstr(err.msg, "'fuzz.toml'"))) {
		__builtin_trap();
	}
	tg_toml_free(v);
	return 0;
}
