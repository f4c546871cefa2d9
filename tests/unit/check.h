/* check.h - the few assertions the unit tests need
 * SPDX-License-Identifier: MIT
 *
 * CHECK records a failure with its line and goes on, so one run reports
 * every broken case of a table; main returns check_result().
 */
#ifndef TG_TESTS_CHECK_H
#define TG_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		check_count++;                                                 \
		if (!(cond)) {                                                 \
			check_failures++;                                      \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);        \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want, ...)                                              \
	CHECK(strcmp((got), (want)) == 0, "got '%s', want '%s' (%s)", (got),   \
	      (want), __VA_ARGS__)

static inline int
check_result(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures != 0 || check_count == 0;
}

#endif
