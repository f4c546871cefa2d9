/* json.c - reading JSON documents: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_json is a cJSON node under another name: the getters cast
 * and delegate, so the tree costs nothing beyond cJSON's own. cJSON
 * parses with its nesting limit; we add the rules that the text is
 * UTF-8 without NUL bytes and that only whitespace may follow the value.
 * cJSON allocates through our hooks: a failed allocation is told from
 * bad JSON (cJSON returns NULL for both), and the allocation-failure test
 * build (tests/alloc/allocfail.c) reaches cJSON's allocations too.
 */
#include "lib/util/json.h"

#include "lib/util/str.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define J(v) ((const cJSON *)(const void *)(v))
#define TJ(v) ((const struct tg_json *)(const void *)(v))

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int out_of_memory; /* a hook allocation failed */

static void *
hook_malloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		out_of_memory = 1;
	return p;
}

static void
hook_free(void *p)
{
	free(p);
}

int
tg_json_parse(struct tg_json **out, const char *text, size_t len,
	      size_t *errpos)
{
	static cJSON_Hooks hooks = {hook_malloc, hook_free};
	const char *end = NULL;
	const char *nul;
	cJSON *root;
	size_t e = len;

	*out = NULL;
	/* JSON text is UTF-8 (RFC 8259, section 8.1) and holds no NUL byte;
	 * cJSON checks neither (it skips a NUL as whitespace) */
	nul = memchr(text, '\0', len);
	if (nul || !tg_str_utf8_valid(text, len, &e)) {
		if (nul && (size_t)(nul - text) < e)
			e = (size_t)(nul - text);
		if (errpos)
			*errpos = e;
		return TG_EINVAL;
	}
	cJSON_InitHooks(&hooks);
	out_of_memory = 0;
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	e = end ? (size_t)(end - text) : 0;
	if (out_of_memory) {
		cJSON_Delete(root);
		return TG_ENOMEM;
	}
	if (root) {
		while (e < len && is_ws(text[e]))
			e++;
		if (e != len) {
			cJSON_Delete(root);
			root = NULL;
		}
	}
	if (!root) {
		if (errpos)
			*errpos = e;
		return TG_EINVAL;
	}
	*out = (struct tg_json *)(void *)root;
	return 0;
}

void
tg_json_free(struct tg_json *root)
{
	cJSON_Delete((cJSON *)(void *)root);
}

int
tg_json_is_null(const struct tg_json *v)
{
	return cJSON_IsNull(J(v));
}

int
tg_json_is_bool(const struct tg_json *v)
{
	return cJSON_IsBool(J(v));
}

int
tg_json_is_true(const struct tg_json *v)
{
	return cJSON_IsTrue(J(v));
}

int
tg_json_is_number(const struct tg_json *v)
{
	return cJSON_IsNumber(J(v));
}

int
tg_json_is_string(const struct tg_json *v)
{
	return cJSON_IsString(J(v));
}

int
tg_json_is_array(const struct tg_json *v)
{
	return cJSON_IsArray(J(v));
}

int
tg_json_is_object(const struct tg_json *v)
{
	return cJSON_IsObject(J(v));
}

const struct tg_json *
tg_json_get(const struct tg_json *obj, const char *key)
{
	if (!cJSON_IsObject(J(obj)))
		return NULL;
	return TJ(cJSON_GetObjectItemCaseSensitive(J(obj), key));
}

const struct tg_json *
tg_json_child(const struct tg_json *v)
{
	if (!cJSON_IsArray(J(v)) && !cJSON_IsObject(J(v)))
		return NULL;
	return TJ(J(v)->child);
}

const struct tg_json *
tg_json_next(const struct tg_json *v)
{
	return v ? TJ(J(v)->next) : NULL;
}

size_t
tg_json_size(const struct tg_json *v)
{
	if (!cJSON_IsArray(J(v)) && !cJSON_IsObject(J(v)))
		return 0;
	return (size_t)cJSON_GetArraySize(J(v));
}

const char *
tg_json_key(const struct tg_json *member)
{
	return member ? J(member)->string : NULL;
}

const char *
tg_json_string(const struct tg_json *v)
{
	return cJSON_IsString(J(v)) ? J(v)->valuestring : NULL;
}

double
tg_json_number(const struct tg_json *v)
{
	return cJSON_IsNumber(J(v)) ? J(v)->valuedouble : 0;
}

void
tg_json_line_col(const char *text, size_t len, size_t pos, size_t *line,
		 size_t *col)
{
	size_t k;

	*line = 1;
	*col = 1;
	for (k = 0; k < pos && k < len; k++) {
		if (text[k] == '\n')
			++*line, *col = 1;
		else
			++*col;
	}
}
