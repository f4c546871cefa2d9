/* json.c - reading JSON documents: the one module that includes cJSON
 * SPDX-License-Identifier: MIT
 *
 * A struct tg_json is a cJSON node under another name: the getters cast
 * and delegate, so the tree costs nothing beyond cJSON's own. cJSON
 * parses with its nesting limit; we add the rules that the text is
 * UTF-8 without NUL bytes and that only whitespace may follow the value.
 * cJSON allocates through our hooks, and while a document is parsed
 * they take its nodes and strings from an arena of the document's own
 * (util/arena, blocks from 64 KiB doubling up to 1 MiB): a few large
 * blocks instead of a malloc and a free for each (the API table's
 * 46,000), all freed at once by tg_json_free, which finds the document
 * by its root in the list of live ones. A document is only read
 * once parsed, so nothing of it is freed alone (cJSON_Delete is never
 * called). A failed allocation is told from bad JSON (cJSON returns
 * NULL for both), and the allocation-failure test build
 * (tests/alloc/allocfail.c) reaches the arena's blocks.
 */
#include "lib/util/json.h"

#include "lib/util/arena.h"
#include "lib/util/str.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define J(v) ((const cJSON *)(const void *)(v))
#define TJ(v) ((const struct tg_json *)(const void *)(v))

#define BLOCK_FIRST ((size_t)64 << 10)
#define BLOCK_MAX ((size_t)1 << 20)

struct doc {
	struct tg_arena arena; /* its nodes and strings */
	int oom;	       /* an allocation failed */
	const cJSON *root;
	struct doc *next; /* in live */
};

static _Thread_local struct doc *parsing; /* this thread's parse */
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static struct doc *live; /* the documents not freed */

static int
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void
doc_free(struct doc *d)
{
	if (d)
		tg_arena_release(&d->arena);
	free(d);
}

static void *
hook_malloc(size_t n)
{
	void *p;

	if (!parsing) /* not a parse: cJSON's own use, if any */
		return malloc(n);
	p = tg_arena_alloc(&parsing->arena, n);
	if (!p)
		parsing->oom = 1;
	return p;
}

static void
hook_free(void *p)
{
	if (!parsing)
		free(p);
	/* else in the arena: freed with it */
}

int
tg_json_parse(struct tg_json **out, const char *text, size_t len,
	      size_t *errpos)
{
	static cJSON_Hooks hooks = {hook_malloc, hook_free};
	const char *end = NULL;
	const char *nul;
	struct doc *d;
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
	d = calloc(1, sizeof(*d));
	if (!d)
		return TG_ENOMEM;
	d->arena =
	    (struct tg_arena)TG_ARENA_INIT_GROWING(BLOCK_FIRST, BLOCK_MAX);
	cJSON_InitHooks(&hooks);
	parsing = d;
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	parsing = NULL;
	e = end ? (size_t)(end - text) : 0;
	if (d->oom) {
		doc_free(d);
		return TG_ENOMEM;
	}
	if (root) {
		while (e < len && is_ws(text[e]))
			e++;
		if (e != len)
			root = NULL;
	}
	if (!root) {
		doc_free(d);
		if (errpos)
			*errpos = e;
		return TG_EINVAL;
	}
	d->root = root;
	pthread_mutex_lock(&live_mu);
	d->next = live;
	live = d;
	pthread_mutex_unlock(&live_mu);
	*out = (struct tg_json *)(void *)root;
	return 0;
}

void
tg_json_free(struct tg_json *root)
{
	struct doc **p, *d = NULL;

	if (!root)
		return;
	pthread_mutex_lock(&live_mu);
	for (p = &live; *p; p = &(*p)->next)
		if ((*p)->root == J(root)) {
			d = *p;
			*p = d->next;
			break;
		}
	pthread_mutex_unlock(&live_mu);
	doc_free(d);
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
