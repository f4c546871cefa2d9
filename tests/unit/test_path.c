/* test_path.c - unit tests for tg_path_fmt: a path is built or refused
 * SPDX-License-Identifier: MIT
 *
 * A path that fits comes out as snprintf would write it; one that does
 * not is never cut: TG_ELIMIT, an empty buffer, and a message naming the
 * start of the path, its length and the limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/util/err.h"
#include "lib/util/path.h"

static void
fits(void)
{
	static const struct {
		size_t size;
		const char *dir, *want;
	} t[] = {
	    {64, "/usr", "/usr/lib/python3.11"},
	    {20, "/usr", "/usr/lib/python3.11"}, /* exactly: 19 + NUL */
	    {64, "", "/lib/python3.11"},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char out[64];
		struct tg_err e = TG_ERR_INIT;
		int rc = tg_path_fmt(out, t[i].size, &e, "%s/lib/python%d.%d",
				     t[i].dir, 3, 11);

		CHECK(rc == 0, "case %zu: rc %d (%s)", i, rc, e.msg);
		CHECK_STR(out, t[i].want, "fits");
		CHECK(e.code == 0 && e.msg[0] == '\0', "case %zu: err set", i);
	}
}

static void
too_long(void)
{
	char out[20], *dir = malloc(5001), want[512];
	struct tg_err e = TG_ERR_INIT;
	int rc;

	/* one byte over: 20 bytes of path in a buffer of 20 */
	rc = tg_path_fmt(out, sizeof(out), &e, "%s/lib/python%d.%d", "/usr", 3,
			 110);
	CHECK(rc == TG_ELIMIT && e.code == TG_ELIMIT, "rc %d", rc);
	CHECK_STR(out, "", "nothing half-built");
	CHECK_STR(e.msg,
		  "path too long: '/usr/lib/python3.110...' (20 bytes, at "
		  "most 19)",
		  "message");

	/* 5000 characters into 4096: the message names the first 64 */
	if (!dir) {
		CHECK(0, "out of memory");
		return;
	}
	memset(dir, 'a', 5000);
	dir[0] = '/';
	dir[5000] = '\0';
	{
		char big[4096];

		e = (struct tg_err)TG_ERR_INIT;
		rc = tg_path_fmt(big, sizeof(big), &e, "%s/info/%s.list", dir,
				 "python3-torch");
		CHECK(rc == TG_ELIMIT, "rc %d", rc);
		CHECK_STR(big, "", "5000: nothing half-built");
	}
	snprintf(want, sizeof(want),
		 "path too long: '%.64s...' (5024 bytes, at most 4095)", dir);
	CHECK_STR(e.msg, want, "5000: message");

	/* no err: the code alone */
	rc = tg_path_fmt(out, sizeof(out), NULL, "%s", dir);
	CHECK(rc == TG_ELIMIT && out[0] == '\0', "NULL err: rc %d", rc);
	free(dir);
}

int
main(void)
{
	fits();
	too_long();
	return check_result("test_path");
}
