/* test_file.c - unit tests for lib/file: bounded reads, os.path rules
 * SPDX-License-Identifier: MIT
 *
 * Path results are Python 3.11's os.path.abspath / os.path.join /
 * os.path.dirname for the same input, with "/cwd/d" as the directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lib/util/file.h"
#include "lib/util/str.h"
#include "lib/util/path.h"

static void
paths(void)
{
	static const struct {
		const char *in, *want;
	} abs[] = {
	    {"/a/b/../c", "/a/c"},
	    {"//a/b", "//a/b"},
	    {"///a", "/a"},
	    {"a/../..", "/cwd"},
	    {"../a/./b/", "/cwd/a/b"},
	    {"/..", "/"},
	    {"/a/..", "/"},
	    {"a//b/", "/cwd/d/a/b"},
	    {".", "/cwd/d"},
	    {"", "/cwd/d"},
	    {"./", "/cwd/d"},
	    {"/a/b/c/../../d", "/a/d"},
	    {"a/b/../../..", "/cwd"},
	    {"..//..", "/"},
	    {"/x/../../y", "/y"},
	    {"..a/b", "/cwd/d/..a/b"},
	};
	size_t k;
	char *p;

	for (k = 0; k < sizeof(abs) / sizeof(abs[0]); k++) {
		p = tg_path_abs(abs[k].in, "/cwd/d");
		CHECK(p && strcmp(p, abs[k].want) == 0, "abspath('%s') = '%s'",
		      abs[k].in, p ? p : "(null)");
		free(p);
	}
	p = tg_path_join("/a/", "b");
	CHECK_STR(p, "/a/b", "join");
	free(p);
	p = tg_path_join("/a", "/b");
	CHECK_STR(p, "/b", "join absolute");
	free(p);
	p = tg_path_dirname("/a/b//c");
	CHECK_STR(p, "/a/b", "dirname");
	free(p);
	p = tg_path_dirname("/a");
	CHECK_STR(p, "/", "dirname of a root child");
	free(p);
	CHECK_STR(tg_path_basename("/a/b.py"), "b.py", "basename");
}

static void
utf8(void)
{
	size_t bad = 99;

	CHECK(tg_str_utf8_valid("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10,
				&bad),
	      "valid");
	CHECK(!tg_str_utf8_valid("ab\xc0\xaf", 4, &bad) && bad == 2,
	      "overlong");
	CHECK(!tg_str_utf8_valid("\xed\xa0\x80", 3, &bad) && bad == 0,
	      "surrogate");
	CHECK(!tg_str_utf8_valid("x\xe2\x82", 3, &bad) && bad == 1,
	      "truncated");
	CHECK(!tg_str_utf8_valid("\xf4\x90\x80\x80", 4, &bad),
	      "above U+10FFFF");
}

static void
reads(void)
{
	char dir[] = "/tmp/tg-test-file-XXXXXX", path[64];
	struct tg_err err = TG_ERR_INIT;
	char *data = NULL;
	size_t len = 0;
	int absent = 0, trunc = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	fputs("0123456789", f);
	fclose(f);
	CHECK(tg_file_read(path, 10, &data, &len, NULL, &err) == 0 &&
		  len == 10 && strcmp(data, "0123456789") == 0,
	      "exactly the maximum");
	free(data);
	CHECK(tg_file_read(path, 9, &data, &len, NULL, &err) == TG_ELIMIT,
	      "one byte over");
	CHECK(strstr(err.msg, "larger than 9 bytes") != NULL, "%s", err.msg);
	CHECK(tg_file_read_head(path, 4, &data, &len, &trunc, NULL, &err) ==
		      0 &&
		  len == 4 && trunc && strcmp(data, "0123") == 0,
	      "head");
	free(data);
	CHECK(tg_file_read(dir, 10, &data, &len, NULL, &err) == TG_EIO,
	      "a directory");
	CHECK(strstr(err.msg, "Is a directory") != NULL, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(tg_file_read(path, 10, &data, &len, &absent, &err) == 0 &&
		  absent && data == NULL,
	      "absent");
	CHECK(tg_file_read(path, 10, &data, &len, NULL, &err) == TG_EIO,
	      "absent is an error without *absent");
	CHECK(tg_file_read("/dev/null", 10, &data, &len, NULL, &err) == TG_EIO,
	      "a device is refused");
	CHECK(strstr(err.msg, "not a regular file") != NULL, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	paths();
	utf8();
	reads();
	return check_result("test_file");
}
