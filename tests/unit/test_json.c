/* test_json.c - unit tests for util/json: parsing into arenas
 * SPDX-License-Identifier: MIT
 *
 * Documents parsed into arenas of their own: values read back, several
 * alive at once and freed in any order, a string larger than a block,
 * enough nodes to take many blocks, documents parsed on two threads at
 * once, and the errors (trailing text, NUL, invalid UTF-8, bad JSON),
 * after which the next parse still works. Run under valgrind by make
 * check, which also tells a block freed twice or never.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/util/json.h"

static struct tg_json *
parse(const char *text)
{
	struct tg_json *j = NULL;
	size_t pos = 0;
	int rc = tg_json_parse(&j, text, strlen(text), &pos);

	CHECK(rc == 0 && j, "parse %.40s: rc %d at %zu", text, rc, pos);
	return j;
}

static void
test_values(void)
{
	struct tg_json *a =
	    parse("{\"a\": 1, \"s\": \"x\\u00e9\", \"t\": true}");
	struct tg_json *b = parse("[null, \"two\", {\"k\": [3]}]");
	struct tg_json *c = parse("  \"alone\"  \n");

	/* read in any order while all three live, freed out of order */
	CHECK(tg_json_number(tg_json_get(a, "a")) == 1, "a.a");
	CHECK_STR(tg_json_string(tg_json_get(a, "s")), "x\xc3\xa9", "a.s");
	CHECK(tg_json_is_true(tg_json_get(a, "t")), "a.t");
	CHECK(tg_json_size(b) == 3, "b size");
	tg_json_free(b);
	CHECK_STR(tg_json_string(c), "alone", "c");
	tg_json_free(a);
	CHECK_STR(tg_json_string(c), "alone", "c after a and b");
	tg_json_free(c);
	tg_json_free(NULL);
}

static void
test_large(void)
{
	size_t n = (size_t)3 << 20, k;
	char *text = malloc(n + 3), *big;
	struct tg_json *j;
	const struct tg_json *it;
	double sum = 0;

	/* a string of 3 MiB: a block of its own */
	if (!text)
		return;
	text[0] = '"';
	memset(text + 1, 'q', n);
	memcpy(text + 1 + n, "\"", 2);
	j = parse(text);
	big = j ? (char *)tg_json_string(j) : NULL;
	CHECK(big && strlen(big) == n && big[n - 1] == 'q', "3 MiB string");
	tg_json_free(j);
	free(text);

	/* 100,000 numbers: many blocks */
	text = malloc(100000 * 8 + 3);
	if (!text)
		return;
	strcpy(text, "[");
	for (k = 0; k < 100000; k++)
		sprintf(text + strlen(text), "%s%zu", k ? "," : "", k % 7);
	strcat(text, "]");
	j = parse(text);
	CHECK(tg_json_size(j) == 100000, "100,000 elements: %zu",
	      tg_json_size(j));
	for (it = tg_json_child(j); it; it = tg_json_next(it))
		sum += tg_json_number(it);
	CHECK(sum == 299995, "their sum %.0f", sum);
	tg_json_free(j);
	free(text);
}

static void
test_errors(void)
{
	static const struct {
		const char *text;
		size_t len, pos;
	} bad[] = {
	    {"{\"a\": 1} x", 10, 9}, /* only whitespace may follow */
	    {"[1, 2", 5, 4},
	    {"{\"a\": \0}", 8, 6}, /* a NUL */
	    {"[\"\xff\"]", 4, 2},  /* invalid UTF-8 */
	    {"", 0, 0},
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct tg_json *j = (struct tg_json *)1;
		size_t pos = 99;
		int rc = tg_json_parse(&j, bad[k].text, bad[k].len, &pos);

		CHECK(rc == TG_EINVAL && !j && pos == bad[k].pos,
		      "bad %zu: rc %d, at %zu, want %zu", k, rc, pos,
		      bad[k].pos);
	}
	/* and after them, a document parses and frees as before */
	tg_json_free(parse("{\"after\": [1, 2, 3]}"));
}

/* Parses and reads documents on its own thread. */
static void *
reader(void *arg)
{
	const char *key = arg;
	char text[64];
	int k, ok = 1;

	snprintf(text, sizeof(text), "{\"%s\": [\"%s\", 1, 2]}", key, key);
	for (k = 0; k < 2000; k++) {
		struct tg_json *j = NULL;
		const struct tg_json *v;

		if (tg_json_parse(&j, text, strlen(text), NULL)) {
			ok = 0;
			break;
		}
		v = tg_json_child(tg_json_get(j, key));
		if (!v || strcmp(tg_json_string(v), key) != 0)
			ok = 0;
		tg_json_free(j);
	}
	return ok ? arg : NULL;
}

static void
test_threads(void)
{
	pthread_t a, b;
	void *ra = NULL, *rb = NULL;

	if (pthread_create(&a, NULL, reader, "left") != 0 ||
	    pthread_create(&b, NULL, reader, "right") != 0) {
		CHECK(0, "pthread_create");
		return;
	}
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	CHECK(ra && rb, "two threads at once: %p %p", ra, rb);
}

int
main(void)
{
	test_values();
	test_large();
	test_errors();
	test_threads();
	return check_result("test_json");
}
